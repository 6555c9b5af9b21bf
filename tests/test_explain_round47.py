"""The classes of input the 47th out-of-sample round (2026-11-25: training frameworks on Macs, 2024-2026: Ultralytics,
YOLOv5, Keras 3's torch backend, LitGPT, torchmetrics) found explain missing, each read generally:

- a training framework's own refusal of a CUDA device it was asked for: Ultralytics' ``Invalid CUDA 'device=0'
  requested`` and YOLOv5's ``Invalid CUDA '--device 0' requested`` (knowledge/framework_device_rows.py), and
  Ultralytics' banner cut after torch's version with no device, which select_device prints just before raising that
  (probes/paste/banner.py): CUDA asked for on a Mac;
- wrong results on mps told in Chinese: a result (结果, 输出, 检测, 框, 图片, 视频) called garbled, wrong, black or
  different from the CPU's (probes/paste/wrong_words.py's ZH_WRONG, read apart where mps is named elsewhere).

The texts are lines of the round's pastes (tests/corpus names each) and other wordings of the same kinds.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mpscheck.checks.causes import explain_text
from mpscheck.knowledge.errors import TABLE
from mpscheck.probes.paste import banner
from mpscheck.probes.paste.wrong_words import ZH_WRONG


def _facts(lines: list[str]) -> dict[str, object]:
    return {o.fact: o.value for o in banner.parse(lines)}


def _body(name: str) -> str:
    """The paste of the corpus case *name* (after its header)."""
    return Path(f"tests/corpus/{name}.txt").read_text(encoding="utf-8").split("\n---\n", 1)[1]


def _row(text: str) -> str | None:
    return next((row.id for row in TABLE if row.pattern.search(text)), None)


@pytest.mark.parametrize(
    "text",
    [
        # Ultralytics (ultralytics#19770's error, which its stored copy cuts; comic-translate#17 shows it whole)
        "ValueError: Invalid CUDA 'device=0' requested. Use 'device=cpu' or pass valid CUDA device(s) if available, "
        "i.e. 'device=0' or 'device=0,1,2,3' for Multi-GPU.",
        "An Error occurred: Invalid CUDA 'device=0' requested. Use 'device=cpu'",
        "ValueError: Invalid CUDA 'device=0,1' requested.",
        # YOLOv5's assertion
        "AssertionError: Invalid CUDA '--device 0' requested, use '--device cpu' or pass valid CUDA device(s)",
    ],
)
def test_a_frameworks_invalid_cuda_device_is_cuda_asked_for(text: str) -> None:
    """Class: a training framework's own refusal of the CUDA index the run named (device=0): CUDA asked for."""
    assert _row(text) == "framework-invalid-cuda-device"
    assert explain_text(f"# user: training on my M2 MacBook Air\n{text}").cause.id == "cuda-requested-on-mac"


@pytest.mark.parametrize(
    "text",
    [
        "RuntimeError: Invalid device, must be cuda device",  # torch's own .cuda(mps) refusal: its own row
        "Invalid CUDA device ordinal",  # no quoted device= the run named
        "I picked device=0 but it says CUDA is invalid",  # words, not the message
    ],
)
def test_near_misses_are_not_the_frameworks_refusal(text: str) -> None:
    assert _row(text) != "framework-invalid-cuda-device"


def test_an_ultralytics_banner_with_no_device_is_cuda_asked_for() -> None:
    """Class: Ultralytics' banner cut after torch's version (select_device prints it just before raising "Invalid
    CUDA 'device=...' requested"), read on a Mac as CUDA asked for; the paste of ultralytics#19770 ends inside
    select_device."""
    assert explain_text(_body("ultralytics-19770-yolo11-torch-2-2-2-select-device-zh")).cause.id == (
        "cuda-requested-on-mac"
    )
    for line in (
        "Ultralytics 8.3.56 🚀 Python-3.12.9 torch-2.2.2 ",
        "Ultralytics YOLOv8.1.3 🚀 Python-3.10.11 torch-2.1.0+cpu",
        "Ultralytics YOLOv8.0.99 🚀 Python-3.11.3 torch-2.0.1",
    ):
        facts = _facts([line])
        assert facts.get("paste.cuda_asked") is True, line
        assert "torch.version" in facts, line
    said = (
        "# user: on my MacBook Pro M1\nUltralytics 8.3.56 🚀 Python-3.12.9 torch-2.2.2 \n"
        "Traceback (most recent call last):"
    )
    assert explain_text(said).cause.id == "cuda-requested-on-mac"


@pytest.mark.parametrize(
    "line",
    [
        "Ultralytics 8.3.203 🚀 Python-3.12.11 torch-2.8.0 MPS (Apple M4 Pro)",  # a device named: the run's device
        "Ultralytics YOLOv8.0.99 🚀 Python-3.11.3 torch-2.0.1 CPU",
        "Ultralytics 8.3.185 🚀 Python-3.11.13 torch-2.8.0 CPU (Apple M4 Pro)",
        "YOLOv5 🚀 v7.0-203-g0897415 Python-3.11.4 torch-2.0.1 MPS",
        "Ultralytics 8.3.56 🚀 Python-3.12.9 torch-2.2.2 and then it hangs",  # more words after the version
    ],
)
def test_a_banner_that_names_a_device_is_no_cuda_request(line: str) -> None:
    assert "paste.cuda_asked" not in _facts([line]), line


@pytest.mark.parametrize(
    "line",
    [
        "最终输出的视频文件是乱的",  # yolov5#13226
        "如果使用mps加速，结果就出现错乱",
        "检测结果不对，用cpu就正常",
        "mps和cpu结果不一样",
        "输出的图片全黑",
        "识别出来的文字是乱码",
        "框的位置不正确",
    ],
)
def test_wrong_results_told_in_chinese(line: str) -> None:
    """Class: a result on mps called garbled, wrong, black or different in Chinese, read apart (the judge takes it
    where the paste names mps)."""
    assert ZH_WRONG.search(line), line
    assert explain_text(f"# user: 用 --device mps 训练\n# user: {line}").cause.id == "metal-bug-fixed-later"


@pytest.mark.parametrize(
    "line",
    [
        "运行的时候输出错误信息如下",  # an error raised, not a result called wrong
        "用mps跑的时候结果正常，但是很慢",  # called normal
        "是不是框架不对",  # 框架: the framework, no box
        "检测不到GPU",  # nothing detected of the device
        "训练结果很好",
    ],
)
def test_chinese_near_misses_are_no_wrong_result(line: str) -> None:
    assert not ZH_WRONG.search(line), line


def test_the_round_yolov5_case_reads_as_wrong_results() -> None:
    assert explain_text(_body("yolov5-13226-mps-boxes-wrong-cuda-amp-warning-zh")).cause.id == "metal-bug-fixed-later"
