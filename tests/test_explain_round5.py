"""The classes of input the fifth out-of-sample round (2026-11-24) found explain missing, each read
generally: torch's int64 notes that cast and go on (a note, not an int64 failure), a framework's notice
that one step of an mps run goes to the CPU, torch's "natively starting from macOS N" refusal of one op,
accelerate's older "fp16 mixed precision requires a GPU" on a Mac, a Linux (or Windows) guest on a Mac
told in words (the Python runs in the guest); and, in the round's second batch, an Intel Mac told by
About This Mac's processor line or by an AMD GPU or Core iN CPU on a Mac line, and Docker's refusal of
an NVIDIA GPU reservation; in the third, the user's words that the work runs on the CPU.

The texts are lines of the round's threads (tests/corpus names each) or torch's own message texts
(mpscheck/knowledge/torch_messages.json).
"""

from __future__ import annotations

import pytest

from mpscheck.checks.causes import explain_text
from mpscheck.knowledge import errors as table
from mpscheck.probes.paste import read

INT64_NOTE = (
    "/Users/u/envs/p/lib/python3.10/site-packages/tomesd/merge.py:66: UserWarning: MPS: no support for int64 "
    "min/max ops, casting it to int32 (Triggered internally at /Users/runner/work/pytorch/pytorch/pytorch/aten/src/"
    "ATen/native/mps/operations/Sort.mm:39.)"
)  # dbolya/tomesd#27
FREEU = "Device mps:0 does not support the torch.fft functions used in the FreeU node, switching to CPU."  # Fooocus#690


def facts_of(text: str) -> dict[str, object]:
    return {o.fact: o.value for o in read(text).observations}


@pytest.mark.parametrize(
    "note",
    [
        "MPS: no support for int64 min/max ops, casting it to int32",
        "MPS: no support for int64 reduction ops, casting it to int32",
        "MPS: no support for int64 repeats mask, casting it to int32. Support has been added in macOS 13.3",
        "MPS: no support for int64 for cumsum, downcasting to a smaller data type (int32/float32). Native support "
        "for int64 has been added in macOS 13.3.",
    ],
)
def test_torchs_int64_notes_that_cast_and_go_on_are_notes(note: str) -> None:
    hit = table.first(f"UserWarning: {note}")
    assert hit is not None and hit.row.id == "int64-downcast" and hit.row.severity == table.WARNING
    diagnosis = explain_text(f"UserWarning: {note}")
    assert diagnosis.cause.id == "op-fallback-warning"
    assert diagnosis.cause.fix is not None and "Nothing is broken" in diagnosis.cause.fix.summary


def test_an_int64_note_beside_a_finished_run_is_not_a_failure() -> None:
    text = INT64_NOTE + "\n100%|██████████| 24/24 [00:43<00:00,  1.82s/it]\n"
    assert explain_text(text).cause.id == "op-fallback-warning"


@pytest.mark.parametrize(
    "message",
    [
        "RuntimeError: MPS does not support cumsum op with int64 input",
        "RuntimeError: MPS: no support for int64 min/max ops, please cast it to int32",  # older torch's refusal
    ],
)
def test_torchs_int64_refusals_are_still_errors(message: str) -> None:
    """torch's int64 refusals that the table's rows read stay failures beside the int64 notes."""
    diagnosis = explain_text(message)
    assert diagnosis.cause.id == "int64-op-needs-newer-macos" and diagnosis.status is not None
    assert diagnosis.status.value == "fail"


@pytest.mark.parametrize(
    "notice",
    [FREEU, "Warning: device mps doesn't support aten::foo, falling back to CPU for this layer"],
)
def test_a_frameworks_notice_that_one_step_runs_on_the_cpu_is_a_note(notice: str) -> None:
    hit = table.first(notice)
    assert hit is not None and hit.row.id == "framework-cpu-step" and hit.row.severity == table.WARNING
    assert explain_text(notice).cause.id == "op-fallback-warning"


def test_mps_not_available_falling_back_to_cpu_is_not_a_note() -> None:
    """A framework that moves the whole run to the CPU is not the one-step notice: MPS does not work there."""
    hit = table.first("MPS not available, falling back to CPU")
    assert hit is None or hit.row.id != "framework-cpu-step"


@pytest.mark.parametrize(
    ("message", "macos"),
    [
        ("RuntimeError: MPS support binary op with uint8 natively starting from macOS 13.0", "13.0"),
        ("RuntimeError: MPS support unary op with uint8 natively starting from macOS 13.0", "13.0"),
        ("RuntimeError: MPS: median op is supported natively starting from macOS 13.0.", "13.0"),
    ],
)
def test_an_op_that_needs_a_newer_macos_says_so(message: str, macos: str) -> None:
    diagnosis = explain_text(message)
    assert diagnosis.cause.id == "int64-op-needs-newer-macos"
    assert macos in diagnosis.cause.summary
    assert diagnosis.cause.fix is not None and "softwareupdate --list" in diagnosis.cause.fix.commands


def test_the_same_text_with_its_cpu_fallback_stays_a_note() -> None:
    text = (
        "UserWarning: MPS: grid_sampler_2d op is supported natively starting from macOS 13.2. Falling back on CPU. "
        "This may have performance implications."
    )
    assert explain_text(text).cause.id == "op-fallback-warning"


