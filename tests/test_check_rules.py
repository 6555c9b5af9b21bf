"""Check rules at their boundaries, so that a changed condition or constant fails a test.

Built from the recorded facts of tests/scenarios.py and tests/test_smoke_checks.py; each test names
the finding's status and the words, values or commands that must be in it. benchmarks/mutation.py
runs these with the other pure tests under mutmut.
"""

from __future__ import annotations

import pytest

from mpscheck.checks.diagnose import diagnose
from mpscheck.checks.environment import FallbackReading, read_fallback
from mpscheck.checks.registry import REGISTRY, Check, Context, Outcome, check
from mpscheck.facts import Facts
from mpscheck.model import Finding, Requirement, Status
from tests import recorded as rec
from tests.scenarios import PHYSICAL, facts, interpreter, mac_host, quick_smoke, torch_facts

FALLBACK = "PYTORCH_ENABLE_MPS_FALLBACK"
HIGH = "PYTORCH_MPS_HIGH_WATERMARK_RATIO"
LOW = "PYTORCH_MPS_LOW_WATERMARK_RATIO"
BEFORE_IMPORT = "Set it before Python starts: setting os.environ after `import torch` has no effect."
UNSET_BOTH = f"unset {HIGH} {LOW}"


def m1(env: dict[str, str] | None = None, **interp) -> Facts:
    """A healthy M1 on macOS 14.5 with torch 2.5.1, whose interpreter has *env*."""
    host = mac_host({**rec.SYSCTL_M1, **PHYSICAL}, rec.SW_VERS_14_5, rec.DISPLAYS_M1)
    return facts(host, interpreter(env=env, **interp), torch_facts(mps_device_name="Apple M1"), quick_smoke())


def doctor(facts_: Facts, require: Requirement = Requirement.MPS) -> dict[str, Finding]:
    return {f.id: f for f in diagnose(facts_, require=require).findings}


def commands(finding: Finding) -> tuple[str, ...]:
    assert finding.fix is not None, finding
    return finding.fix.commands


# ---- PYTORCH_ENABLE_MPS_FALLBACK, read by std::stoi while torch loads -----------------------------

FALLBACK_ROWS = [
    ("1", "pass", f"{FALLBACK}=1: ops without an MPS kernel run on the CPU (slower; torch warns once)"),
    ("2", "pass", f"{FALLBACK}=2: ops without an MPS kernel run on the CPU (slower; torch warns once)"),
    ("-1", "pass", f"{FALLBACK}=-1: ops without an MPS kernel run on the CPU (slower; torch warns once)"),
    (
        "0",
        "warn",
        f"{FALLBACK}=0: the CPU fallback is off, so an op without an MPS kernel raises NotImplementedError",
    ),
    ("1abc", "warn", f"{FALLBACK}='1abc': std::stoi reads 1, ignoring 'abc', so the CPU fallback is on"),
    ("0abc", "warn", f"{FALLBACK}='0abc': std::stoi reads 0, ignoring 'abc', so the CPU fallback is off"),
    (" 1", "warn", f"{FALLBACK}=' 1': std::stoi reads 1, ignoring 'whitespace', so the CPU fallback is on"),
    ("1 ", "warn", f"{FALLBACK}='1 ': std::stoi reads 1, ignoring ' ', so the CPU fallback is on"),
    (
        "true",
        "fail",
        f"{FALLBACK}='true': std::stoi throws std::invalid_argument on it while torch loads, so import torch aborts",
    ),
    (
        "99999999999",
        "fail",
        f"{FALLBACK}='99999999999': std::stoi throws std::out_of_range on it while torch loads, so import torch aborts",
    ),
    (
        "x" * 50,
        "fail",
        f"{FALLBACK}={'x' * 40!r}: std::stoi throws std::invalid_argument on it while torch loads, "
        "so import torch aborts",
    ),
]


