"""`brew config`: ``macOS: 11.5.2-x86_64`` (the version and the architecture brew ran as), ``Rosetta 2:
true`` (printed on Apple silicon only, true when brew ran translated: Homebrew/brew#9117), ``CPU: ...
arm_firestorm_icestorm`` and ``HOMEBREW_PREFIX`` (/usr/local is the Intel Homebrew, /opt/homebrew the
arm64 one). Recorded example: Homebrew/homebrew-core#83244.
"""

from __future__ import annotations

import re

from mpscheck.probes.paste.model import Observation, Seen, each_line

KIND = "brew"
MACOS = re.compile(r"^\s*macOS:\s*(?P<version>\d+(?:\.\d+)*)-(?P<arch>arm64|x86_64)\s*$")
ROSETTA = re.compile(r"^\s*Rosetta 2:\s*(?P<value>true|false)\s*$")
CPU_ARM = re.compile(r"^\s*CPU:.*\barm_\w+")
PREFIX = re.compile(r"^\s*HOMEBREW_PREFIX:\s*(?P<prefix>/usr/local|/opt/homebrew)\s*$")


def parse(lines: list[str]) -> list[Observation]:
    return each_line(KIND, lines, _line)


def _line(seen: Seen, line: str) -> list[Observation]:
    found: list[Observation] = []
    if match := MACOS.match(line):
        found += [
            seen("host.system", "Darwin"),
            seen("host.macos_version", match["version"]),
            seen("paste.shell_machine", match["arch"]),
        ]
    elif match := ROSETTA.match(line):
        found += [
            seen("host.arm64_hardware", True),
            seen("paste.shell_translated", int(match["value"] == "true")),
        ]
    elif CPU_ARM.match(line):
        found.append(seen("host.arm64_hardware", True))
    elif match := PREFIX.match(line):
        found.append(seen("paste.brew_prefix", match["prefix"]))
    return found
