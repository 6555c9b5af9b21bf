"""Paste causes pinned whole where the mutation run found a value nobody compared (checks/causes/setup.py,
silent.py, unmatched.py): every x86_64 line a paste shows is evidence together (not only the last kind
read), a conda env named by its prefix is said by that prefix, an install between a False and a later
True answer is found whatever the answers around them, the line an op is first shown on counts every
line break before it, and the fix of a class no table knows.

Lines are the formats the readers take (collect_env's and mpscheck's rows, uname -m, a REPL transcript);
expected values are written out or built from the tables with plain code; every field is compared.
"""

from __future__ import annotations

from mpscheck.checks.causes import Cause, Evidence, explain_text
from mpscheck.checks.causes.judge import _Judge
from mpscheck.checks.causes.silent import shown_ops
from mpscheck.knowledge.causes import CAUSES
from mpscheck.model import Remediation
from mpscheck.probes.paste import read
from tests.test_causes_arch_exact import (
    ARM64,
    CONDA_64,
    FILE_X86,
    MACHINE_X86,
    SHELL_TRANSLATED,
    TRANSLATED,
    rosetta_summary,
    shown,
)
from tests.test_causes_setup_exact import ANOTHER

UNAME_X86 = ["$ uname -m", "x86_64"]


def reader(lines: list[str]) -> _Judge:
    return _Judge(read("\n".join(lines)), [], None)


# ---- every x86_64 line is evidence, each kind added to the others -----------------------------------------


def test_the_interpreters_rows_and_the_shells_machine_are_evidence_together() -> None:
    lines = [MACHINE_X86, *UNAME_X86]
    assert reader(lines).x86_python() == shown(lines, 1, 2, 3)
    lines = [TRANSLATED, *UNAME_X86]
    assert reader(lines).x86_python() == shown(lines, 1, 2, 3)
    lines = [TRANSLATED, MACHINE_X86, CONDA_64, FILE_X86, SHELL_TRANSLATED, *UNAME_X86]  # every kind at once
    assert reader(lines).x86_python() == shown(lines, 1, 2, 3, 4, 5, 6, 7)
    lines = [*UNAME_X86, MACHINE_X86]  # the order of the paste, whatever the order the kinds are read in
    assert reader(lines).x86_python() == shown(lines, 1, 2, 3)
    assert reader(UNAME_X86).x86_python() == shown(UNAME_X86, 1, 2)
    assert reader(["$ uname -m", "arm64"]).x86_python() == ()


# ---- a conda env shown by its prefix ------------------------------------------------------------------------


def test_a_conda_env_shown_by_its_prefix_is_said_by_that_prefix() -> None:
    lines = ["conda env / subdir: /opt/miniconda3/envs/ml / osx-64", ARM64]
    assert explain_text("\n".join(lines)).cause == Cause(
        "rosetta-python",
        rosetta_summary("the conda env /opt/miniconda3/envs/ml was created with Intel (osx-64) packages"),
        Remediation(
            "Recreate the env with arm64 packages and pin its subdir so it stays arm64.",
            (
                "CONDA_SUBDIR=osx-arm64 conda create -n ml-arm64 python=3.12",
                "conda activate ml-arm64 && conda config --env --set subdir osx-arm64",
                "python -m pip install torch",
            ),
        ),
        shown(lines, 1, 2),
        CAUSES["rosetta-python"].source,
    )


# ---- an install between a False answer and a later True one -------------------------------------------------


def test_the_true_answer_that_counts_is_the_first_one_after_the_first_false() -> None:
    # True, install, False, install, True: the first True came before any False and proves nothing
    lines = [*ANOTHER[4:], ANOTHER[3], *ANOTHER]
    assert reader(lines).another_torch_works() == shown(lines, 6, 7, 8, 10, 11)


def test_a_later_false_answer_is_no_true_one() -> None:
    lines = [*ANOTHER[:6], "False"]  # False, install, False: the new torch does not work either
    assert reader(lines).another_torch_works() == ()
    assert reader([*ANOTHER, *ANOTHER[4:6], "False"]).another_torch_works() == shown(ANOTHER, 2, 3, 4, 6, 7)


# ---- the line an op is first shown on -------------------------------------------------------------------------


def test_an_ops_line_counts_every_line_break_before_it() -> None:
    assert shown_ops("\nx = a.mm(b)\ny.bmm(z)") == {"aten::mm": 2, "aten::bmm": 3}
    assert shown_ops("x = a.mm(b)\n\ny.bmm(z) and a.mm(c)") == {"aten::mm": 1, "aten::bmm": 3}
    assert shown_ops("\n\n\naten::addmm") == {"aten::addmm": 4}
    assert shown_ops("no op here\n") == {}


# ---- the fix of a class no table knows --------------------------------------------------------------------------


def test_a_class_no_table_knows_gets_the_bugs_fix_and_the_upgrade_command() -> None:
    fix = (
        "Upgrade torch (and macOS); if it persists on the newest release, report it to PyTorch with the op, the "
        "dtypes and the shapes."
    )
    assert reader([]).class_fix("no-such-class") == (fix, ("python3 -m pip install --upgrade torch",))
    assert reader([]).class_fix("op-needs-newer-macos") == (
        "Upgrade macOS to the version the message names, or run that op on the CPU.",
        ("python3 -m pip install --upgrade torch",),
    )


def test_evidence_of_another_torch_is_the_false_answer_the_install_and_the_true_answer() -> None:
    assert reader(ANOTHER).another_torch_works() == (
        Evidence(2, ANOTHER[1]),
        Evidence(3, "False"),
        Evidence(4, ANOTHER[3]),
        Evidence(6, ANOTHER[5]),
        Evidence(7, "True"),
    )
