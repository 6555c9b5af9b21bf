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
