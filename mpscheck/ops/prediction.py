"""From a recording to what each op will do on MPS, for one torch release and one macOS.

Pure: the coverage table is passed in (``mpscheck.knowledge.ops`` or a test fixture with the same
five functions), so every rule can be tested with a small table. Statuses: ``mps`` (an MPS kernel),
``composite`` (decomposes into other ops, no kernel of its own needed), ``fallback`` (no MPS kernel:
raises NotImplementedError, or runs on the CPU with PYTORCH_ENABLE_MPS_FALLBACK=1), ``cpu-always``
(torch routes it to the CPU on MPS in every case), ``dtype-unsupported`` (a kernel, but not for this
dtype), ``macos-gated`` (works only from a newer macOS) and ``unknown`` (not in the table: no
conclusion is drawn, and it is not counted as running on MPS).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from mpscheck.knowledge.op_limits import OpLimit, limits_for
from mpscheck.knowledge.versions import Version, at_least, parse_version, show
from mpscheck.ops.backend_kernels import DECOMPOSED_FROM, NOT_ON_MPS, mps_side
from mpscheck.ops.recording import OpUse, Recording
from mpscheck.ops.release_choice import ReleaseError, choose_macos, choose_release, pad3, python_path_notes

__all__ = ["ReleaseError", "choose_macos", "choose_release", "lookup", "predict"]

STATUSES = ("mps", "composite", "fallback", "cpu-always", "dtype-unsupported", "macos-gated", "unknown")
# Worst first: the order problems are listed in, and which status wins when rows merge.
SEVERITY = ("dtype-unsupported", "fallback", "cpu-always", "macos-gated", "unknown", "composite", "mps")
PROBLEMS = frozenset({"dtype-unsupported", "fallback", "cpu-always", "macos-gated", "unknown"})
FALLBACK_ENV = "PYTORCH_ENABLE_MPS_FALLBACK=1"
CUDA_RULE = (
    "the script ran on CUDA: each call is judged by the device of its inputs; calls on CPU tensors, "
    "and the DataLoader's work (sampler, seeding, collate, workers), stay on the CPU on a Mac too"
)
CPU_RULE = (
    "a CPU-only run: every op the script computes is judged as if its tensors were on MPS, except the "
    "DataLoader's work (sampler, shuffling and seeding, collate, workers, anything under torch/utils/data) "
    "and ops only on results of .cpu(), which stay on the CPU on a Mac too"
)
SIDE_WHY = {
    "data-loading": "DataLoader work (torch/utils/data): runs on the CPU on a Mac too",
    "cpu-result": "only on results of .cpu(): runs on the CPU on a Mac too",
    None: "ran on CPU tensors while the script computes on CUDA: the script keeps it on the CPU",
}


class CoverageTable(Protocol):
    """The op coverage table's API (``mpscheck/knowledge/ops.py``)."""

    def op_kind(self, name: str, release: str) -> str | None: ...
    def first_mps_release(self, name: str) -> str | None: ...
    def warning_name(self, name: str) -> str: ...
    def cpu_always(self, release: str) -> frozenset[str]: ...
    def known_releases(self) -> list[str]: ...
    def python_mps(self, release: str) -> frozenset[str]: ...


@dataclass
class OpPrediction:
    name: str  # as torch's fallback warning prints it
    calls: int
    dtypes: tuple[str, ...]
    status: str
    reason: str
    fix: str | None = None
    first_release: str | None = None
    recorded_as: tuple[str, ...] = ()
    mapped_from: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    first_site: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "calls": self.calls,
            "dtypes": list(self.dtypes),
            "status": self.status,
            "first_release": self.first_release,
            "reason": self.reason,
            "fix": self.fix,
            "recorded_as": list(self.recorded_as),
            "mapped_from": list(self.mapped_from),
            "sources": list(self.sources),
            "first_site": self.first_site,
        }


