"""A macOS crash report's header (the text of Problem Report / Console's .ips "Translated Report"):
`Code Type: X86-64 (Translated)` is the crashed process running as x86_64 under Rosetta, which only an
Apple-silicon Mac does; `ARM-64 (Native)` an arm64 process; `X86-64 (Native)` an Intel Mac. `OS Version:
macOS 13.1 (22C65)` is the real macOS version and build, `Hardware Model:` the Mac's model identifier.

The architecture is the interpreter's only when the crashed process is Python (its `Process:` or `Path:`
line says so); for any other process the report still tells the Mac (Apple silicon or Intel) and its macOS.
"""

from __future__ import annotations

import re

from mpscheck.probes.paste.model import Observation, observe

KIND = "crash_report"
CODE_TYPE = re.compile(r"^\s*Code Type:\s+(?P<arch>X86-64|ARM-64)\s+\((?P<how>Native|Translated)\)\s*$", re.IGNORECASE)
PROCESS = re.compile(r"^\s*(?:Process|Path|Identifier):\s+(?P<value>\S.*)$")
OS_VERSION = re.compile(
    r"^\s*OS Version:\s+(?:macOS|Mac OS X|OS X)\s+(?P<version>\d+(?:\.\d+){0,2})(?:\s+\((?P<build>\w+)\))?\s*$"
)
HARDWARE = re.compile(r"^\s*Hardware Model:\s+(?P<model>[A-Za-z]+\d+,\d+)\s*$")
PYTHON = re.compile(r"python", re.IGNORECASE)


def parse(lines: list[str]) -> list[Observation]:
    out: list[Observation] = []
    python = any(PYTHON.search(m["value"]) for line in lines if (m := PROCESS.match(line)))
    for number, line in enumerate(lines, start=1):
        out += _line(lines, number, line, python)
    return out


def _line(lines: list[str], number: int, line: str, python: bool) -> list[Observation]:
    def seen(fact: str, value: object) -> Observation:
        return observe(KIND, lines, number, fact, value)

    if match := CODE_TYPE.match(line):
        arm, translated = match["arch"].upper() == "ARM-64", match["how"].lower() == "translated"
        found = [seen("host.system", "Darwin"), seen("host.arm64_hardware", arm or translated)]
        if python:
            found += [seen("interpreter.machine", "arm64" if arm else "x86_64")]
            found += [seen("interpreter.proc_translated", int(translated))]
        return found
    if match := OS_VERSION.match(line):
        found = [seen("host.system", "Darwin"), seen("host.macos_version", match["version"])]
        return found + ([seen("host.macos_build", match["build"])] if match["build"] else [])
    if match := HARDWARE.match(line):
        return [seen("host.model", match["model"])]
    return []
