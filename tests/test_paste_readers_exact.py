"""Each paste reader's whole output on real lines, written out by hand: every observation's fact, value,
line and command line, in order, so that a reader recording a wrong value, a wrong line, one fact too many
or too few, or taking a wrong branch fails here (the mutation run's survivors were of that kind).

The lines come from the tuning corpus (tests/corpus/*.txt, each naming its thread), tests/recorded.py,
mpscheck's own report (render/markdown.py, doctor's text) and the public formats of collect_env, uv and
brew; none from tests/corpus/heldout/. Where a line is built to reach a boundary, its comment says so.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mpscheck.probes.paste import parser, read
from mpscheck.probes.paste.model import Observation, observe, to_facts
from mpscheck.probes.paste.normalise import (
    _soft_wrapped,
    join_split_messages,
    join_wrapped,
    string_literal,
    strip_prefixes,
    unfence,
    unrepr,
    wrap_width,
)
from tests.test_explain_round3 import OOM, soft_wrap

Row = tuple[str, Any, int, "int | None"]


def load_lines(name: str) -> list[str]:
    return (Path(__file__).parent / "corpus" / name).read_text(encoding="utf-8").split("\n")


def rows(observations: list[Observation]) -> list[Row]:
    return [(o.fact, o.value, o.line, o.command) for o in observations]


# The kind each reader gives its observations (what `explain` reports it recognised).
KINDS = {"doctor_report": "mpscheck report", "error_line": "error", "errors": "error text"}


def read_with(name: str, lines: list[str]) -> list[Row]:
    found = parser(name)(lines)
    assert {obs.kind for obs in found} <= {KINDS.get(name, name)}
    for obs in found:  # the text is always the line it names, and the command's text the command's line
        assert obs.text == lines[obs.line - 1]
        assert obs.command_text == (lines[obs.command - 1] if obs.command else "")
    return rows(found)


# ---- collect_env ---------------------------------------------------------------------------------------

# pytorch/pytorch#149260 (an x86_64 pyenv Python on an Apple chip), pytorch#100165's "CPU:" row with the chip
# on the next line, a `conda list` row, and collect_env's rows on Linux and Windows.
COLLECT_ENV = [
    "PyTorch version: 2.2.2",
    "OS: macOS 15.3.2 (x86_64)",
    "Python version: 3.9.20 (main, Mar 15 2025, 00:40:13)  [Clang 15.0.0 (clang-1500.3.9.4)] (64-bit runtime)",
    "Python platform: macOS-15.3.2-x86_64-i386-64bit",
    "CPU:",
    "Apple M2",
    "",
    "[pip3] torch==2.2.2",
    "torch                     2.2.2                   py3.9_0    pytorch",
    "OS: Debian GNU/Linux 11 (bullseye) (aarch64)",
    "OS: Ubuntu 22.04.3 LTS (x86_64)",
    "OS: Microsoft Windows 11 Pro",
    "Python platform: Linux-5.15.49-linuxkit-aarch64-with-glibc2.31",
    "Python platform: Windows-10-10.0.22631-SP0",
    "Chip: Intel(R) Core(TM) i7-9750H CPU @ 2.60GHz",
    "Hardware: Intel(R) Core(TM) i7-9750H CPU @ 2.60GHz",
    "[pip3] ruamel.yaml==0.17.21",
]


def test_collect_env_rows_read_exactly() -> None:
    assert read_with("collect_env", COLLECT_ENV) == [
        ("torch.version", "2.2.2", 1, None),
        ("host.system", "Darwin", 2, None),
        ("host.macos_version", "15.3.2", 2, None),
        ("interpreter.machine", "x86_64", 2, None),
        ("interpreter.version", "3.9.20", 3, None),
        ("interpreter.platform", "macOS-15.3.2-x86_64-i386-64bit", 4, None),
        ("host.system", "Darwin", 4, None),
        ("interpreter.mac_ver", "15.3.2", 4, None),
        ("interpreter.machine", "x86_64", 4, None),
        ("interpreter.processor", "i386", 4, None),
        ("host.cpu_brand", "Apple M2", 6, None),
        ("interpreter.packages.torch", "2.2.2", 8, None),
        ("torch.version", "2.2.2", 8, None),
        ("torch.version", "2.2.2", 9, None),
        ("interpreter.packages.torch", "2.2.2", 9, None),
        ("host.system", "Linux", 10, None),
        ("host.system", "Linux", 11, None),
        ("host.system", "Windows", 12, None),
        ("interpreter.platform", "Linux-5.15.49-linuxkit-aarch64-with-glibc2.31", 13, None),
        ("host.system", "Linux", 13, None),
        ("interpreter.platform", "Windows-10-10.0.22631-SP0", 14, None),
        ("host.system", "Windows", 14, None),
        ("host.cpu_brand", "Intel(R) Core(TM) i7-9750H CPU @ 2.60GHz", 15, None),
        ("host.cpu_brand", "Intel(R) Core(TM) i7-9750H CPU @ 2.60GHz", 16, None),
        ("interpreter.packages.ruamel.yaml", "0.17.21", 17, None),
    ]


def test_a_cpu_row_reads_the_chip_at_most_two_lines_below() -> None:
    assert read_with("collect_env", ["CPU:", "", "Apple M1"]) == [("host.cpu_brand", "Apple M1", 3, None)]
    assert read_with("collect_env", ["CPU:", "", "", "Apple M1"]) == []  # three lines down: another block
    assert read_with("collect_env", ["CPU:"]) == []  # the last line of the paste: nothing follows
    assert read_with("collect_env", ["CPU:", "", ""]) == []


# The environment block of `mpscheck doctor --format markdown` (render/markdown.py writes these rows).
MPSCHECK_BLOCK = [
    "Virtual machine: False",
    "Model: Mac14,12",
    "MPS device: Apple M2 Pro",
    "Rosetta (sysctl.proc_translated): 1",
    "Rosetta (sysctl.proc_translated): 0",
    "platform.machine() / processor(): x86_64 / i386",
    "platform.machine() / processor(): arm64 /",  # processor() empty: the row ends at the slash
    "Interpreter: /usr/local/bin/python3",
    "conda env / subdir: ~/miniforge3/envs/ml / osx-arm64",
    "conda env / subdir: /opt/homebrew/Caskroom/miniforge/base / osx-64",
    "platform.mac_ver(): 10.16",
    "GPU cores: 19",
    "Model: Could not collect",
    "Rosetta (sysctl.proc_translated): Could not collect",
]


def test_mpscheck_markdown_environment_rows_read_exactly() -> None:
    assert read_with("collect_env", MPSCHECK_BLOCK) == [
        ("host.hypervisor", False, 1, None),
        ("host.model", "Mac14,12", 2, None),
        ("torch.mps_device_name", "Apple M2 Pro", 3, None),
        ("interpreter.proc_translated", 1, 4, None),
        ("interpreter.proc_translated", 0, 5, None),
        ("interpreter.machine", "x86_64", 6, None),
        ("interpreter.processor", "i386", 6, None),
        ("interpreter.machine", "arm64", 7, None),
        ("interpreter.executable", "/usr/local/bin/python3", 8, None),
        ("interpreter.conda_prefix", "~/miniforge3/envs/ml", 9, None),
        ("interpreter.conda_subdir", "osx-arm64", 9, None),
        # sys.prefix outside the home folder is not masked to "~": an absolute path (fixed: was not read)
        ("interpreter.conda_prefix", "/opt/homebrew/Caskroom/miniforge/base", 10, None),
        ("interpreter.conda_subdir", "osx-64", 10, None),
        ("interpreter.mac_ver", "10.16", 11, None),
        ("host.gpu_cores", 19, 12, None),
    ]


# ---- sysctl and system_profiler ------------------------------------------------------------------------

SYSCTL = [
    "kern.hv_vmm_present: 1",
    "kern.hv_vmm_present: 0",
    "sysctl.proc_translated: 0",
    "sysctl.proc_translated: 1",
    "kern.osproductversion: 14.5",
    '    "machine_model" : "VirtualMac2,1",',
    '    "machine_model" : "MacBook Pro",',  # built: a value not shaped like a model identifier is no model
    "      Chip: Apple M2 Pro",
    "      Model Identifier: Mac14,12",
    "$ sysctl -n hw.optional.arm64",
    "1",
    "$ sysctl -n machdep.cpu.brand_string",  # the paste's last line: no value follows
]


def test_sysctl_and_profiler_lines_read_exactly() -> None:
    assert read_with("sysctl", SYSCTL) == [
        ("host.hypervisor", True, 1, None),
        ("host.hypervisor", False, 2, None),
        ("paste.shell_translated", 0, 3, None),
        ("paste.shell_translated", 1, 4, None),
        ("host.macos_version", "14.5", 5, None),
        ("host.model", "VirtualMac2,1", 6, None),
        ("host.system", "Darwin", 6, None),
        ("host.cpu_brand", "Apple M2 Pro", 8, None),
        ("host.model", "Mac14,12", 9, None),
        ("host.arm64_hardware", True, 11, 10),
    ]


def test_sysctl_values_out_of_their_range_are_not_read() -> None:
    lines = ["kern.hv_vmm_present: 2", "sysctl.proc_translated: -1", "kern.osproductversion: 14.x", "hw.model: Mac"]
    assert read_with("sysctl", lines) == []


# ---- uname, arch, lipo ---------------------------------------------------------------------------------

UNAME = [
    "uname -m",
    "arm64",
    # the kernel string of a corpus paste (an M1, T8103) in `uname -a`'s line
    "Darwin mbp.local 22.1.0 Darwin Kernel Version 22.1.0: Sun Oct  9 20:14:30 PDT 2022; "
    "root:xnu-8792.41.9~2/RELEASE_ARM64_T8103 arm64",
    "Linux runner 5.15.0-1057-azure #65-Ubuntu SMP Fri Feb 9 18:39:24 UTC 2024 x86_64 x86_64 x86_64 GNU/Linux",
    "Architectures in the fat file: /usr/local/bin/python3 are: x86_64 arm64",
    "Non-fat file: /usr/local/bin/python3.11 is architecture: x86_64",
    "/usr/local/bin/python3.11: Mach-O 64-bit executable x86_64",
]


def test_uname_lines_read_exactly() -> None:
    assert read_with("uname", UNAME) == [
        ("paste.shell_machine", "arm64", 2, 1),
        ("host.system", "Darwin", 3, None),
        ("host.release", "22.1.0", 3, None),
        ("host.arm64_hardware", True, 3, None),
        ("paste.shell_machine", "arm64", 3, None),
        ("host.system", "Linux", 4, None),
        ("interpreter.binary_archs", ["arm64", "x86_64"], 5, None),
        ("interpreter.binary_archs", ["x86_64"], 6, None),
        ("interpreter.binary_archs", ["x86_64"], 7, None),
        ("interpreter.real_executable", "/usr/local/bin/python3.11", 7, None),
    ]


# ---- sw_vers, brew config, pip and uv ------------------------------------------------------------------


def test_sw_vers_reads_exactly() -> None:
    from tests.recorded import SW_VERS_14_5

    assert read_with("sw_vers", SW_VERS_14_5.split("\n")) == [
        ("host.system", "Darwin", 1, None),
        ("host.system", "Darwin", 2, None),
        ("host.macos_version", "14.5", 2, None),
        ("host.macos_build", "23F79", 3, None),
    ]


def test_brew_config_reads_exactly() -> None:
    lines = [
        "HOMEBREW_PREFIX: /usr/local",
        "macOS: 11.5.2-x86_64",
        "Rosetta 2: true",
        "CPU: octa-core 64-bit arm_firestorm_icestorm",
        "Rosetta 2: false",
    ]
    assert read_with("brew", lines) == [
        ("paste.brew_prefix", "/usr/local", 1, None),
        ("host.system", "Darwin", 2, None),
        ("host.macos_version", "11.5.2", 2, None),
        ("paste.shell_machine", "x86_64", 2, None),
        ("host.arm64_hardware", True, 3, None),
        ("paste.shell_translated", 1, 3, None),
        ("host.arm64_hardware", True, 4, None),
        ("host.arm64_hardware", True, 5, None),
        ("paste.shell_translated", 0, 5, None),
    ]


def test_pip_and_uv_lines_read_exactly() -> None:
    lines = [
        "  ╰─▶ Because torch==2.6.0 has no wheels with a matching platform tag (e.g., `macosx_15_0_x86_64`) and you"
        " require torch==2.6.0, we can conclude that your requirements are unsatisfiable.",
        "  ╰─▶ Because torch==2.2.2 has no wheels with a matching Python ABI tag (e.g., `cp313`) and you require"
        " torch==2.2.2, we can conclude that your requirements are unsatisfiable.",
        "  Downloading torch-2.2.2-cp39-none-macosx_10_9_x86_64.whl (150.8 MB)",
    ]
    assert read_with("pip", lines) == [
        ("host.system", "Darwin", 1, None),
        ("interpreter.machine", "x86_64", 1, None),
        ("interpreter.version", "3.13", 2, None),
        ("paste.wheel_tag", "macosx_10_9_x86_64", 3, None),
        ("interpreter.machine", "x86_64", 3, None),
        ("interpreter.version", "3.9", 3, None),
    ]


# ---- REPL ----------------------------------------------------------------------------------------------


def test_repl_transcript_reads_exactly() -> None:
    lines = [
        ">>> import platform",
        ">>> platform.platform()",
        "'macOS-14.5-arm64-arm-64bit'",
        ">>> platform.platform()",
        "'Windows-10-10.0.22631-SP0'",
        ">>> torch.backends.mps.is_available(), torch.backends.mps.is_built()",
        "(False, True)",
        "[Clang 11.1.0 ] on darwin",
        "uname_result(system='Darwin', node='m', release='23.1.0', version='Darwin Kernel Version 23.1.0: "
        "Mon Oct  9 21:27:24 PDT 2023; root:xnu-10002.41.9~6/RELEASE_ARM64_T6000', machine='arm64')",
        ">>> model.device",
        "device(type='mps', index=0)",
    ]
    assert read_with("repl", lines) == [
        ("interpreter.platform", "macOS-14.5-arm64-arm-64bit", 3, 2),
        ("host.system", "Darwin", 3, 2),
        ("interpreter.platform", "Windows-10-10.0.22631-SP0", 5, 4),
        ("host.system", "Windows", 5, 4),
        ("torch.mps_available", False, 7, 6),
        ("torch.mps_built", True, 7, 6),
        ("host.system", "Darwin", 8, None),
        ("host.system", "Darwin", 9, None),
        ("interpreter.machine", "arm64", 9, None),
        ("host.arm64_hardware", True, 9, None),
        ("paste.device_used", "mps", 11, None),
    ]


def test_a_device_printed_after_torch_device_is_not_a_result_within_three_lines() -> None:
    """torch.device('mps') prints device(type='mps') on any machine: the command is looked for on the three
    non-blank-or-blank lines above the output, no further."""
    built = [">>> torch.device('mps')", "", "", "device(type='mps')"]
    assert read_with("repl", built) == []
    far = [">>> torch.device('mps')", "", "", "", "device(type='mps')"]
    assert read_with("repl", far) == [("paste.device_used", "mps", 5, None)]


# ---- mpscheck's own doctor report, and environment variables -------------------------------------------


def test_doctor_text_report_reads_exactly() -> None:
    lines = [
        "mpscheck doctor · probed /usr/local/bin/python3",
        "[✗] python-arch         x86_64 Python under Rosetta",
        "      → Install an arm64 Python",
        "      and recreate the env",
        "          brew install python@3.12",
        "[✓] macos               macOS 14.5",
        "[✗] chip                Intel Mac",
        "      → Use a Mac with Apple silicon",
        "[✓] torch               2.2.2",
    ]
    assert read_with("doctor_report", lines) == [
        ("interpreter.executable", "/usr/local/bin/python3", 1, None),
        ("paste.doctor_failed", "python-arch", 2, None),
        ("paste.doctor_summary.python-arch", "x86_64 Python under Rosetta", 2, None),
        ("paste.doctor_fix.python-arch", "Install an arm64 Python and recreate the env", 3, None),
        ("paste.doctor_command.python-arch", "brew install python@3.12", 5, None),
        ("paste.doctor_failed", "chip", 7, None),
        ("paste.doctor_summary.chip", "Intel Mac", 7, None),
        ("paste.doctor_fix.chip", "Use a Mac with Apple silicon", 8, None),
    ]


def test_a_fix_on_the_reports_last_lines_is_read() -> None:
    lines = [
        "mpscheck doctor · probed /usr/local/bin/python3",
        "[✗] chip                Intel Mac",
        "      → Use a Mac with Apple silicon",
        "      or a Linux machine with CUDA",
    ]
    assert read_with("doctor_report", lines) == [
        ("interpreter.executable", "/usr/local/bin/python3", 1, None),
        ("paste.doctor_failed", "chip", 2, None),
        ("paste.doctor_summary.chip", "Intel Mac", 2, None),
        ("paste.doctor_fix.chip", "Use a Mac with Apple silicon or a Linux machine with CUDA", 3, None),
    ]
    assert read_with("doctor_report", lines[:2]) == [
        ("interpreter.executable", "/usr/local/bin/python3", 1, None),
        ("paste.doctor_failed", "chip", 2, None),
        ("paste.doctor_summary.chip", "Intel Mac", 2, None),
    ]


def test_environment_settings_and_table_rows_read_exactly() -> None:
    lines = [
        "| ✅ | `mps-fallback-env` | PYTORCH_ENABLE_MPS_FALLBACK=1 |",
        "  | ✅ | `mps-fallback-env` | PYTORCH_ENABLE_MPS_FALLBACK=1 |",  # the same row, indented in a reply
        "export PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0",
    ]
    assert read_with("environment", lines) == [("interpreter.env.PYTORCH_MPS_HIGH_WATERMARK_RATIO", "0.0", 3, None)]


def test_to_facts_keys_packages_and_variables_by_everything_after_their_family() -> None:
    lines = ["[pip3] ruamel.yaml==0.17.21", "x"]
    found = [
        observe("collect_env", lines, 1, "interpreter.packages.ruamel.yaml", "0.17.21"),
        observe("environment", lines, 2, "interpreter.env.PYTORCH.MPS", "1"),
    ]
    interpreter = to_facts(found).target.interpreter
    assert interpreter is not None
    assert interpreter.packages == {"ruamel.yaml": "0.17.21"}
    assert interpreter.env == {"PYTORCH.MPS": "1"}


# ---- read() and normalise ------------------------------------------------------------------------------


def test_read_keeps_each_lines_origin() -> None:
    wrapped = "first line\n" + soft_wrap(OOM, 72) + "\nlast line"
    count = wrapped.count("\n") + 1
    paste = read(wrapped)
    assert paste.origin == list(range(1, count + 1))
    assert read("a\nb").origin == [1, 2]


def test_a_soft_wrap_keeps_every_inner_line_near_the_widest() -> None:
    assert _soft_wrapped(["x" * 50, "x" * 35, "x" * 50, "x"])  # exactly 0.7 of the widest
    assert not _soft_wrapped(["x" * 50, "x" * 34, "x" * 50, "x"])  # one under
    assert not _soft_wrapped(["x" * 50, "x" * 50, "x" * 34, "x"])
    assert not _soft_wrapped(["x" * 50, "x" * 50, " ", "x"])  # a blank line ends a message
    assert _soft_wrapped(["x", "x" * 50, "x"])  # the first and the last may be short


def test_a_split_message_is_joined_keeping_its_first_lines_indent() -> None:
    wrapped = soft_wrap(OOM, 72).split("\n")
    assert len(wrapped) > 2
    lines = ["    " + wrapped[0], *wrapped[1:]]
    joined = join_split_messages(lines)
    taken = 1 + next(i for i, line in enumerate([*joined[1:], "end"]) if line)  # the lines the message spans
    assert taken > 2
    assert joined[0] == "    " + " ".join(line.strip() for line in wrapped[:taken])
    assert joined[1:] == [""] * (taken - 1) + wrapped[taken:]


def test_a_message_a_rich_console_padded_and_indented_is_joined_exactly() -> None:
    # voicepaw/so-vits-svc-fork#804: each line padded to the console's width, the next indented
    lines = [
        "RuntimeError: don't know how to restore data                ",
        "                    location of torch.storage.UntypedStorage (tagged            ",
        "                    with mps:0) ",
        "next line",
    ]
    joined = join_split_messages(lines)
    assert joined == [
        "RuntimeError: don't know how to restore data location of torch.storage.UntypedStorage (tagged with mps:0)",
        "",
        "",
        "next line",
    ]


def test_a_time_alone_a_ci_stamp_and_a_bracketed_level_are_line_prefixes() -> None:
    """issue 17's metamorphic run: a time alone ("[12:00:00] ") on every line hid every fact of 35 pastes."""
    assert strip_prefixes(["[12:00:00] RuntimeError: x", "[12:00:00]   File y"]) == ["RuntimeError: x", "  File y"]
    assert strip_prefixes(["12:00:00.5 a", "12:00:01,250 b"]) == ["a", "b"]
    assert strip_prefixes(["2024-05-01T12:00:00.1234567Z a", "2024-05-01T12:00:01+02:00 b"]) == ["a", "b"]
    assert strip_prefixes(["12:00:00 [INFO] a", "[12:00:00] ERROR: b"]) == ["a", "b"]
    assert strip_prefixes(["> [12:00:00] a", "> [12:00:00] b"]) == ["> a", "> b"]  # a reply's quote stays
    # fewer than half the filled lines carry one: nothing is a prefix
    assert strip_prefixes(["[12:00:00] a", "b", "c"]) == ["[12:00:00] a", "b", "c"]
    assert strip_prefixes(["1:00:00 a", "12:00 b"]) == ["1:00:00 a", "12:00 b"]  # not a time stamp's shape


