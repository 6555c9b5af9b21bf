"""The classes of input the thirty-second out-of-sample round (2026-11-24, torch's own repositories, 2022-2023:
pytorch/pytorch's module: mps threads and pytorch/vision) found explain missing, each read generally:

- one result printed from the CPU and from mps with different values (``tensor(1) tensor(0, device='mps:0')``,
  pytorch#86052; ``log_softmax`` with ``-inf`` only on mps, pytorch#94043): mps computed wrong. Both pastes were
  called healthy before (a tensor on mps), the worst answer there is;
- Metal's buffer assertion quoted without its ``[MPSNDArray ...]`` frame ("[Device MPS] Error: buffer is not large
  enough. Must be 19200 bytes", pytorch#78916), and its line cut after Metal's source path, before the words
  (pytorch#87859): the same Metal assertion.

The texts are lines of the round's threads (tests/corpus names each) and the same shapes in other words.
"""

from __future__ import annotations

import pytest

from mpscheck.checks.causes import explain_text
from mpscheck.model import ExitCode
from mpscheck.probes.paste import read, tensor_values

DIFFER = [
    # pytorch#86052: one print of a CPU tensor and the same on mps
    "% python -c \"import torch;x=torch.arange(2);y=x[1].detach();print(y, y.to('mps'))\"\n"
    "tensor(1) tensor(0, device='mps:0')",
    # pytorch#94043's shape: the mps result with -inf, then the CPU's, finite
    "tensor([[   -inf,  -0.0353],\n        [-76.3995,  -0.0478]], device='mps:0')\n"
    "tensor([[-91.5657,  -0.0353],\n        [-76.3995,  -0.0478]])",
    # a notebook's outputs: the CPU's first, then mps's with one value apart and the rest equal
    "Out[3]: tensor([0.5000, 1.0000, 2.0000])\nOut[4]: tensor([0.5000, 1.0000, 0.0000], device='mps:0')",
    # NaN only on mps
    "tensor([1., 2.])\ntensor([nan, 2.], device='mps:0')",
]


@pytest.mark.parametrize("paste", DIFFER)
def test_one_result_printed_from_the_cpu_and_mps_apart_is_a_wrong_result_never_healthy(paste: str) -> None:
    diagnosis = explain_text(paste)
    assert diagnosis.cause.id == "metal-bug-fixed-later"
    assert "values differ" in diagnosis.cause.summary
    assert diagnosis.exit_code == ExitCode.PROBLEMS


SAME_OR_UNRELATED = [
    # the same values on both: mps works
    "tensor([1., 2., 3.])\ntensor([1., 2., 3.], device='mps:0')",
    "tensor(1) tensor(1, device='mps:0')",
    # x, then x * 2 on mps: every value apart and none infinite: a computation, not a comparison
    "tensor([1., 2., 3.])\ntensor([2., 4., 6.], device='mps:0')",
    # x, then x ** 2 on mps: one value agrees (1), most do not
    "tensor([1., 2., 3.])\ntensor([1., 4., 9.], device='mps:0')",
    # each from its own prompt: two commands, not one result printed twice
    ">>> x\ntensor(1)\n>>> x.to('mps') + 1\ntensor(2, device='mps:0')",
    # code that builds a tensor is not a printed one
    "a = tensor([1., 2.], device='mps:0')\ntensor([3., 2.])",
    # as many numbers on neither side
    "tensor([1., 2.])\ntensor([1., 2., 3.], device='mps:0')",
    # both on mps
    "tensor([1., 2.], device='mps:0')\ntensor([1., 5.], device='mps:0')",
]


@pytest.mark.parametrize("paste", SAME_OR_UNRELATED)
def test_tensors_that_are_not_one_result_apart_record_nothing(paste: str) -> None:
    assert read(paste).get("paste.values_differ") is None


def test_the_same_values_on_the_cpu_and_mps_stay_healthy() -> None:
    diagnosis = explain_text("tensor([1., 2., 3.])\ntensor([1., 2., 3.], device='mps:0')")
    assert diagnosis.cause.id == "healthy"


def test_the_difference_is_recorded_on_the_mps_tensors_line() -> None:
    paste = "tensor([1., 2.])\nsome other line\ntensor([nan, 2.], device='mps:0')"
    seen = read(paste).get("paste.values_differ")
    assert seen is not None
    assert seen.line == 3


def test_a_tensor_cut_before_its_closing_parenthesis_or_abbreviated_is_not_read() -> None:
    assert tensor_values.parse(["tensor([1., 2.,", "tensor([1., 5.], device='mps:0')"]) == []
    assert tensor_values.parse(["tensor([1., ..., 2.])", "tensor([1., ..., 5.], device='mps:0')"]) == []


def test_the_closeness_is_relative_and_infinities_count_once_each_side() -> None:
    assert tensor_values._close(1000.0, 1000.5)
    assert not tensor_values._close(1.0, 1.01)
    assert tensor_values._close(float("-inf"), float("-inf"))
    assert tensor_values._close(float("nan"), float("nan"))
    assert not tensor_values._close(float("-inf"), -91.5)


