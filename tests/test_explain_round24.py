"""The classes of input the twenty-fourth out-of-sample round (2026-11-24, Apple's and Apple-adjacent projects that
run torch on the Mac: co-tracker, SAM 2, stable-fast-3d, audiocraft, Depth-Anything-V2, mlx-examples' torch
conversion scripts) found explain missing, each read generally:

- CUDA written into the code, told in words with no error shown ("It seems cuda is hardcorded somewhere",
  "Currently the code only support CUDA enabled devices"): the code asks for CUDA on a Mac;
- a Mac named only as the user types it ("on MAC-M1") stands for the Mac where no system is shown, for that reading;
- wrong results told as an all-zero result ("my depth returns a zero matrix") or a darker one ("dark texture output
  of MPS backend"), said near mps: wrong results on mps, never "not enough evidence".

The texts are lines of the round's threads (tests/corpus names each) and the same shapes in other words.
"""

from __future__ import annotations

import pytest

from mpscheck.checks.causes import explain_text

CUDA_IN_THE_CODE = [
    "# user: How can I run this code on MAC-M1 or cpu? It seems cuda is hardcorded somewhere.",  # co-tracker#9
    "# user: On my M2 MacBook Air it fails: cuda is hard-coded in the predictor.",
    "# user: I'm on an M1 Pro. The device seems hardcoded to cuda in demo.py.",
    "# user: Im currently using M3 Silicon on a MacBook Pro. Currently the code only support CUDA enabled devices.",
    "# user: my Mac Studio: the repo only works with CUDA, is mps planned?",
]


@pytest.mark.parametrize("words", CUDA_IN_THE_CODE)
def test_cuda_written_into_the_code_told_in_words_on_a_mac_is_cuda_requested(words: str) -> None:
    diagnosis = explain_text(words)
    assert diagnosis.cause.id == "cuda-requested-on-mac"
    assert diagnosis.exit_code == 1


@pytest.mark.parametrize(
    "words",
    [
        "# user: the code only supports CUDA, and this box is a Ubuntu 22.04 server",  # not a Mac
        "# user: It seems cuda is hardcoded somewhere.",  # no Mac named anywhere
        "# user: my M3 MacBook does not have cuda, so I use mps",  # what the Mac lacks, asked by nothing
    ],
)
def test_cuda_words_without_a_mac_or_without_the_code_asking_are_not_cuda_requested_on_a_mac(words: str) -> None:
    assert explain_text(words).cause.id != "cuda-requested-on-mac"


WRONG_RESULTS = [
    "# user: If I change both my model and map_location to 'mps' then the function runs but my depth returns a zero "
    "matrix...",  # Depth-Anything-V2#265
    "# user: dark texture output of MPS backend on Mac M1 Pro",  # stable-fast-3d#37
    "# user: with device='mps' the model gives all-zero tensors, on the CPU it is fine",
    "# user: the MPS run produces darker images than the CPU run",
]


@pytest.mark.parametrize("words", WRONG_RESULTS)
def test_an_all_zero_or_darker_result_said_near_mps_is_wrong_results(words: str) -> None:
    diagnosis = explain_text(words)
    assert diagnosis.cause.id == "metal-bug-fixed-later"
    assert diagnosis.cause.variant == "wrong-results"
    assert diagnosis.exit_code == 1  # never healthy, never "not enough evidence"


@pytest.mark.parametrize(
    "words",
    [
        "# user: I use dark mode in the terminal, and the mps run finished fine",  # no result called dark
        "# user: I pad the input with a zero tensor before the model; then the run on the CPU works",  # no mps near
    ],
)
def test_dark_and_zero_words_that_call_no_result_wrong_on_mps_are_not_wrong_results(words: str) -> None:
    assert explain_text(words).cause.variant != "wrong-results"
