"""`uname -a`, `uname -m` and `arch`, and `file` / `lipo` on the python executable: the kernel
(RELEASE_ARM64_* is Apple silicon hardware whatever the shell runs as), the architecture of the
process that ran uname (x86_64 under Rosetta), and the Mach-O slices of the interpreter (an
x86_64-only python cannot run natively on Apple silicon).
"""

from __future__ import annotations

import re

from mpscheck.probes.paste.model import Observation, observe

KIND = "uname"
DARWIN = re.compile(
    r"Darwin\s+\S+\s+(?P<release>\d+\.\d+(?:\.\d+)?)\s+Darwin Kernel Version[^;]*;"
    r"\s*\S*RELEASE_(?P<kernel>ARM64|X86_64)"
    r"\S*\s+(?P<machine>arm64|x86_64)\b"
)
SHORT = re.compile(
    r"^\s*Darwin\s+(?P<release>\d+\.\d+(?:\.\d+)?)\s+(?P<machine>arm64|x86_64)(?:\s+(?P<processor>arm|i386))?\s*$"
)
MACHO = re.compile(
    r"(?P<path>(?<![^\s`'\x22])/(?:\S{0,1000}?/)?)?(?:python[\d.]*t?|(?<![\w/])Python {0,8})"
    r":\s+Mach-O (?:64-bit executable (?P<one>x86_64|arm64)"
    r"|universal binary with \d architectures: (?P<many>.*))"
)
LIPO = re.compile(
    r"^\s*(?:Architectures in the fat file: \S*python\S* are:|Non-fat file: \S*python\S* is architecture:)"
    r"\s*(?P<archs>\w(?:[\w ]*\w)?)\s*$"
)
# The kernel's version string alone (Lightning's report, platform.version(), a crash report): the
# release tag says the hardware, whatever process printed it.
KERNEL = re.compile(r"Darwin Kernel Version \d[^;]{0,120};\s*root:xnu-[\w.~-]{1,60}/RELEASE_(?P<kernel>ARM64|X86_64)")
LINUX = re.compile(r"^\s*Linux\s+\S+\s+\d+\.\d+\S*\s.*\b(?P<machine>x86_64|aarch64)\b")
COMMAND = re.compile(r"(?:^|[\s$%#>])(?:uname -m|uname -p|arch)\s*$")
ARCH_WORD = re.compile(r"^\s*(arm64|x86_64|i386|arm)\s*$")


def _archs(match: re.Match[str]) -> list[str]:
    groups = match.groupdict()
    if groups.get("one"):
        return [groups["one"]]
    text = groups.get("many") or groups.get("archs") or ""
    return sorted(set(re.findall(r"\b(x86_64|arm64e?)\b", text)))


def parse(lines: list[str]) -> list[Observation]:
    out: list[Observation] = []
    for number, line in enumerate(lines, start=1):
        if match := MACHO.search(line) or LIPO.match(line):
            archs = _archs(match)
            if archs:
                out.append(observe(KIND, lines, number, "interpreter.binary_archs", archs))
            if match.groupdict().get("path"):  # file(1) names the binary itself, not a symlink
                real = line[match.start("path") : line.index(":", match.start("path"))]
                out.append(observe(KIND, lines, number, "interpreter.real_executable", real))
        if match := DARWIN.search(line):
            out += [
                observe(KIND, lines, number, "host.system", "Darwin"),
                observe(KIND, lines, number, "host.release", match["release"]),
                observe(KIND, lines, number, "host.arm64_hardware", match["kernel"] == "ARM64"),
                observe(KIND, lines, number, "paste.shell_machine", match["machine"]),
            ]
        elif match := SHORT.match(line):  # uname -mprs / -srm
            out += [
                observe(KIND, lines, number, "host.system", "Darwin"),
                observe(KIND, lines, number, "host.release", match["release"]),
                observe(KIND, lines, number, "paste.shell_machine", match["machine"]),
            ]
        elif match := KERNEL.search(line):
            out += [
                observe(KIND, lines, number, "host.system", "Darwin"),
                observe(KIND, lines, number, "host.arm64_hardware", match["kernel"] == "ARM64"),
            ]
        elif match := LINUX.search(line):
            out.append(observe(KIND, lines, number, "host.system", "Linux"))
        elif (match := ARCH_WORD.match(line)) and number > 1 and COMMAND.search(lines[number - 2]):
            word = match.group(1)
            fact = "paste.shell_processor" if lines[number - 2].rstrip().endswith("-p") else "paste.shell_machine"
            out.append(observe(KIND, lines, number, fact, word, number - 1))
    return out
