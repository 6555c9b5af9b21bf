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

from dataclasses import dataclass, replace
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
    "error-text",
)
# Warnings that inform and never block, not even with --strict: known silent bugs apply to nearly every
# torch (most need a shape or layout no check can see), so counting them would fail every strict run.
ADVISORY = ("silent-bugs",)


def _problem(finding: Finding, bad: set[Status]) -> bool:
    return finding.status in bad and not (finding.status is Status.WARN and finding.id in ADVISORY)


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
    failed = tuple(f.id for f in findings if _problem(f, bad) and f.id not in path.ignores)
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
    # Once something on the path failed, a required check that was skipped (not run after the failure,
    # or blocked by it) blocks nothing more: one root cause shows one failure, in every format.
    caused = {i for i in unconfirmed if i in by_id and by_id[i].blocked_by in failed}
    if failed:
        caused |= {i for i in unconfirmed if i in by_id and by_id[i].status is Status.SKIP}
    if "platform" in failed:  # nor can a workload run on MPS there
        caused |= (set(MPS_ONLY) | ({"smoke"} if "mps" in path.devices else set())) & set(unconfirmed)
    return _Judgement(path, failed, tuple(i for i in unconfirmed if i not in failed and i not in caused))


def _headline(judgement: _Judgement, facts: Facts) -> str:
    """Names every blocking id, so the headline and every format's failure count agree."""
    path = judgement.path
    smoke = facts.target.smoke
    wrong_device = smoke is not None and smoke.device is not None and smoke.device not in path.devices
    if judgement.failed:
        also = f"; not confirmed: {', '.join(judgement.unconfirmed)}" if judgement.unconfirmed else ""
        return f"Not ready: {path.name} failed: {', '.join(judgement.failed)}{also}"
    if wrong_device and smoke is not None:
        return f"Not ready: {path.name} is required and the workload ran on {smoke.device}"
    return f"Not ready: {path.name} not confirmed: {', '.join(judgement.unconfirmed)} did not pass"


DEFAULT_REQUIRE = {"doctor": Requirement.MPS, "smoke-test": Requirement.DEVICE, "bench": Requirement.DEVICE}


def this_run(command: str, require: Requirement) -> tuple[str, ...]:
    """The command lines that repeat this very run: no fix advises them (``--require none`` run with it)."""
    spelled = (f"mpscheck {command} --require {require.value}",)
    return spelled + ((f"mpscheck {command}",) if DEFAULT_REQUIRE.get(command) is require else ())


def decide(findings: Sequence[Finding], facts: Facts, *, require: Requirement, strict: bool, command: str) -> Verdict:
    verdict = _decide(findings, facts, require=require, strict=strict, command=command)
    return replace(verdict, this_run=this_run(command, require))


def _decide(findings: Sequence[Finding], facts: Facts, *, require: Requirement, strict: bool, command: str) -> Verdict:
    crashed = tuple(f.id for f in findings if f.status is Status.CRASH)
    if crashed:
        return Verdict(
            ExitCode.INTERNAL, False, crashed, f"mpscheck itself failed in {', '.join(crashed)}: please report this bug"
        )
    bad = {Status.FAIL, Status.WARN} if strict else {Status.FAIL}
    newer = _table_note(facts)
    if require is Requirement.NONE:
        problems = tuple(f.id for f in findings if _problem(f, bad))
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


def decide_text(status: Status | None, *, require: Requirement, strict: bool) -> ExitCode:
    """The verdict on what a paste shows, by the rule above: *status* is its root cause's (pass: positive
    evidence that MPS works; warn: a performance note such as a CPU fallback; fail: a problem, or not
    enough evidence; None: nothing could be read). Unreadable input is a usage error whatever the
    requirement; with ``none`` any readable paste exits 0; a warning fails only with --strict."""
    if status is None:
        return ExitCode.USAGE
    if status is Status.CRASH:
        return ExitCode.INTERNAL
    if require is Requirement.NONE:
        return ExitCode.READY
    bad = {Status.FAIL, Status.WARN, Status.SKIP} if strict else {Status.FAIL, Status.SKIP}
    return ExitCode.PROBLEMS if status in bad else ExitCode.READY


def decide_ops(ready: bool, script_completed: bool = True) -> ExitCode:
    """mpscheck ops: ready when every recorded op would run on MPS (ops/prediction.py says so only when at
    least one op was recorded: nothing recorded proves nothing) and the script ran to its end (a recording
    of a script that died midway predicts nothing about the rest)."""
    return ExitCode.READY if ready and script_completed else ExitCode.PROBLEMS
