"""Property-based tests: every parser of machine output, and `mpscheck explain` on mutated saved
reports, take any input without an exception, and never answer with exit 3 (mpscheck's own bug).

Bounded for CI: a few dozen examples each, no deadline (the machine may be shared), about 20 s in all.
"""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mpscheck.checks.diagnose import diagnose
from mpscheck.cli import cli
from mpscheck.model import Requirement
from mpscheck.probes.agent.conda import conda_python_subdir
from mpscheck.probes.agent.macho import macho_archs
from mpscheck.probes.host import parse_displays_json, parse_sw_vers
from mpscheck.probes.process import Completed
from mpscheck.probes.progress import Progress
from mpscheck.probes.target import PROTOCOL_VERSION, parse_records, parse_run
from mpscheck.render.json_report import render as render_json
from tests.scenarios import scenarios
from tests.test_smoke_checks import full_smoke, m1_facts

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# JSON values, with the edges that broke parsers: huge and negative numbers, floats, odd strings.
scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.sampled_from([0, -1, 2**63, 10**400 // 10**300])
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30)
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=12,
)


@FAST
@given(st.text())
def test_sw_vers_takes_any_text(text: str) -> None:
    parsed = parse_sw_vers(text)
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in parsed.items())


@FAST
@given(json_values | st.dictionaries(st.just("SPDisplaysDataType"), json_values))
def test_system_profiler_json_takes_any_json(data: Any) -> None:
    result = parse_displays_json(json.dumps(data))
    if result is not None:
        name, cores = result
        assert name is None or isinstance(name, str)
        assert cores is None or isinstance(cores, int)


@pytest.mark.parametrize(
    "text",
    [
        '{"SPDisplaysDataType": 1}',
        '{"SPDisplaysDataType": "x"}',
        '{"SPDisplaysDataType": [{"sppci_model": 5, "sppci_cores": "NaN"}]}',
        '{"SPDisplaysDataType": [{"sppci_model": "Apple M1", "sppci_cores": 1e400}]}',
    ],
)
def test_system_profiler_odd_shapes(text: str) -> None:
    result = parse_displays_json(text)
    assert result is None or (result[0] is None or isinstance(result[0], str))


def _record(event: str, stage: str, data: Any) -> str:
    return json.dumps({"v": PROTOCOL_VERSION, "event": event, "stage": stage, "data": data})


stages = st.sampled_from(["interpreter", "torch", "device", "end", "step:allocate", "step:train", "x"])
protocol_lines = st.builds(_record, st.sampled_from(["start", "done", "other"]), stages, json_values) | st.text(
    max_size=40
)


@FAST
@given(st.lists(protocol_lines, max_size=8), st.sampled_from([0, 1, -6, None]))
def test_the_probe_protocol_takes_any_lines(lines: list[str], returncode: int | None) -> None:
    stdout = "\n".join(lines)
    parse_records(stdout)
    done = Completed(("python",), returncode, stdout, "", 0.1, timed_out=returncode is None)
    facts = parse_run(done, 10.0, {})
    assert facts.run.status in ("ok", "timeout", "crashed", "bad-output", "failed")
    if facts.run.status == "ok":
        assert facts.run.message == ""


def test_deeply_nested_json_is_junk_not_a_crash() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    assert parse_records(deep)[2] == [deep[:200]]
    assert parse_displays_json(deep) is None
    Progress(io.StringIO()).on_line(deep)


def test_a_stage_with_wrongly_typed_data_is_bad_output_not_ok() -> None:
    stdout = "\n".join(
        [
            _record("start", "interpreter", None),
            _record("done", "interpreter", {"conda_subdir": 64}),
            _record("done", "torch", {"installed": True, "version": "2.5.1"}),
            _record("done", "end", {}),
        ]
    )
    facts = parse_run(Completed(("python",), 0, stdout, "", 0.1), 10.0, {})
    assert facts.run.status == "bad-output" and "conda_subdir" in facts.run.message
    assert facts.torch is not None and facts.torch.version == "2.5.1"  # the other stages are kept


