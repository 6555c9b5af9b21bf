"""How much does `mpscheck doctor` cost beyond `import torch`? Ratios from one run, not timed tests.

Runs, alternately, `mpscheck doctor --no-smoke --format json`, the bare
`python -c "import torch; torch.backends.mps.is_available()"` and `python -m torch.utils.collect_env`
in the same interpreter, and prints the ratios of medians (issue 20 targets: doctor --no-smoke
<= 1.05 x import torch and <= 0.80 x collect_env); then the doctor with the quick GPU smoke (which on
a GPU machine also pays for the device's start-up, work the bare import does not do), the doctor
against an interpreter without torch (target <= 0.3 s) and `mpscheck --help` (target <= 0.15 s).
With --breakdown, one doctor run's timeline: when the target started, each record of the agent,
when the target ended and when mpscheck exited (benchmarks/doctor_timeline.py).

mpscheck runs from a copy of its package with its bytecode compiled, as an installed wheel has it
(pip compiles at install). The doctor without torch and `--help` are also timed from a copy without
bytecode under PYTHONDONTWRITEBYTECODE=1, which the device machine sets: there every run compiles
mpscheck's ~50 modules first (about 0.1 s on its H100 host), a cost an installed copy never pays.

    python benchmarks/bench_doctor.py [--rounds 5] [--python PATH] [--breakdown]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
TARGETS = {
    "ratio_no_smoke_vs_import": 1.05,
    "ratio_no_smoke_vs_collect_env": 0.80,
    "doctor_without_torch_median_s": 0.3,
    "help_median_s": 0.15,
}


def timed(argv: list[str]) -> float:
    """Seconds *argv* takes, run from a folder without a package of its own (`-m` puts the working
    folder first on sys.path: run from the checkout, it would find the checkout's mpscheck)."""
    started = time.perf_counter()
    subprocess.run(
        argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, timeout=600, cwd=tempfile.gettempdir()
    )
    return time.perf_counter() - started


def package_copy(folder: Path, compiled: bool) -> list[str]:
    """`python -m mpscheck` from a copy of the package in *folder*: with its bytecode (installed), or
    without it and kept so (every run compiles its source, as on a machine that forbids bytecode)."""
    shutil.copytree(HERE.parent / "mpscheck", folder / "mpscheck", ignore=shutil.ignore_patterns("__pycache__"))
    if compiled:
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(folder / "mpscheck")], check=True)
        return ["env", f"PYTHONPATH={folder}", sys.executable, "-m", "mpscheck"]
    return ["env", f"PYTHONPATH={folder}", "PYTHONDONTWRITEBYTECODE=1", sys.executable, "-m", "mpscheck"]


def rounds_of(commands: dict[str, list[str]], rounds: int) -> dict[str, list[float]]:
    """Each command once per round, in turn: drift (caches, clocks, load) hits them all alike."""
    out: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(rounds):
        for name, argv in commands.items():
            out[name].append(timed(argv))
    return out


def no_torch_python(folder: Path) -> str:
    """An interpreter that cannot import torch: a bare venv, else this python with site disabled."""
    venv = folder / "no-torch"
    made = subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], capture_output=True)
    if made.returncode == 0:
        return str(venv / "bin" / "python")
    wrapper = folder / "bin" / "python"
    wrapper.parent.mkdir()
    wrapper.write_text(f'#!/bin/sh\nexec {sys.executable} -S "$@"\n')
    wrapper.chmod(0o755)
    return str(wrapper)


def timeline(args: list[str]) -> object:
    done = subprocess.run(
        [sys.executable, str(HERE / "doctor_timeline.py"), *args],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PYTHONPATH": str(HERE.parent)},
    )
    return json.loads(done.stdout) if done.returncode == 0 else done.stderr[-2000:]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--python", default=sys.executable, help="the interpreter with torch")
    parser.add_argument("--breakdown", action="store_true", help="also print one doctor run's timeline")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as copies:
        installed = package_copy(Path(copies) / "installed", compiled=True)
        source = package_copy(Path(copies) / "source", compiled=False)
        results = measure(args, installed, source)
    print(json.dumps(results, indent=2))
    return 0 if all(results["targets_met"].values()) else 1


def measure(args: argparse.Namespace, installed: list[str], source: list[str]) -> dict:
    doctor = [*installed, "doctor", "--python", args.python, "--format", "json"]
    commands = {
        "doctor_no_smoke": [*doctor, "--no-smoke"],
        "import_torch": [args.python, "-c", "import torch; torch.backends.mps.is_available()"],
        "collect_env": [args.python, "-m", "torch.utils.collect_env"],
        "doctor_with_smoke": doctor,
    }
    for argv in commands.values():
        timed(argv)  # warm the file cache
    times = rounds_of(commands, args.rounds)
    median = {name: statistics.median(values) for name, values in times.items()}
    with tempfile.TemporaryDirectory() as folder:
        bare = no_torch_python(Path(folder))
        empty = rounds_of(
            {
                kind: [*mpscheck, "doctor", "--python", bare, "--format", "json"]
                for kind, mpscheck in (("installed", installed), ("source", source))
            },
            args.rounds + 1,
        )
        if args.breakdown:
            no_torch_timeline = timeline(["doctor", "--python", bare])
    helps = rounds_of({"installed": [*installed, "--help"], "source": [*source, "--help"]}, args.rounds + 1)

    results: dict = {"rounds": args.rounds, **{f"{k}_median_s": round(v, 3) for k, v in median.items()}}
    results["ratio_no_smoke_vs_import"] = round(median["doctor_no_smoke"] / median["import_torch"], 3)
    results["ratio_no_smoke_vs_collect_env"] = round(median["doctor_no_smoke"] / median["collect_env"], 3)
    results["ratio_with_smoke_vs_import"] = round(median["doctor_with_smoke"] / median["import_torch"], 3)
    for kind, name in (("installed", "{}_median_s"), ("source", "{}_from_source_median_s")):  # first round: warm-up
        results[name.format("doctor_without_torch")] = round(statistics.median(empty[kind][1:]), 3)
        results[name.format("help")] = round(statistics.median(helps[kind][1:]), 3)
    results["targets_met"] = {f"{name} <= {limit}": results[name] <= limit for name, limit in TARGETS.items()}
    if args.breakdown:
        results["timeline_no_smoke"] = timeline(["doctor", "--python", args.python, "--no-smoke"])
        results["timeline_without_torch"] = no_torch_timeline
    return results


if __name__ == "__main__":
    sys.exit(main())