@pytest.mark.parametrize(("value", "status", "summary"), FALLBACK_ROWS, ids=[repr(r[0][:12]) for r in FALLBACK_ROWS])
def test_fallback_value_is_read_the_way_torch_reads_it(value: str, status: str, summary: str) -> None:
    finding = doctor(m1({FALLBACK: value}))["mps-fallback-env"]
    assert (finding.status.value, finding.summary) == (status, summary)
    if status == "pass":
        assert finding.fix is None
    else:
        assert commands(finding) == (f"export {FALLBACK}=1",)
        assert finding.fix is not None and finding.fix.summary.endswith(BEFORE_IMPORT)


def test_fallback_fixes_say_what_to_type() -> None:
    fixes = {v: doctor(m1({FALLBACK: v}))["mps-fallback-env"].fix for v in ("true", "1abc", "0")}
    assert fixes["true"].summary == "Use 1 to enable the CPU fallback (0 to disable). " + BEFORE_IMPORT
    assert fixes["1abc"].summary == "Say what you mean: 1 (on) or 0 (off). " + BEFORE_IMPORT
    assert fixes["0"].summary == BEFORE_IMPORT


def test_fallback_unset_warns_and_in_conda_also_sets_the_env_variable() -> None:
    plain = doctor(m1({}))["mps-fallback-env"]
    assert plain.status is Status.WARN
    assert plain.summary == (
        f"{FALLBACK} is not set: an op without an MPS kernel raises NotImplementedError instead of running on the CPU"
    )
    assert commands(plain) == (f"export {FALLBACK}=1",)
    conda = doctor(m1({}, conda_prefix="/Users/dev/miniforge3/envs/ml"))["mps-fallback-env"]
    assert commands(conda) == (f"export {FALLBACK}=1", f"conda env config vars set {FALLBACK}=1")


def test_environment_checks_skip_when_the_environment_was_not_captured() -> None:
    found = doctor(_no_env())
    for check_id in ("mps-fallback-env", "mps-watermark-env", "mps-env-vars"):
        assert found[check_id].status is Status.SKIP
        assert found[check_id].summary == "not determined: the environment was not captured"


def _no_env() -> Facts:
    facts_ = m1()
    assert facts_.target.interpreter is not None
    facts_.target.interpreter.env = None
    return facts_


# ---- the watermark ratios, read by strtod when the allocator starts -------------------------------

WATERMARK_ROWS = [
    ({}, "pass", "defaults: high watermark 1.7, low 1.4 (unified memory)"),
    ({HIGH: "2.0"}, "pass", "high watermark 2, low 1.4: valid"),
    ({HIGH: "1.4"}, "pass", "high watermark 1.4, low 1.4: valid"),
    ({HIGH: " 1.5 "}, "pass", "high watermark 1.5, low 1.4: valid"),
    ({HIGH: "0x1.8p0"}, "pass", "high watermark 1.5, low 1.4: valid"),
    ({LOW: "1.7"}, "pass", "high watermark 1.7, low 1.7: valid"),
    ({LOW: "0"}, "pass", "high watermark 1.7, low 0: valid"),
    (
        {HIGH: "0", LOW: "2"},
        "warn",
        f"{HIGH}=0: no upper limit on MPS memory; an out-of-memory can take the whole system down",
    ),
    (
        {HIGH: "2.01"},
        "fail",
        f"{HIGH}=2.01: outside [0, 2]; the first MPS allocation raises 'invalid high watermark ratio 2.01'",
    ),
    (
        {HIGH: "-0.5"},
        "fail",
        f"{HIGH}=-0.5: outside [0, 2]; the first MPS allocation raises 'invalid high watermark ratio -0.5'",
    ),
    (
        {HIGH: "1.0"},
        "fail",
        f"{LOW}=unset (default 1.4): outside [0, 1] given high 1; the first MPS allocation raises "
        "'invalid low watermark ratio 1.4'",
    ),
    (
        {LOW: "1.71"},
        "fail",
        f"{LOW}=1.71: outside [0, 1.7] given high 1.7; the first MPS allocation raises "
        "'invalid low watermark ratio 1.71'",
    ),
    (
        {HIGH: "0", LOW: "2.5"},
        "fail",
        f"{LOW}=2.5: outside [0, 2] given high 0; the first MPS allocation raises 'invalid low watermark ratio 2.5'",
    ),
    (
        {LOW: "-0.1"},
        "fail",
        f"{LOW}=-0.1: outside [0, 1.7] given high 1.7; the first MPS allocation raises "
        "'invalid low watermark ratio -0.1'",
    ),
    (
        {HIGH: "abc"},
        "fail",
        f"{HIGH}='abc' is not a number: torch's strtod reads it as 0, i.e. no memory limit at all "
        "(may freeze the system)",
    ),
    ({LOW: "abc"}, "fail", f"{LOW}='abc' is not a number: torch's strtod reads it as 0, i.e. no adaptive commit"),
    (
        {HIGH: "1.2", LOW: "x"},
        "fail",
        f"{LOW}='x' is not a number: torch's strtod reads it as 0, i.e. no adaptive commit",
    ),
    (
        {HIGH: "", LOW: "1"},
        "fail",
        f"{HIGH}='' is not a number: torch's strtod reads it as 0, i.e. no memory limit at all (may freeze the system)",
    ),
]


