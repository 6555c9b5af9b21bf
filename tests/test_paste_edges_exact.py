"""Paste readers pinned at the edges the mutation run found unpinned: collect_env's Architecture row and
mpscheck's Rosetta row read only under their own label, Lightning's processor values, a markdown fix
read before any row of the report, the window before a variable in which torch's advice is told from a
setting (exactly 40 characters), and wrapped uname lines joined onto the line before (never the paste's
last line onto its first, every pair in a paste, trailing blanks ignored).

Lines are the public formats the readers take (collect_env, Lightning's report, mpscheck's markdown,
uname -a); where a line is built to reach a boundary, its comment says so. Each reader's whole output is
compared: fact, value, line and command line.
"""

from __future__ import annotations

import pytest

from mpscheck.probes.paste.normalise import _next_word_too_long, _open, join_wrapped, string_literal
from tests.test_paste_readers_exact import read_with

FALLBACK = "PYTORCH_ENABLE_MPS_FALLBACK=1"
DARWIN_A = "Darwin a.local 22.1.0 Darwin Kernel Version 22.1.0: Sun Oct  9 20:14:30 PDT 2022;"
DARWIN_B = "Darwin b.local 23.1.0 Darwin Kernel Version 23.1.0: Mon Oct  9 21:27:24 PDT 2023; root:xnu"  # not A's width


# ---- rows read only under their own label ------------------------------------------------------------------


def test_the_architecture_row_is_the_shells_machine_and_no_other_row_is() -> None:
    lines = ["Architecture: arm64", "Architecture: x86_64", "Architecture: i386", "CPU: arm64", "Kernel: arm64"]
    assert read_with("collect_env", lines) == [
        ("paste.shell_machine", "arm64", 1, None),
        ("paste.shell_machine", "x86_64", 2, None),
        ("host.cpu_brand", "arm64", 4, None),  # CPU's own row, read as its value says
    ]


def test_a_zero_or_one_is_rosetta_only_in_rosettas_row() -> None:
    lines = ["GPU cores: 1", "GPU cores: 0", "Model: 1", "Virtual machine: 0", "Rosetta (sysctl.proc_translated): 0"]
    assert read_with("collect_env", lines) == [
        ("host.gpu_cores", 1, 1, None),
        ("host.gpu_cores", 0, 2, None),
        ("interpreter.proc_translated", 0, 5, None),
    ]


def test_lightnings_processor_row_reads_arm64_arm_and_i386_only() -> None:
    lines = [
        "\t- processor:         arm64",
        "\t- processor:         arm",
        "\t- processor:         i386",
        "\t- processor:         x86_64",
        "\t- processor:         ",
    ]
    assert read_with("collect_env", lines) == [
        ("interpreter.processor", "arm64", 1, None),
        ("interpreter.processor", "arm", 2, None),
        ("interpreter.processor", "i386", 3, None),
    ]


# ---- mpscheck's markdown: a fix before any row ------------------------------------------------------------


def test_a_markdown_fix_pasted_without_its_table_is_read_with_its_commands() -> None:
    lines = [
        "**chip**: Use a Mac with Apple silicon",
        "```sh",
        "python3 -m pip install 'torch==2.2.2' 'numpy<2'",
        "```",
        "python3 -c 'import torch'",  # after the block: not a command of the fix
    ]
    assert read_with("doctor_report", lines) == [
        ("paste.doctor_fix.chip", "Use a Mac with Apple silicon", 1, None),
        ("paste.doctor_command.chip", "python3 -m pip install 'torch==2.2.2' 'numpy<2'", 3, None),
    ]


# ---- torch's advice: the 40 characters before the variable ------------------------------------------------


@pytest.mark.parametrize(
    ("before", "setting"),
    [
        ("Use" + " " * 36, False),  # built: 39 characters, the advice inside the window
        ("Use" + " " * 37, False),  # built: exactly 40, "Use" the window's first word
        ("Use" + " " * 38, True),  # built: 41, "Use" outside the window: a setting
        ("you can set the environment variable `", False),
        ("export ", True),
    ],
)
def test_advice_is_read_in_the_40_characters_before_the_variable(before: str, setting: bool) -> None:
    expected = [("interpreter.env.PYTORCH_ENABLE_MPS_FALLBACK", "1", 1, None)] if setting else []
    assert read_with("environment", [before + FALLBACK]) == expected


# ---- uname's machine wrapped onto the next line ------------------------------------------------------------


def test_a_machine_on_the_first_line_is_never_joined_onto_the_last() -> None:
    assert join_wrapped(["x86_64", DARWIN_A]) == ["x86_64", DARWIN_A]
    assert join_wrapped(["arm64"]) == ["arm64"]


def test_every_wrapped_machine_of_a_paste_is_joined_onto_its_own_line() -> None:
    lines = [DARWIN_A, "arm64", "", DARWIN_B, "x86_64", "after"]
    assert join_wrapped(lines) == [DARWIN_A + " arm64", "", "", DARWIN_B + " x86_64", "", "after"]
    assert join_wrapped([DARWIN_A + "   ", "  arm64  "]) == [DARWIN_A + " arm64", ""]  # blanks at the ends


