"""The op coverage table against dated public reports of a missing MPS op.

Each row: the op torch named ("The operator 'aten::X' is not currently implemented for the MPS
device", or the fallback warning), the torch the reporter ran, the date, and the thread. How the
version is known is said in the row: ``stated`` (the reporter gave it), ``nightly`` (a nightly of
release N: the op was missing in N's development branch, so also in the release before it, which
is what is checked), or ``date`` (no version given: the release current on that date is checked,
which assumes the reporter was up to date; the weakest kind). For every row the table must say
that release has no MPS kernel for the op. Where it does not, the row is listed in DISAGREEMENTS
with what we know, and the test pins that answer so a change in the table is noticed.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest

from mpscheck.knowledge.versions import parse_version

table = pytest.importorskip("mpscheck.knowledge.ops", reason="the op coverage table (feat/knowledge) is not merged")


class Report(NamedTuple):
    op: str
    torch: str  # the release to check (see the module docstring for nightly and date rows)
    how: str  # stated | nightly | date
    date: str
    source: str


REPORTS = (
    Report("aten::roll", "2.0.0", "stated", "2023-03-16", "https://github.com/pytorch/pytorch/issues/96942"),
    Report("aten::isin.Tensor_Tensor_out", "2.0.1", "stated", "2024-09-16",
           "https://github.com/pytorch/pytorch/issues/136148"),
    Report("aten::pow.Scalar_out", "2.0.1", "stated", "2023-08-03",
           "https://github.com/pytorch/pytorch/issues/77764 (comment by thatcherfreeman)"),
    Report("aten::linalg_qr.out", "2.2.0", "stated", "2024-07-09",
           "https://github.com/pytorch/pytorch/issues/77764 (comment by doctabot0129)"),
    Report("aten::upsample_bicubic2d.out", "2.3.1", "stated", "2024-07-31",
           "https://github.com/opendatalab/MinerU/issues/260"),
    Report("aten::logspace.out", "2.7.1", "stated", "2025-07-06",
           "https://github.com/pytorch/pytorch/issues/141287 (comment by Axfff)"),
    Report("aten::_ctc_loss", "2.7.1", "stated", "2025-08-16", "https://github.com/pytorch/pytorch/issues/160829"),
    # 2.7.0.dev20250107: missing on the 2.7 development branch, so missing in 2.6.0.
    Report("aten::_upsample_bicubic2d_aa.out", "2.6.0", "nightly", "2025-01-13",
           "https://github.com/pytorch/pytorch/issues/141287 (comment by chicman)"),
    # A nightly of 2025-02-24 (the 2.7 branch): missing in 2.6.0.
    Report("aten::linalg_cholesky_ex.L", "2.6.0", "nightly", "2025-02-24",
           "https://github.com/pytorch/pytorch/issues/77764 (comment by jlchereau)"),
    # "Verified missing on 2.15.0a0 (main @ f62c80cfbd7)": missing in 2.14.0.
    Report("aten::fractional_max_pool2d.output", "2.14.0", "nightly", "2026-09-21",
           "https://github.com/pytorch/pytorch/issues/197847"),
    # No version given; 2.0.0 was the release of the day (2023-03-15).
    Report("aten::_fft_r2c", "2.0.0", "date", "2023-04-04", "https://github.com/pytorch/pytorch/issues/98272"),
    # No version given; 2.5.1 was the release of the day (2024-10-29).
    Report("aten::grid_sampler_3d", "2.5.1", "date", "2024-12-14", "https://github.com/Comfy-Org/ComfyUI/issues/6041"),
    # No version given; 2.5.1 was the release of the day.
    Report("aten::_linalg_solve_ex.result", "2.5.1", "date", "2024-12-02",
           "https://github.com/pytorch/pytorch/issues/77764 (comment by danie1ll)"),
    # No version given; 2.7.0 (2025-04-23) was the release of the day.
    Report("aten::_standard_gamma", "2.7.0", "date", "2025-05-11",
           "https://github.com/pytorch/pytorch/issues/77764 (comment by PhilKoGIT)"),
)  # fmt: skip

# Rows where the table does not say "no MPS kernel", with the table's answer and what we know.
DISAGREEMENTS: dict[str, tuple[str, str]] = {}


def _release(wanted: str) -> str:
    """The newest release in the table not after *wanted* (2.0.1 is judged by 2.0.x as the table has it)."""
    target = parse_version(wanted) or ()
    known = [r for r in table.known_releases() if (parse_version(r) or ()) <= target]
    assert known, f"the table starts after {wanted}"
    return known[-1]


def test_there_are_at_least_twelve_dated_reports() -> None:
    assert len(REPORTS) >= 12
    assert all(r.source.startswith("https://github.com/") and r.how in ("stated", "nightly", "date") for r in REPORTS)


@pytest.mark.parametrize("report", REPORTS, ids=[f"{r.op}@{r.torch}" for r in REPORTS])
def test_the_table_says_no_mps_kernel_in_the_reported_release(report: Report) -> None:
    release = _release(report.torch)
    kind = table.op_kind(report.op, release)
    if report.op in DISAGREEMENTS:
        assert kind == DISAGREEMENTS[report.op][0]
        return
    assert kind == "none", f"{report.op} in {release}: the table says {kind}; {report.source} says it was missing"


def test_the_first_release_with_a_kernel_agrees_with_a_report_of_the_fix() -> None:
    """OpenBMB/MiniCPM-V#490 (2024-08-20): the missing aten::isin.Tensor_Tensor_out was solved by
    "pytorch update 2.4"."""
    assert table.first_mps_release("aten::isin.Tensor_Tensor_out") == "2.4.0"
