"""Choose the target interpreter, run the agent (probes/agent/main.py) inside it, and read its JSON lines.

torch never loads in mpscheck's own process: a crash or hang inside torch or Metal becomes facts
(timeout, crashed, the stage that was running) and then a finding, never a hung doctor.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, TypeVar

from mpscheck.probes.process import STDOUT_LIMIT, Completed, run_command
from mpscheck.probes.progress import Progress, terminal_progress
from mpscheck.probes.scratch import scratch
from mpscheck.redact import ENV_POLICY, redact

if TYPE_CHECKING:  # the facts' classes load once the target runs (gather.py's warm thread): off the critical path
    from mpscheck.facts import TargetFacts

AGENT_PATH = Path(__file__).resolve().parent / "agent" / "main.py"  # run by path: mpscheck never imports it
ENV_POLICY_VARIABLE = "MPSCHECK_ENV_POLICY"  # read by the agent's main.py
PROTOCOL_VERSION = 1  # the agent's protocol.PROTOCOL_VERSION (a test keeps the two equal)
STDERR_TAIL_CHARS = 2000
RECORD_CHARS = 1_000_000  # a protocol line longer than this is not a record the agent writes: junk
_F = TypeVar("_F")
_PYTHON_NAME = re.compile(r"^(python|pypy)[0-9.]*[tmd]?(\.exe)?$", re.IGNORECASE)


class TargetError(ValueError):
    """The --python argument cannot be used: a usage error, not a finding."""


@dataclass(frozen=True)
class TargetChoice:
    path: str
    why: str


def choose_target(
    requested: str | None, environ: Mapping[str, str], own: str = sys.executable, timeout: float = 10.0
) -> TargetChoice:
    """--python as given (a file, a name on PATH, or an env folder), else the active env, else our own.

    *timeout* bounds the question put to a binary not named python (never more than 10 s).
    """
    if requested is not None:  # --python '' is a mistake, not a request for the default
        return TargetChoice(resolve_python(requested, environ, timeout), "--python")
    for var, label in (("VIRTUAL_ENV", "the active virtual environment"), ("CONDA_PREFIX", "the active conda env")):
        root = environ.get(var)
        if root:
            candidate = _python_in(Path(root))
            if candidate:  # absolute: the probe runs in a temporary folder, not the caller's
                return TargetChoice(os.path.abspath(candidate), f"{label} (${var})")
    return TargetChoice(own, "mpscheck's own interpreter; pass --python to probe another")


def resolve_python(requested: str, environ: Mapping[str, str], timeout: float = 10.0) -> str:
    if not requested.strip():
        raise TargetError("--python: empty; give a path, a name on PATH, or an env folder")
    if any(ord(c) < 32 or 127 <= ord(c) < 160 or c in "\u2028\u2029" for c in requested):
        raise TargetError(f"--python {requested!r}: holds a line break or control character; give the path on one line")
    try:
        return _resolve(requested, environ, timeout)
    except (OSError, ValueError) as exc:  # a name too long for the file system, a NUL byte
        raise TargetError(f"--python {requested!r}: cannot be used: {getattr(exc, 'strerror', None) or exc}") from exc


def _resolve(requested: str, environ: Mapping[str, str], timeout: float) -> str:
    path = Path(requested).expanduser()
    if path.is_dir():
        found = _python_in(path)
        if not found:
            raise TargetError(f"--python {requested}: a folder with no bin/python in it")
        return os.path.abspath(found)
    if not path.exists() and os.sep not in requested:
        on_path = shutil.which(requested, path=environ.get("PATH"))
        if on_path:
            path = Path(on_path)
    if not path.exists():
        raise TargetError(f"--python {requested}: no such file")
    if not os.access(path, os.X_OK):
        raise TargetError(f"--python {requested}: not executable")
    if not _looks_like_python(path, requested, min(timeout, 10.0)):
        raise TargetError(f"--python {requested}: not a Python interpreter")
    # Absolute, not resolved: the probe runs in a temporary folder, and a venv's bin/python is a
    # symlink whose own location is what makes it that venv.
    return os.path.abspath(path)


def _python_in(root: Path) -> Path | None:
    for name in ("bin/python", "bin/python3", "python.exe", "Scripts/python.exe"):
        candidate = root / name
        if candidate.exists():
            return candidate
    return None


def _looks_like_python(path: Path, requested: str, timeout: float) -> bool:
    """By name, else by asking it: /bin/ls is a usage error, a broken python is a finding."""
    if _PYTHON_NAME.match(path.name):
        return True
    done = run_command([str(path), "-c", "import sys; print(sys.hexversion)"], timeout=timeout)
    if done.timed_out:
        raise TargetError(f"--python {requested}: not named python, and gave no answer within {timeout:g} s")
    return done.returncode == 0 and done.stdout.strip().isdigit()


def probe_target(
    python: str,
    *,
    workload: str = "none",
    device: str = "auto",
    timeout: float = 60.0,
    environ: Mapping[str, str] | None = None,
    progress: Progress | None = None,
    on_start: Callable[[], None] | None = None,
) -> TargetFacts:
    """Run the agent in *python*; whatever it managed to say before a failure is kept.

    On a terminal a progress line shows the stage running (*progress*, by default when stderr is one).
    """
    environ = dict(os.environ if environ is None else environ)
    env = dict(environ)
    env.update(PYTHONSAFEPATH="1", PYTHONDONTWRITEBYTECODE="1", PYTHONIOENCODING="utf-8")
    env[ENV_POLICY_VARIABLE] = json.dumps(ENV_POLICY)  # the allowlist has one home: redact.py
    argv = [python, str(AGENT_PATH), "--workload", workload, "--device", device]
    progress = terminal_progress() if progress is None else progress
    on_line = progress.on_line if progress else None
    # In a temporary folder, so that no stray torch.py can shadow torch.
    with scratch() as cwd, progress or contextlib.nullcontext():
        done = run_command(argv, timeout=timeout, env=env, cwd=cwd, on_line=on_line, on_start=on_start)
    facts = parse_run(done, timeout, environ)
    facts.run.workload = workload
    return facts


def parse_run(done: Completed, timeout: float, environ: Mapping[str, str]) -> TargetFacts:
    from mpscheck.facts import ProbeRun, TargetFacts

    stages, running, junk = parse_records(redact(done.stdout, environ))
    run = ProbeRun(
        command=list(done.argv),
        returncode=done.returncode,
        seconds=round(done.seconds, 3),
        timeout=timeout,
        running_stage=running,
        stderr_tail=redact(done.stderr[-STDERR_TAIL_CHARS:], environ),
    )
    target = TargetFacts(run=run)
    unreadable = _fill(target, stages)
    run.status, run.message = _classify(done, stages, junk, running, timeout)
    if unreadable and run.status == "ok":  # a stage that said something we cannot read is no success
        run.status, run.message = "bad-output", f"reported data mpscheck cannot read: {unreadable[0]}"
    return target


def parse_records(stdout: str) -> tuple[dict[str, Any], str | None, list[str]]:
    """Protocol lines -> {stage: data}, the stage left running, and lines that were not protocol."""
    stages: dict[str, Any] = {}
    started: list[str] = []
    junk: list[str] = []
    for line in stdout.splitlines():
        if not line.strip():
            continue
        if len(line) > RECORD_CHARS:
            junk.append(line[:200])
            continue
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):  # RecursionError: "[[[[..." nested past the limit
            junk.append(line[:200])
            continue
        if not isinstance(record, dict) or record.get("v") != PROTOCOL_VERSION:
            junk.append(line[:200])
            continue
        stage = str(record.get("stage"))
        if record.get("event") == "start":
            started.append(stage)
        elif record.get("event") == "done":
            stages[stage] = record.get("data")
    running = next((s for s in reversed(started) if s not in stages), None)
    return stages, running, junk


def _fill(target: TargetFacts, stages: dict[str, Any]) -> list[str]:
    """Each stage's facts on their own, so one unreadable stage costs only itself; returns why not."""
    from mpscheck.facts import (
        BenchFacts,
        BenchNumerics,
        BenchTiming,
        FactsError,
        InterpreterFacts,
        SmokeFacts,
        SmokeStep,
        TorchFacts,
        from_dict,
    )

    unreadable: list[str] = []

    def read(cls: type[_F], stage: str) -> _F | None:
        try:
            return from_dict(cls, stages[stage], stage) if stage in stages else None
        except FactsError as exc:
            unreadable.append(str(exc))
            return None

    target.interpreter = read(InterpreterFacts, "interpreter")
    target.torch = read(TorchFacts, "torch")
    smoke = read(SmokeFacts, "device")
    if smoke is not None:
        steps = (read(SmokeStep, stage) for stage in stages if stage.startswith("step:"))
        smoke.steps = [step for step in steps if step is not None]
        target.smoke = smoke
    raw_info = stages.get("bench:info")
    info: dict[str, Any] = raw_info if isinstance(raw_info, dict) else {}
    if isinstance(stages.get("bench-device"), dict):  # the device's name and settings join its choice, typed
        extra = {key: info[key] for key in ("device_name", "core_count", "settings") if key in info}
        stages = {**stages, "bench-device": {**stages["bench-device"], **extra}}
    bench = read(BenchFacts, "bench-device")
    if bench is not None:
        for stage in stages:
            if stage.startswith("bench:numerics:"):
                bench.numerics += [n for n in [read(BenchNumerics, stage)] if n is not None]
            elif stage.startswith("bench:time:"):
                bench.timings += [t for t in [read(BenchTiming, stage)] if t is not None]
        target.bench = bench
    return unreadable


def _classify(
    done: Completed, stages: dict[str, Any], junk: list[str], running: str | None, timeout: float
) -> tuple[str, str]:
    where = f" during the {running} stage" if running else ""
    if done.start_error is not None:
        return "not-found", f"could not start the interpreter: {done.start_error}"
    if done.timed_out:
        return "timeout", f"no answer within {timeout:g} s{where}"
    if done.returncode is not None and done.returncode < 0:
        return "crashed", f"killed by {_signal_name(-done.returncode)}{where}"
    if done.stdout_cut:  # what came after the cut was never read: nothing it said can count
        return "bad-output", (
            f"printed more than {STDOUT_LIMIT // 1048576} MiB on its protocol stream; "
            f"the {done.stdout_cut} bytes after that were not read"
        )
    if "end" not in stages:
        if done.returncode:
            return "failed", f"exited with status {done.returncode}{where}"
        if junk:
            return "bad-output", f"printed output mpscheck cannot read: {junk[0]!r}"
        return "bad-output", "ended without reporting"
    if done.returncode:
        return "failed", f"exited with status {done.returncode} after reporting"
    return "ok", ""


def _signal_name(number: int) -> str:
    import signal

    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"