def test_a_wrap_width_needs_two_different_cut_lines_or_one_cut_in_a_word_at_a_terminal_width() -> None:
    assert wrap_width(["x" * 90, "y", "z" * 90, "y"]) == 90
    assert wrap_width(["x" * 90, "y", "x" * 90, "y"]) is None  # a paste repeated twice repeats its lines
    assert wrap_width(["x" * 80, "y"]) == 80  # one line at 80 columns is enough
    for width in (100, 120, 132, 160):  # one line at another terminal width: only when cut inside a word
        assert wrap_width(["a" * width, "b"]) == width
        assert wrap_width(["a" * (width - 1) + ";", "b"]) is None
        assert wrap_width(["a" * width, " b"]) is None
    assert wrap_width(["a" * 110, "b"]) is None  # not a terminal's width
    assert wrap_width(["a" * 120]) is None  # nothing follows the line


def test_a_quoted_wrapped_line_is_joined_without_the_continuations_quote_marks() -> None:
    """A reply that quotes a paste a terminal wrapped: every piece carries the marks, which the terminal did
    not count; the marks of the piece joined on are dropped, down to the reply's own before a nested quote."""
    cut = "RuntimeError: MPS backend out of memory (MPS allocated: 5.56 GB, other allocations: 1.10 G"
    lines = ["> " + cut[:80], "> " + cut[80:], "> next"]
    assert join_wrapped(lines) == ["> " + cut, "", "> next"]
    two = ["> " + "a" * 80, "> bcd", "> " + "e" * 80, "> fgh"]
    assert join_wrapped(two) == ["> " + "a" * 80 + "bcd", "", "> " + "e" * 80 + "fgh", ""]
    nested = ["> > " + "a" * 78, "> bcd", "> > " + "e" * 78, "> fgh"]  # the paste was quoted before the wrap
    assert join_wrapped(nested) == ["> > " + "a" * 78 + "bcd", "", "> > " + "e" * 78 + "fgh", ""]
    terminal = ["> " + "a" * 78, "bcd", "> " + "e" * 78, "fgh"]  # a terminal wrapped a quoted text
    assert join_wrapped(terminal) == ["> " + "a" * 78 + "bcd", "", "> " + "e" * 78 + "fgh", ""]


