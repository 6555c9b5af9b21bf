"""Errors no hand-written row knows and the watermark ratios, judged exactly (checks/causes/unmatched.py,
memory.py): a message of the generated table with the releases that print it (one release, or a span),
the fix of its class (a row's, the causes table's, the class's own), an argument check told apart by the
torch shown, torch's own log lines, an unrecognised error or crash, and torch's own default watermark
refused (NaN, wrong results and the silent bugs: test_causes_silent_exact.py).

Messages are rows of mpscheck/knowledge/torch_messages.json, read here with plain code and handed in
through ``messages_lookup`` (the interface the module names for stand-ins); expected values are written
out or built from the tables; every field of a Cause is compared.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from mpscheck.checks.causes import Cause, Evidence, explain_text, unmatched
from mpscheck.checks.installing import conda_arm64_create
from mpscheck.knowledge import errors as table
from mpscheck.knowledge.causes import CAUSES
from mpscheck.model import Remediation

MESSAGES = Path(unmatched.__file__).resolve().parents[2] / "knowledge" / "torch_messages.json"
BUG = "metal-bug-fixed-later"
UPGRADE = "python3 -m pip install --upgrade torch"
ISSUES = "https://github.com/pytorch/pytorch/issues"


@dataclass(frozen=True)
class Match:
    """A row of the messages table as ``messages.match`` gives it (the fields the judgement reads)."""

    cause: str | None
    format: str
    condition: str
    first_seen: str
    last_seen: str
    fixed_in: str | None
    macos: str | None
    source: str | None
    line: int
    text: str


def message(message_id: str, line: int, text: str) -> Match:
    rows = json.loads(MESSAGES.read_text(encoding="utf-8"))["messages"]
    row: dict[str, Any] = next(r for r in rows if r["id"] == message_id)
    source = (row.get("source") or {}).get("file")
    first, last = row["releases"][0][0], row["releases"][-1][1]
    return Match(row["cause"], row["format"], row["condition"], first, last, row["fixed_in"], row["macos"], source,
                 line, text)  # fmt: skip


def given(monkeypatch: pytest.MonkeyPatch, *found: Match) -> None:
    monkeypatch.setattr(unmatched, "messages_lookup", lambda: lambda text: list(found))


# ---- a message of the table ----------------------------------------------------------------------------

HISTC = "RuntimeError: \"histc_mps\" not implemented for 'Long'"
HISTC_FIX = unmatched.CLASS_FIX["mps-unsupported-feature"]
ASSERTION = table.BY_ID["metal-assertion"]  # the first row of the bug class: its fix is the class's
BUG_FIX = Remediation(ASSERTION.fix, tuple(table.fill(c, {"python": "python3"}) for c in ASSERTION.commands))


def test_a_message_of_one_release_is_said_as_that_release_and_its_class_fix(monkeypatch) -> None:
    found = message("md7d97d6796", 2, HISTC)
    given(monkeypatch, found)
    summary = (
        f"torch's MPS message “{found.format}” (aten/src/ATen/native/mps/operations/HistogramKernel.mm; "
        "unimplemented; printed by torch 2.15.0)"
    )
    lines = ["PyTorch version: 2.15.0", HISTC]
    assert explain_text("\n".join(lines)).cause == Cause(
        "mps-unsupported-feature",
        summary,
        Remediation(HISTC_FIX, (UPGRADE,)),
        (Evidence(2, HISTC),),
        "aten/src/ATen/native/mps/operations/HistogramKernel.mm",
        (),
        "torch-message",
    )
    note = (
        "the table of torch's messages classes it mps-unsupported-feature: if this torch is 2.15.0 or newer, the "
        "call passes what the MPS op does not accept (check with: python3 -c 'import torch; print(torch.__version__)')"
    )
    undated = explain_text("\n".join(["# user: on an M2", HISTC])).cause
    assert undated == Cause(
        BUG,
        summary,
        BUG_FIX,
        (Evidence(2, HISTC),),
        "aten/src/ATen/native/mps/operations/HistogramKernel.mm",
        (note,),
        "torch-message",
    )
    older = explain_text("\n".join(["PyTorch version: 2.14.1", HISTC])).cause
    assert (older.id, older.notes) == (BUG, (note,))  # a torch before the one that prints it


CONV3D = "RuntimeError: Conv3D is only supported on MPS for MacOS_13_2 or newer"


def test_a_message_fixed_later_and_naming_a_macos_gives_both_commands_first(monkeypatch) -> None:
    found = message("me60a771daf", 1, CONV3D)
    given(monkeypatch, found)
    assert explain_text(CONV3D).cause == Cause(
        "op-needs-newer-macos",
        f"torch's MPS message “{found.format}” (aten/src/ATen/native/mps/operations/Convolution.mm; macos-version; "
        "printed by torch 2.3.0 to 2.8.0); fixed by torch >= 2.9.0; needs macOS >= 13.2",
        Remediation(
            unmatched.CLASS_FIX["op-needs-newer-macos"],
            ("python3 -m pip install --upgrade 'torch>=2.9.0'", "softwareupdate --list", UPGRADE),
        ),
        (Evidence(1, CONV3D),),
        "aten/src/ATen/native/mps/operations/Convolution.mm",
        (),
        "torch-message",
    )


def test_an_argument_check_dropped_by_a_later_release_is_a_bug_fixed_later_without_a_note(monkeypatch) -> None:
    text = "RuntimeError: /* Matrix vector multiplication, used for small M size for matrix multiplication as well."
    found = message("mbdb02e671b", 1, text)
    given(monkeypatch, found)
    cause = explain_text("\n".join(["PyTorch version: 2.5.1", text])).cause
    assert (cause.id, cause.notes) == (BUG, ())
    assert cause.fix == Remediation(ASSERTION.fix, ("python3 -m pip install --upgrade 'torch>=2.6.0'", UPGRADE))


def test_the_class_fix_comes_from_a_row_or_the_causes_table_of_that_class(monkeypatch) -> None:
    pool = "RuntimeError: Adaptive pool MPS: input sizes must be divisible by output sizes."
    given(monkeypatch, message("md5684128f7", 1, pool))
    row = next(r for r in table.TABLE if r.cause == "device-mismatch")
    cause = explain_text(pool).cause
    assert cause.id == "device-mismatch"
    values = {"python": "python3", "macos_or": ""}
    assert cause.fix == Remediation(table.fill(row.fix, values), tuple(table.fill(c, values) for c in row.commands))
    # stand-in: the real histc message with a class of the causes table that no row has
    real = message("md7d97d6796", 1, HISTC)
    given(monkeypatch, Match("x86_64-python", *list(real.__dict__.values())[1:]))
    assert not any(r.cause == "x86_64-python" for r in table.TABLE)
    entry = CAUSES["x86_64-python"]
    cause = explain_text(HISTC).cause
    assert cause.id == "x86_64-python"
    values = {"python": "python3", "conda_arm64": conda_arm64_create()}
    assert cause.fix == Remediation(entry.fix, tuple(table.fill(c, values) for c in entry.commands))
    assert not any("{" in c for c in cause.fix.commands)  # every template filled: {conda_arm64} too


def test_a_message_without_a_source_or_a_class_is_said_from_the_table(monkeypatch) -> None:
    text = "RuntimeError: torch.mps.is_available() without MPS backend."
    found = message("ma564672765", 1, text)
    given(monkeypatch, found)
    cause = explain_text(text).cause
    assert cause.source == "mpscheck/knowledge/torch_messages.json"
    assert cause.summary == f"torch's MPS message “{found.format}” (availability; printed by torch 2.1.0 to 2.15.0)"
    classless = Match(None, found.format, "other", "2.1.0", "2.1.0", None, None, None, 1, text)
    given(monkeypatch, classless)
    assert explain_text(text).cause.id == BUG


def test_a_table_that_fails_or_is_absent_costs_only_its_own_answer(monkeypatch) -> None:
    def broken(text: str) -> list[Match]:
        raise ValueError("a broken table")

    monkeypatch.setattr(unmatched, "messages_lookup", lambda: broken)
    assert explain_text(HISTC).cause.variant == "unrecognised"
    monkeypatch.setattr(unmatched, "messages_lookup", lambda: None)
    assert explain_text(HISTC).cause.variant == "unrecognised"
    monkeypatch.undo()
    monkeypatch.setattr(unmatched.importlib, "import_module", _no_module)
    assert unmatched.messages_lookup() is None


def _no_module(name: str) -> object:
    raise ImportError(name)


# ---- unrecognised errors and crashes ---------------------------------------------------------------------

UNRECOGNISED_FIX = Remediation(
    "Upgrade torch (and macOS) and run it again; if it persists on the newest release, report it to PyTorch with "
    "the op, the dtypes and the shapes.",
    (UPGRADE,),
)
TAIL = "; in torch's MPS code such failures are most often backend bugs that a later torch fixed"


def test_an_unrecognised_error_or_crash_is_said_as_it_is(monkeypatch) -> None:
    monkeypatch.setattr(unmatched, "messages_lookup", lambda: None)
    error = "RuntimeError: something went wrong in the kernel"
    assert explain_text(error).cause == Cause(
        BUG, f"an error no known rule recognises: “{error}”" + TAIL, UNRECOGNISED_FIX,
        (Evidence(1, error),), ISSUES, (), "unrecognised",
    )  # fmt: skip
    crash = "zsh: segmentation fault  python train.py"
    lines = [error, crash]
    assert explain_text(error).next_step == "mpscheck doctor --format markdown"
    crashed = explain_text("\n".join(lines)).cause
    assert crashed == Cause(
        BUG,
        f"an error no known rule recognises (“{error}”), and the process crashed (zsh: segmentation fault)" + TAIL,
        UNRECOGNISED_FIX,
        (Evidence(1, error), Evidence(2, crash)),
        ISSUES,
        (),
        "unrecognised",
    )
    alone = explain_text(crash).cause
    said = "the process crashed (zsh: segmentation fault) and nothing in the paste says why"
    assert (alone.summary, alone.fix, alone.variant) == (said + TAIL, UNRECOGNISED_FIX, "unrecognised")
    assert alone.evidence == (Evidence(1, crash),)


def test_an_illegal_instruction_crash_is_a_build_for_another_cpu_said_exactly(monkeypatch) -> None:
    monkeypatch.setattr(unmatched, "messages_lookup", lambda: None)
    crash = "zsh: illegal hardware instruction  python run_localGPT.py --device_type mps"
    wrong_build = Cause(
        "wrong-arch-wheel",
        "the process ran a CPU instruction this Mac does not have (illegal hardware instruction): native code built "
        "for another CPU, not an MPS failure. On Apple silicon either the Python is x86_64 under Rosetta and a "
        "library uses AVX, which Rosetta does not translate, or a library was built for another CPU",
        Remediation(
            "Check the Python's architecture: x86_64 means Rosetta, so install an arm64 Python and reinstall there; "
            "arm64 means the native library that crashed was built for another CPU: reinstall it with this "
            "interpreter, bypassing pip's cache (pip install --force-reinstall --no-cache-dir on that package).",
            ("python3 -c 'import platform; print(platform.machine())'",),
        ),
        (Evidence(2, crash),),
        "https://github.com/PromtEngineer/localGPT/issues/509; https://github.com/marella/gpt4all-j/issues/7",
    )
    assert explain_text("# user: on my M1 Max\n" + crash).cause == wrong_build
    # after an error no row knows, the crash still says what broke: the evidence is the crash's line
    error = "RuntimeError: something went wrong in the kernel"
    assert explain_text(f"{error}\n{crash}").cause == wrong_build
    # no other crash is read so
    assert explain_text("zsh: bus error  python app.py").cause.id == BUG


# ---- torch's own default watermark, and the low one ---------------------------------------------------------


def test_torchs_own_default_high_ratio_refused_is_a_torch_bug_in_each_spelling() -> None:
    _, remedy = None, table.BY_ID["metal-assertion"]
    fix = Remediation(remedy.fix, tuple(table.fill(c, {"python": "python3"}) for c in remedy.commands))
    for value in ("1.7", "1.70", "1.7."):
        line = f"RuntimeError: invalid high watermark ratio {value}"
        shown = value.rstrip(".")
        assert explain_text(line).cause == Cause(
            BUG,
            f"torch refused its own default high watermark ratio ({shown}), which nothing in the paste sets: a "
            "torch bug on Macs with a discrete GPU, fixed by a later torch",
            fix,
            (Evidence(1, line),),
            "https://github.com/pytorch/pytorch/pull/91268",
        ), value
    for other in ("RuntimeError: invalid high watermark ratio 1.71", "RuntimeError: invalid low watermark ratio 1.7"):
        assert explain_text(other).cause.id == "watermark-invalid", other
    cut = "RuntimeError: invalid high watermark ratio "  # the line cut before the value: not torch's default
    row = table.BY_ID["watermark"]
    values = {"python": "python3", "which_upper": "HIGH"}
    assert explain_text(cut).cause == Cause(
        "watermark-invalid",
        table.fill(row.summary, values),
        Remediation(table.fill(row.fix, values), tuple(table.fill(c, values) for c in row.commands)),
        (Evidence(1, cut),),
        row.source,
    )


def test_a_low_ratio_over_the_high_one_names_where_the_high_one_is_set() -> None:
    row = table.BY_ID["watermark"]
    line = "RuntimeError: invalid low watermark ratio 1.4"
    values = {"python": "python3", "which": "low", "value": "1.4"}
    fix = Remediation(table.fill(row.fix, values), tuple(table.fill(c, values) for c in row.commands))
    high = "PYTORCH_MPS_HIGH_WATERMARK_RATIO"
    assert explain_text(line).cause == Cause(
        "watermark-invalid",
        "torch refuses the first MPS allocation: the low watermark ratio (1.4, the default on Apple silicon) may not "
        f"exceed the high one, so {high} is set below it somewhere: the shell, a .env file, or the venv's activate "
        "script",
        fix,
        (Evidence(1, line),),
        row.source,
    )
    raised = ["export PYTORCH_MPS_HIGH_WATERMARK_RATIO=1.0", "RuntimeError: invalid low watermark ratio 1.5."]
    assert explain_text("\n".join(raised)).cause.summary == (
        f"torch refuses the first MPS allocation: {high}=1.0 is set, and the low watermark ratio (1.5) may not "
        "exceed it"
    )  # the ratio torch printed, its full stop dropped
    cut = explain_text("RuntimeError: invalid low watermark ratio ").cause  # cut before the value: the default
    assert cut.summary == explain_text(line).cause.summary
    lines = [f"export {high}=0.5", line]
    assert explain_text("\n".join(lines)).cause == Cause(
        "watermark-invalid",
        f"torch refuses the first MPS allocation: {high}=0.5 is set, and the low watermark ratio (1.4) may not "
        "exceed it",
        fix,
        (Evidence(1, lines[0]), Evidence(2, line)),
        row.source,
    )


def test_torchs_own_log_lines_and_fallback_messages_are_not_errors(monkeypatch) -> None:
    for message_id in ("m8c7628d9be", "m19bc9cb3ae"):  # mps-diagnostic-output, op-fallback-warning
        given(monkeypatch, message(message_id, 1, HISTC))
        assert explain_text(HISTC).cause.variant == "unrecognised", message_id


def test_a_message_on_a_line_a_row_already_judged_is_not_said_again(monkeypatch) -> None:
    warning = (
        "UserWarning: The operator 'aten::upsample_bicubic2d.out' is not currently supported on the MPS backend "
        "and will fall back to run on the CPU."
    )
    given(monkeypatch, message("md7d97d6796", 1, warning))  # stand-in: a real message placed on the warning's line
    diagnosis = explain_text(warning)
    assert [c.id for c in [diagnosis.cause, *diagnosis.others]] == ["op-fallback-warning"]
    given(monkeypatch, message("md7d97d6796", 2, HISTC))
    diagnosis = explain_text("\n".join([warning, HISTC]))
    assert [c.id for c in [diagnosis.cause, *diagnosis.others]] == [BUG, "op-fallback-warning"]
    assert diagnosis.cause.variant == "torch-message"
