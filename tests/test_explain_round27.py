"""Round 27 of real pastes (NLP, embeddings, retrieval and speech libraries), pinned by class, not by paste.

- the user's words that the run went back to the CPU or uses one core, and that torch sees the GPU
  (probes/paste/prose.py CPU_ONLY, MPS_AVAILABLE_SAID), placed on a Mac: mps-not-requested, never healthy;
- a macOS-gated op that names the int64 dtype it refused, and torch 1.13's blanket int64 refusal of unary
  ops: int64-op-needs-newer-macos, with the macOS the message names;
- one torch release said to work where another fails (probes/paste/older_torch.py).
"""

from __future__ import annotations

from mpscheck.checks.causes import explain_text
from mpscheck.knowledge import errors as table
from mpscheck.probes.paste import read


def value(text: str, fact: str) -> object:
    found = read(text).get(fact)
    return None if found is None else found.value


# ---- int64 refused by an op on this macOS or this torch ----

ISIN_GATE = "RuntimeError: isin_Tensor_Tensor_out only works on floating types on MPS for pre MacOS_14_0."
ISIN = f"{ISIN_GATE} Received dtype: Long"
SIGN = "Operation 'sign_out_mps()' does not support input type 'int64' in MPS backend."


def test_a_macos_gated_message_that_received_int64_is_the_int64_class_with_its_macos() -> None:
    cause = explain_text(ISIN).cause
    assert cause.id == "int64-op-needs-newer-macos"
    assert cause.variant == "torch-message"
    assert cause.fix is not None
    assert cause.fix.summary == "Cast the tensor to int32 before the op, or upgrade macOS (14.0 or later) and torch."
    assert "softwareupdate --list" in cause.fix.commands


def test_a_macos_gated_message_of_a_float_dtype_stays_op_needs_newer_macos() -> None:
    assert explain_text(f"{ISIN_GATE} Received dtype: Bool").cause.id == "op-needs-newer-macos"


def test_torch_113s_unary_int64_refusal_is_read_by_the_int64_row() -> None:
    hits = table.find([f"ERROR:    2024-05-28 01:23:19,041 - controller:answer:336 - {SIGN}"])
    assert [(h.row.id, dict(h.groups)) for h in hits] == [("int64-op", {"op": "sign", "macos_or": "13.3"})]
    cause = explain_text(f"TypeError: {SIGN}\n# user: MacBook Air, Apple M1 chip, macOS 13.1 (22C65)").cause
    assert cause.id == "int64-op-needs-newer-macos"
    assert cause.fix is not None and "softwareupdate --list" in cause.fix.commands


def test_the_unary_refusal_of_a_float_dtype_is_not_the_int64_row() -> None:
    hits = table.find(["Operation 'sign_out_mps()' does not support input type 'float16' in MPS backend."])
    assert "int64-op" not in [h.row.id for h in hits]
