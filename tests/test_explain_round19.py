"""The classes of input the nineteenth out-of-sample round (2026-11-24, pastes in Chinese and from projects whose
users mostly write Chinese or Japanese: CosyVoice, FunASR/SenseVoice, GPT-SoVITS, so-vits-svc, LLaMA-Factory,
ChatGLM, pyvideotrans, Bert-VITS2, Ultimate Vocal Remover) found explain missing, each read generally: a macOS crash
report's "OS Version:" header; a library's device check that lists no mps (ModelScope's pipelines); transformers'
refusal of --fp16 on mps; a script's own `assert torch.cuda.is_available()`; the CPU still used after mps was asked
for, told in English or Chinese; a Mac word written against CJK letters.

The texts are lines of the round's pastes (tests/corpus names each) and the same shapes in other words.
"""

from __future__ import annotations

import pytest

from mpscheck.checks.causes import explain_text
from mpscheck.probes.paste import banner, prose, sw_vers

CRASH = (
    "*** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: "
    "'-[MPSGraphExecutionDescriptor setEnableCommitAndContinue:]: unrecognized selector sent to instance 0x6000'"
)


@pytest.mark.parametrize(
    ("line", "version", "build"),
    [
        ("OS Version:            macOS 11.3.1 (20E241)", "11.3.1", "20E241"),  # ultimatevocalremovergui#1156
        ("OS Version:            macOS 13.0 (22A8380)", "13.0", "22A8380"),  # invokeai-2639's crash report
        ("OS Version: Mac OS X 10.15.7 (19H2)", "10.15.7", "19H2"),
        ("OS Version:            macOS 14.2.1 (23C71)", "14.2.1", "23C71"),
    ],
)
def test_a_crash_reports_os_version_is_the_macos(line: str, version: str, build: str) -> None:
    facts = {o.fact: o.value for o in sw_vers.parse([line])}
    assert facts == {"host.system": "Darwin", "host.macos_version": version, "host.macos_build": build}


@pytest.mark.parametrize(
    "line",
    [
        "OS Version: macOS 11.3.1",  # no build in brackets: prose read elsewhere, not the crash header
        "My OS Version: macOS 11.3.1 (20E241) I think",
        "OS Version: Windows 10 (19045)",
    ],
)
def test_other_os_version_lines_are_not_the_crash_header(line: str) -> None:
    assert sw_vers.parse([line]) == []


def test_a_crash_on_a_macos_older_than_mps_is_that_macos() -> None:
    diagnosis = explain_text(f"OS Version:            macOS 11.3.1 (20E241)\n{CRASH}")
    assert diagnosis.cause.id == "macos-too-old"
    assert diagnosis.exit_code == 1


def test_the_crash_alone_stays_a_backend_bug() -> None:
    assert explain_text(CRASH).cause.id == "metal-bug-fixed-later"


@pytest.mark.parametrize(
    "line",
    [
        # pyvideotrans#1028: ModelScope's pipeline device check
        "AssertionError: FunASRPipeline: device should be either cpu, cuda, gpu, gpu:X or cuda:X where X is the "
        "ordinal for gpu device.",
        "ValueError: device must be one of: cpu, cuda",
        "RuntimeError: device should be 'cpu' or 'cuda', got mps",
    ],
)
def test_a_library_device_check_without_mps_is_a_library_without_mps(line: str) -> None:
    diagnosis = explain_text(line)
    assert diagnosis.cause.id == "backend-has-no-mps"
    assert diagnosis.cause.fix is not None
    assert "device='cpu'" in diagnosis.cause.fix.summary


def test_a_device_list_that_names_mps_is_not_that_refusal() -> None:
    diagnosis = explain_text("ValueError: device must be one of cpu, cuda, mps; got 'tpu'")
    assert diagnosis.cause.id != "backend-has-no-mps"


@pytest.mark.parametrize(
    "line",
    [
        # LLaMA-Factory#2329: transformers' TrainingArguments
        "ValueError: FP16 Mixed precision training with AMP or APEX (`--fp16`) and FP16 half precision evaluation "
        "(`--fp16_full_eval`) can only be used on CUDA or NPU devices or certain XPU devices (with IPEX).",
        "ValueError: Mixed precision training with AMP or APEX (`--fp16` or `--bf16`) and half precision evaluation "
        "(`--fp16_full_eval` or `--bf16_full_eval`) can only be used on CUDA or NPU devices",
    ],
)
def test_transformers_fp16_refusal_is_autocast_on_mps(line: str) -> None:
    diagnosis = explain_text(line)
    assert diagnosis.cause.id == "autocast-needs-newer-torch"
    assert diagnosis.cause.fix is not None
    assert "--fp16" in diagnosis.cause.fix.summary
    assert any("torch>=2.8" in command for command in diagnosis.cause.fix.commands)


