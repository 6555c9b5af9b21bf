"""The classes of input the 45th out-of-sample round (2026-11-25: generation models of 2025-2026 run on Macs: video
(Wan, HunyuanVideo, LTX-2, SeedVR2), image (Qwen-Image, ICEdit, OmniGen), speech (Zonos, Chatterbox, Kokoro-FastAPI,
Step-Audio, moshi), music (DiffRhythm), 3D (Hunyuan3D) and their ComfyUI nodes) found explain missing, each read
generally:

- a library feature that demands a GPU in its own words ("OffloadedCache can only be used with a GPU"): CUDA asked
  for on a Mac (knowledge/library_rows.py);
- pip's "Could not find a version that satisfies the requirement X" for a package other than torch, without the
  "No matching distribution" line after it: an install failure, not a Metal bug (knowledge/install_rows.py);
- a piece of the middle of torch's MPS out-of-memory message ("other allocations: 163.11 GiB,"), its head and tail
  cut away: an out-of-memory (knowledge/error_notes.py);
- the user's Chinese words retelling a CUDA refusal ("运行就提示不支持cuda"): CUDA asked for
  (probes/paste/prose_cuda.py);
- Mamba's CUDA kernels missing ("No module named 'mamba_ssm'"): a CUDA-only library (knowledge/cuda_only_rows.py).

The texts are lines of the round's pastes (tests/corpus names each) and other wordings of the same classes.
"""

from __future__ import annotations

from mpscheck.checks.causes import explain_text, no_wheel
from mpscheck.knowledge.cuda_only_rows import CUDA_ONLY_LIBRARY
from mpscheck.knowledge.library_rows import LIBRARY
from mpscheck.probes.paste.prose_cuda import CUDA_ASKED

FEATURE_NEEDS_GPU = next(row for row in LIBRARY if row.id == "library-feature-needs-gpu")


def test_a_library_feature_that_can_only_be_used_with_a_gpu_asks_for_cuda() -> None:
    """Class: a library's own refusal of a GPU-only feature in its exception's text ("can only be used with a GPU",
    "is only supported on CUDA", "only works on NVIDIA GPUs"): the code path asks for CUDA, which mps does not stand
    in for. The same words in the user's prose are prose_cuda.py's (it wants a Mac named)."""
    said = (
        "# user: OmniGen errors out with:\n"
        "No avaliable GPU, offload_kv_cache wiil be set to False, which will result in large memory usage and time "
        "cost when input multiple images!!!\n"
        "RuntimeError: OffloadedCache can only be used with a GPU"
    )
    cause = explain_text(said).cause
    assert cause.id == "cuda-requested-on-mac"  # OmniGen#118
    assert cause.fix is not None and "use_kv_cache=False" in cause.fix.summary
    for line in (
        "RuntimeError: OffloadedCache can only be used with a GPU",
        "ValueError: This kernel is only supported on CUDA devices",
        "NotImplementedError: fused attention only works on NVIDIA GPUs",
        "AssertionError: only available on gpu",
        "RuntimeError: the quantized cache can only be used with a CUDA GPU",
    ):
        assert FEATURE_NEEDS_GPU.pattern.search(line), line
    for line in (
        "RuntimeError: this pipeline can only be used with a GPU or MPS device",  # mps counts there: no CUDA demand
        "ValueError: only works on GPU and CPU",
        "RuntimeError: it only runs on the CPU",
        "RuntimeError: MPS is only available on macOS 12.3+",
        "PermissionError: the model can only be used with a license",
        "# user: Current version only runs on CUDA devices.",  # prose, not the library's error (prose_cuda.py)
    ):
        assert not FEATURE_NEEDS_GPU.pattern.search(line), line