@dataclass
class Prediction:
    release: str
    macos: Version
    macos_why: str
    ops: list[OpPrediction] = field(default_factory=list)
    cpu_side: list[OpUse] = field(default_factory=list)  # ops that stay on the CPU on a Mac too: not judged
    cpu_side_rule: str = ""  # how the recording's ops were split into judged and CPU-side
    path_notes: list[str] = field(default_factory=list)  # Python-level paths that may differ from the recording
    silent_bugs: list[dict[str, Any]] = field(default_factory=list)  # known wrong-result bugs the ops meet
    dropped: list[str] = field(default_factory=list)  # CUDA bookkeeping with no MPS counterpart

    @property
    def problems(self) -> list[OpPrediction]:
        return [op for op in self.ops if op.status in PROBLEMS]

    @property
    def ready(self) -> bool:
        """Every op would run on MPS; needs at least one op seen (nothing recorded proves nothing)."""
        return bool(self.ops) and not self.problems

    def counts(self) -> dict[str, int]:
        out = dict.fromkeys(STATUSES, 0)
        for op in self.ops:
            out[op.status] += 1
        return out


def predict(
    recording: Recording,
    table: CoverageTable,
    release: str,
    macos: Version,
    macos_why: str = "--macos",
) -> Prediction:
    """Judge every recorded op for *release* on *macos*, merged under the name torch's warning prints."""
    prediction = Prediction(release, macos, macos_why)
    on_cuda = recording.accelerator_seen
    prediction.cpu_side_rule = CUDA_RULE if on_cuda else CPU_RULE
    prediction.path_notes = python_path_notes(table, recording.torch_version, release)
    merged: dict[str, OpPrediction] = {}
    for use in recording.ops:
        if use.side is not None or (on_cuda and not use.accelerated):
            prediction.cpu_side.append(use)
            continue
        if use.name in NOT_ON_MPS:
            prediction.dropped.append(use.name)
            continue
        judged = judge(use, table, release, macos)
        judged.first_site = use.first_site
        _note_silent_bugs(prediction, use, release, macos)
        seen = merged.get(judged.name)
        merged[judged.name] = judged if seen is None else _merge(seen, judged)
    prediction.ops = sorted(merged.values(), key=_order)
    return prediction


def _note_silent_bugs(prediction: Prediction, use: OpUse, release: str, macos: Version) -> None:
    from mpscheck.knowledge.silent_bugs import hits

    for bug in hits(use.name, use.dtypes, release, macos):
        seen = next((row for row in prediction.silent_bugs if row["id"] == bug.id), None)
        if seen is not None:
            seen["ops"] = sorted(set(seen["ops"]) | {use.name})
            continue
        prediction.silent_bugs.append(
            {
                "id": bug.id,
                "ops": [use.name],
                "what": bug.what,
                "when": bug.condition,
                "issue": bug.issue,
                "fixed_in": bug.fixed_in,
                "fixed_by": bug.fixed_by,
                "fix": f"upgrade to torch>={bug.fixed_in}" if bug.fixed_in else "none yet: " + bug.fixed_why,
            }
        )


def _order(op: OpPrediction) -> tuple[int, int, str]:
    return (SEVERITY.index(op.status), -op.calls, op.name)


def _merge(a: OpPrediction, b: OpPrediction) -> OpPrediction:
    worst, other = (a, b) if SEVERITY.index(a.status) <= SEVERITY.index(b.status) else (b, a)
    worst.calls = a.calls + b.calls
    worst.dtypes = tuple(sorted(set(a.dtypes) | set(b.dtypes)))
    worst.recorded_as = tuple(dict.fromkeys(worst.recorded_as + other.recorded_as))
    worst.mapped_from = tuple(dict.fromkeys(worst.mapped_from + other.mapped_from))
    worst.sources = tuple(dict.fromkeys(worst.sources + other.sources))
    worst.first_site = a.first_site or b.first_site
    return worst


