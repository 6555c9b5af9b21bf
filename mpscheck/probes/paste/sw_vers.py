"""`sw_vers`: ProductName / ProductVersion / BuildVersion, the real macOS version (never 10.16)."""

from __future__ import annotations

import re

from mpscheck.probes.paste.model import Observation, Seen, each_line

KIND = "sw_vers"
LINE = re.compile(r"^\s*(?P<key>ProductName|ProductVersion|BuildVersion):\s*(?P<value>\S(?:.*\S)?)\s*$")


def parse(lines: list[str]) -> list[Observation]:
    return each_line(KIND, lines, _line)


def _line(seen: Seen, line: str) -> list[Observation]:
    found: list[Observation] = []
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