def test_pip_not_finding_a_version_of_another_package_is_an_install_failure() -> None:
    """Class: pip's "Could not find a version that satisfies the requirement X (from Y) (from versions: ...)" for a
    package other than torch, the line a paste keeps without "No matching distribution found": no release of the
    pin installs here, which no torch upgrade changes."""
    said = (
        "$ pip3 install -U mlx==0.26.5\n\n"
        "ERROR: Could not find a version that satisfies the requirement mlx<0.27,>=0.26.0 (from moshi-mlx) "
        "(from versions: 0.29.4, 0.30.0, 0.30.1)\n"
        "# user: Python version: 3.14.2"
    )
    cause = explain_text(said).cause
    assert cause.id == "no-matching-distribution"  # moshi#394
    assert "mlx" in cause.summary
    other = (
        "ERROR: Could not find a version that satisfies the requirement kokoro==0.9.4 (from versions: 0.2.1, 0.7.16)"
    )
    assert explain_text(other).cause.id == "no-matching-distribution"
    # torch's own refusal keeps its own row (Python too new, x86_64 macOS), not the other-package one
    torch_line = "ERROR: Could not find a version that satisfies the requirement torch==2.0.1 (from versions: none)"
    assert not explain_text(torch_line).cause.summary.startswith("pip found no release of")
    # a near miss: pip satisfied, nothing refused
    assert explain_text("Requirement already satisfied: mlx in ./venv/lib/python3.12/site-packages").cause.id != (
        "no-matching-distribution"
    )


def test_a_piece_of_the_mps_out_of_memory_message_is_an_out_of_memory() -> None:
    """Class: the MPS allocator's numbers without the message's head or tail ("other allocations: 163.11 GiB,",
    "MPS allocated: 72.40 GB, ..."): words and a size only torch's MPS out-of-memory message writes."""
    said = (
        "wtf is this shit !!!======== other allocations: 163.11 GiB,\n"
        "# user: i have 128gb video on mac m1 ultra\n\ngot prompt"
    )
    assert explain_text(said).cause.id == "out-of-memory"  # ComfyUI-WanVideoWrapper#1856
    assert explain_text("it died at MPS allocated: 72.40 GB and then nothing").cause.id == "out-of-memory"
    # the whole message is still read with its numbers (the "oom" row names its kind)
    whole = (
        "RuntimeError: MPS backend out of memory (MPS allocated: 72.40 GB, other allocations: 15.71 GB, max allowed: "
        "81.60 GB). Tried to allocate 256 bytes on shared pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable "
        "upper limit for memory allocations (may cause system failure)."
    )
    assert explain_text(whole).cause.variant is not None
    for line in (
        "other allocations: none",  # no size
        "the allocate step cannot allocate on mps ('MPS allocated: 0 bytes')",  # a VM's 0 bytes, not this reading
        "the other allocations were small",
        "CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 7.79 GiB total capacity)",
    ):
        assert explain_text(line).cause.id != "out-of-memory", line


def test_chinese_words_retelling_a_cuda_refusal_ask_for_cuda() -> None:
    """Class: the user's Chinese words that the tool refuses or needs CUDA ("提示不支持cuda", "只支持cuda",
    "报错说没有cuda"): what "Torch not compiled with CUDA enabled" says, told without the error."""
    said = "啥时候能支持mac的mps架构\n现在运行就提示不支持cuda，我是mac，请尽快支持mps加速"
    assert explain_text(said).cause.id == "cuda-requested-on-mac"  # ComfyUI_StepAudioTTS#11
    for line in ("运行就提示不支持cuda", "报错说没有 CUDA", "这个项目只支持cuda", "代码依赖cuda", "一直提示找不到cuda"):
        assert CUDA_ASKED.search(line), line
    for line in ("我的mac没有cuda", "运行需要cuda吗", "mac 上用 mps 就行", "支持 cuda 和 mps"):
        assert not CUDA_ASKED.search(line), line


