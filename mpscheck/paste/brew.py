"""`brew config`: ``macOS: 11.5.2-x86_64`` (the version and the architecture brew ran as), ``Rosetta 2:
true`` (printed on Apple silicon only, true when brew ran translated: Homebrew/brew#9117), ``CPU: ...
arm_firestorm_icestorm`` and ``HOMEBREW_PREFIX`` (/usr/local is the Intel Homebrew, /opt/homebrew the
arm64 one). Recorded example: Homebrew/homebrew-core#83244.
"""

from __future__ import annotations

import re

from mpscheck.paste.model import Observation, observe

KIND = "brew"
MACOS = re.compile(r"^\s*macOS:\s*(?P<version>\d+(?:\.\d+)*)-(?P<arch>arm64|x86_64)\s*$")
ROSETTA = re.compile(r"^\s*Rosetta 2:\s*(?P<value>true|false)\s*$")
CPU_ARM = re.compile(r"^\s*CPU:\s*.*\barm_\w+")
PREFIX = re.compile(r"^\s*HOMEBREW_PREFIX:\s*(?P<prefix>/usr/local|/opt/homebrew)\s*$")


def parse(lines: list[str]) -> list[Observation]:
    out: list[Observation] = []
    for number, line in enumerate(lines, start=1):
        if match := MACOS.match(line):
            out += [
                observe(KIND, lines, number, "host.system", "Darwin"),
                observe(KIND, lines, number, "host.macos_version", match["version"]),
                observe(KIND, lines, number, "paste.shell_machine", match["arch"]),
            ]
        elif match := ROSETTA.match(line):
            out += [
                observe(KIND, lines, number, "host.arm64_hardware", True),
                observe(KIND, lines, number, "paste.shell_translated", int(match["value"] == "true")),
            ]
        elif CPU_ARM.match(line):
            out.append(observe(KIND, lines, number, "host.arm64_hardware", True))
        elif match := PREFIX.match(line):
            out.append(observe(KIND, lines, number, "paste.brew_prefix", match["prefix"]))
    return out
