"""The op coverage table against dated public reports of a missing (or present) MPS op.

Each report names the op as torch's error printed it and the torch release: stated in the report
("explicit"), or the newest release on the report's date ("newest on DATE") where the report only
says "latest" or gives no version but is dated. Sources are GitHub threads, read with the project's
search tools; the quotes are short excerpts of them.
"""

from __future__ import annotations

import re

import pytest

from mpscheck.knowledge import ops

MISSING = [
    # (op as printed, release, basis, source)
    ("aten::_ctc_loss", "2.7.1", "explicit: PyTorch version: 2.7.1", "pytorch/pytorch#160829 (2025-08-16)"),
    ("aten::_ctc_loss", "2.1.2", "'latest pytorch still has the same problem', 2024-01-02", "mittagessen/kraken#358"),
    ("aten::isin.Tensor_Tensor_out", "2.0.1", "explicit: torch==2.0.1", "pytorch/pytorch#136148 (2024-09-16)"),
    (
        "aten::fractional_max_pool2d.output",
        "2.15.0",
        "explicit: 'Verified missing on 2.15.0a0'",
        "pytorch/pytorch#197847 (2026-09-21)",
    ),
    ("aten::linalg_qr.out", "2.7.0", "explicit: 'torch 2.7.0'", "pytorch/pytorch#141287, comment of 2025-05-01"),
    (
        "aten::_linalg_eigh.eigenvalues",
        "2.6.0",
        "newest on 2025-04-22",
        "pytorch/pytorch#151874 (closed 2026-06-19: MPS dispatch added by #185954)",
    ),
    ("aten::grid_sampler_3d", "2.8.0", "newest on 2025-08-09; the #141287 wording", "pytorch/pytorch#160237"),
    (
        "aten::grid_sampler_3d",
        "2.7.1",
        "newest on 2025-06-06; the #141287 wording",
        "PowerHouseMan/ComfyUI-AdvancedLivePortrait#96",
    ),
    ("aten::grid_sampler_2d_backward", "2.1.2", "newest on 2024-01-05", "pytorch/pytorch#77764, comment of 2024-01-05"),
    ("aten::searchsorted.Tensor", "2.1.2", "newest on 2024-01-05", "pytorch/pytorch#77764, comment of 2024-01-05"),
]

PRESENT = [
    (
        "aten::upsample_linear1d.out",
        "2.7.0",
        "'aten::upsample_linear1d.out is available for MPS in torch 2.7.0'",
        "pytorch/pytorch#77764, comment of 2025-05-11",
    ),
    (
        "aten::linalg_qr.out",
        "2.13.0",
        "newest on 2026-06-17: the MPS kernel is reported slow, so it exists",
        "pytorch/pytorch#187567",
    ),
    (
        "aten::grid_sampler_3d",
        "2.9.0",
        "first release after '[MPS] Add grid_sampler_3d for MPS' (2025-08-13)",
        "pytorch/pytorch#160541",
    ),
]


@pytest.mark.parametrize(("op", "release", "basis", "source"), MISSING, ids=[f"{m[0]}@{m[1]}" for m in MISSING])
def test_reported_missing_ops_have_no_mps_kernel_in_that_release(
    op: str, release: str, basis: str, source: str
) -> None:
    assert ops.warning_name(op) == op  # torch printed it under this very name
    assert ops.op_kind(op, release) == "none", (op, release, basis, source)
    first = ops.first_mps_release(op)
    if first is not None:
        order = ops.known_releases()
        assert order.index(first) > order.index(release)


@pytest.mark.parametrize(("op", "release", "basis", "source"), PRESENT, ids=[f"{p[0]}@{p[1]}" for p in PRESENT])
def test_reported_present_ops_have_an_mps_kernel_in_that_release(
    op: str, release: str, basis: str, source: str
) -> None:
    assert ops.op_kind(op, release) == "mps", (op, release, basis, source)


def test_at_least_twelve_dated_reports() -> None:
    assert len(MISSING) + len(PRESENT) >= 12
    for _, _, basis, source in MISSING + PRESENT:
        assert re.search(r"\d{4}-\d{2}-\d{2}", basis + source), source  # every report is dated
