"""The one table of known errors (mpscheck/knowledge/errors.py) and its one cause vocabulary.

Adding a signature is one table row, one corpus case and one docs line, and the doctor's smoke test
recognises it too: every row's text, raised in a smoke step, is recognised with the row's cause and
given the row's fix; the same text pasted is recognised by the same row.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mpscheck.checks import REGISTRY
from mpscheck.checks.memory import read_oom
from mpscheck.checks.signatures import recognise
from mpscheck.facts import SmokeStep
from mpscheck.knowledge import errors as table
from mpscheck.knowledge.causes import CAUSES
from tests.corpus_cases import cases
from tests.test_smoke_checks import full_smoke, m1_facts
from tests.test_smoke_rules import PY, steps

DOCS = Path(__file__).resolve().parent.parent / "docs"
EXPLAIN = (DOCS / "explain.md").read_text(encoding="utf-8")
DOCUMENTED_CAUSES = set(re.findall(r"^### `([a-z0-9_-]+)`", EXPLAIN, re.M))

# Rows that no real paste in tests/corpus shows yet: the message as the row's cited source words it.
# This list may only shrink: a new row comes with a corpus case.
AWAITING_A_CASE = {
    "op-native-from-macos": "UserWarning: MPS: nonzero op is supported natively starting from macOS 13.0. "
    "Falling back on CPU. This may have performance implications.",
    "no-unified-memory": "RuntimeError: " + table.UNIFIED_MEMORY,
    "doc-hint-macos": "MPS not available because the current MacOS version is not 12.3+ and/or you do not have "
    "an MPS-enabled device on this machine.",
    # Rows added from torch's and the tools' own source wording (cited in each row), awaiting a tuning-corpus paste:
    # round 47: ultralytics#19770's copy ends before this line (its banner with no device is read instead)
    "framework-invalid-cuda-device": "ValueError: Invalid CUDA 'device=0' requested. Use 'device=cpu' or pass valid "
    "CUDA device(s) if available, i.e. 'device=0' or 'device=0,1,2,3' for Multi-GPU.",
    "fork-after-mps": "objc[4242]: +[MPSGraphObject initialize] may have been in progress in another thread when "
    "fork() was called.",
    "library-op-no-mps": "NotImplementedError: Could not run 'torchvision::nms' with arguments from the 'MPS' backend.",
    "int64-no-support": "RuntimeError: MPS: no support for int64 min/max ops, please cast it to int32",
    "homebrew-intel-prefix": "Error: Cannot install in Homebrew on ARM processor in Intel default prefix (/usr/local)!",
    "metal-command-buffer-oom": "Error: command buffer exited with error status. Insufficient Memory "
    "(00000008:kIOGPUCommandBufferCallbackErrorOutOfMemory)",
}


def corpus_lines() -> dict[str, str]:
    """row id -> the first line of a real paste in the corpus whose first matching row (in table order) it is."""
    found: dict[str, str] = {}
    for case in cases():
        for line in case.paste.split("\n"):
            hit = table.first(line)
            if hit is not None:
                found.setdefault(hit.row.id, line)
    return found


CORPUS_LINES = corpus_lines()


def example(row: table.Row) -> str:
    return CORPUS_LINES.get(row.id) or AWAITING_A_CASE[row.id]


def test_every_cause_is_a_check_id_or_a_documented_cause_id() -> None:
    for row in table.TABLE:
        assert row.cause in DOCUMENTED_CAUSES or row.cause in REGISTRY, row.id
    for cause in CAUSES:
        assert cause in DOCUMENTED_CAUSES, cause
    assert not any(hasattr(row, "legacy") for row in table.TABLE)  # no second name


@pytest.mark.parametrize("row", table.TABLE, ids=lambda r: r.id)
def test_every_row_has_a_corpus_case_and_a_docs_line(row: table.Row) -> None:
    assert (row.id in CORPUS_LINES) != (row.id in AWAITING_A_CASE), f"{row.id}: add a real paste to tests/corpus"
    assert f"| `{row.id}` | `{row.cause}` |" in EXPLAIN, f"{row.id}: add its line to docs/explain.md"


@pytest.mark.parametrize("row", table.TABLE, ids=lambda r: r.id)
def test_every_row_raised_in_a_smoke_step_is_recognised_with_its_cause_and_fix(row: table.Row) -> None:
    text = example(row)
    signature = recognise(text)
    assert signature is not None and signature.cause == row.cause, row.id
    finding = steps(SmokeStep("train", "raised", 1.0, {}, text, "RuntimeError"))["smoke-train"]
    assert finding.status.value == "fail"
    if row.id == "oom":  # read by its numbers, as a paste's is (checks/memory.py)
        reading = read_oom(dict(signature.groups), m1_facts(full_smoke()))
        assert finding.fix == reading.remedy and reading.kind in finding.summary
        return
    assert finding.fix == signature.remedy(PY), row.id  # the table's fix, not "report it"


@pytest.mark.parametrize("row", table.TABLE, ids=lambda r: r.id)
def test_the_same_text_pasted_is_matched_by_a_row_of_the_same_cause(row: table.Row) -> None:
    hits = list(table.find(example(row).split("\n")))
    assert hits and hits[0].row.cause == row.cause, row.id


def test_the_awaiting_list_only_names_rows_of_the_table() -> None:
    assert set(AWAITING_A_CASE) <= {row.id for row in table.TABLE}


@pytest.mark.parametrize("row", table.TABLE, ids=lambda r: r.id)
def test_every_row_seen_in_an_input_is_judged_by_the_error_text_check(row: table.Row) -> None:
    """The same row, seen in a paste or a saved report's facts.errors, is the error-text check's cause."""
    from mpscheck.checks.diagnose import diagnose
    from mpscheck.facts import SeenError

    facts = m1_facts(full_smoke())
    facts.errors = [SeenError(example(row), 3, row.severity)]
    found = {f.id: f for f in diagnose(facts).findings}["error-text"]
    assert f"({row.cause})" in found.summary and found.summary.startswith("line 3: ")
    assert found.status.value == ("warn" if row.severity == table.WARNING else "fail")
    assert found.fix is not None


def test_the_tables_default_macos_for_int64_ops_is_the_op_limits_one() -> None:
    from mpscheck.knowledge import error_rows
    from mpscheck.knowledge.op_limits import OP_LIMITS
    from mpscheck.knowledge.versions import parse_version

    (limit,) = [limit for limit in OP_LIMITS if limit.id == "cumsum-int64-macos13.3"]
    assert parse_version(error_rows.INT64_KERNELS_MACOS) == limit.macos_below


def test_a_metal_library_for_a_newer_metal_language_is_macos_too_old_whatever_the_version() -> None:
    # the class, not the one paste: any library, any language version, cut or not after "this OS"
    for line in (
        "RuntimeError: Failed to load metallib from /x/kernels.metallib: This library is using language version 3.2 "
        "which is not supported on this OS",
        # the real line (trellis-mac#9) with another library and version: the rule reads the class, not the path
        "RuntimeError: Failed to load metallib from /opt/ext/other.metallib: This library is using language version "
        "4.0 which is not supported on this OS",
    ):
        hit = table.first(line)
        assert hit is not None and hit.row.id == "metal-language-newer-than-os", line
        assert hit.row.cause == "macos-too-old"
    assert table.first("This library is using language version 4.0") is None


def test_the_attention_mask_rows_torch_release_is_the_op_tables() -> None:
    """transformers' refusal on mps needs torch.isin's MPS kernel: the release the row names is the generated
    op table's first release with it, not a number written by hand."""
    import json
    from pathlib import Path

    import mpscheck.knowledge as knowledge
    from mpscheck.knowledge.errors import BY_ID

    ops = json.loads((Path(knowledge.__file__).parent / "op_coverage.json").read_text())["ops"]
    first = next(release for release, kind in ops["aten::isin.Tensor_Tensor_out"]["history"] if kind == "mps")
    major_minor = ".".join(first.split(".")[:2])
    row = BY_ID["hf-attention-mask-mps"]
    assert f"torch>={major_minor}'" in row.commands[0] and f"torch {major_minor}" in row.summary
