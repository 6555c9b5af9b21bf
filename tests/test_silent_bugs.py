"""The table of known silent-correctness MPS bugs (knowledge/silent_bugs.json) and how ops flags them."""

from __future__ import annotations

import re

from mpscheck.knowledge import ops as real_table
from mpscheck.knowledge.silent_bugs import affecting, bugs, hits
from mpscheck.ops.prediction import predict
from mpscheck.ops.recording import OpUse, Recording

ISSUE = re.compile(r"^https://github\.com/pytorch/pytorch/issues/\d+$")
PULL = re.compile(r"^https://github\.com/pytorch/pytorch/pull/\d+$")


def test_every_row_cites_its_issue_and_says_how_it_was_fixed() -> None:
    known = set(real_table.known_releases())
    assert len(bugs()) >= 5
    for bug in bugs():
        assert ISSUE.match(bug.issue) and bug.ops and bug.what and bug.fixed_why
        assert bug.fixed_by is None or PULL.match(bug.fixed_by)
        assert bug.fixed_in is None or bug.fixed_in in known
        assert bug.affected_from is None or bug.affected_from in known
        assert all(op.startswith("aten::") and "." not in op for op in bug.ops)


def test_the_release_range_and_the_macos() -> None:
    embedding = hits("aten::embedding", ("float32",), "2.13.0", (14, 0))
    assert [bug.id for bug in embedding] == ["mps-embedding-over-2pow31"]
    assert hits("aten::embedding", ("float32",), "2.14.0", (14, 0)) == []  # fixed in 2.14 (#187109)
    assert hits("aten::embedding", ("float32",), "2.11.0", (14, 0)) == []  # the issue names 2.12 on
    # Needs macOS 15: not on 14, and a fixed release is clear on any macOS.
    assert hits("aten::bitwise_and.Tensor", ("bool",), "2.6.0", (15, 0))
    assert not hits("aten::bitwise_and.Tensor", ("bool",), "2.6.0", (14, 0))
    assert not hits("aten::bitwise_and.Tensor", ("bool",), "2.7.0", (15, 0))
    # A dtype filter: the matmul row is for float32 only.
    assert hits("aten::mm", ("float32",), "2.9.0", None) and not hits("aten::mm", ("float16",), "2.9.0", None)


def test_ops_lists_the_known_bugs_without_calling_them_problems() -> None:
    recording = Recording(ops=[OpUse("aten::embedding", 3, ("float32", "int64"), ("cpu",))])
    prediction = predict(recording, real_table, "2.13.0", (14, 0))
    assert [bug["id"] for bug in prediction.silent_bugs] == ["mps-embedding-over-2pow31"]
    assert prediction.silent_bugs[0]["fix"] == "upgrade to torch>=2.14.0"
    assert prediction.ready  # shown beside the verdict: most need a shape the recording does not know
    assert predict(recording, real_table, "2.14.0", (14, 0)).silent_bugs == []


def test_the_count_for_a_release_and_macos() -> None:
    ids = {bug.id for bug in affecting("2.6.0", (15, 0))}
    assert "mps-bitwise-noncontiguous-output" in ids and "mps-embedding-over-2pow31" not in ids
