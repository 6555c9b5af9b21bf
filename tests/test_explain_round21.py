"""The classes of input the twenty-first out-of-sample round (2026-11-24, Python environment, packaging and
notebook tools: pip, pdm, uv, pyenv, Jupyter in VS Code) found explain missing, each read generally:

- pip's fall-back to torch 0.1.2, the placeholder source package PyPI keeps (``Using cached
  torch-0.1.2.post2.tar.gz``, its yank note, its setup.py's ``No module named 'tools.nnwrap'``, a versions list
  that holds only 0.1.2): no torch wheel fitted the interpreter, an install failure, not a Metal bug;
- PDM's ``CandidateNotFound`` for torch: the lock names a build with no wheel here;
- a notebook kernel that died (VS Code's "kernel process died", Jupyter's "kernel appears to have died"): a crash
  of the Python process, never "not enough evidence";
- "from versions: none" for an arm64 Python whose platform says macOS 10.16: the old-SDK interpreter, not a
  Python version torch lacks wheels for.

The texts are lines of the round's threads (tests/corpus names each) and the same shapes in other words.
"""

from __future__ import annotations

import pytest

from mpscheck.checks.causes import explain_text
from mpscheck.probes.paste import error_line

PLACEHOLDER_LINES = [
    "  Using cached torch-0.1.2.post2.tar.gz (128 kB)",  # pytorch#47978, #48524, #51854
    "  Downloading torch-0.1.2.tar.gz (128 kB)",
    "WARNING: The candidate selected for download or install is a yanked version: 'torch' candidate (version "
    "0.1.2.post2 at https://files.pythonhosted.org/packages/f8/02/x/torch-0.1.2.post2.tar.gz)",
    "    ModuleNotFoundError: No module named 'tools.nnwrap'",  # pypa/pip#9142
    "ERROR: Could not find a version that satisfies the requirement torch==1.5.1 (from versions: 0.1.2, "
    "0.1.2.post1, 0.1.2.post2)",  # pytorch#53601
]


@pytest.mark.parametrize("line", PLACEHOLDER_LINES)
def test_pips_fall_back_to_the_torch_placeholder_is_no_wheel_for_this_interpreter(line: str) -> None:
    diagnosis = explain_text(f"$ pip3 install torch\n{line}\n  Building wheel for torch (setup.py) ... error")
    assert diagnosis.cause.id == "no-matching-distribution"
    assert "0.1.2" in diagnosis.cause.summary and "placeholder" in diagnosis.cause.summary
    assert diagnosis.cause.fix is not None
    assert "python3 -m pip install --upgrade pip" in diagnosis.cause.fix.commands
    assert diagnosis.exit_code == 1


def test_the_placeholder_outranks_an_x86_64_python_that_had_wheels_then() -> None:
    # pytorch#47978: `file` says x86_64, but what failed is the install (pip took 0.1.2): the x86_64 note stays second
    paste = (
        "nic@Nics-MBP ~> file (which python3)\n"
        "/usr/local/opt/python@3.8/bin/python3: Mach-O 64-bit executable x86_64\n"
        "nic@Nics-MBP ~> pip3 install torch\n"
        "Collecting torch\n"
        "  Using cached torch-0.1.2.post2.tar.gz (128 kB)\n"
        "  ERROR: Command errored out with exit status 1:\n"
    )
    diagnosis = explain_text(paste)
    assert diagnosis.cause.id == "no-matching-distribution"
    # which Mac is a guess: Rosetta most likely, an Intel Mac next, neither taking the install's failure as its own
    assert [(c.id, c.variant) for c in diagnosis.others] == [
        ("rosetta-python", "chip-not-shown"),
        ("intel-mac", "chip-not-shown"),
    ]


def test_a_real_torch_source_package_is_not_the_placeholder() -> None:
    # only 0.1.2 is the placeholder: a later sdist name, or 0.1.20, is not this row
    for text in ("Using cached torch-2.1.0.tar.gz (1.2 MB)", "Using cached torch-0.1.20.tar.gz"):
        diagnosis = explain_text(text)
        assert "placeholder" not in diagnosis.cause.summary


