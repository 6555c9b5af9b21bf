"""A shell prompt names the Mac it runs on: zsh's and bash's default prompts show the host name, which macOS
makes from the computer name ("user@Johns-MacBook-Pro ~ %", "(base) nikotsar@M1-MacBook-Pro stable-diffusion %").
A Mac model in it says macOS; an Apple chip beside the model (M1-MacBook-Pro, Mac-mini-M2) says Apple silicon
hardware, whatever the shell itself runs as. A chip token without a Mac model ("build-m1") is not read.
"""

from __future__ import annotations

import re

from mpscheck.probes.paste.model import Observation, observe

KIND = "shell prompt"
PROMPT = re.compile(
    r"(?:^|[\s(])[\w.-]{1,64}@(?P<host>[A-Za-z0-9-]{1,64})(?:\.local)?(?=[\s:])[^\n]{0,200}?[\s\w~/)\]-][%$#](?:\s|$)"
)
MODEL = re.compile(r"(?i)macbook|mac-?mini|imac|mac-?studio|mac-?pro")
CHIP = re.compile(r"(?i)(?:^|-)m(?P<family>[1-5])(?:-(?P<tier>pro|max|ultra))?(?=$|-)")


def parse(lines: list[str]) -> list[Observation]:
    for number, line in enumerate(lines, start=1):
        match = PROMPT.search(line)
        if match is None or not MODEL.search(match["host"]):
            continue
        found = [observe(KIND, lines, number, "host.system", "Darwin")]
        if chip := CHIP.search(match["host"]):
            brand = f"Apple M{chip['family']}" + (f" {chip['tier'].title()}" if chip["tier"] else "")
            found.append(observe(KIND, lines, number, "host.cpu_brand", brand))
            found.append(observe(KIND, lines, number, "host.arm64_hardware", True))
        return found  # the first prompt names the machine; later ones repeat it
    return []