def judge(use: OpUse, table: CoverageTable, release: str, macos: Version) -> OpPrediction:
    """One recorded op: the op MPS will see, then kernel, CPU-always list, dtype and macOS limits."""
    mapped_from: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    target = use.name
    mapping = mps_side(use.name, use.devices)
    if mapping is not None:
        mapped_from, sources = (use.name,), (mapping.source,)
        if mapping.mps_op is None:
            return OpPrediction(use.name, use.calls, use.dtypes, "composite", mapping.why, None, None, (use.name,),
                                mapped_from, sources)  # fmt: skip
        target = mapping.mps_op
    base = OpPrediction(target, use.calls, use.dtypes, "unknown", "", None, None, (use.name,), mapped_from, sources)
    if not target.startswith("aten::"):
        if use.factory:
            base.status, base.reason = "composite", "takes no tensor: runs no device kernel"
        else:
            base.reason = "not an aten op: the coverage table (aten only) cannot say; try it on a Mac"
        return base
    kind = table.op_kind(target, release)
    base.name = table.warning_name(target) if kind is not None else target
    base.first_release = table.first_mps_release(target)
    if kind is None:
        base.reason = "not in torch's native_functions.yaml (the coverage table) for any release it knows"
        return base
    if kind == "absent":
        base.reason = f"does not exist in torch {release}: the script would reach other ops there"
        return base
    always = set(table.cpu_always(release))
    if {target, base.name} & always:
        base.status = "cpu-always"
        base.reason = f"torch {release} always runs it on the CPU on MPS (MPSFallback.mm), warning once"
        base.fix = "nothing to set: it works, at the cost of copies to and from the CPU"
        return base
    composite = DECOMPOSED_FROM.get(target) or DECOMPOSED_FROM.get(base.name)
    if composite in always:
        recorded = base.name
        base.name = composite  # the op torch's warning names: the whole composite falls back
        base.mapped_from = (use.name,)
        base.status = "cpu-always"
        base.reason = (
            f"reached through {composite}, which torch {release} runs whole on the CPU on MPS (MPSFallback.mm)"
        )
        if kind != "mps":
            base.reason += f"; a call that reaches {recorded} directly (e.g. torch.linalg.svdvals) has {kind}"
        base.fix = "nothing to set: it works, at the cost of copies to and from the CPU"
        return base
    if not use.sparse and {target, base.name} & set(table.python_mps(release)):
        # torch/backends/mps/__init__.py registers these for the MPS key from Python (a decomposition).
        base.status, base.reason = "mps", f"registered for MPS from Python in torch {release}"
        _apply_limits(base, target, use.dtypes, release, macos)
        return base
    _set_kernel_status(base, kind, use.sparse, release)
    if base.status == "fallback":
        base.fix = _kernel_fix(first_working_release(table, target, use.sparse, release), release)
        _note_foreach_path(base, use, release)
    if base.status in ("mps", "composite"):
        _apply_limits(base, target, use.dtypes, release, macos)
    return base


def first_working_release(table: CoverageTable, target: str, sparse: bool, after: str) -> str | None:
    """The first release after *after* in which the op runs on MPS: a kernel (SparseMPS for a sparse
    call), a composite path, or a Python registration, and not on the always-CPU list."""
    wanted = pad3(parse_version(after) or ())
    for release in table.known_releases():
        if pad3(parse_version(release) or ()) <= wanted:
            continue
        kind = table.op_kind(target, release)
        names = {target, table.warning_name(target)}
        if kind is None or kind == "absent" or names & set(table.cpu_always(release)):
            continue
        works = kind in ("composite-implicit", "composite-explicit") or (kind == ("sparse-mps" if sparse else "mps"))
        if works or (not sparse and names & set(table.python_mps(release))):
            return release
    return None


def _note_foreach_path(op: OpPrediction, use: OpUse, release: str) -> None:
    """A foreach op recorded on the CPU: clip_grad_norm_ & co. take it by default there, not on MPS."""
    from mpscheck.knowledge.optim_paths import facts

    found = facts(release)
    if not use.name.startswith("aten::_foreach_") or found is None or found.helpers is None:
        return
    if "mps" in found.helpers or not set(use.devices) <= found.helpers:
        return
    op.reason += (
        f"; on MPS, torch {release}'s clip_grad_norm_/clip_grad_value_ with foreach unset take the per-tensor path "
        f"instead (its foreach devices: {', '.join(sorted(found.helpers))}), so only foreach=True reaches it"
    )
    op.sources = (*op.sources, found.source("helpers"))


