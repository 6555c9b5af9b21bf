"""An out-of-memory message judged by its numbers (MPS allocated, other allocations, max allowed,
requested; the Mac's memory when the paste shows it): a VM's cap, a model too large, memory taken by
others, a watermark setting; and an invalid watermark ratio.
"""

from __future__ import annotations

from dataclasses import replace

from mpscheck.judgement.base import HIGH, Reader
from mpscheck.judgement.model import Cause, Evidence
from mpscheck.judgement.sizes import gib, size_bytes
from mpscheck.knowledge import errors as table
from mpscheck.model import Remediation


class MemoryRules(Reader):
    def out_of_memory(self, hit: table.Hit, evidence: tuple[Evidence, ...]) -> Cause:
        row = hit.row
        allocated, other = size_bytes(hit.groups.get("allocated")), size_bytes(hit.groups.get("other"))
        cap, requested = size_bytes(hit.groups.get("max")), size_bytes(hit.groups.get("requested"))
        memory = self.facts.host.memory_bytes
        numbers = ", ".join(
            f"{label} {hit.groups[key]}"
            for label, key in (
                ("torch holds", "allocated"),
                ("other allocations", "other"),
                ("cap", "max"),
                ("asked for", "requested"),
            )
            if hit.groups.get(key)
        ) + (f"; this Mac has {gib(memory)}" if memory else "")
        fits = None not in (allocated, other, cap, requested) and allocated + other + requested <= cap  # type: ignore[operator]
        if fits and other == 0:
            vm = self.virtual_machine(
                evidence,
                f": torch was refused {hit.groups['requested']} although it fits under the cap, with no other "
                f"allocations ({numbers})",
            )
            return replace(vm, variant="vm-cap")
        lift = "export PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0"
        set_to = (self.facts.target.interpreter.env or {}).get(HIGH) if self.facts.target.interpreter else None
        unified = bool(self.facts.host.cpu_brand and self.facts.host.cpu_brand.startswith("Apple"))
        if cap is not None and set_to is not None and table.strtod_zero(set_to):
            variant = "watermark-not-applied"
            kind = (
                f"a watermark setting that never reached torch: the paste sets {HIGH}={set_to}, yet the message "
                "still shows a cap ('max allowed'), which torch prints only while the limit is on"
            )
            remedy = Remediation(
                f"Set {HIGH} in the environment before Python starts (not as a function argument, not after "
                "`import torch`); lifting the cap may freeze the system.",
                (lift,),
            )
            evidence = evidence + self.ev(f"interpreter.env.{HIGH}")
        elif cap is None and allocated is not None:
            variant = "watermark-off"
            kind = (
                "the upper limit is already off (PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0: no 'max allowed' in the "
                "message), so the machine itself is out of memory"
            )
            remedy = Remediation("Use less memory per step (smaller batch/model, float16).", ())
        elif memory and unified and cap and cap < 0.9 * memory:
            variant = "watermark-lowered"
            kind = (
                f"a watermark setting: the cap ({gib(cap)}) is well under this Mac's memory ({gib(memory)}), "
                "lower than torch's default (1.7 x the GPU's recommended working set)"
            )
            remedy = Remediation(
                "Unset PYTORCH_MPS_HIGH_WATERMARK_RATIO (or raise it) before Python starts.",
                ("unset PYTORCH_MPS_HIGH_WATERMARK_RATIO", lift),
            )
        elif other is not None and allocated is not None and cap and other > max(allocated, cap * 0.25):
            variant = "other-processes"
            kind = (
                f"memory taken by others: other allocations ({hit.groups['other']}) exceed what torch itself holds "
                "(other processes and apps on the shared GPU memory, or other Metal work in this one)"
            )
            remedy = Remediation(
                "Free the other allocations (quit other GPU apps, unload other models); lifting the cap risks "
                "freezing the system.",
                (lift,),
            )
        else:
            variant = "too-large"
            where = f" with {gib(memory)}" if memory else ""
            kind = f"a model or batch too large for this Mac{where}: torch's own tensors fill the cap"
            remedy = Remediation(
                "Use a smaller model, batch or resolution, or float16; lifting the cap with the variable below lets "
                "macOS swap (slow; may freeze the system).",
                (lift,),
            )
        return Cause(
            "out-of-memory",
            f"MPS ran out of memory: {kind} ({numbers})",
            remedy,
            evidence + self.ev("host.memory_bytes"),
            row.source,
            variant=variant,
        )

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