@pytest.mark.parametrize(("env", "status", "summary"), WATERMARK_ROWS, ids=[str(r[0]) for r in WATERMARK_ROWS])
def test_watermark_ratios_within_torchs_bounds(env: dict[str, str], status: str, summary: str) -> None:
    finding = doctor(m1({FALLBACK: "1", **env}))["mps-watermark-env"]
    assert (finding.status.value, finding.summary) == (status, summary)
    if status == "fail":
        assert finding.fix is not None
        assert finding.fix.summary == "Unset both to use torch's defaults, or set numbers in range."
        assert finding.fix.commands == (UNSET_BOTH,)
    elif status == "warn":
        assert finding.fix is not None and finding.fix.commands == (f"unset {HIGH}",)
        assert finding.fix.summary == "Keep a limit unless you must go past it."
    else:
        assert finding.fix is None


def test_a_partly_numeric_watermark_names_what_strtod_read() -> None:
    finding = doctor(m1({HIGH: "1.5x"}))["mps-watermark-env"]
    assert finding.status is Status.FAIL
    assert finding.summary.startswith(f"{HIGH}='1.5x' is not a number: torch's strtod reads it as 1.5")
    assert "no memory limit" not in finding.summary


# ---- the other PYTORCH_*MPS* variables ------------------------------------------------------------

ENV_VAR_ROWS = [
    ({}, "pass", "no other PYTORCH_*MPS* variables set", ()),
    ({"PYTORCH_CUDA_ALLOC_CONF": "x", "MPS_THING": "x"}, "pass", "no other PYTORCH_*MPS* variables set", ()),
    ({"PYTORCH_MPS_FAST_MATH": "1"}, "pass", "valid: PYTORCH_MPS_FAST_MATH=1", ()),
    (
        {"PYTORCH_MPS_PREFER_METAL": "0x1F", "PYTORCH_MPS_FAST_MATH": " -1 "},
        "pass",
        "valid: PYTORCH_MPS_FAST_MATH= -1 , PYTORCH_MPS_PREFER_METAL=0x1F",
        (),
    ),
    ({"PYTORCH_MPS_METAL_VERSION": "3.2"}, "pass", "valid: PYTORCH_MPS_METAL_VERSION=3.2", ()),
    (
        {"PYTORCH_MPS_FAST_MATH": "yes"},
        "fail",
        "PYTORCH_MPS_FAST_MATH='yes' is not an integer, and torch parses it as one",
        ("unset PYTORCH_MPS_FAST_MATH",),
    ),
    (
        {"PYTORCH_DEBUG_MPS_ALLOCATOR": "1.0"},
        "fail",
        "PYTORCH_DEBUG_MPS_ALLOCATOR='1.0' is not an integer, and torch parses it as one",
        ("unset PYTORCH_DEBUG_MPS_ALLOCATOR",),
    ),
    (
        {"PYTORCH_MPS_METAL_VERSION": "5.0"},
        "warn",
        "PYTORCH_MPS_METAL_VERSION='5.0': torch ignores it (expects 3.1, 3.2, 4.0)",
        ("unset PYTORCH_MPS_METAL_VERSION",),
    ),
    (
        {"PYTORCH_MPS_FAST_MATHS": "1"},
        "warn",
        "PYTORCH_MPS_FAST_MATHS is not a variable torch reads; did you mean PYTORCH_MPS_FAST_MATH?",
        ("unset PYTORCH_MPS_FAST_MATHS", "export PYTORCH_MPS_FAST_MATH=1"),
    ),
    (
        {"PYTORCH_ZZZZ_MPS": "1"},
        "warn",
        "PYTORCH_ZZZZ_MPS is not a variable torch reads",
        ("unset PYTORCH_ZZZZ_MPS",),
    ),
]


