"""The classes of input the twentieth out-of-sample round (2026-11-24, local-LLM, RAG and vision-language apps:
FastChat, LLaVA, litgpt, localGPT, CogVLM, text-generation-webui) found explain missing, each read generally:

- a CUDA-only quantization or attention library failing on the Mac in its own words: transformers' bitsandbytes
  quantizer ("No GPU found. A GPU is needed for quantization."), AutoGPTQ's CUDA extension left undefined
  (autogptq_cuda_256), a model's code importing xformers, GPTQ-for-LLaMa's loader (llama_inference_offload);
- torch's autocast refusal retyped by the user ("Userspecified an unsupported autocast device_type 'mps'");
- MPSGraph's location line of a failed op, cut before its "error:", for any op name (varianceEps), not only mps_*;
- a language model's answers called irrelevant on mps: wrong results told in words;
- a crash by an illegal CPU instruction: a build for another CPU (Rosetta's missing AVX, or a wrong build), never
  an MPS bug, with the command that tells the two apart.

The texts are lines of the round's pastes (tests/corpus names each) and the same shapes in other words.
"""

from __future__ import annotations

import pytest

from mpscheck.checks.causes import explain_text


@pytest.mark.parametrize(
    ("text", "library"),
    [
        ("RuntimeError: No GPU found. A GPU is needed for quantization.", "bitsandbytes"),
        (
            "self.autogptq_cuda = autogptq_cuda_256\nNameError: name 'autogptq_cuda_256' is not defined",
            "AutoGPTQ",
        ),
        ("NameError: name 'autogptq_cuda_64' is not defined", "AutoGPTQ"),
        ("ModuleNotFoundError: No module named 'xformers'", "xformers"),
        (
            "# user: I get the error message 'ModuleNotFoundError: No module named 'xformers'' which is used in "
            "the visual.py file",
            "xformers",
        ),
        ("ModuleNotFoundError: No module named 'llama_inference_offload'", "GPTQ-for-LLaMa"),
    ],
)
def test_a_cuda_only_library_failing_on_the_mac_is_named_and_turned_off(text: str, library: str) -> None:
    cause = explain_text(text).cause
    assert cause.id == "backend-has-no-mps"
    assert cause.summary.startswith(f"{library} runs its GPU code on CUDA only")
    assert cause.fix is not None and cause.fix.summary.startswith(f"Turn {library} off on the Mac")


@pytest.mark.parametrize(
    "text",
    [
        # A1111's notice that it runs without xformers is no error
        "No module 'xformers'. Proceeding without it.",
        # the file Qwen's repositories ship is no failure of the extension
        "wget https://huggingface.co/Qwen/Qwen-7B/resolve/main/cache_autogptq_cuda_256.cpp",
    ],
)
def test_a_cuda_only_library_merely_named_is_no_failure(text: str) -> None:
    assert explain_text(text).cause.id != "backend-has-no-mps"


@pytest.mark.parametrize(
    "line",
    [
        "`RuntimeERror: Userspecified an unsupported autocast device_type 'mps'`",  # lm-sys/FastChat#3120
        "RuntimeError: User specified an unsupported autocast device_type 'mps'",  # torch's own words
    ],
)
def test_the_autocast_refusal_retyped_is_still_read(line: str) -> None:
    cause = explain_text(line).cause
    assert cause.id == "autocast-needs-newer-torch"
    assert cause.fix is not None and any("'torch>=2.6'" in c for c in cause.fix.commands)


def test_an_mpsgraph_location_line_cut_before_its_error_is_a_metal_failure() -> None:
    # haotian-liu/LLaVA#700: torch's int64 note, then the graph op's location cut mid-path
    text = (
        "UserWarning: MPS: no support for int64 repeats mask, casting it to int32 (Triggered internally at "
        "/Users/runner/work/pytorch/pytorch/pytorch/aten/src/ATen/native/mps/operations/Repeat.mm:236.)\n"
        "  input_ids = input_ids.repeat_interleave(expand_size, dim=0)\n"
        'loc("varianceEps"("(mpsFileLoc): /AppleInternal/Library/BuildRoots/c2cb9645-dafc-11ed-aa26-6e\n'
    )
    diagnosis = explain_text(text)
    assert diagnosis.cause.id == "metal-bug-fixed-later"
    assert diagnosis.cause.evidence[0].line == 3
    assert diagnosis.exit_code == 1


def test_a_location_line_without_mpsfileloc_is_no_metal_failure() -> None:
    assert explain_text('loc("varianceEps"("somewhere.mm":12:0))').cause.id != "metal-bug-fixed-later"


@pytest.mark.parametrize(
    "line",
    [
        # lm-sys/FastChat#637
        "# user: I used RTX3080 and it works under CUDA, but using MPS on macOS would say something irrelevant",
        "# user: with --device mps the model gives irrelevant answers",
    ],
)
def test_answers_called_irrelevant_on_mps_are_wrong_results(line: str) -> None:
    diagnosis = explain_text(line)
    assert diagnosis.cause.id == "metal-bug-fixed-later"
    assert diagnosis.exit_code != 0


def test_irrelevant_said_of_no_output_is_not_wrong_results() -> None:
    assert explain_text("# user: the mps warning is irrelevant here, the run works").cause.id != (
        "metal-bug-fixed-later"
    )


@pytest.mark.parametrize(
    "crash",
    [
        "error: zsh: illegal hardware instruction python run_localGPT.py --device_type cpu",  # localGPT#509
        "zsh: illegal hardware instruction  python app.py",
    ],
)
def test_an_illegal_instruction_crash_is_a_build_for_another_cpu(crash: str) -> None:
    diagnosis = explain_text(f"# user: on my M1 Max MacBook Pro\n{crash}\n")
    cause = diagnosis.cause
    assert cause.id == "wrong-arch-wheel"
    assert "Rosetta" in cause.summary and "AVX" in cause.summary
    assert cause.fix is not None
    assert cause.fix.commands == ("python3 -c 'import platform; print(platform.machine())'",)
    assert "--force-reinstall --no-cache-dir" in cause.fix.summary
    assert diagnosis.exit_code == 1


def test_an_other_crash_is_not_read_as_an_illegal_instruction() -> None:
    assert explain_text("zsh: segmentation fault  python app.py").cause.id != "wrong-arch-wheel"
