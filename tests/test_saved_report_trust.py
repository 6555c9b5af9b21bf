"""A saved report's missing or malformed facts are unknown, never the default that passes (issue 18, item 2).

The sweep deletes, and sets to each of a handful of wrong values, every field of a ready report, one
at a time, and re-judges it as `mpscheck explain` does. A result that stays ready must be explained
by IRRELEVANT (the field does not carry readiness) or PLAUSIBLE (the new value is one a real passing
run writes, so no reader can tell it from the truth); anything else is a false "ready".
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from mpscheck.checks.diagnose import diagnose
from mpscheck.model import ExitCode
from mpscheck.probes.saved_report import ReportError, parse_report
from mpscheck.render.json_report import render as render_json
from tests.scenarios import scenarios

# Readiness rests on torch importing with MPS available, and the quick workload having run on the MPS
# device and matched the CPU (checks/policy.py). These fields describe the machine, the interpreter or
# the run; a wrong one may change a warning, never turn a workload that did not pass into one that did.
IRRELEVANT = {
    r"facts/(schema_version|mpscheck_version|collected_at)$": "bookkeeping of the report, not an observation",
    r"facts/host(/|$)": "the machine's description: the workload's run on the device is the evidence",
    r"facts/target/(requested|chosen_because)$": "how the interpreter was chosen",
    r"facts/target/interpreter(/|$)": "the interpreter's description: the workload ran in it",
    r"facts/target/torch/(version|location|debug_build|import_error|import_seconds)$": "torch's description",
    r"facts/target/torch/(mps_device_name|mps_core_count|mps_error)$": "descriptive: the workload tests the device",
    r"facts/target/torch/cuda_": "CUDA facts: the requirement is MPS",
    r"facts/target/run/(command|returncode|seconds|timeout|running_stage|stderr_tail|message)$": (
        "details of a run whose status is ok"
    ),
    r"facts/target/smoke/(requested|reason|mode)$": "how the device was chosen, not what it did",
    r"facts/target/smoke/steps/\d+/(seconds|error|error_type|note)$": "timing and text of a step that ran",
    r"facts/target/bench$": "bench results: not part of the doctor's verdict",
    r"facts/errors$": "error texts a paste showed; a doctor's own run keeps its errors in the smoke steps",
}
# Deleting or garbling the workload's kind: the recorded steps still show the quick workload ran
# (the reader no longer takes a missing kind for "none", which would excuse a failed smoke test).
PLAUSIBLE = {
    r"facts/target/run/workload$": "the steps that ran are recorded: they are the evidence",
    r"facts/target/smoke/steps/0/values/mismatches$=0": "0 mismatches: what a passing run writes",
    r"facts/target/smoke/steps/1/values/max_relative_error/\w+$=0": "an exact result: what a passing run writes",
}
GARBLE: tuple[Any, ...] = ("", "nonsense", 0, -1, None, True, [], {})


def report(name: str) -> dict[str, Any]:
    scenario = next(s for s in scenarios() if s.name.startswith(name))
    data: dict[str, Any] = json.loads(render_json(diagnose(scenario.facts)))
    return data


def verdict(data: dict[str, Any]) -> ExitCode:
    try:
        saved = parse_report(json.dumps(data), "saved.json")
    except ReportError:
        return ExitCode.USAGE
    return diagnose(saved.facts, command=saved.command, require=saved.require, strict=saved.strict).verdict.exit_code


def fields(value: Any, path: tuple[Any, ...]) -> Iterator[tuple[tuple[Any, ...], Any]]:
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        yield (*path, key), item
        yield from fields(item, (*path, key))


def changed(data: dict[str, Any], path: tuple[Any, ...], new: Any, delete: bool) -> dict[str, Any]:
    out = copy.deepcopy(data)
    node = out
    for key in path[:-1]:
        node = node[key]
    if delete:
        del node[path[-1]]
    else:
        node[path[-1]] = new
    return out


def excused(where: str, new: Any, delete: bool) -> bool:
    if any(re.search(rule, where) for rule in IRRELEVANT):
        return True
    said = where if delete else f"{where}={new!r}"
    return any(re.fullmatch(rule.replace("$", ""), said) or re.fullmatch(rule, where) for rule in PLAUSIBLE)


def test_no_deletion_or_garbling_of_a_ready_report_stays_ready_unless_it_cannot_matter() -> None:
    ready = report("healthy native M1")
    assert verdict(ready) is ExitCode.READY
    tried, false_ready = 0, []
    for path, value in list(fields(ready["facts"], ("facts",))):
        where = "/".join(map(str, path))
        for delete, new in [(True, None), *((False, g) for g in GARBLE if g != value or type(g) is not type(value))]:
            tried += 1
            if verdict(changed(ready, path, new, delete)) is ExitCode.READY and not excused(where, new, delete):
                false_ready.append(f"{'delete' if delete else f'set {new!r}'} {where}")
    assert tried > 500
    assert not false_ready, f"{len(false_ready)} of {tried} stayed ready: " + "; ".join(false_ready[:12])


@pytest.mark.parametrize(
    "path",
    [
        ("facts", "target", "run", "workload"),
        ("facts", "target", "run", "status"),
        ("facts", "target", "run"),
        ("facts", "target", "smoke", "steps", 0, "outcome"),
    ],
)
def test_deleting_a_field_never_turns_a_failed_smoke_test_into_ready(path: tuple[Any, ...]) -> None:
    failed = report("GitHub-hosted macOS arm64 runner")  # the paravirtual GPU: smoke fails
    assert verdict(failed) is ExitCode.PROBLEMS
    assert verdict(changed(failed, path, None, delete=True)) is not ExitCode.READY


@pytest.mark.parametrize(
    "name, value",
    [("elements", 0), ("elements", -4096), ("elements", "4096"), ("tensor_device", "nonsense"), ("tensor_device", 0)],
)
def test_an_allocate_step_with_malformed_observations_is_not_judged(name: str, value: Any) -> None:
    ready = report("healthy native M1")
    step = ("facts", "target", "smoke", "steps", 0)
    assert ready["facts"]["target"]["smoke"]["steps"][0]["name"] == "allocate"
    garbled = changed(ready, (*step, "values", name), value, delete=False)
    saved = parse_report(json.dumps(garbled), "saved.json")
    assert saved.facts.target.smoke is not None
    assert saved.facts.target.smoke.steps[0].outcome == "skipped" and name in (
        saved.facts.target.smoke.steps[0].note or ""
    )
    assert verdict(garbled) is not ExitCode.READY


def test_a_step_without_its_outcome_is_unknown_not_ran() -> None:
    ready = report("healthy native M1")
    garbled = changed(ready, ("facts", "target", "smoke", "steps", 1, "outcome"), None, delete=True)
    step = parse_report(json.dumps(garbled), "saved.json").facts.target.smoke.steps[1]  # type: ignore[union-attr]
    assert step.outcome == "skipped" and "does not record" in (step.note or "")


def test_the_pytest_plugin_skips_mps_tests_on_a_report_missing_its_workload(pytester: pytest.Pytester) -> None:
    failed = changed(report("GitHub-hosted macOS arm64 runner"), ("facts", "target", "run", "workload"), None, True)
    path = pytester.path / "mpscheck-report.json"
    path.write_text(json.dumps(failed))
    pytester.makepyfile("import pytest\n\n@pytest.mark.mps\ndef test_needs_mps():\n    assert True\n")
    pytester.runpytest("--mpscheck-report", str(path)).assert_outcomes(skipped=1)
