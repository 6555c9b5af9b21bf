"""Rows of the known-errors table (joined into ``MORE_EARLY`` of knowledge/error_texts.py) for torch's dispatcher
message ("Could not run 'aten::X' with arguments from the 'MPS' backend") where the op it names says more than
the message: an op reached under the MPS key only by a tensor on the wrong device. Before the row that reads the
message as a torch built without MPS, which is what it means for a factory op (aten::empty.memory_format).
"""

from __future__ import annotations

from mpscheck.knowledge.error_rows import TORCH_ISSUE, Row

DISPATCH: tuple[Row, ...] = (
    Row(
        # the message before pytorch#86844 gave it its own words: the CPU convolution reached with the weights on
        # mps and the input on the CPU; users quote its second sentence alone (discuss.pytorch.org/t/152189)
        "cpu-conv-under-mps",
        r"Could not run '(?P<op>aten::_slow_conv2d_(?:forward|backward))' with arguments from the 'MPS' backend"
        # (the second sentence as a forum's editor typesets it too, in curly quotes)
        r"|['\u2018](?P<op2>aten::_slow_conv2d_(?:forward|backward))['\u2019] is only available for these backends",
        "device-mismatch",
        "{op} is the CPU convolution: torch reaches it for a model on mps only when the input is on the CPU (the "
        "weights on mps); a tensor and the model are on different devices",
        "Move the model and every input to the same device: model.to(device) and x = x.to(device), with "
        "device = torch.device('mps'); the CPU fallback variable does not make this op run on mps.",
        (),
        "aten/src/ATen/native/Convolution.cpp (select_conv_backend: the slow CPU path when the input is not on mps); "
        "https://github.com/pytorch/pytorch/pull/86844; " + TORCH_ISSUE + "86195",
    ),
)