def test_accelerates_older_wording_on_a_mac_is_mixed_precision_on_mps() -> None:
    text = (
        '  File "/opt/homebrew/lib/python3.10/site-packages/accelerate/accelerator.py", line 286, in __init__\n'
        '    raise ValueError(err.format(mode="fp16", requirement="a GPU"))\n'
        "ValueError: fp16 mixed precision requires a GPU\n"
    )  # liasece/sd-webui-train-tools#11
    assert explain_text(text).cause.id == "autocast-needs-newer-torch"


def test_accelerates_refusal_on_windows_is_not_an_mps_cause() -> None:
    text = (
        '  File "C:\\Users\\u\\kohya_ss\\venv\\lib\\site-packages\\accelerate\\accelerator.py", line 355, in __init__\n'
        "ValueError: fp16 mixed precision requires a GPU\n"
        "# user: Windows 11 with an RTX 3060\n"
    )
    assert explain_text(text).cause.id == "not-macos"


@pytest.mark.parametrize(
    ("said", "system"),
    [
        ("my setup is Mac M1 with Ubuntu 22.04 running via VMWare Fusion.", "Linux"),  # pytorch/pytorch#120557
        ("I tried it on my Ubuntu VM on the MacBook Pro M2", "Linux"),
        ("running in Parallels with Windows 11 on an M1 Max", "Windows"),
        ("I run it inside a docker container on my M2 Mac", "Linux"),
    ],
)
def test_a_guest_system_on_a_mac_told_in_words_is_where_the_python_runs(said: str, system: str) -> None:
    assert read(f"# user: {said}").facts.host.system == system
    repl = f"# user: {said}\n>>> import torch\n>>> torch.backends.mps.is_available()\nFalse\n"
    assert explain_text(repl).cause.id == "not-macos"


@pytest.mark.parametrize(
    "said",
    ["on my MacBook Pro M1, macOS 14.2", "a macOS VM on GitHub's runner", "the linux wheels are fine, not the Mac"],
)
def test_words_without_a_guest_system_keep_the_mac(said: str) -> None:
    assert read(f"# user: {said}").facts.host.system in ("", "Darwin")


# ---- the round's second batch ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "2,6 GHz 6-Core Intel Core i7",  # lllyasviel/Fooocus#1152, About This Mac's processor line
        "Processor 2.3 GHz Quad-Core Intel Core i5",
        "The machine is an i7-6700, 32GB RAM, AMD 5700XT 8go VRAM (RDNA1), macOS 13.3 Ventura",  # InvokeAI#5165
        "my iMac with a Radeon Pro 5500 XT",
    ],
)
def test_an_intel_macs_words_are_read(line: str) -> None:
    facts = facts_of(f"# user: {line}")
    assert facts["host.arm64_hardware"] is False and facts["host.system"] == "Darwin"


@pytest.mark.parametrize(
    "line",
    [
        "Intel(R) Core(TM) i7-9750H CPU @ 2.60GHz",  # a PC's wording: no Mac in it
        "my MacBook Pro M1 and my old Core i7 PC",  # both named: not said which
    ],
)
def test_a_pcs_cpu_or_two_machines_are_not_an_intel_mac(line: str) -> None:
    assert facts_of(f"# user: {line}").get("host.arm64_hardware") is not False


def test_an_intel_mac_with_an_amd_gpu_and_no_error_is_the_intel_mac() -> None:
    text = (
        "# user: When I use MPS it only produces an empty, uniform image, a grey hazy fog.\n"
        "# user: The machine is an i7-6700, 32GB RAM, AMD 5700XT 8go VRAM (RDNA1), macOS 13.3 Ventura\n"
    )
    assert explain_text(text).cause.id == "intel-mac"


def test_dockers_refusal_of_an_nvidia_gpu_is_cuda_asked_for() -> None:
    text = 'Error response from daemon: could not select device driver "nvidia" with capabilities: [[gpu]]'
    diagnosis = explain_text(text)
    assert diagnosis.cause.id == "cuda-requested-on-mac"
    assert diagnosis.cause.fix is not None and "mps" in diagnosis.cause.fix.summary


# ---- the round's third batch -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "the sentence transformers for RAG for both the embed model and the ranker seem to be CPU only.",  # #8324
        "it only uses the CPU, the GPU stays idle",
        "the model does not use the GPU at all",
        "training is running on the CPU only",
    ],
)
def test_the_users_words_that_the_work_runs_on_the_cpu_are_read(said: str) -> None:
    assert facts_of(f"# user: {said}").get("paste.device_used") == "cpu"
    text = f"# user: I'm using MacOS Sequoia 15.2\n# user: {said}\n"
    diagnosis = explain_text(text)
    assert diagnosis.cause.id == "mps-not-requested" and diagnosis.exit_code == 1


@pytest.mark.parametrize(
    "said",
    [
        "If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu')",
        "I installed the CPU-only build of torch from the cpu index",
        "it works on the CPU but fails on mps",
    ],
)
def test_advice_a_build_or_a_comparison_is_not_the_run_on_the_cpu(said: str) -> None:
    assert facts_of(f"# user: {said}").get("paste.device_used") is None


def test_prose_never_says_mps_works() -> None:
    facts = facts_of("# user: Ollama runs fine as an MPS (Apple version of CUDA), and everything uses the GPU")
    assert facts.get("paste.device_used") != "mps"
