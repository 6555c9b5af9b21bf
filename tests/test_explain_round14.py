"""The classes of input the fourteenth out-of-sample round (2026-11-24, the PyTorch forums: discuss.pytorch.org)
found explain missing, each read generally: torch's dispatcher message for the CPU convolution reached under the
MPS backend (the weights on mps, the input on the CPU), whole or only its second sentence quoted in prose.

The texts are lines of the round's threads (tests/corpus names each).
"""

from __future__ import annotations

from mpscheck.checks.causes import explain_text

DISPATCHER = (
    "NotImplementedError: Could not run 'aten::_slow_conv2d_forward' with arguments from the 'MPS' backend. This "
    "could be because the operator doesn't exist for this backend, or was omitted during the selective/custom build "
    "process (if using custom build)."
)


def test_the_cpu_convolution_under_the_mps_backend_is_a_device_mismatch() -> None:
    # before pytorch#86844 gave it its own words, torch said so through the dispatcher: not a torch without MPS
    for line in (DISPATCHER, DISPATCHER.replace("_forward", "_backward")):
        diagnosis = explain_text(line)
        assert diagnosis.cause.id == "device-mismatch", line
        assert diagnosis.cause.fix is not None and "x.to(device)" in diagnosis.cause.fix.summary
        assert "aten::_slow_conv2d_" in diagnosis.cause.summary
    # the same message for a factory op is still a torch built without MPS, and slow_conv3d (Conv3d had no MPS
    # kernel before torch 2.3) is not read as a mismatch
    assert explain_text(DISPATCHER.replace("_slow_conv2d_forward", "empty.memory_format")).cause.id == (
        "torch-not-built-with-mps"
    )
    assert explain_text(DISPATCHER.replace("_slow_conv2d_forward", "slow_conv3d_forward")).cause.id != (
        "device-mismatch"
    )


def test_the_dispatchers_second_sentence_quoted_alone_in_prose() -> None:
    # discuss.pytorch.org/t/152189: curly quotes and an ellipsis, as the forum's editor typesets them
    text = (
        "Case in point: I load a random pytorch model, do“mps”) and upon running the model get an error such as:\n"
        "\n"
        "‘aten::_slow_conv2d_forward’ is only available for these backends: SparseCPU … …\n"
    )
    assert explain_text(text).cause.id == "device-mismatch"
    bracketed = "'aten::_slow_conv2d_forward' is only available for these backends: [CPU, Meta, SparseCPU]."
    assert explain_text(bracketed).cause.id == "device-mismatch"
    # another op's list of backends says nothing about devices
    other = "'aten::_fft_r2c' is only available for these backends: [CPU, CUDA]."
    assert explain_text(other).cause.id != "device-mismatch"


def test_slowness_on_mps_told_in_words_names_the_causes_that_tell_it_apart() -> None:
    # discuss.pytorch.org/t/191237 (title and body), ChatTTS#742 (a title in Chinese): no error, no figure
    for text in (
        "Optim.step() is significantly SLOW on MPS",
        "However, if we look at optim.step(), which should be a very simple step, it is way too slow, especially on "
        "MPS, which is nonsense.",
        "为什么mac mps 加速比cpu 慢",
        "The GPU is slower than the CPU for my model",
    ):
        diagnosis = explain_text(text)
        assert (diagnosis.cause.id, diagnosis.cause.variant) == ("not-enough-evidence", "slow"), text
        assert diagnosis.exit_code != 0  # slowness is never a pass
        assert diagnosis.cause.fix is not None
        assert diagnosis.cause.fix.commands == (
            "mpscheck ops -- python your_script.py",
            "mpscheck doctor --format markdown",
        )
        assert "fall back to the CPU" in diagnosis.cause.fix.summary and "memory" in diagnosis.cause.fix.summary
        assert diagnosis.cause.evidence and diagnosis.cause.evidence[0].text == text


def test_slowness_of_the_cpu_or_in_torchs_own_words_is_not_said_of_mps() -> None:
    for text in (
        "but when I change mps as cpu generating can work well but too slow",  # ng-video-lecture#35: the CPU's
        "it is slow",  # no device named
        "slow_conv2d runs on mps",  # an op's name, not a word
    ):
        assert explain_text(text).cause.variant != "slow", text
    # torch's NotImplementedError says "slower than running natively on MPS": the error is the cause
    error = (
        "NotImplementedError: The operator 'aten::_fft_r2c' is not currently implemented for the MPS device. As a "
        "temporary fix, you can set the environment variable `PYTORCH_ENABLE_MPS_FALLBACK=1` to use the CPU as a "
        "fallback for this op. WARNING: this will be slower than running natively on MPS."
    )
    assert explain_text(error).cause.id == "op-not-implemented"
    # a comparison still counts where the CPU comes first ("mps 加速比cpu 慢": mps slower than the CPU)
    assert explain_text("on my M2 the cpu run is faster, mps is slower").cause.variant == "slow"


def test_a_healthy_paste_that_also_says_slow_stays_read_by_its_evidence() -> None:
    # positive evidence of mps (a tensor on mps:0) outranks words: slowness is no failure of MPS itself
    text = ">>> torch.ones(1, device='mps')\ntensor([1.], device='mps:0')\nbut training is slow on mps\n"
    assert explain_text(text).cause.id == "healthy"