def _set_kernel_status(op: OpPrediction, kind: str, sparse: bool, release: str) -> None:
    if kind in ("composite-implicit", "composite-explicit"):
        op.status = "composite"
        op.reason = f"{kind}: decomposes into other ops on MPS"
    elif kind == "mps" and not sparse:
        op.status, op.reason = "mps", f"MPS kernel in torch {release}"
    elif kind == "sparse-mps" and sparse:
        op.status, op.reason = "mps", f"SparseMPS kernel in torch {release}"
    elif kind == "mps" and sparse:
        op.reason = "called with a sparse tensor; the table records a dense MPS kernel and cannot say for SparseMPS"
    else:
        what = "only a SparseMPS kernel, and this call is dense" if kind == "sparse-mps" else "no MPS kernel"
        op.status = "fallback"
        op.reason = f"{what} in torch {release}"


def _kernel_fix(first: str | None, release: str) -> str:
    """The fix for an op without an MPS path in *release*: the first later release with one, from the table."""
    if first is not None:
        return (
            f"upgrade: pip install 'torch>={first}' (runs on MPS from {first}); "
            f"or set {FALLBACK_ENV} to run it on the CPU"
        )
    return f"set {FALLBACK_ENV} to run it on the CPU (none yet: no later release in the table runs it on MPS)"


def _apply_limits(op: OpPrediction, target: str, dtypes: tuple[str, ...], release: str, macos: Version) -> None:
    found = limits_for(target, dtypes, parse_version(release) or (0,))
    blocking: list[tuple[str, OpLimit]] = []
    for limit in found:
        if limit.macos_below is None:
            blocking.append(("dtype-unsupported", limit))
        elif not at_least(macos, limit.macos_below):
            blocking.append(("macos-gated", limit))
    if not blocking:
        return
    blocking.sort(key=lambda pair: SEVERITY.index(pair[0]))
    status, limit = blocking[0]
    op.status = status
    op.reason = limit.what + (f" (your macOS: {show(macos)})" if status == "macos-gated" else "")
    op.fix = limit.fix
    op.sources = op.sources + tuple(item.source for _, item in blocking)


def lookup(name: str, table: CoverageTable) -> list[str]:
    """``mpscheck ops --op``: one line per release where the answer changes, newest knowledge first."""
    target = name if "::" in name else f"aten::{name}"
    mapping = mps_side(target)
    lines = []
    if mapping is not None and mapping.mps_op is not None:
        lines.append(f"{target}: a CPU/CUDA-only kernel; on MPS the op is {mapping.mps_op} ({mapping.why})")
        target = mapping.mps_op
    releases = table.known_releases()
    kinds = [(release, table.op_kind(target, release)) for release in releases]
    if all(kind is None for _, kind in kinds):
        raise ReleaseError(f"{name}: not in the op coverage table (torch {releases[0]} to {releases[-1]})")
    first = table.first_mps_release(target)
    warned = table.warning_name(target)
    newest = kinds[-1][1] or ""
    if first:
        headline = f"{target}: MPS kernel since {_short(first)}"
    elif newest.startswith("composite"):
        headline = f"{target}: no kernel of its own in {releases[-1]}: it decomposes into other ops ({newest})"
    else:
        headline = f"{target}: no MPS kernel in any release up to {releases[-1]}"
    if warned != target:
        headline += f" (torch's fallback warning names it {warned})"
    lines.append(headline)
    previous = None
    for release, kind in kinds:
        always = kind is not None and {target, warned} & set(table.cpu_always(release))
        from_python = kind is not None and {target, warned} & set(table.python_mps(release))
        shown = "cpu-always" if always else "mps (registered from Python)" if from_python else kind
        if shown != previous:
            lines.append(f"  {release}: {shown}")
            previous = shown
    return lines


def _short(release: str) -> str:
    parts = release.split(".")
    return ".".join(parts[:2]) if len(parts) == 3 and parts[2] == "0" else release


def default_table() -> CoverageTable:
    """The generated op coverage table (mpscheck/knowledge/op_coverage.json through its loader)."""
    import importlib

    # A module whose five functions are the protocol (mpscheck/knowledge/ops.py, from feat/knowledge).
    table: CoverageTable = importlib.import_module("mpscheck.knowledge.ops")
    return table
