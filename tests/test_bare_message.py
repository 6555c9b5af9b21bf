"""A torch message quoted bare (issue 17): no exception class before it, in a title, a sentence or a line of
its own, read as an error line because its first five words open a message torch itself prints
(mpscheck/knowledge/torch_openings.json, generated from the wheels by tools/build_openings.py).

The pastes are real: each test names the thread it comes from.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mpscheck.checks.causes import explain_text
from mpscheck.knowledge.torch_openings import WORDS, is_mps_opening, is_torch_opening, opening_key
from mpscheck.probes.paste import read
from mpscheck.probes.paste.bare_message import bare_message
from tests import tools_loader

TABLE = Path(__file__).resolve().parent.parent / "mpscheck" / "knowledge" / "torch_openings.json"
RELEASES = TABLE.parent / "torch_releases.json"
VIEW = "view size is not compatible with input tensor's size and stride"


def test_opening_key_is_five_lowercased_words_from_the_start() -> None:
    assert WORDS == 5
    assert opening_key(VIEW) == "view size is not compatible"
    assert opening_key("Using 'mps' - " + VIEW, 14) == "view size is not compatible"
    assert opening_key("Expected all tensors to be on the same device") == "expected all tensors to be"


def test_opening_key_needs_five_words_and_a_first_word_that_opens_a_sentence() -> None:
    assert opening_key("view size is not") is None
    assert opening_key("is not compatible with input tensor") is None  # the tail of a sentence
    assert opening_key("for the MPS device. If you want") is None


def test_the_table_knows_torchs_generic_messages_and_not_prose() -> None:
    assert is_torch_opening(opening_key(VIEW))
    assert is_torch_opening(opening_key("The size of tensor a (3) must match the size of tensor b (4)"))
    assert is_torch_opening(opening_key("User specified an unsupported autocast device_type 'mps'"))  # Python
    assert not is_torch_opening(opening_key("It works fine on the CPU but not on my M2"))
    assert not is_torch_opening(None)


def test_messages_of_the_mps_table_are_left_to_it() -> None:
    assert is_mps_opening(opening_key("Placeholder storage has not been allocated on MPS device!"))
    assert not is_mps_opening(opening_key(VIEW))
    assert not is_mps_opening(None)


def test_the_table_is_generated_for_every_release_read() -> None:
    table = json.loads(TABLE.read_text(encoding="utf-8"))
    releases = json.loads(RELEASES.read_text(encoding="utf-8"))["releases"]
    assert table["format"] == 1 and table["words"] == WORDS
    assert set(table["releases"]) == set(releases)
    assert table["openings"] == sorted(set(table["openings"]))
    assert all(len(key.split()) == WORDS for key in table["openings"])


@pytest.mark.parametrize(
    ("line", "message"),
    [
        # ultralytics#18184's title
        ("Using 'mps' - " + VIEW + ". Use .reshape(...) instead", VIEW + ". Use .reshape(...) instead"),
        # pytorch#142344's title: the message in quotes inside the user's sentence
        (
            'RuntimeError when running backward on MPS: "view size is not compatible" with self-attention block',
            "view size is not compatible",
        ),
        # Lightning#20386: the message alone on its line
        (VIEW, VIEW),
        (
            "# user: then it says “view size is not compatible with input tensor's size” and stops",
            "view size is not compatible with input tensor's size",
        ),
        # a loguru line at the error level: the message after the last bar
        ("2024-05-01 10:00:00.123 | ERROR    | app:run:12 | " + VIEW, VIEW),
    ],
)
def test_a_bare_message_is_read_from_its_first_word(line: str, message: str) -> None:
    assert bare_message(line) == message


@pytest.mark.parametrize(
    "line",
    [
        "RuntimeError: " + VIEW,  # error_line.py reads it, with its class
        "UserWarning: " + VIEW,  # a warning, read as one
        "Error: " + VIEW,  # error_line.py's tool error line
        "Placeholder storage has not been allocated on MPS device!",  # the MPS messages table's
        "[W NNPACK.cpp:51] Could not initialize NNPACK! Reason: Unsupported hardware.",  # torch's log: a warning
        # a log line below the error level quotes no error of this run: AUTOMATIC1111 prints this one on every Mac
        "Warning: caught exception 'Torch not compiled with CUDA enabled', memory monitor disabled",
        "2024-05-01 10:00:00.123 | WARNING  | app:run:12 - " + VIEW,
        "INFO: " + VIEW,
        '    raise RuntimeError("view size is not compatible with input tensor")',  # code
        "I tried everything but it is still not compatible with my Mac",
        # lines of GitHub's issue templates and of what users write around an error
        "Steps to reproduce the behavior:",
        "https://github.com/pytorch/pytorch/issues/142397",  # a link torch's messages also print (tamago#113)
        "Expected behavior: the model should train on the GPU without any error",
        "Describe the bug: when I run the training script it crashes at the first step",
        "Additional context: I am using an M1 Max with 64 GB of memory",
        "This issue has been automatically marked as stale because it has not had recent activity",
        "Is there an existing issue for this? I have searched the existing issues",
        "What should have happened? The image should be generated on the GPU",
        "Note: you may need to restart the kernel to use updated packages.",
        "Please note that the MPS backend is still in beta, so it may be unstable",
        "The model is running on the CPU even though MPS is available",
        "Using device: mps - the training is much slower than on the CPU",
        "It seems that the current version of PyTorch does not support this operation on MPS",
        "The model runs, but the size of the output is wrong",
        "",
    ],
)
def test_other_lines_are_not_bare_messages(line: str) -> None:
    assert bare_message(line) is None


def test_a_title_only_error_is_an_error_not_a_lack_of_evidence() -> None:
    """ultralytics#18184: the whole paste is the title; the thread's cause is an MPS failure of torch."""
    result = explain_text("Using 'mps' - " + VIEW + ". Use .reshape(...) instead")
    assert result.cause.id == "metal-bug-fixed-later"
    assert result.exit_code == 1