def test_a_paste_of_many_tensors_is_read_in_bounded_work() -> None:
    lines = ["tensor([1., 2.])", "tensor([1., 5.], device='mps:0')"] * 1000
    assert len(tensor_values._printed(lines)) == tensor_values.MAX_TENSORS
    hostile = ["tensor(" + "(" * 3000] * 100
    assert tensor_values.parse(hostile) == []


METAL_BUFFER = [
    "# user: [Device MPS] Error: buffer is not large enough. Must be 19200 bytes",  # pytorch#78916's title
    "Error: buffer is not large enough. Must be 600 bytes",
    # pytorch#87859: the assertion's line cut after Metal's source path
    "/AppleInternal/Library/BuildRoots/a0876c02-1788-11ed-b9c4-96898e02b808/Library/Caches/com.apple.xbs/Sources/"
    "MetalPerformanceShaders/MPSCore/Types/MPSNDArray",
]


@pytest.mark.parametrize("paste", METAL_BUFFER)
def test_metals_buffer_assertion_without_its_frame_or_cut_before_its_words_is_a_metal_bug(paste: str) -> None:
    diagnosis = explain_text(paste)
    assert diagnosis.cause.id == "metal-bug-fixed-later"
    assert diagnosis.exit_code == ExitCode.PROBLEMS


def test_a_buffer_that_is_not_large_enough_in_other_words_is_not_metals() -> None:
    assert explain_text("the buffer is not large enough for my data").cause.id != "metal-bug-fixed-later"


# pytorch#83015: a tensor copied to mps printed as memory read as floats, under a fallback warning that names MPS
GARBAGE = (
    "/opt/anaconda3/envs/m1/lib/python3.8/site-packages/torch/_tensor_str.py:103: UserWarning: The operator "
    "'aten::bitwise_and.Tensor_out' is not currently supported on the MPS backend and will fall back to run on the "
    "CPU. This may have performance implications.\n"
    "tensor([[ 1.1755e-38,  0.0000e+00,  2.8026e-45,  0.0000e+00,  7.0242e-38,\n"
    "          0.0000e+00,  0.0000e+00,  0.0000e+00,  7.1746e-43,  2.9427e-44,"
)


def test_a_printed_tensor_of_denormals_with_mps_named_is_a_wrong_result_before_the_fallback_note() -> None:
    diagnosis = explain_text(GARBAGE)
    assert diagnosis.cause.id == "metal-bug-fixed-later"
    assert "denormals" in diagnosis.cause.summary
    assert diagnosis.exit_code == ExitCode.PROBLEMS


def test_the_garbage_line_is_the_first_with_three_denormals() -> None:
    seen = read(GARBAGE).get("paste.garbage_values")
    assert seen is not None
    assert seen.line == 2


@pytest.mark.parametrize(
    "paste",
    [
        # two denormals only
        "tensor([2.8026e-45, 1.0000e+00, 7.1746e-43]) on mps",
        # FLT_MIN and larger: small, but not denormals
        "tensor([1.1755e-38, 7.0242e-38, 1.3245e-37, 8.7460e-36]) on mps",
        # code that builds such a tensor, and a prompt's command
        "x = tensor([2.8026e-45, 2.8026e-45, 2.8026e-45]) on mps",
        ">>> torch.tensor([2.8026e-45, 2.8026e-45, 2.8026e-45], device='mps')",
    ],
)
def test_fewer_denormals_smaller_exponents_or_code_are_not_garbage(paste: str) -> None:
    assert read(paste).get("paste.garbage_values") is None


def test_denormals_with_no_mps_named_are_not_an_mps_bug() -> None:
    paste = "tensor([[ 2.8026e-45,  7.1746e-43,  2.9427e-44]])"
    assert read(paste).get("paste.garbage_values") is not None
    assert explain_text(paste).cause.id != "metal-bug-fixed-later"


def test_a_printed_tensor_is_read_up_to_a_bounded_length() -> None:
    """An unclosed ``tensor(`` costs at most MAX_BODY characters: a closing parenthesis beyond them is not reached, so
    hostile text (``tensor(`` and no end, on every line of a long paste) stays cheap."""
    near = ["tensor([1.,", " " * 10 + "2.], device='mps:0')"]
    assert tensor_values._body(near, 0, len("tensor(")) == "[1.,           2.], device='mps:0'"
    far = ["tensor([" + "1., " * (tensor_values.MAX_BODY // 4), "2.])"]
    assert tensor_values._body(far, 0, len("tensor(")) is None


def test_the_printed_tensors_tried_per_paste_are_bounded() -> None:
    unclosed = ["tensor([1., 2.,"] * (tensor_values.MAX_TENSORS * 2 + 5)
    pair = ["tensor([1., 2.])", "tensor([1., 5.], device='mps:0')"]
    assert tensor_values._printed(pair)  # read when few tensors come before
    assert tensor_values._printed(unclosed + pair) == []  # past the bound nothing more is tried