def test_a_scripts_cuda_assertion_is_cuda_asked_for() -> None:
    # so-vits-svc#143: the traceback's source line says what the AssertionError does not
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/Users/x/so-vits-svc/train.py", line 46, in main\n'
        '    assert torch.cuda.is_available(), "CPU training is not allowed."\n'
        "AssertionError: CPU training is not allowed.\n"
    )
    diagnosis = explain_text(paste)
    assert diagnosis.cause.id == "cuda-requested-on-mac"
    assert diagnosis.cause.evidence[0].text.strip().startswith("assert torch.cuda.is_available()")


def test_the_bare_assertion_error_is_not_cuda() -> None:
    assert explain_text("AssertionError: CPU training is not allowed.").cause.id != "cuda-requested-on-mac"


@pytest.mark.parametrize(
    "line",
    [
        "the log shows the device still is CPU but not mps",  # GPT-SoVITS#2612
        "but it is still using the CPU",
        "我修改了funasr_wss_server.py文件的配置，把cpu改为mps并没有效果。",  # FunASR#1802
        "设置为 mps 不起作用",
        "发现对于mac其实是在用cpu推理，在改成mps后反而速度降了",  # GPT-SoVITS#1988
    ],
)
def test_the_cpu_still_used_is_the_runs_device(line: str) -> None:
    facts = {o.fact: o.value for o in prose.parse([line])}
    assert facts.get("paste.device_used") == "cpu"


@pytest.mark.parametrize(
    "line",
    [
        "it is still on the cpu-only build",  # a build, not the run
        "the CPU is still fast",
        "改为mps后速度很快",  # mps set and fast: nothing says the CPU was used
        "是否支持 mps",
    ],
)
def test_other_cpu_words_are_not_the_runs_device(line: str) -> None:
    facts = {o.fact: o.value for o in prose.parse([line])}
    assert "paste.device_used" not in facts


def test_a_mac_word_against_cjk_letters_names_the_mac() -> None:
    # "对于mac其实": no \b between Latin and CJK letters, so the Mac was not read and the paste was unreadable
    diagnosis = explain_text("发现对于mac其实是在用cpu推理，在改成mps后反而速度降了，这是为什么？")
    assert diagnosis.cause.id == "mps-not-requested"
    assert explain_text("发现对于macbook其实是在用cpu推理").cause.id == "mps-not-requested"


def test_a_word_that_only_starts_like_mac_is_not_the_mac() -> None:
    facts = {o.fact: o.value for o in prose.parse(["machine其实是在用cpu推理"])}
    assert "host.system" not in facts


# The round's second batch (ChatTTS threads): torch's index on another device, memory that grows told in Chinese
# against "mps" with no space, a framework's "No GPU found, use CPU instead".


def test_an_index_on_the_other_device_is_a_device_mismatch() -> None:
    # ChatTTS#772
    diagnosis = explain_text(
        "RuntimeError: indices should be either on cpu or on the same device as the indexed tensor (cpu)"
    )
    assert diagnosis.cause.id == "device-mismatch"
    assert diagnosis.cause.fix is not None
    assert ".to(" in diagnosis.cause.fix.summary


@pytest.mark.parametrize(
    "line",
    [
        "使用mps版本内存爆掉了，芯片：Apple M2 Pro",  # ChatTTS#96
        "mps 运行时内存泄漏",
        "用mps跑显存一直增长",
        "memory keeps growing on mps",
    ],
)
def test_memory_that_grows_on_mps_is_read_in_chinese_too(line: str) -> None:
    facts = {o.fact: o.value for o in prose.parse([line])}
    assert facts.get("paste.memory_growth") is True


@pytest.mark.parametrize("line", ["内存爆掉了", "cpu 内存泄漏", "mpsx 内存泄漏", "mps 速度很快，内存够用"])
def test_memory_words_without_mps_or_without_growth_are_not_that(line: str) -> None:
    facts = {o.fact: o.value for o in prose.parse([line])}
    assert "paste.memory_growth" not in facts


@pytest.mark.parametrize(
    "line",
    [
        "WARNING:ChatTTS.utils.gpu_utils:No GPU found, use CPU instead",  # ChatTTS#60
        "No GPU detected, using CPU",
        "modelscope - INFO - cuda is not available, using cpu instead.",
        "GPU not available, falling back to CPU",
    ],
)
def test_a_framework_that_found_no_gpu_runs_on_the_cpu(line: str) -> None:
    facts = {o.fact: o.value for o in banner.parse([line])}
    assert facts.get("paste.device_used") == "cpu"


@pytest.mark.parametrize("line", ["No GPU found", "no GPU found, please install CUDA", "GPU not available on CI"])
def test_no_gpu_without_the_cpu_taken_is_not_the_runs_device(line: str) -> None:
    assert "paste.device_used" not in {o.fact for o in banner.parse([line])}
