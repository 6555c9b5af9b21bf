"""How long does `mpscheck smoke-test` take against a bare `import torch`? Ratios from one run.

Target (issue: the probe measures, the checks judge): on the NVIDIA H100 machine the smoke-test's
wall time is at most `import torch` + 3 s, while the training step still proves what it proves (a
conv/relu/maxpool/linear model learns on the device through Adam's update kernels, the multi-tensor
path where torch uses it by default, and its first loss equals the CPU's). Both commands run
alternately in the same interpreter, `--rounds` times; the medians and their difference are
printed, with the per-step times the report itself records.

    python benchmarks/bench_smoke.py [--device auto|mps|cuda|cpu] [--python PATH] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time


def timed(argv: list[str]) -> tuple[float, subprocess.CompletedProcess[str]]:
    started = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=False, timeout=900)
    return time.perf_counter() - started, done


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="auto")
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    smoke_argv = [sys.executable, "-m", "mpscheck", "smoke-test", "--device", args.device, "--python", args.python]
    bare_argv = [args.python, "-c", "import torch"]
    smoke_times, bare_times, report = [], [], None
    for _ in range(args.rounds):
        bare, _ = timed(bare_argv)
        wall, done = timed([*smoke_argv, "--format", "json"])
        bare_times.append(bare)
        smoke_times.append(wall)
        report = json.loads(done.stdout)
    assert report is not None
    smoke = report["facts"]["target"]["smoke"] or {}
    steps = {s["name"]: s["seconds"] for s in smoke.get("steps", [])}
    train = next((s["values"] for s in smoke.get("steps", []) if s["name"] == "train"), {})
    smoke_median, bare_median = statistics.median(smoke_times), statistics.median(bare_times)
    print(
        json.dumps(
            {
                "device": smoke.get("device"),
                "exit_code": report["exit_code"],
                "statuses": {f["id"]: f["status"] for f in report["findings"]},
                "step_seconds": steps,
                "optimizer": train.get("optimizer"),
                "optimizer_setup_s": train.get("optimizer_setup_seconds"),
                "losses": train.get("losses"),
                "import_torch_median_s": round(bare_median, 3),
                "smoke_test_median_s": round(smoke_median, 3),
                "difference_s": round(smoke_median - bare_median, 3),
                "target": "smoke-test <= import torch + 3 s",
                "target_met": smoke_median - bare_median <= 3.0,
            },
            indent=2,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
