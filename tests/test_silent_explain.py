"""explain names a known silent-correctness bug (knowledge/silent_bugs.json) when a paste shows wrong values or
NaN on mps, the torch version and an op the table names; otherwise the cause stays as it was.

Every paste here is text of the tuning corpus (tests/corpus/*.txt), whole or as lines joined from several
cases: no tuning paste shows all three at once. Where a branch needs a row the real table lacks, a real row
with one field changed stands in (said at the test).
"""

from __future__ import annotations

import dataclasses

import pytest

from mpscheck.checks.causes.judge import explain_text
from mpscheck.checks.causes.model import Cause
from mpscheck.checks.causes.silent import shown_ops
from mpscheck.knowledge import silent_bugs as table
from tests.corpus_cases import CORPUS, load


def paste(name: str) -> str:
    return load(CORPUS / f"{name}.txt").paste


def line(name: str, starts: str) -> str:
    return next(text for text in paste(name).split("\n") if text.lstrip().startswith(starts))


# collect_env's line of pytorch/pytorch#146236; the user's repl stating a wrong result (#118115); a call of
# torch.isfinite (the line torch printed in #80278); NaN latents on mps:0 (diffusers#11229).
TORCH_2_6 = line("pytorch-146236-rosetta-bf16", "PyTorch version:")
WRONG = paste("pytorch-118115-addcdiv-noncontiguous")
ISFINITE = line("pytorch-80278-bitwise-and-fallback-warning", "nonzero_finite_vals")
NAN = paste("diffusers-11229-sdxl-slicing-nan")


def cause(text: str) -> Cause:
    return explain_text(text).cause


def test_without_a_shown_op_or_torch_version_the_cause_is_unchanged() -> None:
    plain = cause(WRONG)
    assert plain.id == "metal-bug-fixed-later" and plain.variant == "wrong-results"
    assert cause(f"{TORCH_2_6}\n{WRONG}").summary == plain.summary  # a version, no op of the table
    assert cause(f"{WRONG}{ISFINITE}\n").summary == plain.summary  # an op, no version
    cumsum = cause(paste("pytorch-90635-cumsum-int-wrong"))  # version shown, cumsum is in no row
    assert "known silent-correctness bug" not in cumsum.summary


def test_a_release_before_the_bug_is_not_told_it_has_it() -> None:
    # mps-isfinite-noncontiguous-slice: the issue names 2.11.0 as the first affected release
    found = cause(f"{TORCH_2_6}\n{WRONG}{ISFINITE}\n")
    assert found.variant == "wrong-results" and "mps-isfinite" not in found.summary


def test_an_op_named_in_the_fallback_warning_ran_on_the_cpu() -> None:
    assert "aten::bitwise_and" not in shown_ops(paste("pytorch-80278-bitwise-and-fallback-warning"))
    assert "aten::isfinite" in shown_ops(paste("pytorch-80278-bitwise-and-fallback-warning"))


def test_an_open_bug_is_named_with_its_issue_and_what_to_avoid(monkeypatch: pytest.MonkeyPatch) -> None:
    # stand-in: the real isfinite row, counted from every release (its issue names 2.11 first)
    row = dataclasses.replace(
        next(b for b in table.bugs() if b.id == "mps-isfinite-noncontiguous-slice"), affected_from=None
    )
    monkeypatch.setattr(table, "bugs", lambda: (row,))
    for text in (f"{TORCH_2_6}\n{WRONG}{ISFINITE}\n", f"{TORCH_2_6}\n{NAN}{ISFINITE}\n"):
        found = cause(text)
        assert found.id == "metal-bug-fixed-later" and found.variant in ("wrong-results", "nan")
        assert "torch 2.6.0a0+git1eba9b3 has a known silent-correctness bug of isfinite on mps" in found.summary
        assert "mps-isfinite-noncontiguous-slice" in found.summary and "not fixed in a release yet" in found.summary
        assert found.source == row.issue == "https://github.com/pytorch/pytorch/issues/183419"
        assert found.fix is not None and found.fix.summary.startswith("Run isfinite on the CPU when ")
        assert any(note.startswith("mps-isfinite-noncontiguous-slice needs: ") for note in found.notes)
        assert any(e.text == ISFINITE for e in found.evidence)


def test_a_fixed_bug_gives_its_release_and_the_upgrade_command(monkeypatch: pytest.MonkeyPatch) -> None:
    # stand-in: the real embedding row's release range and fix (2.12 - 2.13, fixed in 2.14.0 by PR #187109)
    # given to isfinite, the one op of the table a tuning paste calls
    embedding = next(b for b in table.bugs() if b.id == "mps-embedding-over-2pow31")
    row = dataclasses.replace(embedding, ops=frozenset({"aten::isfinite"}), affected_from=None)
    monkeypatch.setattr(table, "bugs", lambda: (row,))
    found = cause(f"{TORCH_2_6}\n{WRONG}{ISFINITE}\n")
    assert "mps-embedding-over-2pow31" in found.summary and "fixed in torch 2.14.0" in found.summary
    assert "https://github.com/pytorch/pytorch/issues/188756" in found.summary
    assert found.fix is not None and found.fix.commands == ("python3 -m pip install --upgrade 'torch>=2.14.0'",)
    assert any("https://github.com/pytorch/pytorch/pull/187109" in note for note in found.notes)
