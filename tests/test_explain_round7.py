"""The classes of input the seventh out-of-sample round (2026-11-24) found explain missing, each read generally:
the GPU asked for instead of the CPU, on a named Mac; memory that grows on mps, told with no error; a run that broke
when macOS was updated, told with no error; macOS's own kernel log of a process killed for memory; a library's
notice that it keeps one model on the CPU ("not compatible with mps backend. Defaulting to cpu"); GroundingDINO's
missing CUDA ops.

The texts are lines of the round's threads (tests/corpus names each).
"""

from __future__ import annotations

from mpscheck.checks.causes import explain_text


def test_the_gpu_asked_for_instead_of_the_cpu_on_a_mac_is_mps_not_requested() -> None:
    asked = "Is there a way to use the GPU of an Apple Silcon Mac rather then using teh CPU ?"  # demucs#435
    assert explain_text(asked).cause.id == "mps-not-requested"
    # on an Intel Mac the CPU is all torch has: never advised to ask for mps
    assert explain_text("use the gpu on my Intel Mac rather than the cpu").cause.id != "mps-not-requested"


def test_memory_growing_on_mps_told_with_no_error_is_a_backend_bug() -> None:
    text = 'device = torch.device("mps")  # no leak on "cpu" or "cuda"\nPyTorch version: 2.4.0\n'  # pytorch#132596
    diagnosis = explain_text(text)
    assert diagnosis.cause.id == "metal-bug-fixed-later"
    assert diagnosis.cause.fix is not None and "torch.mps.empty_cache()" in diagnosis.cause.fix.summary
    assert explain_text("memory keeps growing on the cpu").cause.id != "metal-bug-fixed-later"


def test_a_macos_update_that_broke_the_run_told_with_no_error_is_a_regression_fixed_later() -> None:
    text = (  # Comfy-Org/ComfyUI#3346
        "After upgrading my mac computer to the latest version. [Apple M1 Pro | 32 GB | Sonoma 14.4.1 (23E224) | "
        "torch==2.2.2]\nEverything was fine before upgrading to the latest version of mac.\n"
    )
    assert explain_text(text).cause.id == "metal-bug-fixed-later"
    updated_only = "After upgrading my mac computer to the latest version. [Apple M1 Pro | 32 GB]\n"
    assert explain_text(updated_only).cause.id != "metal-bug-fixed-later"


def test_the_kernel_log_of_a_process_killed_for_memory_is_out_of_memory() -> None:
    line = "kernel: memorystatus: killing largest compressed process python3.11 [5844] 43350 MB"  # epub2tts-chatterbox
    assert explain_text(line).cause.id == "out-of-memory"
    # ... and it outranks the words that memory grows
    assert explain_text("On macOS (MPS), memory grows continuously\n" + line).cause.id == "out-of-memory"


def test_a_library_that_keeps_one_model_on_the_cpu_is_a_performance_note() -> None:
    line = (  # datalab-to/marker#960
        "2025-12-13 15:17:09,820 [WARNING] surya: `TableRecEncoderDecoderModel` is not compatible with mps backend. "
        "Defaulting to cpu instead"
    )
    diagnosis = explain_text(line)
    assert diagnosis.cause.id == "op-fallback-warning"
    assert diagnosis.cause.fix is not None and "Nothing is broken" in diagnosis.cause.fix.summary


def test_groundingdino_without_its_cuda_ops_is_cuda_asked_for_on_a_mac() -> None:
    title = "Mac 12.4, M1, No GPU, run grounding_dino_demo, error:Failed to load custom C++ ops"  # Grounded-SAM#96
    diagnosis = explain_text(title)
    assert diagnosis.cause.id == "cuda-requested-on-mac"
    assert diagnosis.cause.fix is not None and "--device cpu" in diagnosis.cause.fix.summary
    # a real error in the same paste outranks the warning
    float64 = (
        "UserWarning: Failed to load custom C++ ops. Running on CPU mode Only!\nTypeError: Cannot convert a MPS Tensor "
        "to float64 dtype as the MPS framework doesn't support float64. Please use float32 instead."
    )
    assert explain_text(float64).cause.id == "float64-unsupported"


def test_a_framework_that_found_no_cuda_and_took_the_cpu_on_a_named_mac_is_mps_not_requested() -> None:
    text = (  # OpenBMB/VoxCPM#20
        "macbook 2025 air.\n2025-09-19 17:04:27,200 - modelscope - INFO - cuda is not available, using cpu instead.\n"
    )
    assert explain_text(text).cause.id == "mps-not-requested"


def test_results_called_messed_up_for_mac_users_are_wrong_results() -> None:
    text = (  # SomeOddCodeGuy/OfflineWikipediaTextApi#22
        "Torch 2.8.0 appears to have an issue for Mac users that are causing the results to be all kinds of messed up."
    )
    assert explain_text(text).cause.id == "metal-bug-fixed-later"


def test_ctranslate2s_float16_refusal_is_a_backend_without_mps() -> None:
    line = (  # serg-markovich/local-whisper-obsidian#5
        "ERROR Transcription failed: Requested float16 compute type, but the target device or backend do not support "
        "efficient float16 computation."
    )
    assert explain_text(line).cause.id == "backend-has-no-mps"


def test_a_docker_run_command_in_backticks_puts_the_run_in_a_linux_container() -> None:
    text = (  # ahmetoner/whisper-asr-webservice#121
        "FP16 is not supported on CPU; using FP32 instead\nHello, iam use MacOs M1, and run command by your "
        "instructions\n`docker run -d -p 9000:9000 -e ASR_MODEL=base onerahmet/openai-whisper-asr-webservice:latest`\n"
    )
    assert explain_text(text).cause.id == "not-macos"