def test_a_line_that_is_one_whole_string_literal_is_the_text_it_holds() -> None:
    text = "\"upsample_nearest2d_channels_last\" not implemented for 'Half'\nnext\x1b[0m \u00e9"
    assert string_literal(repr(text)) == text
    assert unrepr(repr(text)) == text.split("\n")  # no error words needed: the whole line is a literal
    assert string_literal("  b'RuntimeError: x\\ny'  ") == "RuntimeError: x\ny"
    assert string_literal("'no line break in it'") is None
    assert string_literal("'cut before its end\\n") is None  # no closing quote
    assert string_literal("'a\\n' + 'b'") is None  # an expression, not one literal
    assert string_literal("'a\\n' 'b\"") is None  # the last quote closes nothing
    assert unrepr("x = 'a\\nb'") == ["x = 'a\\nb'"]  # a literal inside code, no error words: as it is
    # hostile lines that open and close with a quote: Python's parser refuses them at once, never a crash
    assert string_literal("'a\\n' + " + "-" * 200_000 + "'b'") is None
    assert string_literal("'a\\n'[" + "(" * 200_000 + "'b'") is None
    assert string_literal("'a\\n' " + "'b' " * 100_000) == "a\n" + "b" * 100_000  # implicit concatenation


def test_a_whole_repr_longer_than_a_line_is_read_to_its_end() -> None:
    """A long traceback printed as one string: cut after it is made lines, so its last line (the error) stays."""
    frames = "".join(f'  File "/Users/u/m{i}.py", line {i}, in f{i}\n    return g{i}(x)\n' for i in range(80))
    error = "RuntimeError: MPS backend out of memory (MPS allocated: 5.56 GB, other allocations: 1.10 GB, max "
    error += "allowed: 6.80 GB). Tried to allocate 768.00 MB on private pool."
    text = repr("Traceback (most recent call last):\n" + frames + error)
    assert len(text) > 4000 and "\n" not in text
    paste = read(text)
    assert [e.text for e in paste.facts.errors] == [error]
    assert paste.origin == [1] * len(paste.text.split("\n"))
    assert max(len(line) for line in read(repr("x" * 9000 + "\nRuntimeError: y")).text.split("\n")) == 4000


def test_a_code_fence_glued_to_its_text_is_dropped() -> None:
    """Slack's and Discord's code blocks put the fences on the text's own first and last lines."""
    assert unfence("```Traceback (most recent call last):") == "Traceback (most recent call last):"
    assert unfence("RuntimeError: MPS backend out of memory```") == "RuntimeError: MPS backend out of memory"
    assert unfence("```>>> torch.backends.mps.is_available()```") == ">>> torch.backends.mps.is_available()"
    assert unfence("  ~~~$ uname -m") == "  $ uname -m"
    for line in ("```", "```python", "```c++", "~~~ text ", "a ``` b", "```   "):  # a fence's own line, or inline
        assert unfence(line) == line


def test_html_and_bbcode_markup_glued_to_the_text_is_dropped() -> None:
    """A web page's source (<pre><code>, a <br> ending each line) and a forum's [code] blocks."""
    assert unfence("<pre><code>Traceback (most recent call last):") == "Traceback (most recent call last):"
    assert unfence('<pre class="notranslate"><code>$ uname -m') == "$ uname -m"
    assert unfence("RuntimeError: MPS backend out of memory</code></pre>") == "RuntimeError: MPS backend out of memory"
    assert unfence("True<br>") == "True" and unfence("True<br />") == "True" and unfence("  x<br/>  ") == "  x"
    assert unfence("[code]>>> import torch") == ">>> import torch" and unfence("[code=python]x[/code]") == "x"
    for line in ("List[int]", "a <b> c", "<stdin>", "x [code] y", "tensor([1, 2])", "<module>"):
        assert unfence(line) == line


def test_a_soft_wrapped_message_whose_next_word_did_not_fit_is_joined_whole() -> None:
    """textwrap at 100 columns leaves a short line before a long name (PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0); the
    out-of-memory row matches the message's first line alone, so only the joined message gives its numbers."""
    wrapped = soft_wrap(OOM, 100)
    assert [len(line) for line in wrapped.split("\n")] == [96, 68, 100, 8]
    assert [e.values for e in read(wrapped).facts.errors] == [
        {"allocated": "5.05 GB", "other": "2.29 GB", "max": "6.77 GB", "requested": "1024.00 MB"}
    ]
    after = "d" * 25 + " " + "g" * 30  # 56 columns, near the widest (60)
    assert _soft_wrapped(["f" * 60, "c " * 20, after, "e"])  # 39 + 1 + 25 > 60: the word did not fit
    assert not _soft_wrapped(["f" * 60, "c " * 10, after, "e"])  # 19 + 1 + 25 < 60: it would have
    assert not _soft_wrapped(["f" * 60, "c" * 39, after, "e"])  # no word wrap made a line without a space


def test_a_message_split_over_lines_a_terminal_did_not_cut_is_joined_with_spaces() -> None:
    """Two other lines at one width make the paste a terminal's; the message's lines are not at that width, so
    they are a soft wrap even where joined without a space (\"6.77GB\") the row would match as much."""
    filler = ["x" * 99 + "1", "y" * 99 + "2"]
    cut = OOM.index(" GB). Tried")  # "max allowed: 6.77" | "GB). Tried to allocate ..."
    lines = [*filler, OOM[:cut], OOM[cut + 1 :]]
    joined = join_split_messages(lines)
    assert joined == [*filler, OOM, ""]
    hard = ["x" * 99 + "1", OOM[:100], OOM[100:200], OOM[200:]]  # a terminal's cut at the paste's width: later
    assert join_split_messages(hard) == hard


def test_a_kernel_version_string_soft_wrapped_is_joined_and_read() -> None:
    """Lightning's environment report (Lightning-AI/lightning#16124) wrapped at 72 columns: the kernel string's
    RELEASE_ARM64 lands on the next line, after the build's time."""
    lines = [
        "        - version:           Darwin Kernel Version 22.1.0: Sun Oct  9",
        "20:14:30 PDT 2022; root:xnu-8792.41.9~2/RELEASE_ARM64_T8103",
    ]
    assert join_split_messages(lines) == [
        "        - version:           Darwin Kernel Version 22.1.0: Sun Oct  9 20:14:30 PDT 2022; "
        "root:xnu-8792.41.9~2/RELEASE_ARM64_T8103",
        "",
    ]
    assert rows(read("\n".join(lines)).observations) == [
        ("host.system", "Darwin", 1, None),
        ("host.arm64_hardware", True, 1, None),
    ]


def test_a_path_line_is_not_prose() -> None:
    assert read_with("prose", ["/Users/me/projects/on my M1 Max with 32 GB, macOS 14.5"]) == []
    assert read_with("prose", ["on my M1 Max with 32 GB, macOS 14.5"]) != []


# ---- conda, framework banners, Docker ------------------------------------------------------------------


def test_conda_info_reads_exactly() -> None:
    """abetlen/llama-cpp-python#847's `conda info` (tests/corpus), `conda config --show subdir`'s row, and a
    CONDA_SUBDIR setting from a thread's fix."""
    corpus = load_lines("llama-cpp-python-847-x86-dylib-arm-conda.txt")
    start = corpus.index("     active environment : llama")
    lines = [
        *corpus[start : start + 12],
        "subdir: osx-64",
        "subdir: linux-64",
        "CONDA_SUBDIR=osx-arm64 mamba create -n pym1 python==3.9.2",
    ]
    assert read_with("conda", lines) == [
        ("interpreter.conda_prefix", "/Users/fozziethebeat/anaconda3/envs/llama", 2, None),
        ("interpreter.version", "3.11.5", 8, None),
        ("paste.archspec", "arm64", 9, None),
        ("host.system", "Darwin", 10, None),
        ("host.macos_version", "14.1.2", 10, None),
        ("interpreter.conda_subdir", "osx-64", 13, None),
        ("host.system", "Darwin", 13, None),
        ("interpreter.conda_subdir", "linux-64", 14, None),
        ("paste.conda_subdir_env", "osx-arm64", 15, None),
    ]


