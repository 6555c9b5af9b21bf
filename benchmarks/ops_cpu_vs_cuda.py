"""Does `mpscheck ops` predict the same MPS problems from a CUDA run as from a CPU run of one script?

Runs tests/op_scripts/device_cnn.py under `mpscheck ops --torch 2.0.0` (a release where aten::roll
had no MPS kernel yet) with OPS_DEVICE=cpu and, where CUDA works, OPS_DEVICE=cuda, and prints both
problem lists and whether they agree. Evidence for the GPU machine, not a CI test.

    python benchmarks/ops_cpu_vs_cuda.py [--torch 2.0.0]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "tests" / "op_scripts" / "device_cnn.py"


def problems(device: str, release: str) -> dict:
    env = dict(os.environ, OPS_DEVICE=device)
    argv = [sys.executable, "-m", "mpscheck", "ops", "--torch", release, "--format", "json", "--", sys.executable]
    done = subprocess.run([*argv, str(SCRIPT)], capture_output=True, text=True, env=env, timeout=600, check=False)
    report = json.loads(done.stdout)
    flagged = sorted(op["name"] for op in report["ops"] if op["status"] not in ("mps", "composite"))
    return {
        "exit_code": done.returncode,
        "script_exit_code": report.get("script_exit_code"),
        "problems": flagged,
        "ops": len(report["ops"]),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--torch", default="2.0.0")
    args = parser.parse_args()
    import torch

    devices = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
    found = {device: problems(device, args.torch) for device in devices}
    same = len({tuple(f["problems"]) for f in found.values()}) == 1
    print(json.dumps({"torch": args.torch, "by_device": found, "same_problems": same}, indent=2))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
