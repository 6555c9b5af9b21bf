"""The classes of input the eighteenth out-of-sample round (2026-11-24, vision, face, OCR, speech and audio apps:
EasyOCR, chaiNNer, Real-ESRGAN, chatterbox, fish-speech, OpenVoice, tortoise-tts, audiocraft, espnet,
GroundingDINO) found explain missing, each read generally: a macOS crash report's header (the Python's
architecture under Rosetta, the macOS version, the Mac's model).

The texts are lines of the round's threads (tests/corpus names each).
"""

from __future__ import annotations

from mpscheck.checks.causes import explain_text
from mpscheck.probes.paste import crash_report, read

CRASH = (  # JaidedAI/EasyOCR#961, the header of the report macOS wrote when Python quit
    "Process:               Python [12416]\n"
    "Path:                  /Library/Frameworks/Python.framework/Versions/3.9/Resources/Python.app/"
    "Contents/MacOS/Python\n"
    "Identifier:            org.python.python\n"
    "Version:               3.9.5 (3.9.5)\n"
    "Code Type:             X86-64 (Translated)\n"
    "Parent Process:        Python [12125]\n"
    "OS Version:            macOS 13.1 (22C65)\n"
    "Exception Type:        EXC_BAD_INSTRUCTION (SIGILL)\n"
)


def _facts(text: str) -> dict[str, object]:
    return {obs.fact: obs.value for obs in crash_report.parse(text.splitlines())}


def test_a_crash_report_of_a_translated_python_is_rosetta() -> None:
    assert _facts(CRASH) == {
        "host.system": "Darwin",
        "host.arm64_hardware": True,
        "interpreter.machine": "x86_64",
        "interpreter.proc_translated": 1,
        "host.macos_version": "13.1",
        "host.macos_build": "22C65",
    }
    diagnosis = explain_text(CRASH)
    assert diagnosis.cause.id == "rosetta-python"
    assert "crash_report" in read(CRASH).kinds


def test_a_crash_report_of_a_native_python_is_arm64_or_an_intel_mac() -> None:
    native = CRASH.replace("X86-64 (Translated)", "ARM-64 (Native)")
    assert _facts(native)["interpreter.machine"] == "arm64"
    assert _facts(native)["interpreter.proc_translated"] == 0
    assert _facts(native)["host.arm64_hardware"] is True
    intel = CRASH.replace("X86-64 (Translated)", "X86-64 (Native)")
    assert _facts(intel)["host.arm64_hardware"] is False
    assert _facts(intel)["interpreter.machine"] == "x86_64"
    assert explain_text(native).cause.id != "rosetta-python"


def test_a_crash_report_of_another_process_tells_only_the_mac() -> None:
    other = CRASH.replace("Python [12416]", "Finder [12416]").replace("org.python.python", "com.apple.finder")
    other = other.replace(
        "/Library/Frameworks/Python.framework/Versions/3.9/Resources/Python.app/Contents/MacOS/Python", "/System/Finder"
    )
    other = other.replace("Python [12125]", "launchd [1]")
    facts = _facts(other)
    assert facts["host.arm64_hardware"] is True
    assert "interpreter.machine" not in facts and "interpreter.proc_translated" not in facts


def test_crash_report_lines_that_are_not_the_header_are_not_read() -> None:
    for line in (
        "Code Type: X86-64",  # no Native/Translated: not the report's form
        "My Code Type: X86-64 (Translated)",
        "OS Version: Windows 10 (19045)",
        "Hardware Model: a big one",
    ):
        assert crash_report.parse([line]) == [], line
    assert _facts("OS Version: Mac OS X 10.15.7 (19H2)") == {
        "host.system": "Darwin",
        "host.macos_version": "10.15.7",
        "host.macos_build": "19H2",
    }
    assert _facts("Hardware Model:        MacBookPro18,3") == {"host.model": "MacBookPro18,3"}
