"""Missing or malformed facts of a saved report made unknown, pinned exactly (issue 16, item 7).

In process and fast: the path walk into the raw JSON (list indices at the end and one past it), the
probe run's status, message and workload when not recorded, each step's note word for word, the
allocate step's element count at 0 and 1, and every kind of relative error the workload writes.
"""

from __future__ import annotations

import copy
import math
from typing import Any

import pytest

from mpscheck.facts import Facts, ProbeRun, SmokeStep, from_dict
from mpscheck.probes.saved_trust import _error, _get, _malformed, distrust
from tests.test_saved_report_trust import report

FACTS = report("healthy native M1")["facts"]
NOT_RECORDED = "the saved report does not record how this step went"


def malformed(fields: str) -> str:
    return f"the saved report's observations of this step are missing or malformed ({fields}), so it is not judged"


@pytest.mark.parametrize(
    "data, keys, expected",
    [
        ({"a": {"b": 1}}, ("a", "b"), 1),
        ({"a": [10, 20]}, ("a", 0), 10),
        ({"a": [10, 20]}, ("a", 1), 20),
        ({"a": [10, 20]}, ("a", 2), None),  # one past the end
        ({"a": [10, 20]}, ("a", -1), None),  # never counted from the end
        ({"a": [10, 20]}, ("a", "0"), None),
        ({"0": 1}, (0,), None),
        ({"a": 1}, ("a", "b"), None),
        ({"a": None}, ("a", 0), None),
        ([[1, [2, 3]]], (0, 1, 1), 3),
        ("text", (), "text"),
        ({"a": 1}, ("b",), None),
    ],
)
def test_the_walk_into_the_raw_json(data: Any, keys: tuple[Any, ...], expected: Any) -> None:
    assert _get(data, *keys) == expected


def read(raw: dict[str, Any]) -> Facts:
    return distrust(raw, from_dict(Facts, copy.deepcopy(raw)))


def healthy_facts() -> dict[str, Any]:
    return copy.deepcopy(FACTS)


def test_a_recorded_healthy_run_is_left_as_it_was() -> None:
    facts = read(healthy_facts())
    assert facts.target.run == ProbeRun(status="ok", workload="quick", returncode=0, seconds=2.0)
    assert facts.target.smoke is not None
    assert [(s.outcome, s.note) for s in facts.target.smoke.steps] == [("ran", None), ("ran", None)]


@pytest.mark.parametrize("status", [None, "", "OK", "unknown", "Ok "])
@pytest.mark.parametrize(
    "message, said", [("", "the saved report does not record how the probe ended"), ("boom", "boom")]
)
def test_a_run_whose_end_is_not_recorded_is_unknown(status: Any, message: str, said: str) -> None:
    raw = healthy_facts()
    if status is None:
        del raw["target"]["run"]["status"]
    else:
        raw["target"]["run"]["status"] = status
    raw["target"]["run"]["message"] = message
    run = read(raw).target.run
    assert (run.status, run.message, run.workload) == ("unknown", said, "quick")


@pytest.mark.parametrize("status", ["ok", "not-found", "timeout", "crashed", "bad-output", "failed"])
def test_each_recorded_run_status_is_kept(status: str) -> None:
    raw = healthy_facts()
    raw["target"]["run"]["status"] = status
    run = read(raw).target.run
    assert (run.status, run.message) == (status, "")


@pytest.mark.parametrize(
    "mode, has_smoke, expected", [("quick", True, "quick"), ("full", True, "full"), ("full", False, "quick")]
)
def test_a_workload_not_recorded_was_meant_to_run(mode: str, has_smoke: bool, expected: str) -> None:
    raw = healthy_facts()
    del raw["target"]["run"]["workload"]
    raw["target"]["smoke"]["mode"] = mode
    if not has_smoke:
        raw["target"]["smoke"] = None
    assert read(raw).target.run.workload == expected


@pytest.mark.parametrize("workload", ["none", "quick", "full"])
def test_each_recorded_workload_is_kept(workload: str) -> None:
    raw = healthy_facts()
    raw["target"]["run"]["workload"] = workload
    raw["target"]["smoke"]["mode"] = "full"
    assert read(raw).target.run.workload == workload


def test_a_run_missing_altogether_is_unknown() -> None:
    raw = healthy_facts()
    del raw["target"]["run"]
    run = read(raw).target.run
    assert (run.status, run.message, run.workload) == (
        "unknown",
        "the saved report does not record how the probe ended",
        "quick",
    )


def step_notes(raw: dict[str, Any]) -> list[tuple[str, str | None]]:
    smoke = read(raw).target.smoke
    assert smoke is not None
    return [(s.outcome, s.note) for s in smoke.steps]


@pytest.mark.parametrize("outcome", [None, "", "pass", "RAN"])
def test_a_step_without_a_known_outcome_is_not_recorded(outcome: Any) -> None:
    raw = healthy_facts()
    step = raw["target"]["smoke"]["steps"][1]
    if outcome is None:
        del step["outcome"]
    else:
        step["outcome"] = outcome
    assert step_notes(raw) == [("ran", None), ("skipped", NOT_RECORDED)]


@pytest.mark.parametrize("outcome", ["raised", "skipped"])
def test_a_step_that_did_not_run_is_not_checked_for_observations(outcome: str) -> None:
    raw = healthy_facts()
    raw["target"]["smoke"]["steps"][0]["outcome"] = outcome
    raw["target"]["smoke"]["steps"][0]["values"] = {}
    assert step_notes(raw) == [(outcome, None), ("ran", None)]


