"""Errors no hand-written row knows, the watermark ratios and the silent bugs, judged exactly
(checks/causes/unmatched.py, memory.py, silent.py): a message of the generated table with the releases
that print it (one release, or a span), the fix of its class (a row's, the causes table's, the class's
own), an argument check told apart by the torch shown, an unrecognised error or crash, NaN or wrong
results on mps with the known bug of a shown op, and torch's own default watermark refused.

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
from mpscheck.checks.causes.silent import name_known_bug, shown_ops
from mpscheck.checks.installing import conda_arm64_create
from mpscheck.knowledge import errors as table
from mpscheck.knowledge import silent_bugs
from mpscheck.knowledge.causes import CAUSES
from mpscheck.model import Remediation
from tests.corpus_cases import CORPUS, load

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


# ---- NaN or wrong results, and the known bug of a shown op --------------------------------------------------

ISFINITE = "nonzero_finite_vals = torch.masked_select(tensor_view, torch.isfinite(tensor_view) & tensor_view.ne(0))"


def test_shown_ops_reads_calls_and_aten_names_with_their_first_line() -> None:
    text = "\n".join(["x", ISFINITE, "aten::bmm", "y.bmm_(z)", "aten::isfinite"])
    assert shown_ops(text) == {"aten::isfinite": 2, "aten::bmm": 3}


def test_an_open_bug_of_a_shown_op_keeps_the_fix_and_adds_what_to_avoid() -> None:
    bug = next(b for b in silent_bugs.bugs() if b.id == "mps-isfinite-noncontiguous-slice")
    assert bug.fixed_in is None and bug.affected_from == "2.11.0"
    fix = Remediation("Compare.", (UPGRADE,))
    cause = Cause(BUG, "the results are wrong", fix, (Evidence(1, "wrong"),), ISSUES, ("n",), "wrong-results")
    text = "\n".join(["wrong", ISFINITE])
    named = name_known_bug(cause, text, "2.11.0", None, "python3")
    assert named == Cause(
        BUG,
        f"the results are wrong; torch 2.11.0 has a known silent-correctness bug of isfinite on mps: {bug.id} "
        f"({bug.what}; {bug.issue}), not fixed in a release yet",
        Remediation(
            f"Run isfinite on the CPU when {bug.condition}: no release fixes {bug.id} yet. Compare.", (UPGRADE,)
        ),
        (Evidence(1, "wrong"), Evidence(2, ISFINITE)),
        bug.issue,
        ("n", f"{bug.id} needs: {bug.condition}"),
        "wrong-results",
    )
    bare = Cause(BUG, "s", None, (), ISSUES)
    assert name_known_bug(bare, text, "2.11.0", None, "python3").fix == Remediation(
        f"Run isfinite on the CPU when {bug.condition}: no release fixes {bug.id} yet. ", ()
    )
    assert name_known_bug(cause, text, "2.10.0", None, "python3") is cause  # before the bug
    assert name_known_bug(cause, text, None, None, "python3") is cause  # no torch shown


def test_a_fixed_bug_of_a_shown_op_is_upgraded_past_and_the_others_are_noted() -> None:
    bug = next(b for b in silent_bugs.bugs() if b.id == "mps-embedding-over-2pow31")
    assert bug.fixed_in and bug.fixed_by
    cause = Cause(BUG, "s", Remediation("Compare.", (UPGRADE,)), (), ISSUES)
    text = "\n".join(["aten::embedding", ISFINITE])
    named = name_known_bug(cause, text, "2.12.0", None, "python3")
    isfinite = next(b for b in silent_bugs.bugs() if b.id == "mps-isfinite-noncontiguous-slice")
    assert named == Cause(
        BUG,
        f"s; torch 2.12.0 has a known silent-correctness bug of embedding on mps: {bug.id} ({bug.what}; "
        f"{bug.issue}), fixed in torch {bug.fixed_in}",
        Remediation(
            f"Upgrade torch to {bug.fixed_in} or later, which fixes {bug.id}.",
            (f"python3 -m pip install --upgrade 'torch>={bug.fixed_in}'",),
        ),
        (Evidence(1, "aten::embedding"),),
        bug.issue,
        (
            f"{bug.id} needs: {bug.condition}",
            f"fixed by {bug.fixed_by} ({bug.fixed_why})",
            f"also known for this torch: {isfinite.id} ({isfinite.issue})",
        ),
    )


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


# ---- NaN, the user's word of wrong results, a checkpoint loaded onto mps (tuning corpus cases) -------------


def corpus(name: str) -> str:
    return load(CORPUS / f"{name}.txt").paste


def numbered(text: str, *numbers: int) -> tuple[Evidence, ...]:
    lines = text.split("\n")
    return tuple(Evidence(n, lines[n - 1]) for n in numbers)


def test_nan_on_mps_and_the_users_word_of_wrong_results_are_said_exactly() -> None:
    nan = corpus("diffusers-11229-sdxl-slicing-nan")
    at = [n for n, line in enumerate(nan.split("\n"), 1) if line.lstrip().startswith("tensor([[[[nan")]
    on_mps = [n for n, line in enumerate(nan.split("\n"), 1) if "device='mps:0'" in line]
    assert explain_text(nan).cause == Cause(
        BUG,
        "the results on mps are NaN (the run finished, so no error names the op)",
        Remediation(
            "Compare with the same run on the CPU (device='cpu') to find the op, and upgrade torch (and macOS): "
            "wrong or NaN results on mps are mostly backend bugs fixed in later releases; float32 instead of "
            "float16 rules out an overflow.",
            (UPGRADE,),
        ),
        numbered(nan, at[0], on_mps[0]),
        ISSUES,
        (),
        "nan",
    )
    wrong = corpus("pytorch-118115-addcdiv-noncontiguous")
    said = [n for n, line in enumerate(wrong.split("\n"), 1) if "NOT same" in line]
    expected = Cause(
        BUG,
        "the paste says the results on mps are wrong, and shows no error that would explain it",
        Remediation(
            "Compare the op on the CPU and on mps to find the first that differs, and upgrade torch (and macOS): "
            "wrong results on mps are mostly backend bugs fixed in later releases (.contiguous() before the op, or "
            "float32, are the usual workarounds meanwhile).",
            (UPGRADE,),
        ),
        numbered(wrong, said[0]),
        ISSUES,
        (),
        "wrong-results",
    )
    assert explain_text(wrong).cause == expected
    nan_on_cpu = "tensor([[nan, nan, nan]])"  # NaN with no tensor on mps: the user's word decides
    both = wrong + nan_on_cpu + "\n"
    assert explain_text(both).cause == expected


def test_an_error_inside_torch_load_with_map_location_mps_is_the_checkpoint_row() -> None:
    text = corpus("pytorch-77874-load-map-location-mps-jupyter")
    row = table.BY_ID["mps-checkpoint-load"]
    first_error = next(n for n, line in enumerate(text.split("\n"), 1) if line.startswith("RuntimeError"))
    where = next(n for n, line in enumerate(text.split("\n"), 1) if "map_location=" in line)
    fix = Remediation(row.fix, tuple(table.fill(c, {"python": "python3"}) for c in row.commands))
    assert explain_text(text).cause == Cause(
        "mps-checkpoint-load", row.summary, fix, numbered(text, where, first_error), row.source
    )
    without_load = text.replace("/torch/serialization.py", "/torch/other.py")
    assert explain_text(without_load).cause.id != "mps-checkpoint-load"


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
