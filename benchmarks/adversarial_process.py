"""An adversarial run of mpscheck's process and CLI side, as a hostile CI and a careless user would
try it (issue 18, items 2, 3, 4, 6, 8). Prints, per class, the inputs tried and the failures.

Every input runs the `mpscheck` command as a real process (by default the one next to this
interpreter; --mpscheck to name another, e.g. an older checkout's entry point):

- memory: targets that flood stdout or stderr, or write one endless line, under --timeout; a
  failure is an exit 3, a run past the timeout plus 3 s, or mpscheck's own RSS above 256 MiB;
- processes: targets that leave a setsid daemon behind or hang, with mpscheck ended by a timeout, a
  normal exit, SIGKILL or a terminating signal; `run` and `ops` sent SIGHUP/SIGQUIT/SIGUSR1/...; a
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

Linux or macOS; the memory class needs psutil (an mpscheck dependency).
"""

from __future__ import annotations

import argparse
import contextlib
import json
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


# ---- crashes -------------------------------------------------------------------------------------


def crash_cases(b: Bench, quick: bool) -> list[tuple[str, Case]]:
    commands = [["explain", str(PASTE)], ["doctor", "--list-checks"], ["ops", "--op", "aten::roll"]]
    cases: list[tuple[str, Case]] = []
    for args in commands:
        label = " ".join(args[:1] + args[1:2] if args[0] != "explain" else args[:1])
        cases.append((f"{label} > /dev/full", lambda a=args: _to_dev_full(b, a)))
        cases.append((f"{label} >&-", lambda a=args: crashed(b.run(a, preexec_fn=lambda: os.close(1)))))
        cases.append((f"{label} >&- 2>&-", lambda a=args: crashed(b.run(a, stderr=None, preexec_fn=_close_1_2))))
        cases.append((f"{label} | reader gone", lambda a=args: _to_broken_pipe(b, a)))
        for encoding in ("ascii", "latin-1", "cp1252"):
            env = {**ENV, "PYTHONIOENCODING": encoding}
            cases.append((f"{label} {encoding}", lambda a=args, e=env: crashed(b.run(a, env=e))))
    cases.append(("explain - <&-", lambda: crashed(b.run(["explain", "-"], preexec_fn=lambda: os.close(0)))))
    for depth in (100, 990, 1000, 5000, 100_000):
        for where in ('"facts": {}, "x": ', ""):
            cases.append((f"nested JSON {depth}", lambda d=depth, w=where: _nested(b, d, w)))
    for python in ("/tmp/" + "a" * 256 + "/python", "a" * 300, "/" + "b/" * 3000 + "python", "-", "/dev/null"):
        cases.append((f"--python {python[:12]}…", lambda p=python: crashed(b.run(["doctor", "--python", p]))))
    steps = 20 if quick else 60
    for step in range(steps):
        delay = step * 0.1 / steps
        cases.append((f"Ctrl-C at {delay * 1000:.0f} ms", lambda d=delay: _early_sigint(b, d)))
    return cases


def _close_1_2() -> None:
    os.close(1)
    os.close(2)


def _to_dev_full(b: Bench, args: list[str]) -> str | None:
    with open("/dev/full", "wb") as full:
        return crashed(b.run(args, stdout=full))


def _to_broken_pipe(b: Bench, args: list[str]) -> str | None:
    read, write = os.pipe()
    os.close(read)
    try:
        return crashed(b.run(args, stdout=write))
    finally:
        os.close(write)


def _nested(b: Bench, depth: int, where: str) -> str | None:
    path = b.work / f"nested{b.counter}.json"
    b.counter += 1
    path.write_text('{"kind": "mpscheck-report", ' + where + "[" * depth + "]" * depth + "}")
    return crashed(b.run(["explain", str(path)]))


def _early_sigint(b: Bench, delay: float) -> str | None:
    proc = b.start(["doctor", "--require", "none", "--no-smoke"], stdout=subprocess.DEVNULL)
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    text = err.decode("utf-8", "replace")
    if OWN_FRAME.search(text):
        return "traceback from mpscheck's own code"
    if proc.returncode == 3:
        return "exit 3"
    return None


