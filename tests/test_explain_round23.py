"""The classes of input the twenty-third out-of-sample round (2026-11-24; Lightning, Ultralytics, ComfyUI and its
custom nodes, Forge, SD.Next threads of 2024-2026) found explain missing, each read generally: a notebook's
traceback header that names only Lightning's MisconfigurationException (its message cut), and a CUDA request on a
Mac whose macOS is below MPS's minimum (front ends ask for CUDA when torch reports no MPS).

The texts are lines of the round's threads (tests/corpus names each).
"""

from __future__ import annotations

from mpscheck.checks.causes import explain_text

# Lightning-AI/pytorch-lightning#19868: Jupyter's header, the message cut by the reporter.
HEADER = "MisconfigurationException                 Traceback (most recent call last)"


def test_a_notebook_header_naming_lightnings_misconfiguration_is_its_mps_check() -> None:
    text = "print(torch.backends.mps.is_available())\n> True\n" + HEADER + "\nCell In[13], line 1\n"
    diagnosis = explain_text(text)
    assert diagnosis.cause.id == "lightning-processor"
    assert diagnosis.cause.fix is not None
    assert any("platform.processor()" in command for command in diagnosis.cause.fix.commands)


def test_the_header_is_read_only_with_jupyters_padding_and_the_class_name() -> None:
    # the bare word in prose, and another exception's header, are not Lightning's check
    assert explain_text("# user: I get a MisconfigurationException").cause.id != "lightning-processor"
    other = "ValueError                                Traceback (most recent call last)"
    assert explain_text(other).cause.id != "lightning-processor"


def test_a_message_that_names_the_accelerator_still_wins_over_the_header() -> None:
    text = (
        HEADER + "\nMisconfigurationException: `MPSAccelerator` can not run on your system since the accelerator is "
        "not available. The following accelerator(s) is available and can be passed into `accelerator` argument of "
        "`Trainer`: ['cpu']."
    )
    diagnosis = explain_text(text)
    assert diagnosis.cause.id == "lightning-processor"
    assert diagnosis.cause.evidence[0].text.startswith("MisconfigurationException: `MPSAccelerator`")


# Comfy-Org/ComfyUI#5723: an M1 on Big Sur 11.1, ComfyUI asks for CUDA at import.
CUDA = "AssertionError: Torch not compiled with CUDA enabled"


def test_a_cuda_request_on_a_macos_below_the_mps_floor_is_the_macos() -> None:
    text = "# user: Device: MacBook Pro M1\n# user: System: MacOS Big Sur 11.1\n" + CUDA
    diagnosis = explain_text(text)
    assert diagnosis.cause.id == "macos-too-old"
    assert diagnosis.cause.fix is not None and "macOS" in diagnosis.cause.fix.summary


def test_a_cuda_request_on_a_new_enough_macos_stays_the_cuda_request() -> None:
    text = "# user: Device: MacBook Pro M1\n# user: System: macOS Sonoma 14.5\n" + CUDA
    assert explain_text(text).cause.id == "cuda-requested-on-mac"
    assert explain_text(CUDA).cause.id == "cuda-requested-on-mac"