@pytest.mark.parametrize(
    "values, device, bad",
    [
        ({"elements": 1, "tensor_device": "mps:0"}, "mps", []),  # the smallest count there is
        ({"elements": 4096, "tensor_device": "mps"}, "mps:0", []),
        ({"elements": 0, "tensor_device": "mps:0"}, "mps", ["elements"]),
        ({"elements": -1, "tensor_device": "mps:0"}, "mps", ["elements"]),
        ({"elements": True, "tensor_device": "mps:0"}, "mps", ["elements"]),
        ({"elements": 2.0, "tensor_device": "mps:0"}, "mps", ["elements"]),
        ({"elements": "4", "tensor_device": "mps:0"}, "mps", ["elements"]),
        ({"tensor_device": "mps:0"}, "mps", ["elements"]),
        ({"elements": 4}, "mps", ["tensor_device"]),
        ({"elements": 4, "tensor_device": "cpu"}, "mps", ["tensor_device"]),
        ({"elements": 4, "tensor_device": 0}, "mps", ["tensor_device"]),
        ({"elements": 4, "tensor_device": "mps:0"}, None, ["tensor_device"]),
        ({"elements": 0, "tensor_device": "cpu"}, "mps", ["elements", "tensor_device"]),
        ({}, None, ["elements", "tensor_device"]),
    ],
)
def test_the_allocate_step_observations(values: dict[str, Any], device: str | None, bad: list[str]) -> None:
    assert _malformed(SmokeStep(name="allocate", values=values), device) == bad


@pytest.mark.parametrize(
    "errors, bad",
    [
        ({"add": 0.0}, []),
        ({"add": 0, "mul": 1e-7, "div": "inf", "sub": "nan"}, []),
        ({"add": math.inf, "mul": math.nan, "neg": -math.inf}, []),  # not finite: a result the checks judge
        ({}, ["max_relative_error"]),
        (None, ["max_relative_error"]),
        ([0.0], ["max_relative_error"]),
        ({"add": -1e-9}, ["max_relative_error"]),
        ({"add": 0.0, "mul": "INF"}, ["max_relative_error"]),
        ({"add": True}, ["max_relative_error"]),
        ({"add": None}, ["max_relative_error"]),
    ],
)
def test_the_elementwise_step_observations(errors: Any, bad: list[str]) -> None:
    values = {} if errors is None else {"max_relative_error": errors}
    assert _malformed(SmokeStep(name="elementwise", values=values), "mps") == bad


def test_other_steps_are_not_checked_for_observations() -> None:
    assert _malformed(SmokeStep(name="memory", values={}), None) == []
    assert _malformed(SmokeStep(name="dtypes", values={"elements": 0}), None) == []


@pytest.mark.parametrize(
    "value, kept",
    [
        (0, True),
        (0.0, True),
        (-0.0, True),
        (3, True),
        (1e-7, True),
        (math.inf, True),
        (-math.inf, True),
        (math.nan, True),
        ("inf", True),
        ("nan", True),
        ("INF", False),
        ("NaN", False),
        ("-inf", False),
        ("", False),
        ("0", False),
        (-1, False),
        (-1e-9, False),
        (True, False),
        (False, False),
        (None, False),
        ([], False),
    ],
)
def test_a_relative_error_as_the_workload_writes_it(value: Any, kept: bool) -> None:
    assert _error(value) is kept


def test_malformed_observations_are_named_in_the_step_note() -> None:
    raw = healthy_facts()
    steps = raw["target"]["smoke"]["steps"]
    steps[0]["values"] = {"elements": 0, "tensor_device": "cpu", "mismatches": 0}
    steps[1]["values"] = {"max_relative_error": {"add": "INF"}}
    assert step_notes(raw) == [
        ("skipped", malformed("elements, tensor_device")),
        ("skipped", malformed("max_relative_error")),
    ]
    steps[0]["values"]["elements"] = 1
    assert step_notes(raw) == [("skipped", malformed("tensor_device")), ("skipped", malformed("max_relative_error"))]


def test_the_raw_step_is_found_by_its_index() -> None:
    """Only the step whose raw JSON lacks its outcome is unknown, not its neighbours."""
    raw = healthy_facts()
    third = copy.deepcopy(raw["target"]["smoke"]["steps"][1])
    raw["target"]["smoke"]["steps"].append(third)
    del raw["target"]["smoke"]["steps"][2]["outcome"]
    assert step_notes(raw) == [("ran", None), ("ran", None), ("skipped", NOT_RECORDED)]
    assert FACTS["target"]["smoke"]["steps"][1]["outcome"] == "ran"  # the shared report is untouched


@pytest.mark.parametrize("raw", [{}, {"target": {"smoke": {"steps": [None, "x"]}}}, {"target": {"run": "ok"}}, None])
def test_facts_whose_raw_json_lacks_the_steps_are_unknown(raw: Any) -> None:
    """distrust reads the raw JSON beside the facts: where a step's raw form is not an object, nothing was recorded."""
    facts = distrust(raw, from_dict(Facts, healthy_facts()))
    assert (facts.target.run.status, facts.target.run.workload) == ("unknown", "quick")
    assert facts.target.smoke is not None
    assert [(s.outcome, s.note) for s in facts.target.smoke.steps] == [("skipped", NOT_RECORDED)] * 2
