"""The classes of input the ninth out-of-sample round (2026-11-24, forums' and apps' pastes) found explain missing,
each read generally: any torch MPS warning that says "This may have performance implications" (a note); torch's op
line cut after "the MPS backend" (a title); transformers' refusal to build an attention mask on mps; Docker's GPU
refusal with the empty driver name of `--gpus all`; AUTOMATIC1111's start-up line that catches its own CUDA probe
(not a CUDA ask); conda's ResolvePackageNotFound naming a CUDA package; the user's words that the machine is not a
Mac.

The texts are lines of the round's threads (tests/corpus names each).
"""

from __future__ import annotations

from mpscheck.checks.causes import explain_text
from mpscheck.probes.paste import conda, prose

PAD = (  # w-okada/voice-changer#1642
    "torch/nn/functional.py:5209: UserWarning: MPS: The constant padding of more than 3 dimensions is not currently "
    "supported natively. It uses View Ops default implementation to run. This may have performance implications. "
    "(Triggered internally at /Users/runner/work/pytorch/pytorch/pytorch/aten/src/ATen/native/mps/operations/"
    "Pad.mm:465.)"
)


def test_a_torch_mps_warning_of_performance_implications_is_a_note() -> None:
    diagnosis = explain_text(PAD)
    assert diagnosis.cause.id == "op-fallback-warning"
    assert diagnosis.cause.fix is not None and "Nothing is broken" in diagnosis.cause.fix.summary
    # a note never outranks a failure on the same paste
    failing = PAD + "\nRuntimeError: Placeholder storage has not been allocated on MPS device!"
    assert explain_text(failing).cause.id == "device-mismatch"
    # and the words alone, without torch's "MPS: " prefix, are not torch's note
    assert explain_text("This may have performance implications.").cause.id != "op-fallback-warning"


def test_transformers_refusing_the_attention_mask_on_mps_asks_for_a_newer_torch() -> None:
    line = (  # coqui-ai/TTS#3758
        "ValueError: Can't infer missing attention mask on `mps` device. Please provide an `attention_mask` or use a "
        "different device."
    )
    diagnosis = explain_text(line)
    assert diagnosis.cause.id == "op-not-implemented"
    assert diagnosis.cause.fix is not None
    assert any("'torch>=2.4'" in command for command in diagnosis.cause.fix.commands)
    assert "does not help" in diagnosis.cause.fix.summary  # the fallback variable is not the fix here


def test_docker_refusing_a_gpu_with_the_empty_driver_name_is_cuda_asked_for() -> None:
    line = 'Error response from daemon: could not select device driver "" with capabilities: [[gpu]].'  # Kokoro#135
    assert explain_text(line).cause.id == "cuda-requested-on-mac"
    named = 'Error response from daemon: could not select device driver "nvidia" with capabilities: [[gpu]]'
    assert explain_text(named).cause.id == "cuda-requested-on-mac"


def test_automatic1111s_caught_cuda_probe_is_not_a_cuda_ask() -> None:
    startup = "Warning: caught exception 'Torch not compiled with CUDA enabled', memory monitor disabled"
    error = "RuntimeError: The MPS backend is supported on MacOS 12.3+.Current OS version can be queried using `sw_vers"
    error += "`"
    # AUTOMATIC1111/stable-diffusion-webui#1557: the webui's own start-up line, then the real error
    assert explain_text(startup + "\n" + error).cause.id != "cuda-requested-on-mac"
    assert explain_text("AssertionError: Torch not compiled with CUDA enabled").cause.id == "cuda-requested-on-mac"


