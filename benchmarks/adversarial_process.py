"""An adversarial run of mpscheck's process and CLI side, as a hostile CI and a careless user would
try it (issue 18, items 2, 3, 4, 6, 8). Prints, per class, the inputs tried and the failures.

Every input runs the `mpscheck` command as a real process (by default the one next to this
interpreter; --mpscheck to name another, e.g. an older checkout's entry point):

- memory: targets that flood stdout or stderr, or write one endless line, under --timeout; a
  failure is an exit 3, a run past the timeout plus 3 s, or mpscheck's own RSS above 256 MiB;
- processes: targets that leave a setsid daemon behind or hang, with mpscheck ended by a timeout, a
  normal exit, SIGKILL or a terminating signal; `run` and `ops` sent SIGHUP/SIGQUIT/SIGUSR1/... or
  SIGKILL (the command must end with mpscheck); a
  failure is any process of the target still alive 5 s later, a `run` exit that is not the
  command's, or an mpscheck temporary folder left behind;
- crashes: closed stdout/stdin/stderr, /dev/full, a pipe whose reader left, ASCII-only output,
  nested JSON, unusable --python paths, Ctrl-C at 0-100 ms; a failure is exit 3, a traceback
  from mpscheck's own code, or (for the Ctrl-C) anything but exit 130 after mpscheck's code started;
- injection: line breaks (LF, CR, CRLF, U+2028) with forged `::error::`/`##[` in --python, in
  `run`'s argv, in options and check ids; a failure is a line the Actions runner would read as a
  workflow command;
- contradiction: forged protocol streams claiming CUDA devices on a host with no NVIDIA driver,
  under `doctor --require gpu`; a failure is exit 0 (this class is skipped on a host that has one).

    python benchmarks/adversarial_process.py [--mpscheck 'CMD ...'] [--quick]

Linux or macOS; the memory class needs psutil (an mpscheck dependency). The CLI classes live in
adversarial_cli.py beside this script.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import resource
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

import psutil

PYTHON = sys.executable
ROOT = Path(__file__).resolve().parent.parent
FAKE_TORCH = ROOT / "tests" / "fakes" / "torch_pkg"
PASTE = ROOT / "tests" / "corpus" / "cellpose-1468-intel-imac-bf16.txt"
ENV = {**os.environ, "NO_COLOR": "1", "GITHUB_ACTIONS": "", "GITHUB_STEP_SUMMARY": ""}
Case = Callable[[], "str | None"]  # returns why it failed, or None
OWN_FRAME = re.compile(r'File "[^"]*/mpscheck/[^"]*\.py"')  # a traceback through mpscheck's own code
MEMORY_CAP = 3 * 1024**3  # address space of mpscheck in the memory class: a runaway fails, the machine does not


class Bench:
    def __init__(self, mpscheck: list[str], work: Path) -> None:
        self.mpscheck = mpscheck
        self.work = work
        self.counter = 0

    def fake_python(self, body: str) -> str:
        self.counter += 1
        folder = self.work / f"fake{self.counter}"
        folder.mkdir()
        path = folder / "python"
        path.write_text("#!/bin/sh\n" + body + "\n")
        path.chmod(path.stat().st_mode | stat.S_IEXEC)
        return str(path)

    def run(self, args: list[str], env: dict[str, str] | None = None, **kw) -> subprocess.CompletedProcess[bytes]:
        kw.setdefault("stdout", subprocess.PIPE)
        kw.setdefault("stderr", subprocess.PIPE)
        return subprocess.run([*self.mpscheck, *args], env=env or ENV, timeout=300, check=False, **kw)

    def start(self, args: list[str], env: dict[str, str] | None = None, **kw) -> subprocess.Popen[bytes]:
        kw.setdefault("stdout", subprocess.PIPE)
        kw.setdefault("stderr", subprocess.PIPE)
        return subprocess.Popen([*self.mpscheck, *args], env=env or ENV, **kw)


def alive(pids: list[int]) -> list[int]:
    out = []
    for pid in pids:
        try:
            if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                out.append(pid)
        except psutil.NoSuchProcess:
            continue
    return out


def reap(pids: list[int], seconds: float = 5.0) -> list[int]:
    """The pids still alive after *seconds*; they are killed then, so one failure does not leak."""
    end = time.monotonic() + seconds
    while time.monotonic() < end and alive(pids):
        time.sleep(0.05)
    left = alive(pids)
    for pid in left:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return left


def read_pids(path: Path, seconds: float = 60) -> list[int]:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if path.exists() and path.read_text().strip().endswith("."):
            return [int(p) for p in path.read_text().strip(". \n").split()]
        time.sleep(0.05)
    return []


def stderr_of(done: subprocess.CompletedProcess[bytes]) -> str:
    return (done.stderr or b"").decode("utf-8", "replace")


def crashed(done: subprocess.CompletedProcess[bytes]) -> str | None:
    err = stderr_of(done)
    if done.returncode == 3 or "internal error" in err:
        return f"exit {done.returncode}: {err.strip()[-160:]}"
    if "Traceback" in err and OWN_FRAME.search(err):
        return "traceback from mpscheck: " + err.strip()[-160:]
    return None


# ---- memory --------------------------------------------------------------------------------------

FLOOD = "import sys, time\nout = getattr(sys, {stream!r}).buffer\nchunk = {chunk!r}\n{loop}\ntime.sleep(300)\n"


def memory_cases(b: Bench, quick: bool) -> list[tuple[str, Case]]:
    cases = []
    sizes = [16, 256] if quick else [16, 256, 1024]
    for stream in ("stdout", "stderr"):
        for mb in sizes:
            loop = f"for _ in range({mb} * 16):\n    out.write(chunk)\nout.flush()"
            cases.append((f"{stream} {mb} MB", _flood_case(b, stream, b"x" * 65535 + b"\n", loop)))
        endless = "while True:\n    out.write(chunk)"
        cases.append((f"{stream} endless", _flood_case(b, stream, b"y" * 65535 + b"\n", endless)))
    cases.append(("one endless line", _flood_case(b, "stdout", b"z" * 65536, "while True:\n    out.write(chunk)")))
    return cases


def _flood_case(b: Bench, stream: str, chunk: bytes, loop: str, timeout: float = 5.0) -> Case:
    def case() -> str | None:
        script = b.work / f"flood{b.counter}.py"
        b.counter += 1
        script.write_text(FLOOD.format(stream=stream, chunk=chunk, loop=loop))
        python = b.fake_python(f'exec "{PYTHON}" "{script}"')
        started = time.monotonic()
        proc = b.start(
            ["doctor", "--python", python, "--timeout", str(timeout), "--require", "none"], preexec_fn=_cap_memory
        )
        peak = 0
        while proc.poll() is None:
            with contextlib.suppress(psutil.Error):
                peak = max(peak, psutil.Process(proc.pid).memory_info().rss)
            if time.monotonic() - started > timeout + 60:
                proc.kill()
            time.sleep(0.05)
        elapsed = time.monotonic() - started
        _, err = proc.communicate()
        if proc.returncode == 3 or proc.returncode < 0:
            return f"exit {proc.returncode}: {err.decode(errors='replace').strip()[-160:]}"
        if elapsed > timeout + 3:
            return f"took {elapsed:.1f} s with a {timeout:g} s timeout"
        if peak > 256 * 1024 * 1024:
            return f"mpscheck's RSS reached {peak / 1048576:.0f} MiB"
        return None

    return case


def _cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


# ---- processes -----------------------------------------------------------------------------------

DAEMON = "( \"{py}\" -c 'import os, time; os.setsid(); time.sleep(300)' >/dev/null 2>&1 & echo $! >> {pids} )"
CATCHABLE = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGALRM"]


def process_cases(b: Bench, quick: bool) -> list[tuple[str, Case]]:
    cases: list[tuple[str, Case]] = [
        # the pause lets each daemon leave the process group before the command exits
        ("setsid daemon, normal exit", _tree_case(b, "sleep 0.5; exit 0", timeout=30)),
        ("setsid daemon, timeout", _tree_case(b, "sleep 300", timeout=2)),
        ("setsid daemon x5, normal exit", _tree_case(b, "sleep 0.5; exit 0", timeout=30, daemons=5)),
        ("setsid daemon x5, timeout", _tree_case(b, "sleep 300", timeout=2, daemons=5)),
        ("probe hangs, mpscheck SIGKILL", _agent_case(b, "SIGKILL")),
    ]
    for name in CATCHABLE[1:] if quick else CATCHABLE:
        cases.append((f"probe hangs, mpscheck {name}", _agent_case(b, name)))
    for command in ("run", "run --trace", "ops"):
        for name in CATCHABLE[2:5] if quick else CATCHABLE:
            cases.append((f"{command}: {name}", _relay_case(b, command, name)))
        cases.append((f"{command}: mpscheck SIGKILL", _killed_case(b, command)))
    return cases


def _tree_case(b: Bench, tail: str, timeout: float, daemons: int = 1) -> Case:
    def case() -> str | None:
        pids = b.work / f"pids{b.counter}"
        body = "\n".join(DAEMON.format(py=PYTHON, pids=pids) for _ in range(daemons))
        python = b.fake_python(f"{body}\necho . >> {pids}\n{tail}")
        b.run(["doctor", "--python", python, "--timeout", str(timeout), "--require", "none"])
        left = reap(read_pids(pids))
        return f"{len(left)} process(es) left running" if left else None

    return case


def _agent_tree(proc: subprocess.Popen[bytes]) -> list[int]:
    end = time.monotonic() + 60
    while time.monotonic() < end and proc.poll() is None:
        for child in psutil.Process(proc.pid).children(recursive=True):
            try:
                if any(part.endswith("main.py") and "agent" in part for part in child.cmdline()):
                    time.sleep(0.5)
                    return [child.pid, *(c.pid for c in child.children(recursive=True))]
            except psutil.Error:
                continue
        time.sleep(0.05)
    return []


def _agent_case(b: Bench, name: str) -> Case:
    def case() -> str | None:
        env = {**ENV, "PYTHONPATH": str(FAKE_TORCH), "FAKE_TORCH_MODE": "import-hangs"}
        proc = b.start(["doctor", "--python", PYTHON, "--timeout", "120"], env=env)
        tree = _agent_tree(proc)
        if not tree:
            proc.kill()
            return "the agent never started"
        proc.send_signal(getattr(signal, name))
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            return "mpscheck did not end"
        left = reap(tree)
        return f"{len(left)} probe process(es) left running" if left else None

    return case


RELAY_CHILD = (
    "import signal, sys, time\n"
    "for n in {numbers}:\n"
    "    signal.signal(n, lambda s, f: (print('got', s, flush=True), sys.exit(s + 30)))\n"
    "print('ready', flush=True)\n"
    "time.sleep(120)\n"
)


def _relay_case(b: Bench, command: str, name: str) -> Case:
    def case() -> str | None:
        temp = b.work / f"tmp{b.counter}"
        b.counter += 1
        temp.mkdir()
        numbers = [int(getattr(signal, n)) for n in CATCHABLE]
        args = {
            "run": ["run", "--require", "none", "--"],
            "run --trace": ["run", "--require", "none", "--trace", "--"],
            "ops": ["ops", "--output", str(temp.parent / f"ops{b.counter}.txt"), "--"],
        }[command]
        env = {**ENV, "TMPDIR": str(temp)}
        child_argv = [*args, PYTHON, "-c", RELAY_CHILD.format(numbers=numbers)]
        proc = b.start(child_argv, env=env, stdin=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        assert proc.stdout is not None
        line = b""
        end = time.monotonic() + 120
        while b"ready" not in line and time.monotonic() < end and proc.poll() is None:
            line = proc.stdout.readline()
        child = [c.pid for c in psutil.Process(proc.pid).children(recursive=True)] if proc.poll() is None else []
        signum = getattr(signal, name)
        proc.send_signal(signum)
        try:
            proc.wait(timeout=60)  # not communicate(): a command left running would hold the pipes open
        except subprocess.TimeoutExpired:
            proc.kill()
            reap(child, 0)
            return "mpscheck did not end"
        for pipe in (proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()
        problems = []
        left = reap(child)
        if left:
            problems.append(f"{len(left)} process(es) of the command left running")
        if command != "ops" and proc.returncode != signum + 30:
            problems.append(f"exit {proc.returncode}, not the command's {signum + 30}")
        if list(temp.iterdir()):
            problems.append("temporary folder left: " + ", ".join(p.name for p in temp.iterdir()))
        return "; ".join(problems) or None

    return case


def _killed_case(b: Bench, command: str) -> Case:
    """mpscheck killed outright while the user's command runs: the command must not outlive it. Its
    temporary folder stays (no code of a SIGKILLed process runs); the next mpscheck sweeps it."""

    def case() -> str | None:
        pid_file = b.work / f"killed{b.counter}"
        b.counter += 1
        args = {
            "run": ["run", "--require", "none", "--"],
            "run --trace": ["run", "--require", "none", "--trace", "--"],
            "ops": ["ops", "--output", str(pid_file) + ".txt", "--"],
        }[command]
        script = "import os, sys, time\nopen(sys.argv[1], 'w').write(str(os.getpid()))\ntime.sleep(120)\n"
        streams = {"stdin": subprocess.DEVNULL, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        proc = b.start([*args, PYTHON, "-c", script, str(pid_file)], **streams)
        end = time.monotonic() + 120
        while not (pid_file.exists() and pid_file.read_text()) and time.monotonic() < end and proc.poll() is None:
            time.sleep(0.05)
        if not (pid_file.exists() and pid_file.read_text()):
            proc.kill()
            return "the command never started"
        time.sleep(0.3)
        proc.kill()
        proc.wait(timeout=10)
        left = reap([int(pid_file.read_text())])
        return f"the command outlived mpscheck ({len(left)} process)" if left else None

    return case


def classes() -> dict[str, Callable[[Bench, bool], list[tuple[str, Case]]]]:
    from adversarial_cli import contradiction_cases, crash_cases, injection_cases  # beside this script

    return {
        "memory": memory_cases,
        "processes": process_cases,
        "crashes": crash_cases,
        "injection": injection_cases,
        "contradiction": contradiction_cases,
    }


CLASS_NAMES = ("memory", "processes", "crashes", "injection", "contradiction")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mpscheck", default=None, help="the command to test [default: the mpscheck beside python]")
    parser.add_argument("--quick", action="store_true", help="fewer inputs per class")
    parser.add_argument("--only", choices=CLASS_NAMES, action="append", help="run these classes only")
    parser.add_argument("-v", "--verbose", action="store_true", help="print each failure")
    args = parser.parse_args()
    default = shutil.which("mpscheck", path=os.path.dirname(sys.executable)) or "mpscheck"
    mpscheck = shlex.split(args.mpscheck) if args.mpscheck else [default]
    totals = [0, 0]
    with tempfile.TemporaryDirectory(prefix="adversarial-") as work:
        bench = Bench(mpscheck, Path(work))
        builders = classes()
        for name in args.only or CLASS_NAMES:
            cases = builders[name](bench, args.quick)
            failures = []
            for label, case in cases:
                try:
                    why = case()
                except Exception as exc:  # a harness problem is a failure too, never a silent pass
                    why = f"harness: {type(exc).__name__}: {exc}"
                if why:
                    failures.append((label, why))
            totals[0] += len(cases)
            totals[1] += len(failures)
            print(f"{name:<14} {len(cases):>4} inputs  {len(failures):>4} failures", flush=True)
            for label, why in failures if args.verbose else []:
                print(f"    {label}: {why}", flush=True)
    print(f"{'total':<14} {totals[0]:>4} inputs  {totals[1]:>4} failures")
    return 1 if totals[1] else 0


if __name__ == "__main__":
    sys.exit(main())
