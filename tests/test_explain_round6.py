"""The classes of input the sixth out-of-sample round (2026-11-24) found explain missing, each read generally:
a command that asks for mps ("device='mps')" in a `python -c` line) is no tensor printed on mps, so no evidence
of health; the CPU told in other words ("goes to use CPU not the MPS", "只能CPU跑"); Stable-Baselines3's
"GPU Enabled: False"; CUDA asked for, told in words; an op "not currently implemented for MPS" retold, or named
beside a NotImplementedError whose message is cut; torch's refusal of something MPS gained in a later release
(an op not implemented in this torch, not a bug); bitsandbytes (transformers' "requires Accelerate", or
quantizing with it where CUDA is asked for); autograd's gradient on the other device; float64 and CTranslate2's
missing MPS told in words; a crash told on an mps line with no error shown.

The texts are lines of the round's threads (tests/corpus names each) or torch's own message texts
(mpscheck/knowledge/torch_messages.json).
"""

from __future__ import annotations

import pytest

from mpscheck.checks.causes import explain_text

# sentence-transformers#3507: the commands ask for mps; nothing shows a tensor printed on it.
ASKED_NOT_PRINTED = (
    "pip install torch==2.8.0\n"
    "python -c \"from sentence_transformers import SentenceTransformer; print(SentenceTransformer('m', "
    "device='mps').encode('hello world'))\"\n"
    "[ 0.0147207   0.32726386 -0.05635672 ... -0.5942852   0.22690162\n"
    "  0.17270428]\n"
)


def test_a_command_asking_for_mps_is_no_evidence_that_mps_works() -> None:
    assert explain_text(ASKED_NOT_PRINTED).cause.id != "healthy"
    printed = "tensor([1., 2.], device='mps:0')"
    assert explain_text(printed).cause.id == "healthy"


@pytest.mark.parametrize(
    "text",
    [
        "MacBook Pro M1 Pro\nIt just goes to use CPU not the MPS",  # fastai#3662
        "**系统:** M1 Pro\n**问题:** 无法调用 mps，自动回退 CPU 处理",  # GPT-SoVITS#336
        "**系统:** M1 Pro\n为什么我的Mac只能CPU跑啊,GPU不动",
    ],
)
def test_the_cpu_told_in_other_words_on_a_mac_is_mps_not_requested(text: str) -> None:
    assert explain_text(text).cause.id == "mps-not-requested"


def test_stable_baselines3_gpu_enabled_false_is_the_cpu() -> None:
    text = (  # DLR-RM/rl-baselines3-zoo#267
        "OS: macOS-12.4-arm64-arm-64bit Darwin Kernel Version 21.5.0: Tue Apr 26 21:08:37 PDT 2022; "
        "root:xnu-8020.121.3~4/RELEASE_ARM64_T6000\nPython: 3.8.9\nStable-Baselines3: 1.5.1a8\n"
        "PyTorch: 1.13.0.dev20220629\nGPU Enabled: False\n"
    )
    assert explain_text(text).cause.id == "mps-not-requested"


def test_cuda_asked_for_in_words_on_a_mac() -> None:
    asked = "On Mac Silicon it keeps asking for cuda libraries. Where can i disable cuda?"  # kohya_ss#577
    assert explain_text(asked).cause.id == "cuda-requested-on-mac"
    lacking = "my M3 pro does not have cuda, is there a good solution for running this project on mac?"
    assert explain_text(lacking).cause.id != "cuda-requested-on-mac"


@pytest.mark.parametrize(
    "text",
    [
        # yutanagano/sceptr#35: the message retold
        "The operation aten::_nested_tensor_from_mask_left_aligned is not currently implemented for MPS.",
        # pytorch/pytorch#141287: the op in the tracking issue's template, the notebook's traceback cut
        "**Operator**: `aten::_nested_tensor_from_mask_left_aligned`\nUse Case: Training a Transformer.\n\n"
        "---------------------------------------------------------------------------\n"
        "NotImplementedError                       Traceback (most recent call last)\n"
        "Cell In[27], line 11\n",
    ],
)
def test_an_op_not_implemented_retold_or_named_beside_a_cut_error(text: str) -> None:
    cause = explain_text(text).cause
    assert cause.id == "op-not-implemented"
    assert "aten::_nested_tensor_from_mask_left_aligned" in cause.summary


def test_a_bare_not_implemented_error_with_no_op_named_stays_unrecognised() -> None:
    text = "NotImplementedError                       Traceback (most recent call last)\nCell In[3], line 1\n"
    assert explain_text(text).cause.id == "metal-bug-fixed-later"


