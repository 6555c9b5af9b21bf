"""The classes of input the twenty-second out-of-sample round (2026-11-24, pytorch/pytorch's own MPS issues of
2024-2026) found explain missing, each read generally:

- an older torch said to work where this one fails on mps ("forced install PyTorch 2.4 instead of 2.5 and this
  workaround fixed the issue", "Reverting back to 2.4.0 works", "MPS Regression ... (after pytorch2.4.1)"): a
  regression of the newer torch, a backend bug fixed later, where mps is named and no error is shown;
- "fails ... on MPS, but works on CPU" with code quoted between the failure word and mps ("fails during
  `loss.backward()` on MPS backend");
- "CPU is unaffected": the trouble is the mps run's alone;
- one result set against another ("MPS result does not match CPU result"): wrong results on mps.

The texts are lines of the round's threads (tests/corpus names each) and the same shapes in other words.
"""

from __future__ import annotations

import pytest

from mpscheck.checks.causes import explain_text
from mpscheck.probes.paste.older_torch import OLDER_TORCH_WORKS
from mpscheck.probes.paste.prose import ONLY_ON_MPS, _mps_fails_cpu_works

OLDER_TORCH_LINES = [
    "For now I forced install PyTorch 2.4 instead of 2.5 and this workaround fixed the issue for me",  # #143123
    "I'm still experiencing this issue on 2.6.0 and 2.7.0. Reverting back to 2.4.0 works",  # pytorch#143123
    "MPS Regression when rendering LTXVideo (after pytorch2.4.1)",  # pytorch#141471
    "downgrading to torch 2.3.1 fixed it",
    "rolled back torch to 2.4 and it runs fine",
    "a regression in torch 2.5 on the mps device",
]
NOT_OLDER_TORCH_LINES = [
    "downgraded to Python 3.10 and now it works",  # an interpreter's version, not torch's
    "went back to macOS 14.5 and it works",  # a macOS version
    "I installed torch 2.5 and it works",  # no older release set against this one
    "Reverting back to 2.4.0 did not help",  # nothing said to work
    "a regression test for mps",
]


@pytest.mark.parametrize("line", OLDER_TORCH_LINES)
def test_an_older_torch_said_to_work_is_read(line: str) -> None:
    assert OLDER_TORCH_WORKS.search(line)


@pytest.mark.parametrize("line", NOT_OLDER_TORCH_LINES)
def test_other_versions_and_failures_are_not_an_older_torch_working(line: str) -> None:
    assert not OLDER_TORCH_WORKS.search(line)


def test_an_older_torch_working_on_mps_is_a_regression_fixed_later() -> None:
    paste = (
        "# user: For now I forced install PyTorch 2.4 instead of 2.5 and this workaround fixed the issue for me"
        "(allowed me to use `mps`)\n"
    )
    diagnosis = explain_text(paste)
    assert diagnosis.cause.id == "metal-bug-fixed-later"
    assert "older torch works on mps" in diagnosis.cause.summary
    assert diagnosis.cause.evidence[0].line == 1


def test_an_older_torch_working_with_no_mps_named_is_not_an_mps_bug() -> None:
    diagnosis = explain_text("# user: Reverting back to torch 2.4.0 works\n")
    assert diagnosis.cause.id != "metal-bug-fixed-later"


def test_an_error_shown_outranks_an_older_torch_said_to_work() -> None:
    paste = (
        "# user: on mps, reverting back to torch 2.4.0 works\n"
        "TypeError: Cannot convert a MPS Tensor to float64 dtype as the MPS framework doesn't support float64. "
        "Please use float32 instead.\n"
    )
    assert explain_text(paste).cause.id == "float64-unsupported"


@pytest.mark.parametrize(
    "line",
    [
        "[MPS] `torch.compile` ResNet-18 model fails during `loss.backward()` on MPS backend, but works on CPU",
        "the model fails in `model.generate()` on mps, but works on cpu",
    ],
)
def test_code_quoted_between_the_failure_and_mps_is_still_read(line: str) -> None:
    assert _mps_fails_cpu_works(line)


def test_the_quoted_failure_on_mps_is_a_backend_bug() -> None:
    paste = "# title: [MPS] `torch.compile` model fails during `loss.backward()` on MPS backend, but works on CPU\n"
    assert explain_text(paste).cause.id == "metal-bug-fixed-later"


@pytest.mark.parametrize("line", ["CPU is unaffected.", "the CPU is not affected", "CPU was unaffected"])
def test_cpu_unaffected_is_the_trouble_of_mps_alone(line: str) -> None:
    assert ONLY_ON_MPS.search(line)


def test_cpu_unaffected_with_mps_named_is_a_backend_bug() -> None:
    paste = "# user: On the MPS backend, F.conv2d reads the weight badly. CPU is unaffected.\n"
    assert explain_text(paste).cause.id == "metal-bug-fixed-later"


def test_a_result_that_does_not_match_on_mps_is_wrong_results() -> None:
    paste = 'assert cpu_result == mps_result.item(), "MPS result does not match CPU result"\n'
    diagnosis = explain_text(paste)
    assert diagnosis.cause.id == "metal-bug-fixed-later"
    assert diagnosis.cause.variant == "wrong-results"


def test_a_match_said_far_from_mps_is_not_wrong_results() -> None:
    diagnosis = explain_text("# user: the password does not match\n")
    assert diagnosis.cause.id != "metal-bug-fixed-later"