def test_framework_banners_read_exactly() -> None:
    lines = [
        "GPU available: True (mps), used: False",
        "GPU available: True (mps), used: True",
        "GPU available: False, used: False",
        "/Users/williamfalcon/opt/miniconda3/envs/c1/lib/python3.9/site-packages/pytorch_lightning/trainer/"
        "trainer.py:1788: UserWarning: MPS available but not used. Set `accelerator` and `devices` using `Train",
        "Ultralytics 8.3.189 🚀 Python-3.12.0 torch-2.8.0 MPS (Apple M4 Pro)",
        "YOLOv5 🚀 2022-6-3 Python-3.9.13 torch-1.13.0.dev20220604 MPS",
        "- YOLOv5 🚀 v6.1-105-gd257c75 torch 1.11.0 CPU",
        "Total VRAM 32768 MB, total RAM 32768 MB",
        "pytorch version: 2.1.0",
        "Device: mps",
        "yolo val data=coco128.yaml device=mps imgsz=160  plots=False",
        "- `diffusers` version: 0.23.1",
    ]
    assert read_with("banner", lines) == [
        ("paste.device_used", "cpu", 1, None),
        ("paste.lightning", True, 1, None),
        ("paste.framework_mps_available", True, 1, None),
        ("paste.device_used", "mps", 2, None),
        ("paste.lightning", True, 2, None),
        ("paste.framework_mps_available", True, 2, None),
        ("paste.device_used", "cpu", 3, None),
        ("paste.lightning", True, 3, None),
        ("paste.framework_mps_available", False, 3, None),
        ("paste.device_used", "cpu", 4, None),
        ("paste.framework_mps_available", True, 4, None),
        ("paste.lightning", True, 4, None),
        ("interpreter.packages.ultralytics", "8.3.189", 5, None),
        ("interpreter.version", "3.12.0", 5, None),
        ("torch.version", "2.8.0", 5, None),
        ("paste.device_used", "mps", 5, None),
        ("host.cpu_brand", "Apple M4 Pro", 5, None),
        ("torch.version", "1.13.0.dev20220604", 6, None),
        ("paste.device_used", "mps", 6, None),
        ("interpreter.version", "3.9.13", 6, None),
        ("torch.version", "1.11.0", 7, None),
        ("paste.device_used", "cpu", 7, None),
        ("host.memory_bytes", 32768 * 1024 * 1024, 8, None),
        ("torch.version", "2.1.0", 9, None),
        ("paste.device_used", "mps", 10, None),
        ("paste.yolo_command", "yolo val data=coco128.yaml device=mps imgsz=160  plots=False", 11, None),
        ("interpreter.packages.diffusers", "0.23.1", 12, None),
    ]


def test_docker_compose_output_reads_exactly() -> None:
    lines = [
        " ✔ Container reranker  Created" + " " * 24 + "0.0s ",
        "Attaching to reranker",
        "reranker  | INFO:     port: 8787",
    ]
    assert read_with("container", lines) == [
        ("paste.container", True, 1, None),
        ("host.system", "Linux", 1, None),
        ("paste.container", True, 2, None),
        ("host.system", "Linux", 2, None),
    ]


def test_a_template_field_whose_value_is_docker_reads_exactly() -> None:
    # DrewThomasson/ebook2audiobook#178's table, and the same field as a "Label: value" line
    lines = [
        "| **HARDWARE**  | MacBook M1 Pro Max              |",
        "| **SOFTWARE**  | Docker                          |",
        "Installation method: Docker",
        "Installation method: Docker, then natively",
    ]
    assert read_with("container", lines) == [
        ("paste.container", True, 2, None),
        ("host.system", "Linux", 2, None),
        ("paste.container", True, 3, None),
        ("host.system", "Linux", 3, None),
    ]


# ---- tracebacks and error lines ------------------------------------------------------------------------

ERRORS = [
    '  File "/Users/zhangyukun33/anaconda3/envs/model-fine/lib/python3.8/site-packages/torch/cuda/__init__.py",'
    " line 293, in _lazy_init",
    '  File "/Users/coder/workspace/invokeai/.venv/lib/python3.10/site-packages/torch/utils/_contextlib.py",'
    " line 115, in decorate_context",
    'File "/home/LLaMA_MPS/llama/model.py", line 102, in __init__',
    'File "C:\\Users\\a\\x.py", line 3, in <module>',  # built: a Windows frame's shape
    "/Volumes/SSD2TB/AI/Diffusers/lib/python3.11/site-packages/diffusers/image_processor.py:147: RuntimeWarning:"
    " invalid value encountered in cast",
    "/Users/me/miniconda3/envs/myenv/bin/python",
    "Termination Reason:    Namespace SIGNAL, Code 6 Abort trap: 6",
    "RuntimeError: MPS backend out of memory (MPS allocated: 5.05 GB, other allocations: 2.29 GB, max allowed:"
    " 6.77 GB). Tried to allocate 1024.00 MB on private pool.",
    "ERROR: BFloat16 is not supported on MPS",
]


def test_traceback_lines_read_exactly() -> None:
    anaconda = "/Users/zhangyukun33/anaconda3/envs/model-fine"
    venv = "/Users/coder/workspace/invokeai/.venv/lib/python3.10/site-packages/torch"
    assert read_with("traceback", ERRORS) == [
        ("paste.frame", f"{anaconda}/lib/python3.8/site-packages/torch/cuda/__init__.py", 1, None),
        ("interpreter.version", "3.8", 1, None),
        ("torch.location", f"{anaconda}/lib/python3.8/site-packages/torch", 1, None),
        ("interpreter.executable", f"{anaconda}/bin/python", 1, None),
        ("interpreter.home", "/Users/zhangyukun33", 1, None),
        ("host.system", "Darwin", 1, None),
        ("interpreter.conda_prefix", anaconda, 1, None),
        ("paste.frame", f"{venv}/utils/_contextlib.py", 2, None),
        ("interpreter.version", "3.10", 2, None),
        ("torch.location", venv, 2, None),
        ("interpreter.executable", "/Users/coder/workspace/invokeai/.venv/bin/python", 2, None),
        ("interpreter.home", "/Users/coder", 2, None),
        ("host.system", "Darwin", 2, None),
        ("paste.frame", "/home/LLaMA_MPS/llama/model.py", 3, None),
        ("host.system", "Linux", 3, None),
        ("paste.frame", "C:\\Users\\a\\x.py", 4, None),
        ("host.system", "Windows", 4, None),
        (
            "paste.frame",
            "/Volumes/SSD2TB/AI/Diffusers/lib/python3.11/site-packages/diffusers/image_processor.py",
            5,
            None,
        ),
        ("interpreter.version", "3.11", 5, None),
        ("interpreter.executable", "/Volumes/SSD2TB/AI/Diffusers/bin/python", 5, None),
        ("interpreter.executable", "/Users/me/miniconda3/envs/myenv/bin/python", 6, None),
        ("paste.abort", True, 7, None),
        ("paste.exception", "RuntimeError", 8, None),
    ]


def test_error_lines_read_exactly() -> None:
    assert read_with("error_line", ERRORS) == [
        ("paste.warning_line", "RuntimeWarning: invalid value encountered in cast", 5, None),
        ("paste.crash_line", "Abort trap: 6", 7, None),
        (
            "paste.error_line",
            "RuntimeError: MPS backend out of memory (MPS allocated: 5.05 GB, other allocations: 2.29 GB, max allowed:"
            " 6.77 GB). Tried to allocate 1024.00 MB on private pool.",
            8,
            None,
        ),
        ("paste.error_line", "BFloat16 is not supported on MPS", 9, None),
    ]


def test_known_error_texts_read_exactly() -> None:
    """One record per line holding a known error text, with the values its row's pattern pulls out."""
    lines = [
        "RuntimeError: MPS backend out of memory (MPS allocated: 5.05 GB, other allocations: 2.29 GB, max allowed:"
        " 6.77 GB). Tried to allocate 1024.00 MB on private pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to"
        " disable upper limit for memory allocations (may cause system failure)",
        "ERROR: BFloat16 is not supported on MPS",
        "",
        "NotImplementedError: The operator 'aten::_fft_r2c' is not currently implemented for the MPS device. If you"
        " want this op to be added in priority during the prioritization stage, please comment on"
        " https://github.com/pytorch/pytorch/issues/77764. As a temporary fix, you can set the environment variable"
        " `PYTORCH_ENABLE_MPS_FALLBACK=1` to use the CPU as a fallback for this op. WARNING: this will be slower than"
        " running natively on MPS.",
    ]
    oom = {"allocated": "5.05 GB", "other": "2.29 GB", "max": "6.77 GB", "requested": "1024.00 MB"}
    assert read_with("errors", lines) == [
        ("error", {"severity": "error", "values": oom}, 1, None),
        ("error", {"severity": "error", "values": {}}, 2, None),
        ("error", {"severity": "error", "values": {"op": "aten::_fft_r2c"}}, 4, None),
    ]


def test_prose_about_the_machine_reads_exactly() -> None:
    """Users' own words from corpus threads; a path line is left to the other readers."""
    lines = [
        "MacBook Air (Apple M3), macOS 14.5, Python 3.13.2, PyTorch 2.9.1",
        "it shows an error when using training mode; MacBook Pro 2021 with M1 Pro Chip, 16 GB RAM",
        "Mac OS (M1), Sonoma, 8gb RAM",
        "The machine is an i7-6700, 32GB RAM, AMD 5700XT 8go VRAM (RDNA1), macOS 13.3 Ventura, pyenv & python 3.10.11",
    ]
    assert read_with("prose", lines) == [
        ("host.cpu_brand", "Apple M3", 1, None),
        ("host.arm64_hardware", True, 1, None),
        ("host.system", "Darwin", 1, None),
        ("host.macos_version", "14.5", 1, None),
        ("host.system", "Darwin", 1, None),
        ("host.cpu_brand", "Apple M1 Pro", 2, None),
        ("host.arm64_hardware", True, 2, None),
        ("host.system", "Darwin", 2, None),
        ("host.memory_bytes", 16 * 1024**3, 2, None),
        ("host.cpu_brand", "Apple M1", 3, None),
        ("host.arm64_hardware", True, 3, None),
        ("host.system", "Darwin", 3, None),
        ("host.memory_bytes", 8 * 1024**3, 3, None),
        ("host.macos_version", "14", 3, None),  # Sonoma alone: its major version
        ("host.system", "Darwin", 3, None),
        ("host.arm64_hardware", False, 4, None),
        ("paste.intel_prose", True, 4, None),
        ("host.system", "Darwin", 4, None),
        ("host.macos_version", "13.3", 4, None),
        ("host.system", "Darwin", 4, None),
    ]


def test_lightnings_environment_report_reads_exactly() -> None:
    """Lightning-AI/lightning#16124's report (tests/corpus): platform.system() as its OS, the processor of a
    Python under Rosetta, and the kernel string of the Apple-silicon hardware."""
    corpus = load_lines("lightning-16124-vscode-jupyter-i386.txt")
    start = corpus.index("* System:")
    lines = corpus[start : start + 8]
    assert lines[-1].startswith("\t- version:")
    assert read_with("collect_env", lines) == [
        ("host.system", "Darwin", 2, None),
        ("interpreter.processor", "i386", 6, None),
        ("interpreter.version", "3.9.13", 7, None),
    ]
    assert read_with("uname", lines) == [("host.system", "Darwin", 8, None), ("host.arm64_hardware", True, 8, None)]
    torch_row = ["\t- torch:             2.0.1", "\t- torch:             unknown", "\t- processor:         x86"]
    assert read_with("collect_env", torch_row) == [("torch.version", "2.0.1", 1, None)]  # built: the shapes' edges


def test_more_collect_env_rows_and_rows_read_by_their_values_shape() -> None:
    """collect_env's boolean, clang, conda-Python and transformers-env rows, and rows whose label is not
    collect_env's (system_profiler's "Chipset Model", diffusers' "Accelerator") read by their value's shape."""
    lines = [
        "Chipset Model: Apple M2",
        "- Accelerator: Apple M3",
        "Clang version: 15.0.0 (clang-1500.3.9.4)",
        "Is MPS available: True",
        "Is MPS built: False",
        "CUDA used to build PyTorch: None",
        "Python version: 3.8.17 | packaged by conda-forge | (default, Jun 16 2023, 07:11:32)  [Clang 14.0.6 ]"
        " (64-bit runtime)",
        "PyTorch version: N/A",
        "- PyTorch version (GPU?): 2.10.0.dev20251023 (False)",
    ]
    assert read_with("collect_env", lines) == [
        ("host.cpu_brand", "Apple M2", 1, None),
        ("host.cpu_brand", "Apple M3", 2, None),
        ("host.clang_version", "15.0.0 (clang-1500.3.9.4)", 3, None),
        ("torch.mps_available", True, 4, None),
        ("torch.mps_built", False, 5, None),
        ("interpreter.version", "3.8.17", 7, None),
        ("paste.conda_python", True, 7, None),
        ("torch.version", "2.10.0.dev20251023", 9, None),
    ]