def test_conda_not_finding_a_cuda_package_is_cuda_asked_for_on_a_mac() -> None:
    text = (  # deforum-art/stable-diffusion#121
        "Would love for this to be able to run on my M1 Ultra 64 cores GUP with 128 memory.\n\n"
        "```\nResolvePackageNotFound: \n  - cudatoolkit=11.3\n```\n"
    )
    assert explain_text(text).cause.id == "cuda-requested-on-mac"
    lines = text.splitlines()
    [seen] = conda.parse(lines)
    assert (seen.fact, seen.value, seen.line) == ("paste.cuda_asked", True, 5)
    # a package conda lacks that is not CUDA's asks for nothing
    assert conda.parse(["ResolvePackageNotFound:", "  - libgcc-ng=11.2.0", "  - _openmp_mutex=5.1"]) == []
    # the list ends at the first line that is not a spec
    assert conda.parse(["ResolvePackageNotFound:", "  - libgcc-ng=11.2.0", "done", "  - cudatoolkit=11.3"]) == []
    assert conda.parse(["ResolvePackageNotFound:", "", "  - nvidia::pytorch-cuda=12.1"])[0].line == 3
    assert conda.parse(["  - cudatoolkit=11.3"]) == []  # an environment file alone is no refusal


def test_the_users_words_that_the_machine_is_not_a_mac_are_not_macos() -> None:
    text = (  # BayraktarLab/cell2location#252
        "`MPSAccelerator can not run on your system since the accelerator is not available. The following "
        "accelerator(s) is available and can be passed into accelerator argument of Trainer: ['cpu']`.\n"
        "I saw that is an error obtained with Mac computer but I'm not on it.\n"
    )
    assert explain_text(text).cause.id == "not-macos"
    facts = {o.fact for o in prose.parse(["I'm not on a Mac, this is Ubuntu"])}
    assert "paste.not_a_mac" in facts
    assert "paste.not_a_mac" not in {o.fact for o in prose.parse(["I'm not on my Mac right now, but it failed"])}
    # without those words the same error stays Lightning's own check
    assert explain_text(text.splitlines()[0]).cause.id == "lightning-processor"


def test_noise_got_from_mps_told_in_words_is_wrong_results() -> None:
    line = (  # vinvino02/GLPDepth#45
        "On my M1 MacBook Pro it works perfectly on the CPU, but I just get noise if I try and use the hardware "
        "accelerated MPS device."
    )
    assert explain_text(line).cause.id == "metal-bug-fixed-later"
    assert "paste.wrong_results" in {o.fact for o in prose.parse(["it gives me noise on mps"])}
    assert "paste.wrong_results" not in {o.fact for o in prose.parse(["the mic gives noise on my mac"])}


def test_a_tool_that_found_no_cuda_and_took_the_cpu_retold_on_a_mac_is_mps_not_requested() -> None:
    line = (  # thygate/stable-diffusion-webui-depthmap-script#118
        "When ran on a Mac, the extension says that it doesn't detect any CUDA and will switch to CPU. Still, nothing "
        "happens."
    )
    assert explain_text(line).cause.id == "mps-not-requested"
    said = {o.fact: o.value for o in prose.parse(["it found no cuda device so it falls back to the cpu"])}
    assert said.get("paste.device_used") == "cpu"
    assert "paste.device_used" not in {o.fact for o in prose.parse(["no cuda here, and mps works fine"])}


def test_a_torch_build_without_mps_told_in_words_is_not_built_with_mps() -> None:
    text = (  # dev-discuss.pytorch.org/t/a-small-mps-debugging-story/769
        "Fortunately, I have an M1 Macbook. But my preexisting build of PyTorch on my laptop did not actually have MPS "
        "support."
    )
    assert explain_text(text).cause.id == "torch-not-built-with-mps"
    assert "paste.no_mps_build" in {o.fact for o in prose.parse(["but when I ran it MPS was not actually enabled."])}
    # a machine that is not a Mac says more than the build does
    assert explain_text(text + "\nOS: Ubuntu 22.04.4 LTS (x86_64)").cause.id == "not-macos"
    # a torch shown built with MPS outweighs the words
    assert explain_text(text + "\n>>> torch.backends.mps.is_built()\nTrue").cause.id != "torch-not-built-with-mps"


def test_artefacts_on_mps_told_in_words_are_wrong_results() -> None:
    title = "Visual artefacts present in upscaled images when device is set to 'mps'"  # ai-forever/Real-ESRGAN#13
    assert explain_text(title).cause.id == "metal-bug-fixed-later"
    assert "paste.wrong_results" not in {o.fact for o in prose.parse(["jpeg artifacts in the input image"])}