def test_mamba_kernels_missing_on_a_mac_are_a_cuda_only_library() -> None:
    """Class: Mamba's CUDA kernels (mamba_ssm, causal_conv1d) missing where a hybrid model imports them: a CUDA-only
    library with no Metal backend, not an MPS error."""
    for line in (
        "ModuleNotFoundError: No module named 'mamba_ssm'",
        "ModuleNotFoundError: No module named 'causal_conv1d'",
        "ImportError: No module named mamba_ssm.ops",
    ):
        assert CUDA_ONLY_LIBRARY.pattern.search(line), line
        assert explain_text(line).cause.id == "backend-has-no-mps", line
    for line in ("No module named 'mamba'", "No module named 'mamba_utils_local'", "pip install mamba_ssm"):
        assert not CUDA_ONLY_LIBRARY.pattern.search(line), line


def test_a_pin_whose_releases_pip_does_not_list_for_a_new_python_predates_that_python() -> None:
    """Class: pip lists the pinned package only from releases newer than every version the pin names, with a Python
    newer than 3.12 shown ("requirement mlx<0.27,>=0.26.0 ... (from versions: 0.29.4, 0.30.0)" under Python 3.14):
    pip lists only releases with a file for this interpreter, so the pinned ones predate it; an older Python is the
    fix, not a looser pin alone (moshi#394's reporter: "I sorted this issue by using python 3.12")."""
    line = (
        "ERROR: Could not find a version that satisfies the requirement mlx<0.27,>=0.26.0 (from moshi-mlx) "
        "(from versions: 0.29.4, 0.30.0, 0.30.1)"
    )
    cause = explain_text(f"Using CPython 3.14.2\n{line}").cause
    assert cause.id == "no-matching-distribution"
    assert "older than this Python" in cause.summary
    assert cause.fix is not None and "python3.12 -m pip install moshi-mlx" in " ".join(cause.fix.commands)
    assert no_wheel.pin_predates_python(line, "3.14.2") is not None
    other = (
        "ERROR: Could not find a version that satisfies the requirement numba==0.58.1 (from versions: 0.61.0, 0.61.2)"
    )
    assert no_wheel.pin_predates_python(other, "3.13.1") is not None  # no parent named: the package itself
    assert no_wheel.pin_predates_python(line, "3.12.8") is None  # a Python those releases had: no such reading
    assert no_wheel.pin_predates_python(line, None) is None  # the Python not shown
    newer = (
        "ERROR: Could not find a version that satisfies the requirement kokoro==0.9.4 (from versions: 0.2.1, 0.7.16)"
    )
    assert no_wheel.pin_predates_python(newer, "3.14.0") is None  # the pin is newer than the list: another story
    reaches = "requirement mlx>=0.26 (from moshi-mlx) (from versions: 0.26.1, 0.29.4)"
    assert no_wheel.pin_predates_python(reaches, "3.14.0") is None  # a listed release meets the pin
    exactly = "requirement mlx==0.29.4 (from moshi-mlx) (from versions: 0.29.4, 0.30.0)"
    assert no_wheel.pin_predates_python(exactly, "3.14.0") is None  # the lowest listed is the pin itself
    assert no_wheel.pin_predates_python("requirement mlx (from versions: 0.29.4)", "3.14.0") is None  # no pin


def test_a_macos_update_told_on_a_mac_that_names_no_mps_is_the_backends_regression() -> None:
    """The regression told in words is read on a Mac shown by sw_vers even where the paste never writes "mps" (the
    judge asks for macOS or mps named: checks/causes/unmatched.py)."""
    sw_vers = "ProductName: macOS\nProductVersion: 14.4\nBuildVersion: 23E214\n"
    said = "# user: it worked until I updated to Sonoma, now the GPU run fails"
    diagnosis = explain_text(sw_vers + said)
    assert (diagnosis.cause.id, diagnosis.cause.variant) == ("metal-bug-fixed-later", "macos-regression")
    linux = (
        "Linux box 6.8.0-45-generic #45-Ubuntu SMP x86_64 GNU/Linux\n# user: it worked until I updated, now it fails"
    )
    assert explain_text(linux).cause.variant != "macos-regression"  # not a Mac, and no mps named
