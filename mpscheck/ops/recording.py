"""Read the op recordings that the start-up hook wrote, one file per Python process, and merge them.

A recording row says: this aten op (with overload, as ``OpOverload.name()`` prints it) ran this many
times with these dtypes, on these devices, with a sparse or strided dispatch layout, and on which
side: ``data-loading`` (the DataLoader machinery ran it) or ``cpu-result`` (only on results of
``.cpu()``), both of which stay on the CPU on a Mac, or the script's own compute (None). Rows from
every process of the command (a shell wrapper, spawned workers) are merged by op name, layout, side
and device class (calls on an accelerator apart from calls on the CPU). Each process also says how
its recording was paced (hook_pacing.py): when it paused, when it re-armed, and what it counted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

RECORD_FORMAT = 2
SIDES = ("data-loading", "cpu-result")


class RecordingError(ValueError):
    """A recording file is not in the format this mpscheck writes."""


@dataclass
class OpUse:
    """One op as the script used it: name with overload, calls, and the dtypes/devices it saw."""

    name: str
    calls: int
    dtypes: tuple[str, ...]
    devices: tuple[str, ...]
    sparse: bool = False
    factory: bool = False
    first_site: str | None = None  # 'file:line' where the script first reached it, when known
    side: str | None = None  # data-loading / cpu-result: stays on the CPU on a Mac; None: the script's compute

    @property
    def accelerated(self) -> bool:
        """Some call ran on a CUDA (or other non-CPU) device."""
        return any(d not in ("cpu", "default", "meta") for d in self.devices)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "calls": self.calls,
            "dtypes": list(self.dtypes),
            "devices": list(self.devices),
            "layout": "sparse" if self.sparse else "strided",
            "factory": self.factory,
            "first_site": self.first_site,
            "side": self.side,
        }


@dataclass
class Recording:
    """Every op seen, in first-seen order, plus where the recording came from."""

    ops: list[OpUse] = field(default_factory=list)
    processes: int = 0
    torch_version: str | None = None
    cuda_build: bool | None = None
    pacing: list[dict[str, Any]] = field(default_factory=list)  # one per process that said how it was paced

    @property
    def accelerator_seen(self) -> bool:
        """True when some op ran on a CUDA (or other non-CPU) device: the script picks its device."""
        return any(use.accelerated for use in self.ops)

    @property
    def paused(self) -> bool:
        """Some process paused its recording: calls after the pause were not counted."""
        return any(any(e.get("event") == "paused" for e in p.get("events", ())) for p in self.pacing)

    @property
    def compiled_graphs(self) -> int | None:
        """Graphs torch.compile built (their fused kernels ran unrecorded); None when a process could not say."""
        counts = [p.get("compiled_graphs") for p in self.pacing]
        if any(not isinstance(c, int) for c in counts):
            return None
        return sum(c for c in counts if isinstance(c, int))


def parse_record(payload: dict[str, Any]) -> list[OpUse]:
    """The rows of one process's recording file (already decoded from JSON)."""
    if payload.get("format") != RECORD_FORMAT or not isinstance(payload.get("ops"), list):
        raise RecordingError(f"not an mpscheck op recording (format {payload.get('format')!r})")
    uses = []
    for row in payload["ops"]:
        dtypes = set(row.get("dtypes", ())) | set(row.get("out_dtypes", ()))
        uses.append(
            OpUse(
                name=str(row["name"]),
                calls=int(row["calls"]),
                dtypes=tuple(sorted(dtypes)),
                devices=tuple(sorted(set(row.get("devices", ())))),
                sparse=row.get("layout") == "sparse",
                factory=bool(row.get("factory", False)),
                first_site=row.get("first_site"),
                side=row.get("side") if row.get("side") in SIDES else None,
            )
        )
    return uses


def merge(uses: Iterable[OpUse]) -> list[OpUse]:
    """One row per (name, layout, side, device class), calls summed, dtypes and devices united, first-seen
    order kept: an op that ran on CUDA is judged apart from its calls on the CPU."""
    merged: dict[tuple[str, bool, str | None, bool], OpUse] = {}
    for use in uses:
        key = (use.name, use.sparse, use.side, use.accelerated)
        seen = merged.get(key)
        if seen is None:
            merged[key] = OpUse(
                use.name, use.calls, use.dtypes, use.devices, use.sparse, use.factory, use.first_site, use.side
            )
            continue
        seen.calls += use.calls
        seen.dtypes = tuple(sorted(set(seen.dtypes) | set(use.dtypes)))
        seen.devices = tuple(sorted(set(seen.devices) | set(use.devices)))
        seen.factory = seen.factory and use.factory
        seen.first_site = seen.first_site or use.first_site
    return list(merged.values())


def load_recordings(folder: str | Path, prefix: str = "ops") -> Recording:
    """Merge every ``<prefix>.<pid>.json`` in *folder*; a half-written ``.part`` file is ignored."""
    recording = Recording()
    uses: list[OpUse] = []
    for path in sorted(Path(folder).glob(f"{prefix}.*.json")):
        try:
            payload = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise RecordingError(f"{path.name}: {exc}") from exc
        uses.extend(parse_record(payload))
        recording.processes += 1
        recording.torch_version = recording.torch_version or payload.get("torch")
        if isinstance(payload.get("pacing"), dict):
            recording.pacing.append(payload["pacing"])
        if payload.get("cuda") is not None:
            recording.cuda_build = bool(payload["cuda"]) or bool(recording.cuda_build)
    recording.ops = merge(uses)
    return recording
