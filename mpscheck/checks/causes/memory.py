"""An out-of-memory message judged by its numbers (MPS allocated, other allocations, max allowed,
requested; the Mac's memory when the paste shows it): a VM's cap, a model too large, memory taken by
others, a watermark setting; and an invalid watermark ratio.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mpscheck.checks.causes.base import HIGH, Reader
from mpscheck.checks.causes.model import Cause, Evidence
from mpscheck.checks.machine import virtual_machine
from mpscheck.checks.memory import held_little, read_oom
from mpscheck.knowledge import errors as table
from mpscheck.model import Remediation

# An out-of-memory told in words of a CI job or a VM (no numbers to weigh): the hosted runner, with the command that
# tells it from a physical Mac's real out-of-memory.
CI_OOM = (
    ": the paste says a CI job (or a VM) ran out of MPS memory, with no numbers shown; a hosted macOS runner's "
    "paravirtual GPU refuses even small requests (on a physical Mac this is a real out-of-memory instead: "
    "`sysctl -n kern.hv_vmm_present` prints 1 in a VM)"
)


class MemoryRules(Reader):
    def out_of_memory(self, hit: table.Hit, evidence: tuple[Evidence, ...]) -> Cause:
        reading = read_oom(hit.groups, self.facts)  # checks/memory.py: the one reading, the smoke test's too
        if reading.variant == "vm-cap":
            vm = self.virtual_machine(evidence, f": {reading.kind}")
            return replace(vm, variant="vm-cap")
        if held_little(hit.groups) and (virtual_machine(self.facts) or self.value("paste.ci_said")):
            # a macOS VM (a hosted CI runner) said, and torch held little of the cap: the paravirtual GPU refused it
            vm = self.virtual_machine(
                evidence + self.ev("host.hypervisor", "paste.ci_said"),
                f": the run was in CI or a VM and torch held little of the cap ({reading.numbers}); a hosted "
                "macOS runner's paravirtual GPU refuses such requests (on a physical Mac this would be a too "
                "large request instead: `sysctl -n kern.hv_vmm_present` prints 1 in a VM)",
            )
            return replace(vm, variant="vm-cap")
        if reading.variant == "watermark-not-applied":
            evidence = evidence + self.ev(f"interpreter.env.{HIGH}")
        return Cause(
            "out-of-memory",
            f"MPS ran out of memory: {reading.kind} ({reading.numbers})",
            reading.remedy,
            evidence + self.ev("host.memory_bytes"),
            hit.row.source,
            variant=reading.variant,
        )

    def unnumbered_in_vm(self, evidence: tuple[Evidence, ...]) -> Cause | None:
        """torch's out-of-memory without its numbers (cut, or retold) in a paste that shows a VM or a CI job: as
        when it is said in words (oom_said), the hosted runner, with the command that tells it from a real Mac's."""
        if not (virtual_machine(self.facts) or self.value("paste.ci_said")):
            return None
        return self.virtual_machine(evidence + self.ev("host.hypervisor", "paste.ci_said"), CI_OOM)

    def low_watermark(self, hit: table.Hit, evidence: tuple[Evidence, ...]) -> Cause:
        """The low ratio (default 1.4 on unified memory) may not exceed the high one: the high one was lowered."""
        info = self.facts.target.interpreter
        high = (info.env or {}).get(HIGH) if info else None
        low = hit.groups.get("value", "").rstrip(".") or "1.4"
        where = (
            f"{HIGH}={high} is set, and the low watermark ratio ({low}) may not exceed it"
            if high is not None
            else f"the low watermark ratio ({low}, the default on Apple silicon) may not exceed the high one, so "
            f"{HIGH} is set below it somewhere: the shell, a .env file, or the venv's activate script"
        )
        _, remedy = self.fill(hit.row, dict(hit.groups))
        return Cause(
            "watermark-invalid",
            f"torch refuses the first MPS allocation: {where}",
            remedy,
            evidence + self.ev(f"interpreter.env.{HIGH}"),
            hit.row.source,
        )


def default_ratio_rejected(reader: Reader, hit: table.Hit, evidence: tuple[Evidence, ...]) -> Cause | None:
    """'invalid high watermark ratio 1.7' with nothing in the paste setting it: torch refused its own default
    (on Macs with a discrete GPU, fixed by pytorch/pytorch#91268), so upgrading torch is the fix."""
    value = hit.groups.get("value", "").rstrip(".")
    if hit.groups.get("which") != "high" or value not in ("1.7", "1.70") or HIGH in reader.paste.text:
        return None
    _, remedy = reader.fill(table.BY_ID["metal-assertion"], {})
    return Cause(
        "metal-bug-fixed-later",
        f"torch refused its own default high watermark ratio ({value}), which nothing in the paste sets: a torch "
        "bug on Macs with a discrete GPU, fixed by a later torch",
        remedy,
        evidence,
        "https://github.com/pytorch/pytorch/pull/91268",
    )


def oom_said(reader: Reader, said: Any) -> Cause:
    """The paste says mps ran out of memory, and shows no message with its numbers: an out-of-memory, whose
    kind (a model too large, memory held by others, a watermark setting) only those numbers tell."""
    if reader.value("paste.ci_said") or virtual_machine(reader.facts):  # a CI job or a VM said: the hosted runner
        return reader.virtual_machine((Evidence(said.line, said.text), *reader.ev("host.hypervisor")), CI_OOM)
    _, row_fix = reader.fill(table.BY_ID["oom"], {})  # the out-of-memory row's command: who holds the memory
    remedy = Remediation(
        "Use less memory per step: a smaller batch, model or resolution, or float16; then paste torch's whole "
        "'MPS backend out of memory' line, whose numbers tell a model too large from memory other programs hold.",
        row_fix.commands,
    )
    summary = "the paste says MPS ran out of memory (torch's message with its numbers is not shown)"
    evidence = (Evidence(said.line, said.text),)
    source = "aten/src/ATen/mps/MPSAllocator.mm (the MPS backend out of memory message)"
    return Cause("out-of-memory", summary, remedy, evidence, source, variant="told")
