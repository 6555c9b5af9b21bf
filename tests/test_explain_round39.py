"""The classes of input the 39th out-of-sample round (2026-11-25: notebooks, IDEs and interpreter managers around
torch on a Mac, and pastes in other languages) found explain missing, each read generally: the architecture a shell
or a Python reports, told in words and in Chinese or Japanese ("uname -m 输出x86_64", "`platform.machine()` returns
`x86_64`"); conda's own CPU family (`__archspec=1=x86_64`) as a sign of an x86_64 conda; a macOS virtual machine
named in words ("virtualized Mac does not support MPS"); the shell's "bad CPU type in executable" (a program of the
other architecture: on an Intel Mac an Apple-silicon-only app); and a library's notice in non-native English that it
keeps one model off mps ("lama not support mps, switch to cpu").

The texts are lines of the round's pastes (tests/corpus names each).
"""

from __future__ import annotations

from mpscheck.checks.causes import explain_text
from mpscheck.knowledge.errors import BY_ID
from mpscheck.probes.paste import prose
from mpscheck.probes.paste.machine_words import machine_said


def _facts(lines: list[str]) -> dict[str, object]:
    return {o.fact: o.value for o in prose.parse(lines)}


def test_uname_said_in_chinese_or_japanese_is_the_shells_machine() -> None:
    assert machine_said("mac m3 uname -m 输出x86_64什么鬼") == [("paste.shell_machine", "x86_64")]  # dcloudio#154
    assert machine_said("uname -m の結果が x86_64 でした") == [("paste.shell_machine", "x86_64")]
    assert machine_said("uname -m returns arm64") == [("paste.shell_machine", "arm64")]
    assert machine_said("uname -m 显示 arm64") == [("paste.shell_machine", "arm64")]
    for line in ("uname -m", "run uname -m and x86_64 wheels", "uname -m 输出x86_64h"):
        assert machine_said(line) == [], line
    diagnosis = explain_text("mac m3 uname -m 输出x86_64什么鬼")
    assert diagnosis.cause.id == "rosetta-python"  # an M3 whose shell says x86_64: a Rosetta terminal


def test_platform_machine_said_with_a_verb_is_this_pythons_machine() -> None:
    said = "`platform.machine()` returns `x86_64` on `arm64` Macbook Pros"  # anaconda-issues#13174's title
    assert machine_said(said) == [("interpreter.machine", "x86_64")]
    assert machine_said("platform.machine() -> 'arm64'") == [("interpreter.machine", "arm64")]
    assert machine_said("platform.machine() returned the value 'x86_64'") == [("interpreter.machine", "x86_64")]
    for code in ("if platform.machine() == 'x86_64':", "print(platform.machine())"):
        assert machine_said(code) == [], code
    assert explain_text("On my M1 Max, " + said).cause.id == "rosetta-python"


def test_condas_x86_64_archspec_on_an_apple_chip_is_rosetta() -> None:
    paste = "\n".join(
        [
            "# user: On an M1 Macbook Pro (`arm64` architecture), Python from Anaconda returns the wrong value",
            "     active environment : banditpam",
            "    active env location : /Users/motiwari/anaconda3/envs/banditpam",
            "          conda version : 23.1.0",
            "       virtual packages : __archspec=1=x86_64",
        ]
    )
    diagnosis = explain_text(paste)  # anaconda-issues#13174
    assert diagnosis.cause.id == "rosetta-python"
    assert any("osx-arm64" in command for command in diagnosis.cause.fix.commands)  # type: ignore[union-attr]
    arm = paste.replace("__archspec=1=x86_64", "__archspec=1=m1")
    assert explain_text(arm).cause.id != "rosetta-python"  # conda sees the Apple chip: no x86_64 conda shown


def test_a_macos_vm_named_in_words_is_a_virtual_machine() -> None:
    said = (
        "There's a multi-layered story here, where virtualized Mac does not support MPS. MPS is however still "
        "reported as available by the OS, and hence a simple check `torch.backends.mps.is_available():` is not "
        "sufficient"
    )
    assert _facts([said]).get("host.hypervisor") is True  # torchchat#1416
    assert explain_text(said).cause.id == "virtual-machine"
    for line in ("the tests run in a macOS VM on the CI", "my Mac VM has no GPU", "two virtual Macs in UTM"):
        assert _facts([line]).get("host.hypervisor") is True, line
    for line in ("I run an Ubuntu VM on my Mac", "a virtual environment on my Mac", "the Mac's virtual memory"):
        assert _facts([line]).get("host.hypervisor") is None, line


def test_bad_cpu_type_is_a_program_of_the_other_architecture() -> None:
    bash = "Miniconda3-latest-MacOSX-arm64.sh: line 410: /Users/u/miniconda3/conda.exe: Bad CPU type in executable"
    diagnosis = explain_text("# user: on an M1 Mac, without Rosetta\n" + bash)  # anaconda-issues#12941
    assert diagnosis.cause.id == "wrong-arch-wheel"
    assert "arm64" in diagnosis.cause.fix.summary  # type: ignore[union-attr]
    row = BY_ID["bad-cpu-type"].pattern
    assert row.search("zsh: bad CPU type in executable: /usr/local/bin/ffmpeg")
    for python in (  # a Python's own architecture is the setup rules' (Rosetta), not this row's
        "zsh: bad CPU type in executable: /Users/u/Library/jupyterlab-desktop/jlab_server/bin/python3.8",
        "/opt/x/bin/python3.11: Bad CPU type in executable",
    ):
        assert row.search(python) is None, python
    intel = (
        "# user: I'm using a MacBook Pro 2019 with i7 chip CPU and AMD Radeon Pro 5300M 4 GB GPU.\n"
        '# user: it said "Bad CPU type in executable", so is it only supported on m1 or further chips?'
    )
    assert explain_text(intel).cause.id == "intel-mac"  # voice-changer#496: an Apple-silicon-only app on Intel


def test_a_library_keeping_one_model_off_mps_in_its_own_words_is_a_cpu_step() -> None:
    said = "23:22:12.229 | INFO | sorawm.iopaint.helper:switch_mps_device:30 - lama not support mps, switch to cpu"
    assert explain_text(said).cause.id == "op-fallback-warning"  # SoraWatermarkCleaner#31
    row = BY_ID["framework-cpu-model"].pattern
    assert row.search(
        "surya: TableRecEncoderDecoderModel is not compatible with mps backend. Defaulting to cpu instead"
    )
    assert row.search("lama not support mps, switch to cpu")
    assert row.search("this model does not support mps") is None


def test_a_failure_said_to_happen_in_colab_is_a_run_on_linux() -> None:
    said = (
        '# user: I have verified that `devices=["mps"]` makes this tutorial fail in Colab with the error:\n'
        "`RuntimeError: PyTorch is not linked with support for mps devices`"
    )
    assert explain_text(said).cause.id == "not-macos"  # haystack-tutorials#252
    assert machine_said("it fails in Google Colab too") == [("host.system", "Linux")]
    assert machine_said("on colab the notebook failed at the first cell") == [("host.system", "Linux")]
    for contrast in (  # Colab named as where the same code works: the contrast to the Mac
        "However, the code is running fine on colab with device = 'cuda'.",
        "about 5 minutes per epoch vs 5 seconds on Colab",
        "it fails on my Mac but not in Colab",
    ):
        assert machine_said(contrast) == [], contrast