def test_an_op_error_then_the_same_op_falling_back_leaves_the_crash_after_it() -> None:
    error = (  # kijai/ComfyUI-DepthAnythingV2#12
        "Error occurred when executing DepthAnything_V2:  The operator 'aten::upsample_bicubic2d.out' is not currently "
        "implemented for the MPS device."
    )
    warning = (
        "UserWarning: The operator 'aten::upsample_bicubic2d.out' is not currently supported on the MPS backend and "
        "will fall back to run on the CPU. This may have performance implications."
    )
    crash = (
        'loc("mps_add"("(mpsFileLoc): /AppleInternal/Library/BuildRoots/91a344b1/Library/Caches/com.apple.xbs/'
        "Sources/MetalPerformanceShadersGraph/mpsgraph/MetalPerformanceShadersGraph/Core"
    )
    assert explain_text("\n".join([error, warning, crash])).cause.id == "metal-bug-fixed-later"
    # the fallback shown first, for the same op, does not excuse a later failure of it
    assert explain_text("\n".join([warning, error])).cause.id == "op-not-implemented"
    # nor does another op's fallback
    other = warning.replace("upsample_bicubic2d.out", "nonzero")
    assert explain_text("\n".join([error, other])).cause.id == "op-not-implemented"
    assert explain_text(crash).cause.id == "metal-bug-fixed-later"  # MPSGraph's location prefix, cut


def test_xformers_kernels_named_on_a_mac_are_a_library_without_mps() -> None:
    line = (  # LiheYoung/Depth-Anything#4
        "Trying to run inference in MacOS yields xformer errors of not supported operations (e.g. smaller, cutlassF, "
        "tritonflashattF, etc.)"
    )
    assert explain_text(line).cause.id == "backend-has-no-mps"


def test_torchs_other_wordings_of_two_devices_are_a_device_mismatch() -> None:
    mat2 = (  # storyicon/comfyui_segment_anything#68, quoted in a reply
        "> !!! Exception during processing!!! Tensor for argument #2 'mat2' is on CPU, but expected it to be on GPU "
        "(while checking arguments for mm)"
    )
    assert explain_text(mat2).cause.id == "device-mismatch"
    storage = (  # facebookresearch/sam2#487
        'Attempted to set the storage of a tensor on device "cpu" to a storage on different device "mps:0"'
    )
    assert explain_text(storage).cause.id == "device-mismatch"


def test_a_model_whose_remote_code_imports_flash_attn_is_a_library_without_mps() -> None:
    line = (  # microsoft/OmniParser#224 (Florence-2 on a Mac)
        "ImportError: This modeling file requires the following packages that were not found in your environment: "
        "flash_attn. Run `pip install flash_attn`"
    )
    assert explain_text(line).cause.id == "backend-has-no-mps"
    assert explain_text("ModuleNotFoundError: No module named 'flash_attn_2_cuda'").cause.id == "backend-has-no-mps"
    other = line.replace("flash_attn", "einops")  # another missing package is no CUDA-only library
    assert explain_text(other).cause.id != "backend-has-no-mps"


def test_an_out_of_memory_named_without_its_numbers_is_out_of_memory_of_unknown_kind() -> None:
    text = "MPS backend out of memory Issue\n# user: Same on a M3 16GB, regardless of number of pages attempted."
    diagnosis = explain_text(text)  # datalab-to/marker#321
    assert diagnosis.cause.id == "out-of-memory"
    assert diagnosis.cause.variant is None  # which kind needs the allocator's numbers
    assert diagnosis.cause.fix is not None
    assert "export PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0" in diagnosis.cause.fix.commands
    full = (
        "RuntimeError: MPS backend out of memory (MPS allocated: 8.72 GB, other allocations: 110.16 MB, max allowed: "
        "9.07 GB). Tried to allocate 405.00 MB on private pool."
    )
    assert explain_text(full).cause.variant is not None  # the numbers still read as before


def test_white_noise_said_further_from_mps_is_still_wrong_results() -> None:
    line = (  # kuprel/min-dalle#102
        "With the default code, using the MPS backend does not work at all and only produces images that appear to "
        "be white noise."
    )
    assert explain_text(line).cause.id == "metal-bug-fixed-later"