def test_sixth_round_prose_banner_and_repl_lines_read_exactly() -> None:
    """The sixth round's readings (tests/corpus names each thread): the CPU told in English or Chinese, CUDA asked
    for in words, 'on Mac Silicon', a chip with its tier in Apple's casing and no Mac word, a Mac word against CJK
    letters, a crash told on an mps line; SB3's 'GPU Enabled: False'; a tensor printed on mps, not one asked for."""
    prose = [
        "# user: It just goes to use CPU not the MPS",  # fastai#3662
        "**系统:** M1 Pro",  # GPT-SoVITS#336
        "为什么我的Mac只能CPU跑啊,GPU不动",
        "**问题:** 无法调用 mps，自动回退 CPU 处理",
        "# user: When I try to do the lora training, it keeps asking for cuda libraries etc.",  # kohya_ss#577
        "# user: On Mac Silicon tensor rendering works faster. Where can i change the device or disable cuda?",
        '        with the ARM-based Apple Silicon processors."""',  # a docstring: Apple silicon in general
        "my M3 pro does not have cuda",  # no CUDA asked for
        "# user: the Sonoma 14.4 update made it start crashing on startup (MPS, M1 Max)",  # pytorch#122016
    ]
    assert read_with("prose", prose) == [
        ("paste.device_used", "cpu", 1, None),
        ("host.cpu_brand", "Apple M1 Pro", 2, None),
        ("host.arm64_hardware", True, 2, None),
        ("host.system", "Darwin", 2, None),
        ("paste.device_used", "cpu", 3, None),
        ("host.system", "Darwin", 3, None),  # round 19: "我的Mac只能" names the Mac (no \b against CJK letters)
        ("paste.device_used", "cpu", 4, None),
        ("paste.cuda_asked", True, 5, None),
        ("paste.cuda_asked", True, 6, None),
        ("host.arm64_hardware", True, 6, None),
        ("host.system", "Darwin", 6, None),
        ("host.cpu_brand", "Apple M3 Pro", 8, None),
        ("host.arm64_hardware", True, 8, None),
        ("host.system", "Darwin", 8, None),
        ("paste.crash_said", True, 9, None),
        ("host.cpu_brand", "Apple M1 Max", 9, None),
        ("host.arm64_hardware", True, 9, None),
        ("host.system", "Darwin", 9, None),
        ("host.macos_version", "14.4", 9, None),
        ("host.system", "Darwin", 9, None),
    ]
    assert read_with("banner", ["GPU Enabled: False", "GPU Enabled: True"]) == [("paste.device_used", "cpu", 1, None)]
    repl = [
        "python -c \"from sentence_transformers import SentenceTransformer; print(SentenceTransformer('m', "
        "device='mps').encode('hello world'))\"",  # sentence-transformers#3507: asked for, not printed
        "tensor([[nan, nan, nan,  ..., nan, nan, nan]], device='mps:0',",  # scverse/scvi-tools#3105 (public)
        "tensor([1., 2.], device='mps:0')",
        "x = torch.ones(5, device='mps')",
    ]
    assert read_with("repl", repl) == [
        ("paste.mps_tensor", True, 2, None),
        ("paste.nan_values", True, 2, None),
        ("paste.mps_tensor", True, 3, None),
    ]


def test_pip_versions_read_past_who_asked_for_torch() -> None:
    """pip names the package that asked between the requirement and its versions (nanoporetech/medaka#526,
    pytorch/executorch#3670); a requirements file's line in its own brackets is read too."""
    lines = [
        "ERROR: Could not find a version that satisfies the requirement torch~=2.3 (from medaka) (from versions: "
        "2.2.1, 2.2.2)",
        "ERROR: Could not find a version that satisfies the requirement torch==2.3.0 "
        "(from -r requirements.txt (line 3)) (from versions: none)",
    ]
    assert read_with("pip", lines) == [
        ("paste.pip_versions", ["2.2.1", "2.2.2"], 1, None),
        ("paste.pip_requirement", "torch~=2.3", 1, None),
        ("paste.pip_versions", [], 2, None),
        ("paste.pip_requirement", "torch==2.3.0", 2, None),
    ]


def test_the_cuda_refusal_retold_reads_as_cuda_asked_for() -> None:
    """oobabooga/textgen#121's words; 'does not have cuda' (anydoor#58) says what the Mac lacks, not what is asked."""
    lines = [
        "my mac m1 ... it tells me that torch doesn't work with cuda and it is true torch.cuda.is_available() == false",
        "ended up saying it because my M3 pro does not have cuda",
    ]
    assert read_with("prose", lines) == [
        ("paste.cuda_asked", True, 1, None),
        ("host.cpu_brand", "Apple M1", 1, None),
        ("host.arm64_hardware", True, 1, None),
        ("host.system", "Darwin", 1, None),
        ("host.cpu_brand", "Apple M3 Pro", 2, None),
        ("host.arm64_hardware", True, 2, None),
        ("host.system", "Darwin", 2, None),
    ]


def test_seventh_round_prose_reads_exactly() -> None:
    """The seventh round's readings (tests/corpus names each thread): the GPU asked for instead of the CPU, with the
    Mac named on the line (and an Intel Mac kept Intel); memory that grows on mps; a run that broke when macOS was
    updated, either way round, and not the update told alone; a Mac named with nothing else said of it; results
    called wrong on a line about the Mac (not mps); a framework's log that it found no CUDA and took the CPU."""
    lines = [
        "# user: Is there a way to use the GPU of an Apple Silcon Mac rather then using teh CPU ?",  # demucs#435
        "# user: On macOS (MPS), memory grows continuously across sentences until the kernel kills the process.",
        'device = torch.device("mps")  # no leak on "cpu" or "cuda"',  # pytorch#132596
        "# user: Everything was fine before upgrading to the latest version of mac.",  # ComfyUI#3346
        "# user: After upgrading my mac computer to the latest version.",  # nothing broke in these words
        "# user: it stopped working after updating to Sonoma 14.4 on mps",
        "use the gpu on my Intel Mac rather than the cpu",
    ]
    assert read_with("prose", lines) == [
        ("paste.device_used", "cpu", 1, None),
        ("host.system", "Darwin", 1, None),
        ("paste.memory_growth", True, 2, None),
        ("paste.memory_growth", True, 3, None),
        ("paste.macos_regression", True, 4, None),
        ("paste.mac_named", True, 4, None),
        ("paste.mac_named", True, 5, None),
        ("paste.macos_regression", True, 6, None),
        ("host.macos_version", "14.4", 6, None),
        ("host.system", "Darwin", 6, None),
        ("paste.device_used", "cpu", 7, None),
        ("host.arm64_hardware", False, 7, None),
        ("paste.intel_prose", True, 7, None),
        ("host.system", "Darwin", 7, None),
    ]
    wrong = [
        "Torch 2.8.0 appears to have an issue for Mac users that are causing the results to be all kinds of messed up.",
        "I tried a different Mac and the results were fine",  # "different" alone is no wrong result on a Mac line
    ]
    assert read_with("prose", wrong) == [
        ("paste.wrong_results", True, 1, None),
        ("paste.mac_named", True, 1, None),
        ("paste.mac_named", True, 2, None),
    ]
    no_cuda = ["2025-09-19 17:04:27,200 - modelscope - INFO - cuda is not available, using cpu instead."]  # VoxCPM#20
    assert read_with("banner", no_cuda) == [("paste.device_used", "cpu", 1, None)]


def test_a_warning_after_a_progress_bar_and_a_floor_in_torchs_words_read_exactly() -> None:
    """apple-aiml-research/ml-depth-pro#17: the warning's path after the tqdm bar it interrupted reads as it does
    when the terminal wraps the bar away; "natively starting from macOS 13.0" is torch's floor, not this Mac's
    version (a user's "I'm on macOS 14.5" still is)."""
    bar = (
        "  0%|                                                     | 0/1 [00:00<?, ?it/s]/opt/anaconda3/envs/depth-pro/"
        "lib/python3.9/site-packages/torch/nn/functional.py:4038: UserWarning: MPS: passing scale factor to upsample "
        "ops is supported natively starting from macOS 13.0. Falling back on CPU."
    )
    assert read_with("traceback", [bar]) == [
        ("paste.frame", "/opt/anaconda3/envs/depth-pro/lib/python3.9/site-packages/torch/nn/functional.py", 1, None),
        ("interpreter.version", "3.9", 1, None),
        ("torch.location", "/opt/anaconda3/envs/depth-pro/lib/python3.9/site-packages/torch", 1, None),
        ("interpreter.executable", "/opt/anaconda3/envs/depth-pro/bin/python", 1, None),
        ("interpreter.conda_prefix", "/opt/anaconda3/envs/depth-pro", 1, None),
    ]
    assert read_with("prose", [bar.strip(), "I'm on macOS 14.5"]) == [
        ("host.macos_version", "14.5", 2, None),
        ("host.system", "Darwin", 2, None),
    ]
    ticked = ["`docker run -d -p 9000:9000 onerahmet/openai-whisper-asr-webservice:latest`", "I use docker run often"]
    assert read_with("container", ticked) == [("paste.container", True, 1, None), ("host.system", "Linux", 1, None)]


def test_eighth_round_prose_reads_exactly() -> None:
    """The eighth round's readings (tests/corpus names each thread): results called worse or corrupted near mps, a
    detector that finds nothing on mps, mps between a result and its judgement, a wrong result named far from mps
    (and a claim called incorrect that is none); a run told to fail on mps where the CPU's works, and neither the
    other way round nor both failing."""
    lines = [
        "# user: Using the MPS backend to train a model produces much worse results than using other backends",
        "# user: MPS backend produces corrupted output in SDXL image generation",
        "# user: python detect.py --source 0 --device mps, there is no detections.",
        "# user: found that the result by the MPS backend is significantly worse.",
        "# user: when using device=mps, the segmentation appears to remove the bounding boxes, showing only the "
        "incorrect segmentation masks.",
        "# user: mps training is much slower, worse performance than cpu",
        "# user: I believe MPS is supported on x86 too, not just ARM, so the assumption in that check, namely that the "
        "processor must be arm, is incorrect.",
        "# user: `detect.py` works well when running on CPU but failed on Apple MPS on my computer.",
        "# user: It works on CPU but not on MPS",
        "# user: mps works but cpu fails",
        "# user: it fails on mps and on cpu",
        "# user: Using PyTorch with Transformers to run inference with 'MPS' backend causes poor results.",
        "# user: mps gives poor performance",
    ]
    assert read_with("prose", lines) == [
        ("paste.wrong_results", True, 1, None),
        ("paste.wrong_results", True, 2, None),
        ("paste.wrong_results", True, 3, None),
        ("paste.wrong_results", True, 4, None),
        ("paste.wrong_results", True, 5, None),
        ("paste.slow_said", True, 6, None),  # round 14: slowness said of mps is read (checks/causes/slow.py)
        ("paste.mps_fails_cpu_works", True, 8, None),
        ("paste.mps_fails_cpu_works", True, 9, None),
        ("paste.wrong_results", True, 12, None),
    ]