def test_automatic1111s_start_up_warning_leaves_a_healthy_run_healthy() -> None:
    """The webui catches its own CUDA probe on every Mac and says so at the warning level: no error of the run."""
    paste = (
        "Warning: caught exception 'Torch not compiled with CUDA enabled', memory monitor disabled\n"
        "tensor([1., 2., 3.], device='mps:0')"
    )
    assert not [o for o in read(paste).observations if o.fact == "paste.error_line"]


def test_a_bare_message_outranks_a_healthy_banner() -> None:
    """A run that printed mps as its device and then stopped on a quoted torch error is not healthy."""
    paste = "tensor([1., 2., 3.], device='mps:0')\nthen the backward pass fails with: " + VIEW
    result = explain_text(paste)
    assert result.exit_code != 0
    assert any(o.fact == "paste.error_line" for o in read(paste).observations)


def test_hostile_lines_stay_fast_and_quiet() -> None:
    """Many starts on one line: only the first MAX_STARTS are tried, and nothing is read from noise."""
    assert bare_message("'a " * 2000) is None
    assert bare_message(": x" * 2000) is None


# tools/build_openings.py on strings recorded from torch 2.13.0's macOS wheel (libtorch_cpu.dylib)


@pytest.fixture(scope="module")
def build() -> object:
    return tools_loader.load_tool("build_openings")


def test_the_builder_keeps_message_openings_only(build: object) -> None:
    strings = [
        "view size is not compatible with input tensor's size and stride (at least one dimension spans across two "
        "contiguous subspaces). Use .reshape(...) instead.",
        "Expected all tensors to be on the same device, but found at least two devices, ",
        " but got ",  # a piece after a value
        "air-alias-scopes(hardshrink_dense_float_float_float)air-alias-scope-arg(1",  # Metal bitcode metadata
        "is not compatible with the requested dtype of the ",  # a sentence's tail
        "kernel void fill_scalar_dense(device float* out [[buffer(0)]],",  # shader source
        "Too few words here",
    ]
    assert build.openings(strings) == {"view size is not compatible", "expected all tensors to be"}  # type: ignore[attr-defined]


def test_the_builder_drops_links(build: object) -> None:
    assert not build.is_wanted("https github com pytorch pytorch")  # type: ignore[attr-defined]
    assert build.is_wanted("view size is not compatible")  # type: ignore[attr-defined]


def test_the_builder_reads_python_messages_up_to_their_first_value(build: object) -> None:
    source = (
        "def f(x):\n"
        "    raise RuntimeError(f'User specified an unsupported autocast device_type {x}')\n"
        "    raise ValueError(f'{x} is not a valid device for this call at all')\n"
        "    warnings.warn('Short text ' + x)\n"
    )
    assert build.python_openings(source) == {"user specified an unsupported autocast"}  # type: ignore[attr-defined]
    assert build.python_openings("def (:") == set()  # type: ignore[attr-defined]
