"""`sw_vers`: ProductName / ProductVersion / BuildVersion, the real macOS version (never 10.16)."""

from __future__ import annotations

import re

from mpscheck.paste.model import Observation, observe

KIND = "sw_vers"
LINE = re.compile(r"^\s*(?P<key>ProductName|ProductVersion|BuildVersion):\s*(?P<value>\S.*?)\s*$")


def parse(lines: list[str]) -> list[Observation]:
    out: list[Observation] = []
    for number, line in enumerate(lines, start=1):
        match = LINE.match(line)
        if not match:
            continue
        key, value = match["key"], match["value"]
        if key == "ProductName" and ("mac" in value.lower()):
            out.append(observe(KIND, lines, number, "host.system", "Darwin"))
        elif key == "ProductVersion" and re.fullmatch(r"\d+(?:\.\d+)*", value):
            out.append(observe(KIND, lines, number, "host.system", "Darwin"))
            out.append(observe(KIND, lines, number, "host.macos_version", value))
        elif key == "BuildVersion" and re.fullmatch(r"\w+", value):
            out.append(observe(KIND, lines, number, "host.macos_build", value))
    return out
