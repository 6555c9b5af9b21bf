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


def test_a_macos_named_without_its_minor_is_not_judged_against_a_floor_inside_that_major() -> None:
    from mpscheck.knowledge.versions import surely_below

    assert not surely_below((12,), (12, 3))  # "Monterey" may be 12.6
    assert surely_below((12,), (13, 0))
    assert surely_below((12, 0), (12, 3))
    assert surely_below((12, 2, 1), (12, 3))
    assert not surely_below((12, 3), (12, 3))
    assert not surely_below((14,), (13, 0))
    # chaiNNer-org/chaiNNer#2216: "the latest Monterey" is no macOS older than 12.3
    text = "# user: Using chaiNNer 0.20.0 on a M1 Macbook with the latest Monterey, every upscale attempt fails"
    diagnosis = explain_text(text)
    assert diagnosis.cause.id != "macos-too-old"
    assert all(f.status != "fail" for f in diagnosis.findings if f.id == "macos-version")
    # a version that is surely too old still is
    assert explain_text("# user: M1 Macbook on macOS 12.1, torch 2.3.0, mps is not available").cause.id == (
        "macos-too-old"
    )


def test_a_half_error_retyped_from_a_dialog_is_still_read() -> None:
    # chaiNNer-org/chaiNNer#2216: the dialog's text retyped, spaces for underscores and a mistyped closing quote
    for line in (
        "\"compute indices weights _nearest\" not implemented for 'Half'",
        '"slow conv2d cpu" not implemented for \'Half"',
        "\"slow_conv2d_cpu\" not implemented for 'Half'",
    ):
        assert explain_text(line).cause.id == "half-on-cpu-fallback", line
    # more than a few words in quotes is prose, not an op's name
    assert explain_text("\"this one two three four five six\" not implemented for 'Half'").cause.id != (
        "half-on-cpu-fallback"
    )


def test_mps_out_of_memory_told_in_words_is_an_out_of_memory_not_a_crash() -> None:
    # neonbjb/tortoise-tts#773: the message is only named in the user's words, beside "crashes"
    for line in (
        "# user: I have 16gb m2 and python is using 19+gb and it constantly crashes with MPS out of memory error",
        "it runs out of memory on mps after a few steps",
        "the GPU goes OOM on my M1 after the first image",
    ):
        diagnosis = explain_text(line)
        assert diagnosis.cause.id == "out-of-memory", line
        assert diagnosis.cause.variant == "told"
        assert diagnosis.cause.fix is not None and "smaller batch" in diagnosis.cause.fix.summary
        assert diagnosis.cause.fix.commands == ("top -l 1 -o mem -n 10",)  # the out-of-memory row's: who holds it
    # a crash said without memory words stays a crash; memory words far from mps or the GPU are not this
    assert explain_text("it crashes on mps every time").cause.id != "out-of-memory"
    assert explain_text("my disk is out of memory, and mps is slow to start").cause.id != "out-of-memory"


def test_torch_s_own_out_of_memory_message_is_no_out_of_memory_told() -> None:
    from mpscheck.probes.paste import prose

    for line in (
        "`MPS backend out of memory (MPS allocated: 1024.00 MB). Tried to allocate 256 bytes on shared pool.`",
        "torch.OutOfMemoryError: MPS out of memory",
    ):
        assert all(obs.fact != "paste.oom_said" for obs in prose.parse([line])), line


def test_garbled_audio_on_mps_is_wrong_results() -> None:
    # facebookresearch/audiocraft#31: "I was able to get the model to run on MPS. Unfortunately, it just spits out
    # garbled sounds"; the same words of speech and voices
    for line in (
        "I was able to get the model to run on MPS. Unfortunately, it just spits out garbled sounds",
        "with device='mps' the output is garbled",
        "on mps I only get garbled speech",
    ):
        assert explain_text(line).cause.id == "metal-bug-fixed-later", line
    # garbled words far from any device, or a garbled download, are not results on mps
    assert explain_text("the README's table is garbled on GitHub").cause.id != "metal-bug-fixed-later"


