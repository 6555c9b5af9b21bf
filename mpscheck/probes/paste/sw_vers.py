"""`sw_vers`: ProductName / ProductVersion / BuildVersion, the real macOS version (never 10.16); and the same
version as a macOS crash report's header states it ("OS Version:            macOS 11.3.1 (20E241)"), the report
that users paste when an app that runs torch quits (ultimatevocalremovergui#1156)."""

from __future__ import annotations

import re

from mpscheck.probes.paste.model import Observation, Seen, each_line

KIND = "sw_vers"
LINE = re.compile(r"^\s*(?P<key>ProductName|ProductVersion|BuildVersion):\s*(?P<value>\S(?:.*\S)?)\s*$")
# A crash report's header line: the system's name, its version and its build in brackets (the build is what tells
# the line from prose that merely names a macOS).
CRASH_OS = re.compile(
    r"^\s*OS Version:\s+(?:macOS|Mac OS X)\s+(?P<version>\d{2}(?:\.\d{1,2}){0,2})"
    r"\s+\((?P<build>\d{2}[A-Z]\d{1,5}[a-z]?)\)\s*$"
)


def parse(lines: list[str]) -> list[Observation]:
    return each_line(KIND, lines, _line)


def _line(seen: Seen, line: str) -> list[Observation]:
    found: list[Observation] = []
    if crash := CRASH_OS.match(line):
        found.append(seen("host.system", "Darwin"))
        found.append(seen("host.macos_version", crash["version"]))
        found.append(seen("host.macos_build", crash["build"]))
        return found
    match = LINE.match(line)
    if not match:
        return found
    key, value = match["key"], match["value"]
    if key == "ProductName" and ("mac" in value.lower()):
        found.append(seen("host.system", "Darwin"))
    elif key == "ProductVersion" and re.fullmatch(r"\A(?:\d+(?:\.\d+)*)", value):
        found.append(seen("host.system", "Darwin"))
        found.append(seen("host.macos_version", value))
    elif key == "BuildVersion" and re.fullmatch(r"\A(?:\w+)", value):
        found.append(seen("host.macos_build", value))
    return found
