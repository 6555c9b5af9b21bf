"""What every rule of the judgement reads: the paste, its facts and error hits, the op table, and the
builders of causes that several rules share (a cause of the table of causes, a row's cause, the
virtual-machine, old-macOS and hidden-GPU causes).
"""

from __future__ import annotations

import shlex
from dataclasses import replace

from mpscheck.checks.causes.model import Cause, Evidence, evidence_of
from mpscheck.checks.causes.ops import OpCoverage
from mpscheck.checks.installing import conda_arm64_create
from mpscheck.checks.machine import wheel_arch
from mpscheck.knowledge import errors as table
from mpscheck.knowledge.causes import CAUSES
from mpscheck.knowledge.error_rows import INT64_KERNELS_MACOS
from mpscheck.knowledge.versions import (
    PRE_TABLE_FLOOR,
    last_intel_mac_torch,
    macos_floor,
    parse_version,
    surely_below,
    torch_pin_for_macos,
)
from mpscheck.model import Finding, Remediation
from mpscheck.probes.paste.model import Paste

HIGH = "PYTORCH_MPS_HIGH_WATERMARK_RATIO"


class Reader:
    """The paste as the rules read it; subclasses add the rules."""

    def __init__(
        self, paste: Paste, hits: list[table.Hit], ops: OpCoverage | None, findings: list[Finding] | None = None
    ) -> None:
        self.paste, self.hits, self.ops, self.findings = paste, hits, ops, findings or []
        self.facts = paste.facts
        info = self.facts.target.interpreter
        self.python = shlex.quote(info.executable) if info and info.executable else "python3"

    # evidence helpers

    def ev(self, *facts: str) -> tuple[Evidence, ...]:
        found = [o for name in facts for o in self.paste.all(name)]
        return evidence_of(found)

    def value(self, fact: str) -> object:
        return self.paste.value(fact)

    def fill(self, row: table.Row, groups: dict[str, str]) -> tuple[str, Remediation]:
        # a row judged without a match of its own (a message's class fix) still names the macOS it rests on
        values = {"python": self.python, "macos_or": INT64_KERNELS_MACOS, **groups}
        commands = tuple(table.fill(c, values) for c in row.commands)
        return table.fill(row.summary, values), Remediation(table.fill(row.fix, values), commands)

    def known(self) -> dict[str, str | None]:
        """The values every template of the table of causes may name."""
        return {
            "python": self.python,
            "last_intel": last_intel_mac_torch(),
            "macos": self.facts.host.macos_version,
            "conda_arm64": conda_arm64_create(),
        }

    def general(self, cause_id: str, evidence: tuple[Evidence, ...], **values: str | None) -> Cause:
        """A cause of the table of causes read from facts, its templates filled with what the paste shows."""
        entry = CAUSES[cause_id]
        known = {**self.known(), **values}
        remedy = (
            Remediation(table.fill(entry.fix, known), tuple(table.fill(c, known) for c in entry.commands))
            if entry.fix
            else None
        )
        return Cause(cause_id, table.fill(entry.summary, known), remedy, evidence, entry.source)

    def from_row(self, row_id: str, evidence: tuple[Evidence, ...], groups: dict[str, str] | None = None) -> Cause:
        row = table.BY_ID[row_id]
        summary, remedy = self.fill(row, groups or {})
        return Cause(row.cause, summary, remedy, evidence, row.source)

    # ---- error causes ----

    def virtual_machine(self, evidence: tuple[Evidence, ...], detail: str = "") -> Cause:
        cause = self.general("virtual-machine", evidence)
        return replace(cause, summary=cause.summary + detail)

    def macos_too_old(self, floor_text: str | None) -> Cause | None:
        """macOS below what this torch needs: from the torch version when shown, else the error's own floor."""
        macos = parse_version(self.facts.host.macos_version)
        torch = self.facts.target.torch
        version = parse_version(torch.version) if torch else None
        if macos is None:
            return None
        if version:
            floor = macos_floor(version)
        elif floor_text:
            # 2.2-2.5 print "12.3+", but 2.5's real floor is 13.0 (pytorch/pytorch#139425): below 13 is too old.
            floor = (13, 0) if floor_text == "12.3" else parse_version(floor_text) or PRE_TABLE_FLOOR
        else:
            floor = PRE_TABLE_FLOOR  # the oldest floor of any torch with MPS (knowledge/versions.py cites it)
        if not surely_below(macos, floor):
            return None  # at or above the floor, or a major alone ("Monterey") that may be either
        info = self.facts.target.interpreter
        python = info.version if info and info.version else None
        pin = torch_pin_for_macos(macos, python, wheel_arch(info))  # as the doctor's macos-version check does
        commands = ["softwareupdate --list"] + ([f"{self.python} -m pip install '{pin}'"] if pin else [])
        also = f", or install the newest torch whose MPS runs on it ({pin})" if pin else ""
        return Cause(
            "macos-too-old",
            f"macOS {self.facts.host.macos_version} is older than macOS {'.'.join(map(str, floor))}, which "
            f"{'torch ' + torch.version if torch and torch.version else 'this torch'} needs for MPS",
            Remediation(f"Upgrade macOS{also}; or run on the CPU.", tuple(commands)),
            self.ev("host.macos_version", "torch.version"),
            "https://github.com/pytorch/pytorch/issues/139425; mpscheck/knowledge/versions.py (MAC_FLOOR_BY_TORCH)",
        )

    def hidden_gpu(self, evidence: tuple[Evidence, ...]) -> Cause:
        """No Metal device although the paste shows a macOS new enough: something hides the GPU."""
        return self.general("no-metal-device", evidence)

    def torch_too_old(self, evidence: tuple[Evidence, ...]) -> Cause:
        return self.from_row("old-torch-device-string", evidence)
