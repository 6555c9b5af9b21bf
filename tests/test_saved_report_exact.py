"""A saved report read back, pinned exactly (issue 16, item 7: the mutation run's survivors).

In process and fast: every error's exact message, the schema versions at and past each bound, the
defaults of ``strict``, ``require`` and ``command``, the nesting limit at exactly MAX_DEPTH and one
past it, standard input against a file, and the schema-1 upgrade (upgrade_facts, its steps and
dtype rows) as whole dictionaries written out by hand.
"""

from __future__ import annotations

import copy
import io
import json
import sys
from typing import Any

import pytest

from mpscheck.model import SCHEMA_VERSION, Requirement
from mpscheck.probes.saved_report import (
    MAX_DEPTH,
    ReportError,
    SavedReport,
    load_report,
    parse_report,
    too_deep,
    upgrade_facts,
)
from tests.test_saved_report_trust import report

HEALTHY = report("healthy native M1")


def healthy(**changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(HEALTHY)
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    return data


def refused(data: Any, path: str = "saved.json") -> str:
    with pytest.raises(ReportError) as raised:
        parse_report(data if isinstance(data, str) else json.dumps(data), path)
    return str(raised.value)


def summary(saved: SavedReport) -> tuple[str, Requirement, bool, int]:
    assert saved.facts.target.smoke is not None
    return saved.command, saved.require, saved.strict, len(saved.facts.target.smoke.steps)


def test_the_healthy_report_reads_back_as_saved() -> None:
    assert summary(parse_report(json.dumps(HEALTHY), "saved.json")) == ("doctor", Requirement.MPS, False, 2)


def test_not_json_says_so_with_the_parser_reason() -> None:
    try:
        json.loads("{oops")
    except ValueError as exc:
        reason = str(exc)
    assert refused("{oops", "a.json") == (
        f"a.json is not JSON ({reason}); save one with `mpscheck doctor --format json`"
    )


@pytest.mark.parametrize("data", [[1], True, 3, None, {"kind": "other"}, {"facts": {}}, {"kind": None}])
def test_json_that_is_no_mpscheck_report_is_refused(data: Any) -> None:
    assert refused(data) == 'saved.json is not an mpscheck report (no "kind": "mpscheck-report")'


@pytest.mark.parametrize(
    "version, message",
    [
        (0, "saved.json has schema version 0; this mpscheck reads 1 to 2"),
        (-1, "saved.json has schema version -1; this mpscheck reads 1 to 2"),
        (3, "saved.json has schema version 3; this mpscheck reads 1 to 2: upgrade it"),
        (True, "saved.json has schema version True; this mpscheck reads 1 to 2"),
        (1.0, "saved.json has schema version '1.0'; this mpscheck reads 1 to 2"),
        ("2", "saved.json has schema version '2'; this mpscheck reads 1 to 2"),
        ("v" * 30, f"saved.json has schema version {'v' * 20!r}; this mpscheck reads 1 to 2"),
        (None, "saved.json has schema version 'None'; this mpscheck reads 1 to 2"),
    ],
)
def test_a_schema_version_out_of_range_is_refused_word_for_word(version: Any, message: str) -> None:
    assert SCHEMA_VERSION == 2  # the messages above spell it
    assert refused(healthy(schema_version=version)) == message


def test_both_schema_versions_are_read() -> None:
    assert summary(parse_report(json.dumps(healthy(schema_version=2)), "s.json")) == (
        "doctor",
        Requirement.MPS,
        False,
        2,
    )
    assert summary(parse_report(json.dumps(v1_report()), "s.json")) == ("doctor", Requirement.MPS, False, 2)


@pytest.mark.parametrize("strict, expected", [(None, False), (False, False), (True, True)])
def test_strict_defaults_to_false(strict: Any, expected: bool) -> None:
    assert parse_report(json.dumps(healthy(strict=strict)), "s.json").strict is expected


@pytest.mark.parametrize("strict", [0, 1, "true", [], "x" * 30])
def test_strict_that_is_not_a_boolean_is_refused(strict: Any) -> None:
    assert refused(healthy(strict=strict)) == f'saved.json: "strict" must be true or false, not {str(strict)[:20]!r}'


@pytest.mark.parametrize(
    "require, expected",
    [(None, Requirement.MPS), ("mps", Requirement.MPS), ("gpu", Requirement.GPU), ("none", Requirement.NONE)],
)
def test_require_defaults_to_mps(require: Any, expected: Requirement) -> None:
    assert parse_report(json.dumps(healthy(require=require)), "s.json").require is expected


def test_an_unknown_require_is_corrupt() -> None:
    assert refused(healthy(require="cuda")) == "saved.json: corrupt facts: 'cuda' is not a valid Requirement"


@pytest.mark.parametrize(
    "command, expected",
    [
        ("doctor", "doctor"),
        ("smoke-test", "smoke-test"),
        ("bench", "bench"),
        ("BENCH", "doctor"),
        ("ops", "doctor"),
        (None, "doctor"),
        (7, "doctor"),
    ],
)
def test_the_command_is_one_of_three_else_doctor(command: Any, expected: str) -> None:
    assert parse_report(json.dumps(healthy(command=command)), "s.json").command == expected


def test_corrupt_facts_name_the_file() -> None:
    data = healthy()
    data["facts"] = "nonsense"
    assert refused(data).startswith("saved.json: corrupt facts: ")


def _nested(objects: int, lists: int) -> Any:
    value: Any = "leaf"
    for _ in range(lists):
        value = [value]
    for _ in range(objects):
        value = {"k": value}
    return value


@pytest.mark.parametrize(
    "objects, lists, deep",
    [
        (0, 0, False),
        (MAX_DEPTH, 0, False),  # the leaf at depth MAX_DEPTH: the deepest allowed
        (MAX_DEPTH + 1, 0, True),
        (0, MAX_DEPTH, False),
        (0, MAX_DEPTH + 1, True),
        (1, MAX_DEPTH - 1, False),
        (1, MAX_DEPTH, True),
        (MAX_DEPTH - 1, 1, False),
        (MAX_DEPTH, 1, True),
    ],
)
def test_nesting_at_exactly_the_limit_and_one_past_it(objects: int, lists: int, deep: bool) -> None:
    assert MAX_DEPTH == 32
    assert too_deep(_nested(objects, lists)) is deep


@pytest.mark.parametrize("deep", [True, False])
def test_every_branch_is_walked_not_only_the_last(deep: bool) -> None:
    """The deep branch comes first, a shallow object and list after it: walking those must not drop it."""
    leaf = _nested(MAX_DEPTH if deep else MAX_DEPTH - 1, 0)  # under the top object or list: one level more
    assert too_deep({"deep": leaf, "after": {"z": 1}}) is deep
    assert too_deep({"deep": leaf, "after": [1]}) is deep
    assert too_deep([leaf, [1]]) is deep
    assert too_deep([leaf, {"z": 1}]) is deep


def test_a_report_nested_too_deep_is_refused_word_for_word() -> None:
    data = healthy()
    data["extra"] = _nested(MAX_DEPTH, 0)  # the report itself is depth 0: its leaf is now at MAX_DEPTH + 1
    assert refused(data) == "saved.json: nested deeper than 32 levels, which no mpscheck report is"
    data["extra"] = _nested(MAX_DEPTH - 1, 0)
    assert summary(parse_report(json.dumps(data), "s.json")) == ("doctor", Requirement.MPS, False, 2)


class Stdin:
    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


def test_load_report_reads_standard_input_under_its_name(monkeypatch) -> None:
    monkeypatch.setattr(sys, "stdin", Stdin(json.dumps(healthy(command="bench")).encode()))
    assert summary(load_report("-")) == ("bench", Requirement.MPS, False, 2)
    monkeypatch.setattr(sys, "stdin", Stdin(b"[1]"))
    with pytest.raises(ReportError) as raised:
        load_report("-")
    assert str(raised.value) == 'standard input is not an mpscheck report (no "kind": "mpscheck-report")'


def test_load_report_reads_a_file_under_its_path(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(sys, "stdin", Stdin(json.dumps(HEALTHY).encode()))  # never read for a file
    path = tmp_path / "-x.json"
    path.write_bytes(b"[1]")
    with pytest.raises(ReportError) as raised:
        load_report(str(path))
    assert str(raised.value) == f'{path} is not an mpscheck report (no "kind": "mpscheck-report")'
    path.write_text(json.dumps(healthy(command="smoke-test")))
    assert summary(load_report(str(path))) == ("smoke-test", Requirement.MPS, False, 2)


def test_load_report_from_a_closed_or_missing_source_is_refused(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(sys, "stdin", None)
    with pytest.raises(ReportError) as absent:
        load_report("-")
    assert str(absent.value).startswith("cannot read -: ")
    missing = str(tmp_path / "missing.json")
    with pytest.raises(ReportError) as gone:
        load_report(missing)
    assert str(gone.value).startswith(f"cannot read {missing}: [Errno 2] No such file or directory")


# ---- the schema-1 upgrade ------------------------------------------------------------------------------


def v1_report() -> dict[str, Any]:
    """The healthy report as mpscheck 0.1 saved it: steps carry a status, no outcome, no mismatch count."""
    data = healthy(schema_version=1)
    data["facts"]["schema_version"] = 1
    for step in data["facts"]["target"]["smoke"]["steps"]:
        step["status"] = "pass"
        del step["outcome"]
    del data["facts"]["target"]["smoke"]["steps"][0]["values"]["mismatches"]
    return data


def test_a_schema_1_report_is_upgraded_before_it_is_read() -> None:
    saved = parse_report(json.dumps(v1_report()), "old.json")
    assert saved.facts.target.smoke is not None
    steps = [(s.name, s.outcome, s.values, s.note) for s in saved.facts.target.smoke.steps]
    assert steps == [
        ("allocate", "ran", {"elements": 4096, "mismatches": 0, "tensor_device": "mps:0"}, None),
        ("elementwise", "ran", {"max_relative_error": {"add": 0.0}}, None),
    ]


def test_a_schema_2_report_is_not_upgraded() -> None:
    """A v2 step with a leftover status keeps no mismatch count it did not record: nothing is derived."""
    data = healthy()
    step = data["facts"]["target"]["smoke"]["steps"][0]
    step["status"] = "pass"
    del step["values"]["mismatches"]
    saved = parse_report(json.dumps(data), "s.json")
    assert saved.facts.target.smoke is not None
    assert saved.facts.target.smoke.steps[0].values == {"elements": 4096, "tensor_device": "mps:0"}


def upgraded_steps(*steps: Any) -> list[Any]:
    facts = {"schema_version": 1, "target": {"smoke": {"steps": list(steps)}}}
    out = upgrade_facts(facts)
    assert out == {"schema_version": 2, "target": {"smoke": {"steps": out["target"]["smoke"]["steps"]}}}
    return list(out["target"]["smoke"]["steps"])


@pytest.mark.parametrize(
    "facts",
    [
        {},
        {"target": None},
        {"target": "x"},
        {"target": {}},
        {"target": {"smoke": None}},
        {"target": {"smoke": {"steps": "x"}}},
        {"target": {"smoke": {"mode": "quick"}}},
        {"host": {"system": "Darwin"}, "schema_version": 1},
    ],
)
def test_upgrade_leaves_shapes_it_does_not_know_for_the_loader(facts: dict[str, Any]) -> None:
    before = copy.deepcopy(facts)
    assert upgrade_facts(facts) == {**before, "schema_version": 2}
    assert facts == before  # a copy: the caller's dictionary is untouched


def test_upgrade_works_on_a_copy() -> None:
    facts = {"schema_version": 1, "target": {"smoke": {"steps": [{"name": "allocate", "status": "pass"}]}}}
    before = copy.deepcopy(facts)
    upgrade_facts(facts)
    assert facts == before


@pytest.mark.parametrize(
    "step, expected",
    [
        ({"name": "x", "status": "pass"}, {"name": "x", "outcome": "ran", "values": {}}),
        ({"name": "x", "status": "skip"}, {"name": "x", "outcome": "skipped", "values": {}}),
        (
            {"name": "x", "status": "fail", "error_type": "E"},
            {"name": "x", "outcome": "raised", "error_type": "E", "values": {}},
        ),
        (
            {"name": "x", "status": "fail", "error_type": ""},
            {"name": "x", "outcome": "ran", "error_type": "", "values": {}},
        ),
        ({"name": "x", "status": "fail"}, {"name": "x", "outcome": "ran", "values": {}}),
        (
            {"name": "x", "status": "skip", "error_type": "E"},
            {"name": "x", "outcome": "skipped", "error_type": "E", "values": {}},
        ),
        ({"name": "x"}, {"name": "x", "outcome": "ran", "values": {}}),
        ({"status": "weird", "values": [1]}, {"outcome": "ran", "values": {}}),
        ({"name": "x", "status": "pass", "values": {"a": 1}}, {"name": "x", "outcome": "ran", "values": {"a": 1}}),
        # allocate: a passed v1 step had no mismatching value; any other had an unknown count
        ({"name": "allocate", "status": "pass"}, {"name": "allocate", "outcome": "ran", "values": {"mismatches": 0}}),
        (
            {"name": "allocate", "status": "pass", "values": {"mismatches": 3}},
            {"name": "allocate", "outcome": "ran", "values": {"mismatches": 3}},
        ),
        ({"name": "allocate", "status": "fail"}, {"name": "allocate", "outcome": "ran", "values": {}}),
        ({"name": "allocate"}, {"name": "allocate", "outcome": "ran", "values": {}}),
        # memory: a passed v1 step read its block back as 1.0
        ({"name": "memory", "status": "pass"}, {"name": "memory", "outcome": "ran", "values": {"readback": 1.0}}),
        (
            {"name": "memory", "status": "pass", "values": {"readback": 0.5}},
            {"name": "memory", "outcome": "ran", "values": {"readback": 0.5}},
        ),
        ({"name": "memory", "status": "fail"}, {"name": "memory", "outcome": "ran", "values": {}}),
        # fallback: the variable's value, whatever the status
        (
            {"name": "fallback", "status": "fail", "values": {"PYTORCH_ENABLE_MPS_FALLBACK": "1"}},
            {"name": "fallback", "outcome": "ran", "values": {"PYTORCH_ENABLE_MPS_FALLBACK": "1", "value": "1"}},
        ),
        ({"name": "fallback", "status": "pass"}, {"name": "fallback", "outcome": "ran", "values": {"value": None}}),
        (
            {"name": "fallback", "values": {"value": "0", "PYTORCH_ENABLE_MPS_FALLBACK": "1"}},
            {"name": "fallback", "outcome": "ran", "values": {"value": "0", "PYTORCH_ENABLE_MPS_FALLBACK": "1"}},
        ),
        (
            {"name": "allocate", "status": "pass", "values": {"PYTORCH_ENABLE_MPS_FALLBACK": "1"}},
            {"name": "allocate", "outcome": "ran", "values": {"PYTORCH_ENABLE_MPS_FALLBACK": "1", "mismatches": 0}},
        ),
        (
            {"name": "dtypes", "status": "pass", "values": {"dtypes": "x"}},
            {"name": "dtypes", "outcome": "ran", "values": {"dtypes": "x"}},
        ),
        (
            {"name": "dtypes", "status": "pass", "values": {"readback": 2}},
            {"name": "dtypes", "outcome": "ran", "values": {"readback": 2}},
        ),
        ("not a step", "not a step"),
        (None, None),
    ],
)
def test_a_schema_1_step_in_schema_2_form(step: Any, expected: Any) -> None:
    assert upgraded_steps(step) == [expected]


@pytest.mark.parametrize(
    "row, expected",
    [
        ({"status": "pass"}, {"result": "ran", "mismatches": 0}),
        ({"status": "pass", "error": "e", "error_type": "T"}, {"result": "ran", "mismatches": 0}),
        (
            {"status": "unsupported", "error": "e", "error_type": "T"},
            {"result": "raised", "error": "e", "error_type": "T"},
        ),
        (
            {"status": "expected-unsupported", "error": "e", "error_type": "T"},
            {"result": "raised", "error": "e", "error_type": "T"},
        ),
        ({"status": "unsupported"}, {"result": "raised", "error": None, "error_type": None}),
        ({"status": "fail", "error": "e", "error_type": "T"}, {"result": "ran", "error": "e"}),
        ({"status": "wrong values"}, {"result": "ran", "error": None}),
        ({}, {"result": "ran", "error": None}),
        ("float64 unsupported", "float64 unsupported"),
        (None, None),
        ([1], [1]),
    ],
)
def test_a_schema_1_dtype_row_in_schema_2_form(row: Any, expected: Any) -> None:
    step = {"name": "dtypes", "status": "fail", "values": {"dtypes": {"float16": row, "bfloat16": {"status": "pass"}}}}
    rows = {"float16": expected, "bfloat16": {"result": "ran", "mismatches": 0}}
    assert upgraded_steps(step) == [{"name": "dtypes", "outcome": "ran", "values": {"dtypes": rows}}]


def test_every_step_of_a_schema_1_smoke_is_upgraded_in_order() -> None:
    steps = [{"name": "allocate", "status": "pass"}, 5, {"name": "memory", "status": "skip"}]
    assert upgraded_steps(*steps) == [
        {"name": "allocate", "outcome": "ran", "values": {"mismatches": 0}},
        5,
        {"name": "memory", "outcome": "skipped", "values": {}},
    ]
    facts = {
        "schema_version": 1,
        "host": {"system": "Darwin"},
        "target": {"run": {"status": "ok"}, "smoke": {"mode": "quick", "steps": []}},
    }
    assert upgrade_facts(facts) == {**facts, "schema_version": 2}
