"""The classes of input the 46th out-of-sample round (2026-11-25: pytorch/pytorch issues of 2023-2024 labelled
module: mps, or naming MPS in the title: op limits, int64, wrong results, crashes, an OS-exposed regression) found
explain missing, each read generally:

- torch's int64 refusal of a reduction in its other wordings: "MPS does not support min/max ops with int64 input"
  (a slash in the op's name, "ops" plural) and torch 2.0's internal assert "min/max not supported for Long dtype on
  MPS" (Long is torch's C++ name of int64): no int64 kernel before macOS 13.3 (knowledge/errors.py, the int64-op row);
- torch 2.2 on macOS 14.4+ (silently wrong results, pytorch#122016), which the macOS check finds: a torch bug that
  macOS exposed and torch 2.3 fixed, so its cause is metal-bug-fixed-later, not macos-too-old (checks/macos.py sets
  the cause on its outcome; checks/registry.py's Outcome and model.Finding carry it to the judge).

The texts are lines of the round's pastes (tests/corpus names each) and other wordings of the same classes.
"""

from __future__ import annotations

from mpscheck.checks.causes import explain_text
from mpscheck.knowledge.errors import BY_ID

INT64_OP = BY_ID["int64-op"]


def test_an_int64_refusal_of_a_reduction_in_torchs_other_wordings() -> None:
    """Class: torch's refusal of int64 for an MPS op, told with a compound op name ("min/max"), the plural "ops", or
    by the C++ name Long inside an internal assert: the same cause as "MPS does not support cumsum op with int64
    input" (int64-op-needs-newer-macos), not a dtype MPS never supports, nor a crash fixed later."""
    for line in (
        "RuntimeError: MPS does not support min/max ops with int64 input",  # pytorch#94515
        "RuntimeError: MPS does not support cumsum op with int64 input",
        "RuntimeError: MPS does not support argmax op with int64 input",
        'RuntimeError: input_t.scalar_type() != ScalarType::Long INTERNAL ASSERT FAILED at "/Users/runner/work/'
        'pytorch/pytorch/pytorch/aten/src/ATen/native/mps/operations/ReduceOps.mm":1196, please report a bug to '
        "PyTorch. min/max not supported for Long dtype on MPS",  # pytorch#91565
        "RuntimeError: argmax not supported for Long dtype on MPS",
        "RuntimeError: sort is not supported for Long dtype on MPS",
    ):
        assert INT64_OP.pattern.search(line), line
        assert explain_text(line).cause.id == "int64-op-needs-newer-macos", line
    for line in (
        "RuntimeError: MPS does not support min/max ops with float16 input",
        "min/max not supported for Long dtype on CUDA",
        "TypeError: Trying to convert Long to the MPS backend but it does not have support for that dtype.",
        "# user: MPS does not support all ops yet, with or without int64 inputs",
        "RuntimeError: Long is not supported for this op on the CPU",
    ):
        assert not INT64_OP.pattern.search(line), line


def test_torch_2_2_on_macos_14_4_is_a_torch_bug_fixed_later_not_an_old_macos() -> None:
    """Class: torch 2.2.x on macOS 14.4 or later (any report that shows both: collect_env, a banner, a REPL), where
    torch's MPS code gave silently wrong results after an OS change (pytorch#122016, fixed in torch 2.3 by
    pytorch#123234): the cure is a newer torch, so the cause is metal-bug-fixed-later; the macOS is not too old.
    Other torch releases or older macOS releases are not this finding."""
    masked = (
        "x_mps[x_mps == 2] = -1\n"
        "tensor([[-1,  2, -1],\n        [ 1, -1,  3]], device='mps:0')\n"
        "PyTorch version: 2.2.2\nIs debug build: False\n\nOS: macOS 14.4.1 (arm64)\n"
    )
    for text in (
        masked,  # pytorch#126919
        "PyTorch version: 2.2.1\nOS: macOS 14.5 (arm64)\nPython platform: macOS-14.5-arm64-arm-64bit\n",
        "PyTorch version: 2.2.0\nOS: macOS 15.0 (arm64)\nPython platform: macOS-15.0-arm64-arm-64bit\n",
    ):
        cause = explain_text(text).cause
        assert cause.id == "metal-bug-fixed-later", text
        assert cause.fix is not None and "2.3" in cause.fix.summary, text
    for text in (
        "PyTorch version: 2.3.0\nOS: macOS 14.4.1 (arm64)\nPython platform: macOS-14.4.1-arm64-arm-64bit\n",
        "PyTorch version: 2.2.2\nOS: macOS 14.3 (arm64)\nPython platform: macOS-14.3-arm64-arm-64bit\n",
    ):
        assert "122016" not in explain_text(text).cause.summary, text
