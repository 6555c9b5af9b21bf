"""Round 27 of real pastes (NLP, embeddings, retrieval and speech libraries), pinned by class, not by paste.

- the user's words that the run went back to the CPU or uses one core, and that torch sees the GPU
  (probes/paste/prose.py CPU_ONLY, MPS_AVAILABLE_SAID), placed on a Mac: mps-not-requested, never healthy;
- a macOS-gated op that names the int64 dtype it refused, and torch 1.13's blanket int64 refusal of unary
  ops: int64-op-needs-newer-macos, with the macOS the message names;
- one torch release said to work where another fails (probes/paste/older_torch.py).
"""

from __future__ import annotations

import pytest

from mpscheck.checks.causes import explain_text
from mpscheck.knowledge import errors as table
from mpscheck.probes.paste import read


def value(text: str, fact: str) -> object:
    found = read(text).get(fact)
    return None if found is None else found.value


# ---- the CPU told in words, and torch's GPU said to be there ----


@pytest.mark.parametrize(
    "line",
    [
        "# user: I believe it keeps reverting to the cpu.",
        "the model kept defaulting to the CPU",
        "# user: but vec2text.invert_embeddings is running on just one core. Any suggestions?",
        "I still see all computation happening on one core out of 10.",
        "it uses only one core",
    ],
)
def test_the_run_gone_back_to_the_cpu_or_on_one_core_is_the_cpu_used(line: str) -> None:
    assert value(line, "paste.device_used") == "cpu"


@pytest.mark.parametrize(
    "line",
    [
        "the dataloader uses 8 cores",
        "running on one of the cores",
        "reverting to the cpu fixed it",  # what the user did, not what the run does on its own
        "one core is enough for the tokenizer",
    ],
)
def test_near_misses_of_the_cpu_told_are_not_read(line: str) -> None:
    assert value(line, "paste.device_used") is None


@pytest.mark.parametrize(
    "line",
    [
        "# user: On my machine, torch.backends.mps.is_available() shows true, but it is slow",
        "torch.backends.mps.is_available() returns True",
        "`torch.backends.mps.is_available()` printed `True`",
    ],
)
def test_torch_said_to_see_the_gpu_is_read(line: str) -> None:
    assert value(line, "paste.mps_available_said") is True


@pytest.mark.parametrize(
    "line",
    [
        "if torch.backends.mps.is_available() is True:",
        "torch.backends.mps.is_available() returns False",
        "device = 'mps' if torch.backends.mps.is_available() else 'cpu'",
    ],
)
def test_code_and_a_false_are_not_torch_said_to_see_the_gpu(line: str) -> None:
    assert value(line, "paste.mps_available_said") is None


def test_the_gpu_said_available_and_one_busy_core_is_mps_not_requested() -> None:
    text = (
        "# user: On my machine, torch.backends.mps.is_available() shows true, but vec2text.invert_embeddings is "
        "running on just one core. Any suggestions?"
    )
    cause = explain_text(text).cause
    assert cause.id == "mps-not-requested"
    assert cause.fix is not None and "device='mps'" in cause.fix.summary
    assert [e.line for e in cause.evidence] == [1]


def test_the_gpu_said_available_alone_is_no_evidence_that_mps_works() -> None:
    diagnosis = explain_text("# user: torch.backends.mps.is_available() shows true")
    assert diagnosis.cause.id == "not-enough-evidence"
    assert diagnosis.exit_code != 0


def test_is_available_shown_true_and_the_cpu_said_used_is_not_healthy() -> None:
    text = ">>> torch.backends.mps.is_available()\nTrue\n# user: it only uses the cpu"
    diagnosis = explain_text(text)
    assert diagnosis.cause.id == "mps-not-requested"
    assert diagnosis.exit_code == 1


def test_is_available_shown_true_with_no_words_stays_healthy() -> None:
    assert explain_text(">>> torch.backends.mps.is_available()\nTrue").cause.id == "healthy"


def test_the_cpu_said_used_with_no_mac_shown_is_not_placed_on_a_mac() -> None:
    assert explain_text("# user: it keeps reverting to the cpu").cause.id == "not-enough-evidence"


@pytest.mark.parametrize(
    ("line", "darwin"),
    [
        ("# user: The Apple Silicon GPU (MPS) is not detected, even when using `use_gpu=True`.", True),
        ("Does this library support Apple Silicon GPUs?", False),
    ],
)
def test_the_apple_silicon_gpu_is_the_users_mac(line: str, darwin: bool) -> None:
    assert (value(line, "host.system") == "Darwin") is darwin


def test_the_apple_silicon_gpu_not_used_by_a_use_gpu_flag_is_mps_not_requested() -> None:
    text = (
        "# user: The Apple Silicon GPU (MPS) is not detected, even when using `use_gpu=True`.\n"
        "# user: Is there any way to use the MPS GPU?"
    )
    assert explain_text(text).cause.id == "mps-not-requested"


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


# ---- one torch release said to work where another fails ----


@pytest.mark.parametrize(
    "line",
    [
        "# user: - model.generate works fine on torch 2.7.1 but in 2.8.0 (on macos at least), it goes haywire",
        "Forcing torch back to 2.7.1 also worked for me.",
        "it worked with pytorch 2.1, but 2.2 breaks it",
    ],
)
def test_one_release_said_to_work_where_another_fails_is_read(line: str) -> None:
    assert value(line, "paste.older_torch_works") is True


@pytest.mark.parametrize(
    "line",
    [
        "forcing torch back to 2.7.1",  # no result said
        "it works on python 3.10 but 3.11 fails",  # Python's release, not torch's
        "forcing the device back to cpu worked",
    ],
)
def test_near_misses_of_a_release_said_to_work_are_not_read(line: str) -> None:
    assert value(line, "paste.older_torch_works") is None


def test_a_release_said_to_work_with_mps_named_is_a_bug_fixed_later() -> None:
    text = (
        "# user: model.generate works fine on torch 2.7.1 but in 2.8.0 (on macos at least), it goes haywire\n"
        "# user: macos 15.6.1\n"
        "# user: I was using mps."
    )
    cause = explain_text(text).cause
    assert cause.id == "metal-bug-fixed-later"
    assert cause.fix is not None and any("--upgrade" in c for c in cause.fix.commands)


# ---- a message hard-wrapped just before a space ----


def test_a_piece_cut_just_before_a_space_is_joined_onto_the_wrapped_line() -> None:
    from mpscheck.probes.paste.normalise import join_wrapped

    first = f"{ISIN_GATE[:-12]}"  # "... on MPS for pre"
    lines = [first.ljust(80, "x")[:80], " MacOS_14_0. Received dtype: Long", "x" * 80, "next"]
    assert join_wrapped(lines)[0] == lines[0] + lines[1]


def test_a_wrapped_isin_message_is_the_int64_class_as_unwrapped() -> None:
    text = f"{ISIN}\n" + "y" * 80
    wrapped = "\n".join(line[i : i + 80] for line in text.split("\n") for i in range(0, len(line), 80))
    assert " MacOS_14_0. Received dtype: Long" in wrapped.split("\n")
    assert explain_text(wrapped).cause.id == "int64-op-needs-newer-macos"


def test_a_record_indented_by_two_spaces_is_not_joined() -> None:
    from mpscheck.probes.paste.normalise import join_wrapped

    lines = ["a" * 80, '  File "x.py", line 1, in <module>', "b" * 80]
    assert join_wrapped(lines)[1] == lines[1]
