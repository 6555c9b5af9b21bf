"""How much does `mpscheck doctor` cost beyond `import torch`? Ratios from one run, not timed tests.

Runs, alternately, `mpscheck doctor --format json` and the bare
`python -c "import torch; torch.backends.mps.is_available()"` in the same interpreter and prints
the ratio of medians (target: <= 1.15), once with --no-smoke (the cost of the probes themselves) and
once with the quick GPU smoke test (which on a GPU machine also pays for the device's start-up,
work the bare import does not do). Also times the doctor against an interpreter without torch
(target: < 0.5 s) and `mpscheck --help` (target: < 0.2 s).

    python benchmarks/bench_doctor.py [--rounds 7] [--python PATH]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MPSCHECK = [sys.executable, "-m", "mpscheck"]


def timed(argv: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, timeout=600)
    return time.perf_counter() - started


def alternate(first: list[str], second: list[str], rounds: int) -> tuple[list[float], list[float]]:
    a, b = [], []
    for _ in range(rounds):
        a.append(timed(first))
        b.append(timed(second))
    return a, b


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--python", default=sys.executable, help="the interpreter with torch")
    args = parser.parse_args()

    doctor = [*MPSCHECK, "doctor", "--python", args.python, "--format", "json"]
    bare_import = [args.python, "-c", "import torch; torch.backends.mps.is_available()"]
    timed(doctor)  # warm the file cache
    probes_only, bare = alternate([*doctor, "--no-smoke"], bare_import, args.rounds)
    with_smoke, bare_again = alternate(doctor, bare_import, args.rounds)
    with tempfile.TemporaryDirectory() as folder:
        venv = Path(folder) / "no-torch"
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
        empty = [
            timed([*MPSCHECK, "doctor", "--python", str(venv / "bin" / "python"), "--format", "json"])
            for _ in range(args.rounds)
        ]
    helps = [timed([*MPSCHECK, "--help"]) for _ in range(args.rounds)]

    results = {
        "rounds": args.rounds,
        "import_torch_median_s": round(statistics.median(bare + bare_again), 3),
        "doctor_no_smoke_median_s": round(statistics.median(probes_only), 3),
        "ratio_no_smoke": round(statistics.median(probes_only) / statistics.median(bare), 3),
        "doctor_with_smoke_median_s": round(statistics.median(with_smoke), 3),
        "ratio_with_smoke": round(statistics.median(with_smoke) / statistics.median(bare_again), 3),
        "doctor_without_torch_median_s": round(statistics.median(empty), 3),
        "help_median_s": round(statistics.median(helps), 3),
    }
    results["targets_met"] = {
        "ratio_no_smoke <= 1.15": results["ratio_no_smoke"] <= 1.15,
        "doctor without torch < 0.5 s": results["doctor_without_torch_median_s"] < 0.5,
        "--help < 0.2 s": results["help_median_s"] < 0.2,
    }
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