def test_eighth_round_saved_on_the_mac_and_accelerates_cpu_config_read_exactly() -> None:
    """A model saved on the Mac, loaded elsewhere and said not to work, on one prose line (and not when nothing
    failed, nor when only one half is said); ``accelerate env``'s "- use_cpu: True" (and not False)."""
    lines = [
        "# user: We trained a Model under Apple-Silicon and are not able to reload the model under Linux.",
        "# user: I trained on MPS and deployed it to a server successfully",
        "# user: we cannot load the model on linux",
        "# user: the model trained on my M2 fails",
    ]
    assert read_with("prose", lines) == [
        ("paste.checkpoint_elsewhere", True, 1, None),
        ("host.cpu_brand", "Apple M2", 4, None),
        ("host.arm64_hardware", True, 4, None),
        ("host.system", "Darwin", 4, None),
    ]
    assert read_with("banner", ["        - use_cpu: True", "        - use_cpu: False"]) == [
        ("paste.device_used", "cpu", 1, None)
    ]


def test_eighth_round_hosted_runner_read_exactly() -> None:
    """GitHub's hosted runner named after "macOS 14", and its tool cache in a path (not torch's build path)."""
    lines = [
        "# user: a crash which only happens on macOS 14 in the hosted runner of GitHub Actions.",
        "Process 4164 launched: '/Users/runner/hostedtoolcache/node/22.10.0/arm64/bin/node' (arm64)",
        "/Users/runner/hostedtoolcache/Python/3.12.7/arm64/lib/python3.12/site-packages/torch/__init__.py",
        "(Triggered internally at /Users/runner/work/pytorch/pytorch/pytorch/aten/src/ATen/mps/MPSFallback.mm:11.)",
        "# user: the self-hosted runner on macOS 14",
    ]
    assert read_with("prose", lines) == [
        ("paste.ci_said", True, 1, None),  # GitHub Actions: a CI run (round 17)
        ("host.hypervisor", True, 1, None),
        ("host.macos_version", "14", 1, None),
        ("host.system", "Darwin", 1, None),
        ("host.hypervisor", True, 2, None),
        ("host.hypervisor", True, 3, None),
        ("host.macos_version", "14", 5, None),
        ("host.system", "Darwin", 5, None),
    ]


def test_eighth_round_torch_local_pin_read_exactly() -> None:
    """torch pinned to a local version in a pyproject table or a requirements line (and not torchvision's, nor a
    plain pin, nor a local version in prose)."""
    lines = [
        'torch = { version = "^2.5.1+cpu", source = "pytorch-cpu" }',
        "torch==2.4.0+cu121",
        'torchvision = { version = "^0.20.1+cpu", source = "pytorch-cpu" }',
        "torch==2.4.0",
        "I tried torch==2.4.0+cu121 yesterday",
        "torch==2.3.1+rocm6.0 ; sys_platform == 'linux'",
    ]
    assert read_with("pip", lines) == [
        ("paste.torch_local_pin", "2.5.1+cpu", 1, None),
        ("paste.torch_local_pin", "2.4.0+cu121", 2, None),
        ("paste.torch_local_pin", "2.3.1+rocm6.0", 6, None),
    ]


def test_a_frame_in_an_envs_own_site_packages_names_its_python_and_a_shared_prefix_does_not() -> None:
    """A venv's or conda env's interpreter is <env>/bin/python; a shared Python's prefix may have no bin/python."""

    def executables(path: str) -> list[object]:
        line = f'  File "{path}/lib/python3.11/site-packages/torch/nn/functional.py", line 1, in f'
        return [value for fact, value, _, _ in read_with("traceback", [line]) if fact == "interpreter.executable"]

    assert executables("/Users/me/proj/.venv") == ["/Users/me/proj/.venv/bin/python"]
    assert executables("/Users/me/.local/pipx/venvs/whisper") == ["/Users/me/.local/pipx/venvs/whisper/bin/python"]
    assert executables("/Users/me/miniforge3") == ["/Users/me/miniforge3/bin/python"]
    for shared in (
        "/usr/local",
        "/usr",
        "/opt/homebrew",
        "/opt/homebrew/Cellar/python@3.11/3.11.9/Frameworks/Python.framework/Versions/3.11",
        "/Library/Frameworks/Python.framework/Versions/3.11",
        "/Applications/Xcode.app/Contents/Developer/Library/Frameworks/Python3.framework/Versions/3.9",
        "/opt/local/Library/Frameworks/Python.framework/Versions/3.11",
        "/nix/store/abc-python3-3.11.9",
        "/System/Library/Frameworks/Python.framework/Versions/2.7",
        "/Users/me/.local",  # pip install --user's site: no bin/python there
        "/Users/John Doe/.venv",  # a space: the path would not paste as one word
        "/Users/me/$HOME/.venv",
    ):
        assert executables(shared) == [], shared


def test_the_users_word_that_mps_does_not_work_reads_exactly() -> None:
    said = [
        "training with MPS does not work; nightly PyTorch did not work either",
        "the GPU isn't available in my notebook",
        "Metal can't be used from the container",
        "mps failed to load the model",
        "MPS works fine now",  # no failure said
        "it does not work on the gpu",  # the failure is not said of mps or the GPU
    ]
    assert [row for row in read_with("prose", said) if row[0] == "paste.mps_fails_said"] == [
        ("paste.mps_fails_said", True, 1, None),
        ("paste.mps_fails_said", True, 2, None),
        ("paste.mps_fails_said", True, 3, None),
        ("paste.mps_fails_said", True, 4, None),
    ]


def test_a_warning_header_left_alone_by_a_word_wrap_is_still_its_path() -> None:
    """Python's "path.py:NNN: Category: message" wrapped after its line number still names the path."""
    path = "/opt/anaconda3/envs/bobo/lib/python3.11/multiprocessing/resource_tracker.py"
    assert read_with("traceback", [f"{path}:254:"]) == [
        ("paste.frame", path, 1, None),
        ("interpreter.conda_prefix", "/opt/anaconda3/envs/bobo", 1, None),
    ]
    assert read_with("traceback", [f"{path}:254: and more words"]) == []  # not a warning's header


def test_fourteenth_round_slowness_on_mps_reads_exactly() -> None:
    """Slowness said of mps or the GPU, on either side of it or compared with the CPU; not said of the CPU the user
    switched to, not in torch's own "slower than running natively", not with no device named, not an op's name."""
    lines = [
        "# user: Optim.step() is significantly SLOW on MPS",
        "# user: mps training is slowly getting there",
        "# user: the GPU is slower than the CPU",
        "# user: 为什么mac mps 加速比cpu 慢",
        "# user: when I change mps as cpu it works but too slow",
        "# user: this will be slower than running natively on MPS",
        "# user: it is slow",
        "# user: slow_conv2d on mps",
        "# user: metal is slow",
        "# user: slow, with metal",
        "# user: mps, then the cpu, slower",
    ]
    assert read_with("prose", lines) == [
        ("paste.slow_said", True, 1, None),
        ("paste.slow_said", True, 2, None),
        ("paste.slow_said", True, 3, None),
        ("paste.slow_said", True, 4, None),
        ("paste.mac_named", True, 4, None),  # "mac" against CJK (round 19)
        ("paste.only_on_mps", True, 5, None),  # round 33: mps switched for the CPU, and then it works
        ("paste.slow_said", True, 9, None),
        ("paste.slow_said", True, 11, None),
    ]


def test_seventeenth_round_prose_reads_exactly() -> None:
    """A CI run said (an uppercase word CI, GitHub Actions; not CI/CD, a word that starts with CI, a lowercase ci,
    nor a self-hosted runner); the CPU used instead of mps with an owner's name and a verb between
    (TotalSegmentator#250), and the GPU seen idle, which is not read (llama-mps#2, RVC#767)."""
    lines = [
        "# user: Run platform tests on AutoGluon CI",
        "# user: it fails in GitHub Actions",
        "# user: our CI/CD pipeline, CIFAR data, the ci folder",
        "# user: on our self-hosted CI Mac mini",
        "# user: Is it possible that it just uses the Macbook's CPU instead of calling the Macbook's \"MPS\" here?",
        "# user: it is using my M1's CPU rather than its GPU",
        "# user: GPU usage 0% and no GPU usage observed; the GPU is not being used?",
        "# user: using the vit_h model on mps it gives me the following strange result.",
        "# user: weird outputs, I think",  # no mps near
    ]
    assert read_with("prose", lines) == [
        ("paste.ci_said", True, 1, None),
        ("paste.ci_said", True, 2, None),
        ("paste.mac_named", True, 4, None),
        ("paste.device_used", "cpu", 5, None),
        ("host.system", "Darwin", 5, None),  # the Mac named on the line
        ("paste.device_used", "cpu", 6, None),
        ("host.cpu_brand", "Apple M1", 6, None),
        ("host.arm64_hardware", True, 6, None),
        ("host.system", "Darwin", 6, None),
        ("paste.wrong_results", True, 8, None),
        ("paste.wrong_apart", True, 9, None),  # round 33: apart from mps; the judge takes it where mps is named
    ]


def test_twentieth_round_answers_called_irrelevant_read_exactly() -> None:
    """A language model's answers called irrelevant, unrelated or meaningless near mps (lm-sys/FastChat#637) are
    wrong results; the word said of no output, or far from any answer, is none."""
    lines = [
        "# user: but using MPS on macOS would say something irrelevant",
        "# user: with --device mps the model gives irrelevant answers",
        "# user: on mps it generates meaningless output",
        "# user: the mps warning is irrelevant here",
        "# user: irrelevant, but I also tried mps",
    ]
    assert read_with("prose", lines) == [
        ("paste.wrong_results", True, 1, None),
        ("paste.wrong_results", True, 2, None),
        ("paste.wrong_results", True, 3, None),
    ]


def test_a_notebook_kernel_that_died_is_read_exactly_as_a_crash_line() -> None:
    """Round 21 (vscode-jupyter#15463, #13828): the front end's words for a kernel process that died, exactly what
    each line gives, and the words about a kernel that are no crash."""
    lines = [
        "22:07:55.806 [error] Disposing session as kernel process died ExitCode: undefined, Reason: ",
        "The kernel 'test (Python 3.10.11)' died. Click [here](https://aka.ms/vscodeJupyterKernelCrash) for more info.",
        "The Kernel crashed while executing code in the current cell or a previous cell.",
        "Kernel Restarting: The kernel appears to have died. It will restart automatically.",
        "Cannot execute code, session has been disposed. Please try restarting the Kernel.",
        "Restart the kernel, then run all cells",
        "The kernel '' died.",  # no kernel name: not the VS Code message
    ]
    assert read_with("error_line", lines) == [
        ("paste.crash_line", "kernel process died", 1, None),
        ("paste.crash_line", "The kernel 'test (Python 3.10.11)' died", 2, None),
        ("paste.crash_line", "The Kernel crashed while executing code", 3, None),
        ("paste.crash_line", "kernel appears to have died", 4, None),
        ("paste.crash_line", "Cannot execute code, session has been disposed", 5, None),
    ]


