"""The CLI classes of benchmarks/adversarial_process.py (crashes, injection, contradiction): input and
output a hostile CI or a careless user hands the `mpscheck` command. Run through that script."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

from adversarial_process import ENV, OWN_FRAME, PASTE, PYTHON, Bench, Case, crashed, stderr_of

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
    for fmt in ("json", "markdown"):  # the formats that show the environment
        cases.append((f"VIRTUAL_ENV planted, doctor --format {fmt}", lambda f=fmt: _planted_env(b, f)))
    for fmt in ("text", "json", "markdown", "github", "junit") if not quick else ("text", "json"):
        cases.append((f"saved report planted, explain --format {fmt}", lambda f=fmt: _planted_report(b, f)))
        cases.append((f"paste planted, explain --format {fmt}", lambda f=fmt: _planted_paste(b, f)))
    return cases


PLANTED = "x\n::error::forged\r##[warning]forged\u2028  ::notice::forged"
OWN_ANNOTATION = re.compile(r"^::(error|warning|notice) title=mpscheck ")


def _forged_on_stdout(done: subprocess.CompletedProcess[bytes]) -> str | None:
    """A line of stdout the runner would read as a command that is not one of mpscheck's own annotations."""
    out = (done.stdout or b"").decode(errors="replace")
    if "forged" not in out:
        return crashed(done) or "the planted value is not shown (nothing was tested)"
    live = [line for line in live_commands(out) if not OWN_ANNOTATION.match(line)]
    return f"live workflow command on stdout: {live[0][:80]!r}" if live else crashed(done)


def _planted_env(b: Bench, fmt: str) -> str | None:
    env = {**ENV, "GITHUB_ACTIONS": "true", "VIRTUAL_ENV": "/venv" + PLANTED}
    args = ["doctor", "--python", PYTHON, "--no-smoke", "--require", "none", "-v", "--format", fmt]
    return _forged_on_stdout(b.run(args, env=env))


def _planted_report(b: Bench, fmt: str) -> str | None:
    saved = b.work / "planted-report.json"
    if not saved.exists():
        args = ["doctor", "--python", PYTHON, "--no-smoke", "--require", "none", "--format", "json"]
        b.run([*args, "--output", str(saved)])  # --require none: exit 0, whatever this host has
        report = json.loads(saved.read_text())  # no file: a harness failure, counted as one
        interpreter = report["facts"]["target"]["interpreter"]
        interpreter["executable"] = "/opt/py" + PLANTED
        interpreter["platform"] = "Linux" + PLANTED
        saved.write_text(json.dumps(report))
    env = {**ENV, "GITHUB_ACTIONS": "true"}
    return _forged_on_stdout(b.run(["explain", str(saved), "-v", "--format", fmt], env=env))


def _planted_paste(b: Bench, fmt: str) -> str | None:
    paste = b.work / "planted-paste.txt"
    error = "TypeError: Cannot convert a MPS Tensor to float64 dtype as the MPS framework doesn't support float64."
    paste.write_text(f"Traceback (most recent call last):\n{error} ##[warning]forged \u2028::error::forged\n")
    env = {**ENV, "GITHUB_ACTIONS": "true"}
    return _forged_on_stdout(b.run(["explain", str(paste), "-v", "--format", fmt], env=env))


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