def test_a_refusal_later_releases_dropped_is_an_op_this_torch_lacks() -> None:
    cause = explain_text("mac book m1运行时候报RuntimeError: Conv3D is not supported on MPS").cause  # ProPainter#42
    assert cause.id == "op-not-implemented"
    assert cause.fix is not None
    assert cause.fix.commands == ("python3 -m pip install --upgrade 'torch>=2.3.0'",)
    assert "does not help" in cause.fix.summary  # no fallback advice: the MPS op itself refuses


@pytest.mark.parametrize(
    "text",
    [
        # OpenBMB/MiniCPM-V#215
        "我的M3芯片本地运行MiniCPM-Llama3-V-2_5-int4得到了报错"
        "Using `bitsandbytes` 8-bit quantization requires Accelerate",
        # Lightning-AI/pytorch-lightning#19359
        'plugin = BitsandbytesPrecision(mode="int8")\nfabric = Fabric(plugins=plugin, accelerator="mps")\n'
        "AssertionError: Torch not compiled with CUDA enabled\n#- OS: MacOS 14.1",
    ],
)
def test_bitsandbytes_is_the_library_without_mps(text: str) -> None:
    assert explain_text(text).cause.id == "backend-has-no-mps"


def test_bitsandbytes_only_in_a_banner_leaves_cuda_asked_for() -> None:
    text = (
        "bin /Users/a/kohya_ss/venv/lib/python3.10/site-packages/bitsandbytes/libbitsandbytes_cpu.so\n"
        "AssertionError: Torch not compiled with CUDA enabled\n"
    )
    assert explain_text(text).cause.id == "cuda-requested-on-mac"


def test_a_gradient_on_the_other_device_is_a_device_mismatch() -> None:
    text = "RuntimeError: invalid gradient at index 0 - expected device cpu but got mps:0"  # spaCy#11146
    assert explain_text(text).cause.id == "device-mismatch"


@pytest.mark.parametrize(
    ("text", "cause"),
    [
        (  # keras-team/keras#20708
            "MPS (at least on my 2022 M2 macbook pro) doesn't support float64, the conversion of the numpy array to "
            "a torch tensor fails.",
            "float64-unsupported",
        ),
        # Huanshere/VideoLingo#323
        ("是我想的太简单了，whisperX 支持了，但是底层的ctranslate2库还不支持 mps", "backend-has-no-mps"),
    ],
)
def test_a_limit_told_in_words(text: str, cause: str) -> None:
    assert explain_text(text).cause.id == cause


def test_a_crash_told_on_an_mps_line_is_not_healthy() -> None:
    text = (  # pytorch/pytorch#122016
        "# user: Everything was fine with latest PyTorch and MPS until the Sonoma 14.4 update which made it start "
        "crashing on startup (M1 Max).\n"
    )
    assert explain_text(text).cause.id == "metal-bug-fixed-later"
    shown = text + "RuntimeError: Placeholder storage has not been allocated on MPS device!\n"
    assert explain_text(shown).cause.id == "device-mismatch"  # an error shown is judged, not the words


def test_an_op_named_only_by_the_fallback_warning_is_not_the_cut_errors_op() -> None:
    text = (
        "UserWarning: The operator 'aten::nonzero' is not currently supported on the MPS backend and will fall back "
        "to run on the CPU. This may have performance implications.\n"
        "NotImplementedError                       Traceback (most recent call last)\n"
    )
    assert explain_text(text).cause.id != "op-not-implemented"


def test_versions_that_stop_at_the_last_x86_64_release_outrank_the_pin_they_miss() -> None:
    text = (  # pytorch/executorch#3670: an M3, torch==2.3.0 pinned, the list stops at 2.2.2
        "**ERROR:** Could not find a version that satisfies the requirement torch==2.3.0 (from executorch) (from "
        "versions: 2.1.2, 2.2.0, 2.2.1, 2.2.2)\n"
    )
    cause = explain_text(text).cause
    assert cause.id == "no-matching-distribution"
    assert "x86_64" in cause.summary and cause.fix is not None and "arm64" in cause.fix.summary


def test_a_librarys_cpu_kernel_handed_an_mps_tensor_is_an_op_without_mps() -> None:
    text = (  # facebookresearch/detectron2#4686
        'RuntimeError: input.device().is_cpu() INTERNAL ASSERT FAILED at "/Users/t/eql.detectron2/detectron2/layers/'
        'csrc/ROIAlign/ROIAlign_cpu.cpp":408, please report a bug to PyTorch. input must be a CPU tensor'
    )
    cause = explain_text(text).cause
    assert cause.id == "op-not-implemented" and "ROIAlign" in cause.summary


def test_the_cuda_refusal_retold_on_a_mac_is_cuda_asked_for() -> None:
    text = (  # oobabooga/textgen#121
        "can you help me to make my mac m1 run this using metal it crash everytime i use the gpu to run the model it "
        "tells me that torch doesn't work with cuda and it is true torch.cuda.is_available() == false"
    )
    assert explain_text(text).cause.id == "cuda-requested-on-mac"