# ---- injection -----------------------------------------------------------------------------------

FORGED = "::error title=forged::forged"


def live_commands(text: str) -> list[str]:
    lines = text.replace("\r", "\n").split("\n")
    return [line for line in lines if line.lstrip().startswith("::") or "##[" in line]


def injection_cases(b: Bench, quick: bool) -> list[tuple[str, Case]]:
    cases: list[tuple[str, Case]] = []
    env = {**ENV, "GITHUB_ACTIONS": "true"}
    for brk in ("\n", "\r", "\r\n", "\u2028", "\x0b"):
        bad = f"x{brk}{FORGED}{brk}##[warning]forged"
        for where, args in enumerate(
            (
                ["doctor", "--python", f"/usr/bin/python3{brk}{FORGED}", "--no-smoke"],
                ["doctor", "--python", bad],
                ["run", "--require", "none", "--", PYTHON, "-c", "pass", bad],
                ["run", "--require", "none", "--python", bad, "--", PYTHON, "-c", "pass"],
                ["doctor", "--check", bad],
                ["doctor", f"--{bad}"],
                ["explain", bad],
                ["doctor", "--timeout", bad],
            )
        ):
            cases.append((f"{args[0]} #{where} {brk!r}", lambda a=args: _injection(b, a, env)))
    return cases


def _injection(b: Bench, args: list[str], env: dict[str, str]) -> str | None:
    done = b.run(args, env=env)
    live = live_commands((done.stdout or b"").decode(errors="replace") + stderr_of(done))
    return f"live workflow command: {live[0][:80]!r}" if live else crashed(done)


# ---- contradiction -------------------------------------------------------------------------------


def contradiction_cases(b: Bench, quick: bool) -> list[tuple[str, Case]]:
    signs = [Path("/proc/driver/nvidia").exists(), bool(shutil.which("nvidia-smi"))]
    if any(signs):
        return []
    cases = []
    for count in (1, 2, 8):
        for version in ("12.1", "13.0"):
            cases.append((f"forged CUDA {version} x{count}", lambda c=count, v=version: _forged(b, c, v)))
    return cases


def _forged(b: Bench, count: int, version: str) -> str | None:
    device = {"name": "NVIDIA H100 80GB HBM3", "memory_bytes": 85520809984, "capability": "9.0"}
    torch = {
        "installed": True,
        "version": f"2.11.0+cu{version.replace('.', '')}",
        "mps_built": False,
        "mps_available": False,
        "cuda_built": version,
        "cuda_available": True,
        "cuda_devices": [device] * count,
    }
    records = [("interpreter", {}), ("torch", torch), ("end", {})]
    lines = "\n".join(json.dumps({"v": 1, "event": "done", "stage": s, "data": d}) for s, d in records)
    python = b.fake_python(f"cat <<'EOF'\n{lines}\nEOF")
    done = b.run(["doctor", "--python", python, "--require", "gpu", "--no-smoke"])
    return "exit 0: CUDA counted as ready" if done.returncode == 0 else crashed(done)


CLASSES = {
    "memory": memory_cases,
    "processes": process_cases,
    "crashes": crash_cases,
    "injection": injection_cases,
    "contradiction": contradiction_cases,
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mpscheck", default=None, help="the command to test [default: the mpscheck beside python]")
    parser.add_argument("--quick", action="store_true", help="fewer inputs per class")
    parser.add_argument("--only", choices=tuple(CLASSES), action="append", help="run these classes only")
    parser.add_argument("-v", "--verbose", action="store_true", help="print each failure")
    args = parser.parse_args()
    default = shutil.which("mpscheck", path=os.path.dirname(sys.executable)) or "mpscheck"
    mpscheck = shlex.split(args.mpscheck) if args.mpscheck else [default]
    totals = [0, 0]
    with tempfile.TemporaryDirectory(prefix="adversarial-") as work:
        bench = Bench(mpscheck, Path(work))
        for name in args.only or CLASSES:
            cases = CLASSES[name](bench, args.quick)
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