@pytest.mark.parametrize(("env", "status", "summary", "fix"), ENV_VAR_ROWS, ids=[str(r[0]) for r in ENV_VAR_ROWS])
def test_other_mps_variables(env: dict[str, str], status: str, summary: str, fix: tuple[str, ...]) -> None:
    finding = doctor(m1({FALLBACK: "1", **env}))["mps-env-vars"]
    assert (finding.status.value, finding.summary) == (status, summary)
    assert (finding.fix.commands if finding.fix else ()) == fix
    if finding.fix:
        assert (
            finding.fix.summary
            == {
                "fail": "Set it to an integer (1 to enable) or unset it.",
                "warn": "Rename or remove it."
                if "not a variable" in summary
                else "Set a version torch accepts, or unset it.",
            }[status]
        )


# ---- the registry: registration, and the context every check reads --------------------------------


def _rule(ctx: Context) -> Outcome:
    raise AssertionError("never run")


def test_check_registers_the_declaration_and_returns_the_function() -> None:
    try:
        assert check("zz-test", "Test", "smoke-test", where="elsewhere", needs=("interpreter",))(_rule) is _rule
        assert REGISTRY["zz-test"] == Check("zz-test", "Test", "smoke-test", _rule, "elsewhere", ("interpreter",))
        assert check("zz-plain", "Plain")(_rule) is _rule
        assert REGISTRY["zz-plain"] == Check("zz-plain", "Plain", "doctor", _rule, "anywhere", ())
    finally:
        REGISTRY.pop("zz-test", None)
        REGISTRY.pop("zz-plain", None)


def test_check_refuses_a_duplicate_id_or_an_unknown_place() -> None:
    with pytest.raises(ValueError, match=r"^duplicate check id platform$"):
        check("platform", "Again")(_rule)
    with pytest.raises(ValueError, match=r"^zz-where: where='linux'$"):
        check("zz-where", "Where", where="linux")(_rule)
    assert "zz-where" not in REGISTRY
    for where in ("anywhere", "macos", "elsewhere"):
        try:
            check("zz-where", "Where", where=where)(_rule)
            assert REGISTRY["zz-where"].where == where
        finally:
            REGISTRY.pop("zz-where", None)


def test_context_quotes_the_interpreter_in_commands() -> None:
    spaced = Context(m1(executable="/Users/dev/My Envs/torch/bin/python"))
    assert spaced.python == "'/Users/dev/My Envs/torch/bin/python'"
    assert spaced.install("torch<2.5") == "'/Users/dev/My Envs/torch/bin/python' -m pip install 'torch<2.5'"
    assert spaced.install("torch", "numpy", upgrade=True) == (
        "'/Users/dev/My Envs/torch/bin/python' -m pip install --upgrade torch numpy"
    )
    unprobed = m1()
    unprobed.target.interpreter = None
    assert Context(unprobed).python == "/Users/dev/.venvs/torch/bin/python"  # the one requested
    unprobed.target.requested = ""
    assert Context(unprobed).python == "python3"
    assert Context(unprobed).env == {}