@FAST
@given(st.binary(max_size=64))
def test_macho_archs_takes_any_bytes(tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    path = tmp_path_factory.mktemp("macho") / "binary"
    path.write_bytes(data)
    archs = macho_archs(str(path))
    assert isinstance(archs, list) and all(isinstance(a, str) for a in archs)


@FAST
@given(json_values)
def test_conda_python_subdir_takes_any_json(tmp_path_factory: pytest.TempPathFactory, record: Any) -> None:
    prefix = tmp_path_factory.mktemp("env")
    (prefix / "conda-meta").mkdir()
    (prefix / "conda-meta" / "python-3.11.9-h1.json").write_text(json.dumps(record))
    subdir = conda_python_subdir(str(prefix))
    assert subdir is None or isinstance(subdir, str)


@pytest.mark.parametrize(
    "record", ["null", "[]", '{"subdir": 64}', '{"subdir": null}', '"osx-arm64"', "[" * 100_000 + "]" * 100_000]
)
def test_conda_meta_odd_records(tmp_path: Path, record: str) -> None:
    (tmp_path / "conda-meta").mkdir()
    (tmp_path / "conda-meta" / "python-3.11.9-h1.json").write_text(record)
    assert conda_python_subdir(str(tmp_path)) is None


# --- saved reports, mutated, through `mpscheck explain` ---------------------------------------

BASES = [json.loads(render_json(diagnose(s.facts, require=Requirement(s.require)))) for s in scenarios()]
FULL_SMOKE = json.loads(render_json(diagnose(m1_facts(full_smoke()), command="smoke-test", require=Requirement.DEVICE)))
BASES.append(FULL_SMOKE)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += _paths(inner, (*prefix, index))
    return found


def _replace(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    document[path[0]] = _replace(document[path[0]], path[1:], value)
    return document


def _explain(document: Any, tmp_path: Path) -> Any:
    path = tmp_path / "mutated.json"
    path.write_text(json.dumps(document) if not isinstance(document, str) else document)
    env = {"GITHUB_ACTIONS": "", "GITHUB_STEP_SUMMARY": "", "NO_COLOR": "1"}
    return CliRunner().invoke(cli, ["explain", str(path), "-v"], env=env, catch_exceptions=False)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_explain_survives_any_mutation_of_a_saved_report(tmp_path_factory: pytest.TempPathFactory, data) -> None:
    document = copy.deepcopy(data.draw(st.sampled_from(BASES) | st.just(FULL_SMOKE)))
    for _ in range(data.draw(st.integers(1, 3))):
        paths = _paths(document)
        # Half the mutations go where the checks compute (smoke values, host numbers, the run).
        hot = [p for p in paths if any(part in ("values", "host", "run", "torch") for part in p)] or paths
        where = data.draw(st.sampled_from(paths) | st.sampled_from(hot))
        document = _replace(document, where, data.draw(json_values))
    result = _explain(document, tmp_path_factory.mktemp("explain"))
    assert result.exit_code in (0, 1, 2), result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("where", "value"),
    [
        (("facts", "host", "memory_bytes"), 10**400),
        (("facts", "host", "gpu_cores"), 10**30),
        (("facts", "target", "run", "timeout"), 1e308),
        (("facts", "target", "run", "seconds"), -1.0),
        (("strict",), "yes"),
        (("schema_version",), True),
        (("schema_version",), "1"),
    ],
)
def test_explain_on_named_odd_values(tmp_path: Path, where: tuple[str, ...], value: Any) -> None:
    document = copy.deepcopy(BASES[0])
    result = _explain(_replace(document, where, value), tmp_path)
    assert result.exit_code in (0, 1, 2), result.output
    if where[0] in ("strict", "schema_version"):
        assert result.exit_code == 2 and "Traceback" not in result.output


def test_explain_on_an_infinite_memory_size(tmp_path: Path) -> None:
    text = json.dumps(BASES[0]).replace('"memory_bytes": ', '"memory_bytes": 1e400, "_was": ', 1)
    result = _explain(text, tmp_path)
    assert result.exit_code == 2 and "memory_bytes" in result.output, result.output


@pytest.mark.parametrize("value", ["x", "{0} {}", [], {}, None, 10**400, -1, True, [1, "a{}"], {"a": "b"}])
def test_explain_with_wrongly_typed_smoke_values(tmp_path: Path, value: Any) -> None:
    document = copy.deepcopy(FULL_SMOKE)
    for step in document["facts"]["target"]["smoke"]["steps"]:
        step["values"] = {key: value for key in step["values"]} or {"x": value}
    result = _explain(document, tmp_path)
    assert result.exit_code in (0, 1, 2), result.output


def test_explain_with_ten_kilobytes_of_digits_in_the_fallback_variable(tmp_path: Path) -> None:
    document = copy.deepcopy(BASES[0])
    document["facts"]["target"]["interpreter"]["env"]["PYTORCH_ENABLE_MPS_FALLBACK"] = "1" * 10_000
    result = _explain(document, tmp_path)
    assert result.exit_code in (0, 1), result.output


def test_braces_in_a_saved_value_are_text_not_a_format_field(tmp_path: Path) -> None:
    document = copy.deepcopy(FULL_SMOKE)
    for step in document["facts"]["target"]["smoke"]["steps"]:
        if step["name"] == "allocate":  # a malformed count is now unknown (saved_trust), so: torch's error text
            step.update(outcome="raised", error="{0} {device} {} went wrong", error_type="RuntimeError")
    result = _explain(document, tmp_path)
    assert result.exit_code in (0, 1), result.output
    assert "{0} {device} {} went wrong" in result.output
