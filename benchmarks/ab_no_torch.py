"""The doctor against an interpreter without torch, two checkouts of mpscheck alternating (A/B).

On a loaded or variable machine, only runs taken in turn compare: each round runs
`python -m mpscheck doctor --python <no-torch venv> --format json` once from each checkout's folder
(so that folder's `mpscheck` package is the one imported), and the medians are printed. Both must
give the same exit status and the same findings (ids and statuses): a speed change must not change
what the doctor decides.

    python benchmarks/ab_no_torch.py OLD_CHECKOUT NEW_CHECKOUT [--rounds 9] [--python NO_TORCH_PYTHON]
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


def run(checkout: str, python: str) -> tuple[float, int, list[tuple[str, str]]]:
    argv = [sys.executable, "-m", "mpscheck", "doctor", "--python", python, "--format", "json"]
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=checkout, capture_output=True, text=True, timeout=120)
    seconds = time.perf_counter() - started
    try:
        findings = [(item["id"], item["status"]) for item in json.loads(done.stdout)["findings"]]
    except (ValueError, KeyError, TypeError):
        findings = [("unreadable", done.stderr[-300:])]
    return seconds, done.returncode, findings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--python", help="an interpreter without torch (default: a fresh bare venv)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        python = args.python
        if python is None:
            subprocess.run([sys.executable, "-m", "venv", "--without-pip", f"{folder}/nt"], check=True)
            python = f"{folder}/nt/bin/python"
        checkouts = {"old": str(Path(args.old).resolve()), "new": str(Path(args.new).resolve())}
        answers = {name: run(path, python)[1:] for name, path in checkouts.items()}  # warms the file cache
        times: dict[str, list[float]] = {name: [] for name in checkouts}
        for _ in range(args.rounds):
            for name, path in checkouts.items():
                seconds, code, findings = run(path, python)
                times[name].append(seconds)
                if (code, findings) != answers[name]:
                    answers[name] = (-1, [("changed between runs", "")])
    result = {
        "rounds": args.rounds,
        **{f"{name}_median_s": round(statistics.median(values), 3) for name, values in times.items()},
        **{f"{name}_s": [round(v, 3) for v in values] for name, values in times.items()},
        "same_answer": answers["old"] == answers["new"],
        "exit_status": answers["new"][0],
    }
    print(json.dumps(result, indent=2))
    return 0 if result["same_answer"] else 1


if __name__ == "__main__":
    sys.exit(main())