def test_context_knows_macos_only_when_the_os_says_so() -> None:
    ctx = Context(m1())
    assert (ctx.on_macos, ctx.off_macos) == (True, False)
    ctx.facts.host.system = ""
    assert (ctx.on_macos, ctx.off_macos) == (False, False)
    ctx.facts.host.system = "Linux"
    assert (ctx.on_macos, ctx.off_macos) == (False, True)


def test_upstream_problem_follows_skips_back_to_their_root() -> None:
    report = diagnose(m1(), require=Requirement.MPS)
    ctx = Context(m1(), findings={f.id: f for f in report.findings})
    assert ctx.status("chip") is Status.PASS and ctx.status("no-such-check") is None
    assert ctx.upstream_problem("chip", "mps-available") is None
    ctx.findings["chip"] = Finding("chip", "Chip", Status.CRASH, "boom")
    ctx.findings["macos-version"] = Finding("macos-version", "macOS", Status.FAIL, "old")
    ctx.roots["mps-available"] = "python-arch"
    assert ctx.upstream_problem("platform", "chip") == "chip"
    assert ctx.upstream_problem("mps-available", "macos-version") == "python-arch"
    assert ctx.upstream_problem("macos-version", "mps-available") == "macos-version"
    assert ctx.blocked("mps-available") == Outcome(
        Status.SKIP, "skipped because python-arch failed", blocked_by="python-arch"
    )
    assert ctx.blocked("chip") == Outcome(Status.SKIP, "skipped because chip failed", blocked_by="chip")


# ---- read_fallback, the one home of "is the CPU fallback on?" ---------------------------------------


@pytest.mark.parametrize(
    ("value", "reading"),
    [
        (None, FallbackReading(False, True, "unset")),
        ("1", FallbackReading(True, True, "std::stoi reads 1")),
        ("0", FallbackReading(False, True, "std::stoi reads 0")),
        ("01", FallbackReading(True, True, "std::stoi reads 1")),
        ("1\t", FallbackReading(True, False, "std::stoi reads 1, ignoring '\\t'")),
        ("", FallbackReading(None, False, "std::stoi throws std::invalid_argument on it while torch loads")),
        ("yes", FallbackReading(None, False, "std::stoi throws std::invalid_argument on it while torch loads")),
    ],
)
def test_read_fallback(value: str | None, reading: FallbackReading) -> None:
    assert read_fallback(value, "2.5.1") == reading
    assert read_fallback(value, None) == reading


def test_long_values_are_quoted_to_40_characters() -> None:
    fallback = doctor(m1({FALLBACK: "1" + "x" * 50}))["mps-fallback-env"]
    assert (
        fallback.summary
        == f"{FALLBACK}={'1' + 'x' * 39!r}: std::stoi reads 1, ignoring {'x' * 50!r}, so the CPU fallback is on"
    )
    junk = doctor(m1({HIGH: "y" * 50}))["mps-watermark-env"]
    assert junk.summary.startswith(f"{HIGH}={'y' * 40!r} is not a number")
    huge = doctor(m1({HIGH: "3" + "0" * 45}))["mps-watermark-env"]
    assert huge.summary == (
        f"{HIGH}={'3' + '0' * 39}: outside [0, 2]; the first MPS allocation raises 'invalid high watermark ratio 3e+45'"
    )


def test_a_partly_numeric_watermark_has_no_consequence_clause() -> None:
    finding = doctor(m1({HIGH: "1.5x"}))["mps-watermark-env"]
    assert finding.summary.rstrip(",") == f"{HIGH}='1.5x' is not a number: torch's strtod reads it as 1.5"


def test_a_partly_numeric_watermark_summary_ends_cleanly() -> None:
    finding = doctor(m1({HIGH: "1.5x"}))["mps-watermark-env"]
    assert not finding.summary.endswith(",")
