"""How long does the smoke-test workload take once torch is imported? One run, per step.

Targets: under 5 s on a GPU, under 15 s on a 2-core CPU. The time after import is the sum of the
step times that the report itself records; the training step also records how much of it was
torch.optim's one-time setup (the first optimizer of a process imports torch._dynamo), which is
printed apart because it measures torch's import, not the device.

    python benchmarks/bench_smoke.py [--device auto|mps|cuda|cpu] [--python PATH]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="auto")
    parser.add_argument("--python", default=sys.executable)
    args = parser.parse_args()
    started = time.perf_counter()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mpscheck",
            "smoke-test",
            "--device",
            args.device,
            "--python",
            args.python,
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=900,
    )
    wall = time.perf_counter() - started
    report = json.loads(done.stdout)
    smoke = report["facts"]["target"]["smoke"]
    steps = {s["name"]: s["seconds"] for s in smoke["steps"]}
    after_import = sum(s for s in steps.values() if s is not None)
    limit = 15.0 if smoke["device"] == "cpu" else 5.0
    matmul = next((s["values"].get("float32", {}) for s in smoke["steps"] if s["name"] == "matmul"), {})
    train = next((s["values"] for s in smoke["steps"] if s["name"] == "train"), {})
    setup = train.get("optimizer_setup_seconds") or 0.0
    print(
        json.dumps(
            {
                "device": smoke["device"],
                "exit_code": done.returncode,
                "statuses": {f["id"]: f["status"] for f in report["findings"]},
                "step_seconds": steps,
                "workload_after_import_s": round(after_import, 3),
                "of_which_torch_optim_one_time_setup_s": setup,
                "workload_without_that_setup_s": round(after_import - setup, 3),
                "import_torch_s": report["facts"]["target"]["torch"]["import_seconds"],
                "wall_s": round(wall, 3),
                "float32_matmul_gflops": matmul.get("gflops"),
                "target": f"< {limit:g} s after import",
                "target_met": after_import < limit,
            },
            indent=2,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