def test_cuda_written_into_the_code_reads_as_cuda_asked_for() -> None:
    """The twenty-fourth round's words (co-tracker#9, sam2#34): CUDA hard-coded (typed 'hardcorded' too) or the only
    device the code supports; a Mac with no CUDA, or a code that merely supports CUDA among others, asks nothing."""
    lines = [
        "How can I run this code on MAC-M1 or cpu? It seems cuda is hardcorded somewhere.",
        "Currently the code only support CUDA enabled devices.",
        "the device is hard-coded to cuda",
        "the code supports cuda and mps",
        "cuda hardware is not hard to find",
    ]
    assert read_with("prose", lines) == [
        ("paste.cuda_asked", True, 1, None),
        ("paste.mac_named", True, 1, None),
        ("paste.cuda_asked", True, 2, None),
        ("paste.cuda_asked", True, 3, None),
    ]


def test_twenty_fifth_round_runner_and_ci_memory_read_exactly() -> None:
    """A CI's "macos runners" with no "hosted" said, GitHub's "macos-latest" label, and a CI job said to fail for
    memory (an out-of-memory told, only with CI on the line; once per line even where mps words say it too)."""
    lines = [
        "# user: `mps` does not work on macos runners using the `latest` version",  # sktime#8642
        "# user: the torch tests break on macos-latest",
        "# user: I see that the CI tests on macbook are failing with a memory error.",  # TabPFN#270
        "# user: a memory error on my laptop",  # no CI: not read
        "# user: the CI fails with MPS out of memory",  # mps words and CI: one out-of-memory told
        "# user: our self-hosted macOS runner",  # self-hosted: a physical Mac
    ]
    assert read_with("prose", lines) == [
        ("paste.mps_fails_said", True, 1, None),
        ("host.hypervisor", True, 1, None),
        ("host.hypervisor", True, 2, None),
        ("paste.mac_named", True, 3, None),  # "macbook"
        ("paste.ci_said", True, 3, None),
        ("paste.oom_said", True, 3, None),
        ("paste.oom_said", True, 5, None),
        ("paste.ci_said", True, 5, None),
    ]


def test_the_device_words_gate_keeps_every_cpu_reading() -> None:
    """names_device is a necessary condition of CPU_ONLY and cpu_said: every corpus line either reads keeps it, and a
    line naming no device is skipped."""
    from pathlib import Path

    from mpscheck.probes.paste.cpu_words import CPU_ONLY, cpu_said, names_device

    read = 0
    for path in sorted((Path(__file__).parent / "corpus").glob("*.txt")):
        for line in path.read_text(encoding="utf-8").split("\n"):
            if CPU_ONLY.search(line.replace("*", "").replace("`", "")) or cpu_said(line):
                read += 1
                assert names_device(line), line
    assert read > 20
    assert names_device("it only uses the *CPU*") and names_device("只能CPU跑")
    assert not names_device("Epoch 1/10: loss 0.2134, accuracy 0.91")


def test_thirty_third_round_prose_reads_exactly() -> None:
    """A CUDA error retold in words (unsloth#685), and not a Mac that merely lacks CUDA; a CUDA default said of the code
    (peft#1575), not one taken 'if available'; a line naming Apple silicon and AMD together (keras#18437) says no Mac of
    the user's, where an Intel Mac named alone still is one."""
    lines = [
        "i bascially get an error saying no CUDA device found.",
        "it complains that no nvidia gpu was detected",
        "I know there is no CUDA device on a MacBook",
        'The above code defaults to "cuda", but it should consider whether mps is available first',
        "the device defaults to cuda if available",
        "which works on both Apple silicon and AMD GPUs on a Mac",
        "on my Intel Mac",
    ]
    assert read_with("prose", lines) == [
        ("paste.cuda_asked", True, 1, None),
        ("paste.cuda_asked", True, 2, None),
        ("paste.mac_named", True, 3, None),
        ("paste.cuda_asked", True, 4, None),
        ("host.arm64_hardware", False, 7, None),
        ("paste.intel_prose", True, 7, None),
        ("host.system", "Darwin", 7, None),
    ]


def test_round33_wrong_results_apart_and_on_a_macs_gpu_read_exactly() -> None:
    """Issue 17's classes: a result called wrong in words the readers missed (nothing detected, an empty result, a
    result that seems odd, correctness named), with mps on the line (wrong results), on a line of its own (apart), or
    said of the GPU (on the GPU, before or after the words); a device not detected, a GPU at 0 % and a bare "different"
    are none of them."""
    lines = [
        "# user: The predicted line seems odd too...",  # Time-Series-Library#677
        "# user: Several reduce ops are affected by silent correctness issues when ran in rapid succession.",
        "# user: many of my test cases now returned an empty string",  # EasyOCR#1039
        "# user: the GPU option does not detect any cells.",  # cellpose#1034
        "# user: I re-installed pytorch, but still black images outside of CPU mode.",  # chaiNNer#2138
        "# user: with mps the model does not detect any objects",
        "# user: torch does not detect any GPU",
        "# user: the GPU shows 0 and the results are different",
        "# user: gibberish on the gpu",
    ]
    assert read_with("prose", lines) == [
        ("paste.wrong_apart", True, 1, None),
        ("paste.wrong_apart", True, 2, None),
        ("paste.wrong_apart", True, 3, None),
        ("paste.wrong_on_gpu", True, 4, None),
        ("paste.wrong_apart", True, 4, None),
        ("paste.wrong_on_gpu", True, 5, None),
        ("paste.wrong_apart", True, 5, None),  # round 36: a black picture is a wrong result wherever mps is named
        ("paste.wrong_results", True, 6, None),
        ("paste.wrong_on_gpu", True, 9, None),
    ]


def test_round36_black_pictures_and_an_intel_tier_before_the_mac_read_exactly() -> None:
    """Issue 17's round 36: a picture said to come out black or blank near mps (wrong results), near the Mac (wrong
    results, the Mac after the words too), apart from both (a black picture, which the judge weighs on a Mac, and a
    wrong result where mps is named); numpy's NaN cast on a line of its own (a black picture); the CPU's tier before
    the Mac (an Intel Mac); a hang said of mps; a result not got right on the GPU; a torch release that makes it work
    again; a colour asked for, a tier not before a Mac, a hang on the CPU and a Python that works again are none of
    them."""
    lines = [
        "# user: on mps the image is black",
        "Has anyone encountered the issue of generating blank images with ComfyUI? Mac M2, default workflow.",
        "output image  image is black, but using it fixes",
        "RuntimeWarning: invalid value encountered in cast",
        "# user: a black background behind the cat on mps",
        "The issue persist, may be related to my i5 mac",
        "my i5 settings",
        "If I change it to mps, it just hangs until I Ctrl-C",
        "it hangs on the CPU",
        "it uses the gpu but doesnt quite get it right.",
        "thank you bro! By using pytorch 2.4.1,  It works again!",
        "using Python 3.10 it works again",
    ]
    assert read_with("prose", lines) == [
        ("paste.wrong_results", True, 1, None),
        ("paste.wrong_results", True, 2, None),
        ("host.cpu_brand", "Apple M2", 2, None),
        ("host.arm64_hardware", True, 2, None),
        ("host.system", "Darwin", 2, None),
        ("paste.picture_wrong", True, 3, None),
        ("paste.wrong_apart", True, 3, None),
        ("paste.picture_wrong", True, 4, None),  # a label-like line: not read as prose apart, only as a picture
        ("host.arm64_hardware", False, 6, None),
        ("paste.intel_prose", True, 6, None),
        ("host.system", "Darwin", 6, None),
        ("paste.hang_said", True, 8, None),
        ("paste.wrong_on_gpu", True, 10, None),
        ("paste.wrong_apart", True, 10, None),
        ("paste.older_torch_works", True, 11, None),
    ]


def test_round33_mps_switched_for_the_cpu_and_then_working_reads_exactly() -> None:
    """mps switched for the CPU and then working (ng-video-lecture#35) is the trouble on mps alone; the CPU switched for
    mps, or nothing working after the switch, is not."""
    lines = [
        "# user: but when I change mps as cpu generating can work well but too slow",
        "# user: switching from mps to cpu fixes it",
        "# user: when I change cpu to mps it works",
        "# user: I changed mps to cpu and it still fails",
        "# user: moving from mps to the cpu, it runs fine",
    ]
    assert read_with("prose", lines) == [
        ("paste.only_on_mps", True, 1, None),
        ("paste.only_on_mps", True, 2, None),
        ("paste.only_on_mps", True, 5, None),
    ]


def test_round33_degenerate_text_reads_exactly() -> None:
    """Degenerate generated text (probes/paste/degenerate.py): the first line of a word glued to itself six times,
    with its unit; else the first of two or more lines with '!' five times, three glued to a word; the user's words
    (a '#' line), a two-letter unit, a unit with fewer than three letters apart, five repeats, and a single line of
    '!' are none; and where a paste asks for mps."""
    from mpscheck.probes.paste.degenerate import degenerate_text, mps_asked

    def seen(text: str) -> tuple[str, Any, int, str, str] | None:
        found = degenerate_text(text)
        return None if found is None else (found.fact, found.value, found.line, found.text, found.kind)

    glued = "B: is is is isThisThisThisThisThisThis"
    assert seen("x\n" + glued) == ("paste.degenerate_text", "This", 2, glued, "output")
    assert seen("the thethethethethethe") == ("paste.degenerate_text", "the", 1, "the thethethethethethe", "output")
    assert seen("ThisThisThisThisThis") is None  # five times
    assert seen("# user: ThisThisThisThisThisThisThis") is None  # the user's words
    assert seen("hahahahahahahahahahahahahahaha") is None  # two letters apart
    assert seen("abaabaabaabaabaabaabaaba") is None  # a unit of two letters apart ("aba")
    bang = "Hello, my name is!! I'm a! from! . I!!"
    assert seen(bang) is None  # one line
    assert seen(f"{bang}\nok\n{bang}") == ("paste.degenerate_text", "!", 1, bang, "output")
    assert seen("a!! b!! c!\nd! e! f!!") is None  # the second line has '!' four times
    assert seen("a! b! c!!!\nd! e! f!!!") == ("paste.degenerate_text", "!", 1, "a! b! c!!!", "output")
    assert seen("a! b! !!!!\nd! e! f!!!") is None  # two glued on the first line
    assert seen(f"# {bang}\n# {bang}") is None
    assert [mps_asked(t) for t in ('device= "mps"', "--device mps", "--device=mps", ".to( 'mps')", "DEVICE = MPS")] == [
        True,
        True,
        True,
        True,
        True,
    ]
    assert [mps_asked(t) for t in ("device = 'cpu'", "mps is slow", "to mps", "device = 'mps2'", "xdevice='mps'")] == [
        False,
        False,
        False,
        False,
        False,
    ]


