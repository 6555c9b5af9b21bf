"""From findings to the verdict and exit code that CI relies on: the rule of readiness, written once.

Exit 0 needs positive evidence: every check the requirement rests on *passed* (a warning counts
unless --strict), no other check that speaks for that path failed, and where a workload ran, it
ran on a device the requirement accepts. Skipped, absent, unknown or not-run is never a pass.
- ``mps``: platform, interpreter, torch-import, mps-built, mps-available and, unless the smoke was
  turned off (--no-smoke), the smoke on mps.
- ``gpu``: the same for MPS, or the CUDA path (interpreter, torch-import, cuda, smoke on cuda).
- ``none``: report only; exit 0 unless mpscheck itself crashed.
- smoke-test: every step check and smoke-exit passed (the probe completed: end record, exit 0);
  the device that ran must be mps for ``mps``, a GPU for ``gpu``, any for the default.
Findings never depend on the requirement: one report re-judged with another --require gives the
same findings and another exit code. Renderers only print the Verdict made here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from mpscheck.checks import BENCH, ORDER, SMOKE
from mpscheck.checks.wording import newer_than_table
from mpscheck.facts import Facts
from mpscheck.model import ExitCode, Finding, Requirement, Status, Verdict

# smoke-test rests on every step check and the process's clean end; the fallback step only informs.
SMOKE_STEPS = tuple(check_id for check_id in ORDER[SMOKE] if check_id != "smoke-fallback")
# Checks that speak of MPS alone: they cannot block the CUDA path of --require gpu.
MPS_ONLY = (
    "platform",
    "chip",
    "virtual-machine",
    "python-arch",
    "python-macos-compat",
    "macos-version",
    "mps-built",
    "mps-available",
    "mps-fallback-env",
    "mps-watermark-env",
    "mps-env-vars",
    "frameworks",
    "smoke-fallback",
)


@dataclass(frozen=True)
class Path:
    """One way for a requirement to be met: what must pass, on which device, and what may not block it."""

    name: str
    rests_on: tuple[str, ...]
    devices: tuple[str, ...]  # the workload, where one ran, must have run on one of these
    ignores: tuple[str, ...] = ()


MPS_PATH = Path("MPS", ("platform", "interpreter", "torch-import", "mps-built", "mps-available"), ("mps",), ("cuda",))
CUDA_PATH = Path("CUDA", ("interpreter", "torch-import", "cuda"), ("cuda",), MPS_ONLY)
# mpscheck bench: every figure's numerics checked against the CPU on whichever device was measured.
BENCH_PATH = Path("the benchmark", ORDER[BENCH], ())
PATHS = {Requirement.MPS: (MPS_PATH,), Requirement.GPU: (MPS_PATH, CUDA_PATH)}
SMOKE_PATHS = {
    Requirement.MPS: Path("MPS", SMOKE_STEPS, ("mps",)),
    Requirement.GPU: Path("a GPU (MPS or CUDA)", SMOKE_STEPS, ("mps", "cuda")),
    Requirement.DEVICE: Path("the workload", SMOKE_STEPS, ("mps", "cuda", "cpu")),
}


@dataclass(frozen=True)
class _Judgement:
    path: Path
    failed: tuple[str, ...]  # problems: a fail, or with --strict a warning
    unconfirmed: tuple[str, ...]  # required checks that did not pass (skipped, absent), or the wrong device

    @property
    def ready(self) -> bool:
        return not self.failed and not self.unconfirmed


def _judge(path: Path, findings: Sequence[Finding], facts: Facts, strict: bool, smoke_required: bool) -> _Judgement:
    by_id = {f.id: f for f in findings}
    bad = {Status.FAIL, Status.WARN} if strict else {Status.FAIL}
    failed = tuple(f.id for f in findings if f.status in bad and f.id not in path.ignores)
    rests_on = (*path.rests_on, "smoke") if smoke_required else path.rests_on
    unconfirmed = [i for i in rests_on if i not in by_id or by_id[i].status not in (Status.PASS, Status.WARN)]
    smoke = facts.target.smoke
    ran_on = smoke.device if smoke else None
    if smoke_required and ran_on not in path.devices and "smoke" not in unconfirmed:
        unconfirmed.append("smoke")
    if (
        path is not BENCH_PATH
        and path.rests_on == SMOKE_STEPS
        and ran_on not in path.devices
        and "smoke-device" not in unconfirmed
    ):
        unconfirmed.append("smoke-device")
    # A required check skipped because of a failure already listed is that failure's consequence;
    # off macOS (platform failed) every MPS-only check is skipped for that one reason.
    caused = {i for i in unconfirmed if i in by_id and by_id[i].blocked_by in failed}
    if "platform" in failed:
        caused |= set(MPS_ONLY) & set(unconfirmed)
    return _Judgement(path, failed, tuple(i for i in unconfirmed if i not in failed and i not in caused))


def _headline(judgement: _Judgement, facts: Facts) -> str:
    path = judgement.path
    if judgement.failed:
        return f"Not ready: {path.name} failed: {', '.join(judgement.failed)}"
    smoke = facts.target.smoke
    if smoke and smoke.device and smoke.device not in path.devices:
        return f"Not ready: {path.name} is required and the workload ran on {smoke.device}"
    return f"Not ready: {path.name} not confirmed: {', '.join(judgement.unconfirmed)} did not pass"


def decide(findings: Sequence[Finding], facts: Facts, *, require: Requirement, strict: bool, command: str) -> Verdict:
    crashed = tuple(f.id for f in findings if f.status is Status.CRASH)
    if crashed:
        return Verdict(
            ExitCode.INTERNAL, False, crashed, f"mpscheck itself failed in {', '.join(crashed)}: please report this bug"
        )
    bad = {Status.FAIL, Status.WARN} if strict else {Status.FAIL}
    newer = _table_note(facts)
    if require is Requirement.NONE:
        problems = tuple(f.id for f in findings if f.status in bad)
        found = f"{len(problems)} problem(s): {', '.join(problems)}" if problems else "no problems"
        return Verdict(ExitCode.READY, not problems, (), f"Report only (--require none): {found}{newer}")
    if command == "bench":
        judgements = [_judge(BENCH_PATH, findings, facts, strict, smoke_required=False)]
    elif command == "smoke-test":
        judgements = [_judge(SMOKE_PATHS[require], findings, facts, strict, smoke_required=False)]
    else:
        smoke_required = facts.target.run.workload != "none"
        paths = PATHS.get(require, (MPS_PATH,))
        judgements = [_judge(p, findings, facts, strict, smoke_required) for p in paths]
    ready = next((j for j in judgements if j.ready), None)
    if ready is None:
        # Report the path that applies here: MPS on a Mac (or an unknown OS), CUDA elsewhere.
        chosen = judgements[-1] if facts.host.system not in ("Darwin", "") and len(judgements) > 1 else judgements[0]
        blocking = chosen.failed + chosen.unconfirmed
        return Verdict(
            ExitCode.PROBLEMS, False, blocking, _headline(chosen, facts) + newer, _not_counted(chosen.path, findings)
        )
    warnings = sum(f.status is Status.WARN for f in findings if f.id not in ready.path.ignores)
    tail = f" ({warnings} warning{'s' if warnings != 1 else ''})" if warnings else ""
    if command == "bench":
        subject = "Bench done: every measured workload matched the CPU"
    elif command == "smoke-test":
        smoke = facts.target.smoke
        subject = f"Ready: the workload passed on {smoke.device if smoke else 'the device'}"
    else:
        subject = "MPS is ready" if ready.path is MPS_PATH else f"Ready: {ready.path.name} works"
    return Verdict(ExitCode.READY, True, (), subject + tail + newer, _not_counted(ready.path, findings))


def _table_note(facts: Facts) -> str:
    """Said in the headline: a torch newer than the release table is judged on assumed facts."""
    torch = facts.target.torch
    version = torch.version if torch else None
    newer = newer_than_table(version)
    return f" (torch {version} is {newer})" if newer else ""


def _not_counted(path: Path, findings: Sequence[Finding]) -> tuple[str, ...]:
    """Problems on the path not taken: shown, but they neither block nor count as warnings here."""
    return tuple(f.id for f in findings if f.id in path.ignores and f.status in (Status.FAIL, Status.WARN))
