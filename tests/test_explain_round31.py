"""The classes of input the thirty-first out-of-sample round (2026-11-24: 3D, depth, pose and biology tools)
found explain missing, each read generally: torch's C++-extension builder refusing to compile CUDA sources on a
Mac (CUDA_HOME not set, an nvcc that is not there), which 3D rasterizers, simple-knn and tiny-cuda-nn all meet.

The texts are lines of the round's threads (tests/corpus names each).
"""

from __future__ import annotations

from mpscheck.checks.causes import explain_text

CUDA_HOME = (  # Tencent-Hunyuan/Hunyuan3D-2#320
    "OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root."
)


def test_building_a_cuda_extension_on_a_mac_is_cuda_asked_for() -> None:
    diagnosis = explain_text("# user: on my Apple M2\n" + CUDA_HOME)
    assert diagnosis.cause.id == "cuda-requested-on-mac"
    fix = diagnosis.cause.fix
    assert fix is not None and "mps" in fix.summary and "CUDA extension" in fix.summary
    assert diagnosis.cause.evidence and "CUDA_HOME" in diagnosis.cause.evidence[0].text


def test_a_missing_nvcc_called_by_the_extension_builder_is_the_same_ask() -> None:
    line = "error: [Errno 2] No such file or directory: '/usr/local/cuda/bin/nvcc'"
    assert explain_text("# user: MacBook Pro M1\n" + line).cause.id == "cuda-requested-on-mac"
    # a path with no nvcc in it is no CUDA build
    other = "error: [Errno 2] No such file or directory: '/usr/local/cuda/bin/ptxas'"
    assert explain_text("# user: MacBook Pro M1\n" + other).cause.id != "cuda-requested-on-mac"


def test_macs_in_the_plural_name_the_users_kind_of_machine() -> None:
    # RosettaCommons/RFdiffusion#118: the CUDA packages asked for, the Macs named only in the plural
    text = (
        "# user: Would be wonderful to update the code to be compatible with new Macs\n"
        "# user: Currently does not install due to cudatoolkit and dgl, which are unavailable for M1/M2."
    )
    assert explain_text(text).cause.id == "cuda-requested-on-mac"
    # a word that only starts like one is no Mac
    assert explain_text(text.replace("new Macs", "new macros")).cause.id != "cuda-requested-on-mac"
    # nor do Macs in general outweigh the system the paste shows the user on
    assert explain_text("# user: I run it on Ubuntu 22.04\n" + text).cause.id != "cuda-requested-on-mac"


def test_mps_set_against_a_cpu_that_works_on_one_line_is_a_wrong_result() -> None:
    # Tencent-Hunyuan/Hunyuan3D-2#151: no failure word for mps, only the CPU said to work
    line = 'I also get the cubes when setting device to "mps", it does work with "cpu" though, but slow.'
    diagnosis = explain_text(line)
    assert diagnosis.cause.id == "metal-bug-fixed-later"
    assert diagnosis.cause.variant == "wrong-results"
    # the CPU fallback named is no CPU run that works
    assert explain_text('set device to "mps", it works with cpu fallback').cause.id != "metal-bug-fixed-later"
    # nor is a CPU that works without mps set against it
    assert explain_text("it does work with cpu though").cause.id != "metal-bug-fixed-later"


def test_an_output_called_nonsense_however_spelled_is_a_wrong_result() -> None:
    # wgsxm/PartCrafter#25's title
    line = "Apple MPS support - code runs fine but outputs is non-sense"
    assert explain_text(line).cause.id == "metal-bug-fixed-later"
    assert explain_text(line.replace("non-sense", "nonsense")).cause.id == "metal-bug-fixed-later"
    # a word alone with no result said to be it is not
    assert explain_text("Apple MPS support - the docs are non-sense to me").cause.id != "metal-bug-fixed-later"


def test_the_line_that_sets_mps_against_the_cpu_gives_both_halves_exactly() -> None:
    from tests.test_explain_round16 import said

    for line in (
        'setting device to "mps", it does work with "cpu" though',
        "on mps, but it works fine on cpu",
        "with `mps` everything runs fine with the CPU",
        "device mps, though it works on `cpu`",
    ):
        assert said(line) == (True, True), line
    for line in (
        "set it to mps, it works with cpu fallback",  # the CPU fallback, not a CPU run
        "mps works on cpu-bound jobs",  # no CPU run named (cpu-bound)
        "torch-mps, it works with cpu",  # a word that ends in mps
        "gpumps it works with cpu",
        "mps and it works with cpu",  # no contrast, no pause: a list
    ):
        assert not said(line)[0], line  # (a CPU said to work is still read as such, by WORKS_ELSEWHERE)


CELLPOSE_BF16 = (  # MouseLand/cellpose#1269, cut to its lines of facts
    "# user: I'm running on an M2 MacBook Pro, Sequoia 15.5\n"
    "torch version:  \t2.2.2\n"
    "2025-07-10 14:26:46,584 [INFO] >>>> using GPU (MPS)\n"
    "ERROR: BFloat16 is not supported on MPS\n"
)
TELL_ARCH = "python3 -c 'import platform; print(platform.machine())'"


def test_an_upgrade_of_the_last_intel_torch_on_apple_silicon_first_tells_rosetta_apart() -> None:
    diagnosis = explain_text(CELLPOSE_BF16)
    assert diagnosis.cause.id == "bf16-needs-newer-torch"  # the cause stays what the error says
    fix = diagnosis.cause.fix
    assert fix is not None and fix.commands[0] == TELL_ARCH
    assert "Rosetta" in fix.summary and "arm64 Python" in fix.summary
    assert any("--upgrade" in c and "torch" in c for c in fix.commands[1:])


def test_the_architecture_check_only_where_it_can_block_the_upgrade() -> None:
    for text in (
        CELLPOSE_BF16.replace("2.2.2", "2.3.0"),  # a torch arm64 alone has: no Rosetta in question
        CELLPOSE_BF16.replace("an M2 MacBook Pro", "a MacBook Pro"),  # no Apple-silicon chip shown
        CELLPOSE_BF16 + ">>> platform.machine()\n'arm64'\n",  # the Python's architecture shown
    ):
        fix = explain_text(text).cause.fix
        assert fix is not None and TELL_ARCH not in fix.commands, text