def test_pdms_candidate_not_found_for_torch_is_no_matching_distribution() -> None:
    line = "pdm.exceptions.CandidateNotFound: No candidate is found for `torch` that matches the environment or hashes"
    diagnosis = explain_text(line)
    assert diagnosis.cause.id == "no-matching-distribution"
    assert diagnosis.cause.summary.startswith("PDM found no torch file")
    assert diagnosis.cause.fix is not None and "python3 -m pip install torch" in diagnosis.cause.fix.commands
    # another package is not torch's refusal
    other = explain_text(line.replace("`torch`", "`numpy`"))
    assert not other.cause.summary.startswith("PDM found no torch file")


@pytest.mark.parametrize(
    "line",
    [
        "22:07:55.806 [error] Disposing session as kernel process died ExitCode: undefined, Reason: ",  # vscode-jupyter
        "The kernel 'test (Python 3.10.11)' died. Click [here](https://aka.ms/vscodeJupyterKernelCrash) for more info.",
        "The Kernel crashed while executing code in the current cell or a previous cell. Please review the code.",
        "The Kernel crashed while executing code in the the current cell or a previous cell.",
        "Kernel Restarting: The kernel appears to have died. It will restart automatically.",  # Jupyter's dialog
        "Cannot execute code, session has been disposed. Please try restarting the Kernel.",
    ],
)
def test_a_notebook_kernel_that_died_is_a_crash_line(line: str) -> None:
    found = error_line.parse([line])
    assert [o.fact for o in found] == ["paste.crash_line"]


def test_a_kernel_that_died_on_mps_is_a_crash_not_missing_evidence() -> None:
    # vscode-jupyter#15463: works on the CPU, the kernel dies on mps, and the log says nothing more
    paste = (
        "# user: When running ResNet18 with PyTorch, it works fine with CPU but throws kernel errors with MPS.\n"
        "The kernel 'test (Python 3.10.11)' died. Click [here](https://aka.ms/vscodeJupyterKernelCrash) for more "
        "info.\n"
        "22:07:55.806 [error] Disposing session as kernel process died ExitCode: undefined, Reason: \n"
        '`device = torch.device("cuda" if torch.cuda.is_available() else "mps")`\n'
    )
    diagnosis = explain_text(paste)
    assert diagnosis.cause.id == "metal-bug-fixed-later"
    assert diagnosis.exit_code == 1


def test_words_about_a_kernel_are_not_a_crash() -> None:
    for line in ("Restart the kernel and run all cells", "the kernel is busy", "select the Python 3.11 kernel"):
        assert error_line.parse([line]) == []


def test_versions_none_for_an_arm64_python_that_reports_macos_10_16_names_the_old_sdk() -> None:
    # pytorch#75534, #128939: Python 3.8 / 3.10 have arm64 wheels; the interpreter reports macOS-10.16-arm64
    paste = (
        "ERROR: Could not find a version that satisfies the requirement torch (from versions: none)\n"
        "ERROR: No matching distribution found for torch\n"
        "OS: macOS 14.5 (arm64)\n"
        "Python version: 3.10.14 (main, Apr 25 2024, 10:24:02) [Clang 12.0.1 ] (64-bit runtime)\n"
        "Python platform: macOS-10.16-arm64-arm-64bit\n"
    )
    diagnosis = explain_text(paste)
    assert diagnosis.cause.id == "no-matching-distribution"
    assert "macOS 10.16" in diagnosis.cause.summary
    assert diagnosis.cause.fix is not None
    assert "python3 -m pip debug --verbose" in diagnosis.cause.fix.commands
    # the same paste with the real macOS in the platform string keeps the general answer
    real = explain_text(paste.replace("macOS-10.16-arm64", "macOS-14.5-arm64"))
    assert "macOS 10.16" not in real.cause.summary