@pytest.mark.parametrize(
    ("line", "open_"),
    [
        ("You're on macOS", True),
        ("You're on macOS  ", True),  # trailing blanks
        ("hint: the wheel's platform tag\t", True),
        ("  (e.g.,", True),
        ("(e.g.  ", True),
        ("  " + DARWIN_A + "  ", True),  # blanks on both sides
        ("Darwin a.local 22.1.0 arm64  ", False),  # its machine is there already
        ("Darwin a.local 22.1.0 x86_64", False),
        ("Darwin", False),  # no space after: not uname's line
        ("You're on macOS 14", False),
    ],
)
def test_a_line_is_open_when_it_ends_before_its_tag_or_its_machine(line: str, open_: bool) -> None:
    assert _open(line) is open_


# ---- a line that ends short because the next word did not fit ----------------------------------------------


@pytest.mark.parametrize(
    ("line", "following", "widest", "too_long"),
    [
        ("ab cd", "efg hij", 9, False),  # built: 5 + 1 + 3 is exactly the widest line: it would have fit
        ("ab cd", "efg hij", 8, True),  # one past it: the wrap moved it down
        ("ab cd  ", "  efg hij", 9, False),  # blanks around both lines are not counted
        ("ab cd  ", "  efg hij", 8, True),
        ("abcd", "efg", 1, False),  # one word alone on its line: no word wrap cut it
        ("  abcd  ", "efg", 1, False),  # and with blanks around it
        ("ab cd", "PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable", 40, True),
    ],
)
def test_the_next_lines_first_word_decides_whether_a_line_ended_short(
    line: str, following: str, widest: int, too_long: bool
) -> None:
    assert _next_word_too_long(line, following, widest) is too_long


def test_a_bytes_literal_is_read_as_utf_8_with_bad_bytes_replaced() -> None:
    assert string_literal(r"b'caf\xc3\xa9\n'") == "café\n"  # two bytes, one letter: UTF-8
    assert string_literal(r"b'\xff ok\n'") == "\ufffd ok\n"  # not UTF-8: replaced, never an error


# ---- mpscheck's own report: every row mark, fixes and their commands ----------------------------------------


def test_a_markdown_report_reads_failed_rows_their_fix_and_only_the_fixs_commands() -> None:
    lines = [
        "## mpscheck doctor · probed ~/venv/bin/python",
        "| ❌ | `python-arch` | x86_64 Python under Rosetta |",
        "| ✅ | `macos` | macOS 14.5 |",
        "**python-arch**: Install an arm64 Python",
        "```sh",
        "brew install python@3.12",
        "",  # a blank line in the block: no command
        "```",
        "outside",  # after the block: no command
        "| 💥 | `smoke` | the check crashed |",
        "| ⚠️ | `fallback` | slow |",  # a warning is no failed check: the block below belongs to no fix
        "```sh",
        "not a command: no fix named",
        "```",
    ]
    assert read_with("doctor_report", lines) == [
        ("interpreter.executable", "~/venv/bin/python", 1, None),
        ("paste.doctor_failed", "python-arch", 2, None),
        ("paste.doctor_summary.python-arch", "x86_64 Python under Rosetta", 2, None),
        ("paste.doctor_fix.python-arch", "Install an arm64 Python", 4, None),
        ("paste.doctor_command.python-arch", "brew install python@3.12", 6, None),
        ("paste.doctor_failed", "smoke", 10, None),
        ("paste.doctor_summary.smoke", "the check crashed", 10, None),
    ]


def test_a_text_reports_wrapped_summary_is_joined_and_a_passed_rows_lines_are_no_command() -> None:
    lines = [
        "[✗] python-arch         x86_64 Python under Rosetta on an Apple M1",
        "                        with a long summary that wraps",  # under the summary's column: its next line
        "      → Install an arm64 Python",
        "          brew install python@3.12",
        "[-] smoke               skipped",
        "          not a command",  # under a row that did not fail
        "[!] fallback            slow",
    ]
    assert read_with("doctor_report", lines) == [
        ("paste.doctor_failed", "python-arch", 1, None),
        (
            "paste.doctor_summary.python-arch",
            "x86_64 Python under Rosetta on an Apple M1 with a long summary that wraps",
            1,
            None,
        ),
        ("paste.doctor_fix.python-arch", "Install an arm64 Python", 3, None),
        ("paste.doctor_command.python-arch", "brew install python@3.12", 4, None),
    ]


def test_a_line_indented_past_the_summarys_column_is_not_its_next_line() -> None:
    row = "[✗] chip                Intel Mac"
    assert row.index("Intel") == 24
    lines = [row, " " * 25 + "one column further in", " " * 24 + "under the column"]
    assert read_with("doctor_report", lines[:2]) == [
        ("paste.doctor_failed", "chip", 1, None),
        ("paste.doctor_summary.chip", "Intel Mac", 1, None),
    ]
    assert read_with("doctor_report", [row, lines[2]]) == [
        ("paste.doctor_failed", "chip", 1, None),
        ("paste.doctor_summary.chip", "Intel Mac under the column", 1, None),
    ]
