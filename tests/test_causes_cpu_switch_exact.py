"""Running on the CPU in the framework the paste shows (checks/causes/cpu_switch.py), pinned exactly: the
switch is added only to causes whose fix runs on this Mac's CPU, only for a framework the paste shows, and
the words say which lines it is."""

from __future__ import annotations

from dataclasses import replace

from mpscheck.checks.causes import explain_text
from mpscheck.checks.causes.cpu_switch import FASTAI_CPU, LIGHTNING_CPU
from mpscheck.model import Remediation

INTEL = "# user: my MacBook Pro 2017 has an Intel Core i5"
NO_DEVICE = (
    "RuntimeError: The MPS backend is supported on MacOS 12.3+.Current OS version can be queried using `sw_vers`"
)
OLD_MACOS = ["ProductName:\tmacOS", "ProductVersion:\t12.2.1", NO_DEVICE]


def test_an_intel_mac_running_fastai_is_told_fastais_cpu_setting_last() -> None:
    plain = explain_text(f"{INTEL}\n{NO_DEVICE}").cause
    assert plain.id == "intel-mac" and plain.fix is not None
    assert FASTAI_CPU not in plain.fix.commands
    shown = explain_text(f"{INTEL}\n{NO_DEVICE}\n# user: Fastai version : 2.7.12").cause
    base = plain.fix.summary.removesuffix(":")
    assert shown.fix == Remediation(
        f"{base} (the first lines below). To run fastai on the CPU: the last line.",
        (*plain.fix.commands, FASTAI_CPU),
    )
    assert replace(shown, fix=plain.fix, evidence=plain.evidence) == plain  # only the fix changed


def test_an_old_macos_with_lightning_and_a_yolo_command_gets_both_switches_in_order() -> None:
    plain = explain_text("\n".join(OLD_MACOS)).cause
    assert plain.id == "macos-too-old" and plain.fix is not None
    banner = "GPU available: False, used: False"
    yolo = "$ yolo train model=yolov8n.pt data=coco8.yaml device=mps"
    shown = explain_text("\n".join([banner, yolo, *OLD_MACOS])).cause
    assert shown.id == "macos-too-old"
    assert shown.fix == Remediation(
        plain.fix.summary + " To run Lightning and Ultralytics on the CPU: the last lines.",
        (*plain.fix.commands, LIGHTNING_CPU, "yolo train model=yolov8n.pt data=coco8.yaml device=cpu"),
    )


def test_no_switch_for_a_cause_whose_fix_is_not_the_cpu_or_a_word_that_only_contains_fastai() -> None:
    mismatch = "RuntimeError: Placeholder storage has not been allocated on MPS device!"
    with_fastai = explain_text(f"import fastai\n{mismatch}").cause
    assert with_fastai.id == "device-mismatch"
    assert with_fastai.fix == explain_text(mismatch).cause.fix
    plain = explain_text(f"{INTEL}\n{NO_DEVICE}").cause
    for word in ("fastair", "my-fastai-fork", "fastai_utils", "x.fastai"):
        assert explain_text(f"{INTEL}\n{NO_DEVICE}\n# user: {word}").cause.fix == plain.fix, word
    for said in ("FastAI", "from fastai.vision.all import *", "fastai 2.7.12"):
        assert FASTAI_CPU in explain_text(f"{INTEL}\n{NO_DEVICE}\n{said}").cause.fix.commands, said


def test_a_virtual_machine_and_a_hidden_gpu_take_the_switch_too() -> None:
    vm = "hw.model: VirtualMac2,1"
    plain = explain_text(vm).cause
    assert plain.id == "virtual-machine" and plain.fix is not None
    assert explain_text(f"{vm}\nimport fastai").cause.fix.commands == (*plain.fix.commands, FASTAI_CPU)
    hidden = ["ProductName:\tmacOS", "ProductVersion:\t14.5", NO_DEVICE]
    plain = explain_text("\n".join(hidden)).cause
    assert plain.id == "no-metal-device" and plain.fix is not None
    assert explain_text("\n".join([*hidden, "import fastai"])).cause.fix.commands == (*plain.fix.commands, FASTAI_CPU)