def test_round33_a_helper_for_cuda_alone_or_no_setting_for_mps_reads_exactly() -> None:
    """A helper that looks for CUDA alone, set against mps (d2l-en#2655), and no setting for mps found (fairseq#4704)
    are the CPU used; CUDA alone, mps alone, a device not found and a setting for CUDA are not."""
    lines = [
        "# user: I found that try_gpu() function can only detect 'cuda', but not 'mps'. Can anyone add this?",
        "# user: I could not figure out the solution or setting about mps. So I need your help.",
        "# user: it only checks for `cuda` and not `metal`",
        "# user: there is no option for mps",
        "# user: it only detects cuda devices",
        "# user: I can't find the mps device",
        "# user: there is no option for cuda",
        "# user: it can only detect mps, but not cuda",
    ]
    assert read_with("prose", lines) == [
        ("paste.device_used", "cpu", 1, None),
        ("paste.device_used", "cpu", 2, None),
        ("paste.device_used", "cpu", 3, None),
        ("paste.device_used", "cpu", 4, None),
    ]


def test_round33_cuda_alone_and_chips_after_macos_read_exactly() -> None:
    """A version said to run on CUDA alone, and the subject left out after mps or the Mac (MVDream#38), are CUDA
    asked for; a library's "NVIDIA CUDA" and a subject far from mps are not. The chips after macOS ("MacOS M1/M2",
    "MacOS M-series chips", generative-models#6) are an Apple-silicon Mac; a path or a single chip after it are not."""
    lines = [
        "# user: Current version only runs on CUDA devices.",
        "# user: MPS Support is unavailable only supports CUDA",
        "# user: it seems only support NVIDIA CUDA + cuBLAS",
        "# user: feature: MacOS M1/M2 support",
        "# user: Can it also run on MacOS M-series chips?",
        "# user: see macos m1/m2/build for the files",
    ]
    assert read_with("prose", lines) == [
        ("paste.cuda_asked", True, 1, None),
        ("paste.cuda_asked", True, 2, None),
        ("host.arm64_hardware", True, 4, None),
        ("host.system", "Darwin", 4, None),
        ("host.arm64_hardware", True, 5, None),
        ("host.system", "Darwin", 5, None),
    ]


def test_round33_device_blocks_read_exactly() -> None:
    """The same output under a label naming the CPU and one naming mps (sentence-transformers#3507, pytorch#103343):
    values_differ on the mps block's first line where two numbers or more are apart by more than half the larger
    (and 0.05); one apart, close values, timings, unequal lengths, labels of other runs and a label of both devices
    give nothing."""
    found = parser("device_blocks")
    lines = ["# torch 2.8.0 cpu", "[ 0.39  0.55  0.28]", "# torch 2.8.0 mps", "[ 0.01  0.55 -0.05]"]
    assert rows(found(lines)) == [("paste.values_differ", True, 4, None)]
    assert {o.kind for o in found(lines)} == {"output"}
    mps_first = ["when using the MPS", "994,tensor(1.4541),0.374", "with mac CPU", "994,tensor(13.4385),2.598"]
    assert rows(found(mps_first)) == [("paste.values_differ", True, 2, None)]
    assert found(["# mps", "1.0 2.0", "# cpu", "1.0 1.04"]) == []  # 2.0 and 1.04: apart by less than half the larger
    assert found(["# mps", "1.0 2.0", "# cpu", "0.49 0.99"]) != []  # both apart by more than half the larger
    assert found(["# mps", "1.0 2.0", "# cpu", "0.5 1.0"]) == []  # exactly half: not more
    assert found(["# mps", "0.02 0.03", "# cpu", "0.06 0.07"]) == []  # under the 0.05 floor
    assert found(["# mps", "1.0 2.0", "# cpu", "1.0 9.0"]) == []  # one number apart
    assert found(["# mps", "1 2 3", "# cpu", "1 2"]) == []  # not as many numbers
    assert found(["mps time", "1.0 2.0", "cpu time", "9.0 9.0"]) == []  # timings
    assert found(["# mps", "1.0s 2.0s", "# cpu", "9.0s 9.0s"]) == []  # units: no result
    assert found(["# mps and cpu", "1.0 2.0", "# cpu", "9.0 9.0"]) == []  # a label of both
    assert found(["# mps", "1.0", "# cpu", "9.0"]) == []  # one number a line
    several = ["# a cpu", "1.0 2.0", "# b mps", "9.0 9.0", "# b cpu", "9.0 9.0"]
    assert found(several) == []  # of several blocks, the labels must differ in the device alone


def test_round33_device_blocks_under_a_wrapped_label_read_exactly() -> None:
    """A label wrapped at the terminal's width (pytorch#103343 at 80 columns): the device on the line before."""
    lines = ["# user: with mac CPU this is the resulting loss", "function log", "994,tensor(13.4),2.59"]
    lines += ["# user: when using the MPS,", "same code and data", "994,tensor(1.45),0.37"]
    assert rows(parser("device_blocks")(lines)) == [("paste.values_differ", True, 6, None)]
    too_far = ["# mps", "x", "y", "1.0 2.0", "# cpu", "9.0 9.0"]
    assert parser("device_blocks")(too_far) == []  # three lines up is no label


def test_round38_nan_blocks_read_exactly() -> None:
    """The same output line under a label naming the CPU and one naming mps, NaN only under mps (pytorch#151667):
    values_differ on the mps block's line; NaN under both, another line's shape, code, a blank or a label ending the
    block, a label of both devices and "NaNs" (a word, not a value) give nothing."""
    found = parser("nan_blocks")
    cpu = ["Testing for NaNs on cpu...", "Has NaNs: False - Range: -4.285 to 4.419 - output"]
    mps = ["Testing for NaNs on mps...", "Has NaNs: True - Range: nan to nan - output"]
    assert rows(found(cpu + mps)) == [("paste.values_differ", True, 4, None)]
    assert {(o.kind, o.text) for o in found(cpu + mps)} == {("output", mps[1])}
    assert rows(found(mps + cpu)) == [("paste.values_differ", True, 2, None)]  # mps first
    assert rows(found(["# cpu", "loss: 0.53", "# mps", "loss: NaN"])) == [("paste.values_differ", True, 4, None)]
    assert rows(found(["# cpu", "loss: 0.53", "# mps", "loss: -nan"])) == [("paste.values_differ", True, 4, None)]
    assert found(["# cpu", "loss: nan", "# mps", "loss: nan"]) == []  # NaN on the CPU too
    assert found(["# cpu", "loss: 0.53", "# mps", "acc: nan"]) == []  # not the same line
    assert found(["# cpu", "loss: 0.53", "# mps", "loss: 0.51"]) == []  # no NaN at all
    assert found(["# cpu", "loss: 0.53", "# mps", "y = x * nan"]) == []  # code, not output
    assert found(["# cpu", "loss: 0.53", "# mps", "", "loss: nan"]) == []  # a blank ends the block
    assert found(["# cpu and mps", "loss: 0.53", "# mps", "loss: nan"]) == []  # a label of both devices
    assert found(["# cpu", "NaNs: 0", "# mps", "NaNs: 3"]) == []  # the word NaNs is no NaN value
    assert found(["# cpu", "loss: 0.53", "# gpu", "loss: nan"]) == []  # not mps
    far = ["# cpu", "loss: 0.53", "# mps", "a", "b", "c", "d", "e", "f", "loss: nan"]
    assert found(far) == []  # past MAX_LINES under the label
    near = ["# cpu", "loss: 0.53", "# mps", "a", "b", "c", "d", "e", "loss: nan"]
    assert rows(found(near)) == [("paste.values_differ", True, 9, None)]  # the sixth line under the label


def test_round38_prose_words_read_exactly() -> None:
    """Round 38's words (pytorch/pytorch 2025-2026): a hang told, memory said to grow with an adverb between, one op
    said slower than an equivalent on mps, and a result called wrong in a training run's words."""

    def facts(line: str) -> set[str]:
        return {o.fact for o in parser("prose")([line])}

    assert "paste.hang_said" in facts("It will hang the process, and few attempt resulted in system hang")
    for said in ("the loop hangs at step 3", "python hung", "it deadlocked", "the UI freezes", "training froze"):
        assert "paste.hang_said" in facts(said), said
    for said in ("it gets stuck at 0%", "the process never returns", "stuck forever on mps"):
        assert "paste.hang_said" in facts(said), said
    for said in ("I'm stuck, any idea?", "the change hangar"):
        assert "paste.hang_said" not in facts(said), said
    assert "paste.memory_growth" in facts("on mps the memory usage steadily increases")
    assert "paste.memory_growth" in facts("on mps memory slowly grows")
    assert "paste.memory_growth" not in facts("on mps memory is fine, usage steadily flat")
    slow = "[MPS] 3D `F.linear` on `[B,1,K]` is up to 8.5x slower than 2D / `torch.matmul` (bf16/fp16)"
    assert {"paste.slow_said", "paste.slow_vs_op"} <= facts(slow)  # a title's "[MPS]" tag: words, not a log
    assert facts("[12:01:03] mps is 8.5x slower than 2D") == set()  # a log's time stamp: output
    for said in ("on mps bf16 is slower than fp32", "on mps conv is slower than the equivalent op in 2.4"):
        assert "paste.slow_vs_op" in facts(said), said
    for said in ("mps is slower than cpu", "mps is slower than my RTX 3090", "mps is slower than MLX"):
        assert "paste.slow_vs_op" not in facts(said), said
    assert "paste.wrong_apart" in facts("the run ended with corrupted training losses")
    assert "paste.wrong_apart" in facts("it would generate nonsensical text")
    assert "paste.wrong_apart" in facts("bmm returns silently wrong results")
    assert "paste.wrong_apart" in facts("the call returns plausible tensors without a warning")
    assert "paste.wrong_apart" not in facts("the script fails silently")
    assert "paste.wrong_results" in facts("a large discrepancy between the CPU and MPS output")
    assert "paste.wrong_results" not in facts("no discrepancy between the CPU and MPS output")


def test_round39_machine_words_read_exactly() -> None:
    """The 39th round's readings (tests/corpus names each thread): uname's machine said in Chinese against the value,
    this Python's machine said with a verb, a macOS VM named, and a failure in Colab; the Mac's chip read as before."""
    lines = [
        "# user: mac m3 uname -m 输出x86_64什么鬼",  # dcloudio/native-docs#154
        "`platform.machine()` returns `x86_64` on `arm64` Macbook Pros",  # anaconda-issues#13174's title
        "# user: where virtualized Mac does not support MPS",  # pytorch/torchchat#1416
        "if platform.machine() == 'x86_64':",  # code: no verb, no reading
        '# user: `devices=["mps"]` makes this tutorial fail in Colab with the error:',  # haystack-tutorials#252
    ]
    assert read_with("prose", lines) == [
        ("host.cpu_brand", "Apple M3", 1, None),
        ("host.arm64_hardware", True, 1, None),
        ("host.system", "Darwin", 1, None),
        ("paste.shell_machine", "x86_64", 1, None),
        ("paste.mac_named", True, 2, None),
        ("interpreter.machine", "x86_64", 2, None),
        ("paste.mac_named", True, 3, None),
        ("host.hypervisor", True, 3, None),
        ("host.system", "Linux", 5, None),
    ]
