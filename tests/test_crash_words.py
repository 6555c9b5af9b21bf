"""A crash told in words on a line that names neither mps nor a chip (probes/paste/crash_words.py): the metamorphic
run found huggingface/transformers#48029 called healthy once an e-mail client wrapped the sentence that named mps
("... {"": "mps"} also crashes" became a line "also crashes"), beside an environment report saying MPS is available.
The class: a crash told apart from the device, or told by its signal ("SIGSEGV (exit 139)"), in a paste that names mps,
is the crash it tells, never healthy; a crash denied, a run the user aborted, or a paste that never names mps is not.
"""

from __future__ import annotations

import pytest

from mpscheck.checks.causes import explain_text
from mpscheck.model import ExitCode
from mpscheck.probes.paste import crash_words

ENV = (
    "- `transformers` version: 5.15.0\n"
    "- Platform: macOS-26.3.1-arm64-arm-64bit-Mach-O\n"
    "- PyTorch version (GPU?): 2.13.0 (False)\n"
    "- MPS available: True\n"
)


def _facts(line: str) -> list[str]:
    return [o.fact for o in crash_words.parse([line])]


@pytest.mark.parametrize(
    "line",
    [
        "also crashes",
        "# -> SIGSEGV (exit 139). faulthandler places the crash in the worker",
        "the kernel crashed again after the second cell",
        "Python quit unexpectedly with a segmentation fault",
        "it exited with code 134",
        "then a bus error when loading the model",
    ],
)
def test_a_crash_told_without_a_device_is_read_apart(line: str) -> None:
    assert _facts(line) == ["paste.crash_said_apart"]


@pytest.mark.parametrize(
    "line",
    [
        "it doesn't crash, it is only slow",
        "no crash so far, but the loss is nan",
        "runs without crashing on the CPU",
        "I aborted the training after an hour",  # the user stopped it: prose.py's "abort" is not read apart
        "it crashes on my M1 Pro",  # a chip: prose.py reads it (paste.crash_said_mac)
        '  File "/x/crash.py", line 3, in <module>',  # code or output, not words
        "exit code 1",  # an ordinary failure, no signal
    ],
)
def test_a_crash_denied_a_run_stopped_a_chip_or_output_is_not_read_apart(line: str) -> None:
    assert _facts(line) == []


def test_a_signal_told_beside_mps_is_a_crash_told_on_mps() -> None:
    assert _facts("推理崩溃, 报 `mps.matmul: incompatible dimensions`(SIGABRT)") == ["paste.crash_said"]
    assert _facts("the mps run crashes") == []  # prose.py's words already read it: not twice


def test_only_the_first_crash_apart_is_read() -> None:
    found = crash_words.parse(["first it crashes", "then it crashes again"])
    assert [(o.fact, o.line) for o in found] == [("paste.crash_said_apart", 1)]


def test_a_crash_told_apart_in_a_paste_that_names_mps_is_never_healthy() -> None:
    wrapped = ENV + '# user: from_pretrained(..., device_map="auto")  # resolves to MPS; {"": "mps"}\nalso crashes\n'
    diagnosis = explain_text(wrapped)
    assert diagnosis.cause.id == "metal-bug-fixed-later" and diagnosis.cause.variant == "crash-said"
    assert diagnosis.exit_code == ExitCode.PROBLEMS
    assert explain_text(ENV + "# -> SIGSEGV (exit 139)\n").cause.id == "metal-bug-fixed-later"


def test_a_crash_told_apart_with_no_mps_anywhere_names_no_mps_bug() -> None:
    assert explain_text("it crashes every time I run the script").cause.id != "metal-bug-fixed-later"
    assert explain_text(ENV.replace("MPS available: True", "CUDA available: False") + "also crashes").cause.id != (
        "metal-bug-fixed-later"
    )
