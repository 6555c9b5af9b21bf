"""torch.compile (Inductor) failing on mps in a torch that has no Metal code generator at all.

Before MPSInductor (a prototype in torch 2.7, beta in 2.8) Inductor has no backend for the mps device, and how it
fails depends on the release: torch 2.3-2.5 assert "Device mps not supported" (the compile-on-mps row), torch 2.6
fails lowering the first op with "LoweringException: TypeError: 'NoneType' object is not callable" (no code
generator registered for mps: ModelCloud/GPTQModel#1684, "Before that version (here on 2.6.0), you get an error").
So an Inductor failure on mps is "torch.compile needs a newer torch" when the paste shows that signature or a torch
older than 2.7; from 2.7 on it is a bug of the young backend, which the unmatched rule answers (a later torch).
"""

from __future__ import annotations

import re
from typing import Any

from mpscheck.checks.causes.model import Cause, Evidence
from mpscheck.checks.causes.precision import PrecisionRules
from mpscheck.knowledge.versions import at_least, parse_version

# Inductor's own failure lines: dynamo's wrapper, Inductor's exceptions, a lowering that failed.
INDUCTOR_FAILED = re.compile(
    r"BackendCompilerFailed: backend='?inductor'? raised|\btorch\._inductor\.exc\.\w{1,40}\b|\bLoweringException\b"
    r"|\bInductorError\b"
)
# The lowering found no code generator for the device (none registered for mps before MPSInductor).
NO_CODEGEN = re.compile(r"LoweringException: TypeError: 'NoneType' object is not callable")
# The mps device as Inductor's IR, a device string or a command-line flag names it.
MPS_DEVICE = re.compile(r"'mps'|\"mps\"|\bmps:\d\b|--devices? mps\b|\bdevice=['\"]?mps\b|device\(type='mps'")
FIRST_BACKEND = (2, 7)  # MPSInductor's prototype (torch/_inductor/codegen/mps.py)


class CompileRules(PrecisionRules):
    def compile_refused(self, first: Any) -> Cause | None:
        """An Inductor failure on mps where the paste shows Inductor had nothing to compile mps with: the lowering
        found no code generator, or the torch shown predates MPSInductor."""
        text = self.paste.text
        if not INDUCTOR_FAILED.search(str(first.text)) or not (device := MPS_DEVICE.search(text)):
            return None
        lines = text.split("\n")

        def at(start: int) -> Evidence:
            number = text.count("\n", 0, start) + 1
            return Evidence(number, lines[number - 1])

        if no_codegen := NO_CODEGEN.search(text):
            return self.from_row("compile-on-mps", (Evidence(first.line, first.text), at(no_codegen.start())))
        torch = self.facts.target.torch
        version = parse_version(torch.version if torch else None)
        if version is None or at_least(version, FIRST_BACKEND):
            return None
        shown = (Evidence(first.line, first.text), at(device.start()), *self.ev("torch.version"))
        return self.from_row("compile-on-mps", shown)