def test_the_cpu_said_to_run_now_or_a_question_how_to_use_the_gpu_is_the_cpu_used() -> None:
    from mpscheck.probes.paste import prose

    def device(line: str) -> object:
        return next((obs.value for obs in prose.parse([line]) if obs.fact == "paste.device_used"), None)

    # xinntao/Real-ESRGAN#798, JaidedAI/EasyOCR#806
    for line in (
        "I'm running RealESRGAN on my Mac M3. While I suspect it's currently using the CPU, is there a way",
        "is there a way to leverage the M3's GPU or the neural engine for faster processing?",
        "I wonder how would I enable gpu using GPU parameters.",
        "how can I use the mps device with this?",
    ):
        assert device(line) == "cpu", line
    for line in (
        "it's using the cpu count to pick the number of workers",  # no: "cpu count" is no device
        "I use the GPU and it crashes",  # no question: the GPU is what runs
        "how the GPU is used is unclear",
    ):
        assert device(line) is None, line
    text = "I'm running RealESRGAN on my Mac M3. While I suspect it's currently using the CPU, is there a way?"
    assert explain_text(text).cause.id == "mps-not-requested"


def test_a_check_for_mps_that_crashes_on_an_old_torch_is_the_old_torch_off_macos_too() -> None:
    # JaidedAI/EasyOCR#1071: easyocr's torch.backends.mps.is_available() on Windows with a torch older than 1.12
    text = (
        'File "c:\\users\\42072\\appdata\\local\\programs\\python\\python36\\lib\\site-packages\\easyocr\\easyocr.py",'
        " line 75, in __init__\n"
        "    elif torch.backends.mps.is_available():\n"
        "AttributeError: module 'torch.backends' has no attribute 'mps'\n"
    )
    diagnosis = explain_text(text)
    assert diagnosis.cause.id == "torch-too-old"
    assert "not-macos" in [other.id for other in diagnosis.others]
    # the device string 'mps' refused by an old torch off macOS is still the system's: no torch has mps there
    text = (
        'File "C:\\Users\\me\\train.py", line 3, in <module>\n'
        "RuntimeError: Expected one of cpu, cuda, xpu, mkldnn, opengl, opencl, ideep, hip, msnpu, xla, vulkan device "
        "type at start of device string: mps\n"
    )
    assert explain_text(text).cause.id == "not-macos"


def test_a_failure_put_down_to_missing_cuda_is_cuda_asked_for() -> None:
    from mpscheck.probes.paste import prose

    def asked(line: str) -> bool:
        return any(obs.fact == "paste.cuda_asked" for obs in prose.parse([line]))

    # resemble-ai/chatterbox#357's title
    assert asked("Chatterbox doesn't work on Apple silicon due to the lack of CUDA.")
    assert asked("the model fails to load because there is no CUDA on my Mac")
    # the Mac's lack of CUDA said alone asks for nothing
    assert not asked("my Mac has no CUDA, so I use mps")
    assert not asked("it works fine due to the lack of CUDA overhead")  # no failure said
    diagnosis = explain_text("# title: Chatterbox doesn't work on Apple silicon due to the lack of CUDA.")
    assert diagnosis.cause.id == "cuda-requested-on-mac"


def test_ctranslate2_told_to_fall_back_to_the_cpu_is_a_backend_without_mps() -> None:
    # collabora/WhisperLive#394, the round's second batch
    for line in (
        "faster_whisper is more like slower_whisper on M-series processors because CTranslate2 isn't optimized "
        "falling back to the CPU.",
        "faster-whisper only runs on the CPU on my Mac",
    ):
        assert explain_text(line).cause.id == "backend-has-no-mps", line
    # the CPU named without CTranslate2 or faster-whisper is not this
    assert explain_text("whisper falls back to the CPU on my Mac").cause.id != "backend-has-no-mps"
