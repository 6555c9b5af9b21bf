"""Why does bench's ResNet-50 answer check take seconds on a GPU? Each variant in a fresh process.

The check (agent/bench.py numerics_model) runs one exact-float32 step (TF32 off) of ResNet-50 on
2 images of 64x64 on the device and on the CPU. In a fresh process, each variant times:
  default      the check as bench runs it
  dynamo-first import torch._dynamo first (what torch.optim's first optimizer imports), then the check
  warm-conv    one small conv forward+backward on the device first (cuDNN's libraries loaded and
               its handle made), then the check: what is left is the check's own cost
  tf32-first   one ResNet-50 step with TF32 allowed first (the timing stage's settings), then the check
  deterministic  the check with torch.backends.cudnn.deterministic = True

    python benchmarks/bench_numerics_cost.py [--device cuda]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

VARIANTS = ("default", "dynamo-first", "warm-conv", "tf32-first", "deterministic")


def child(device: str, variant: str) -> dict:
    started = time.perf_counter()
    import torch
    from bench_bench import load_bench_workload, sync

    bench = load_bench_workload()
    out = {"import_s": time.perf_counter() - started}
    plan = bench.PLANS["quick"]
    started = time.perf_counter()
    if variant == "dynamo-first":
        import torch._dynamo
    elif variant == "warm-conv":
        conv = torch.nn.Conv2d(3, 8, 3).to(device)
        conv(torch.randn(1, 3, 16, 16, device=device, requires_grad=True)).sum().backward()
    elif variant == "tf32-first":
        model = bench.build_model(torch, "resnet50", 1, dropout=0.0).to(device)
        images = torch.randn(2, 3, 64, 64, device=device)
        model(images).sum().backward()
    elif variant == "deterministic":
        torch.backends.cudnn.deterministic = True
    sync(torch, device)
    out["before_s"] = time.perf_counter() - started
    started = time.perf_counter()
    bench.numerics(torch, device, "resnet50", plan)
    sync(torch, device)
    out["check_s"] = time.perf_counter() - started
    return {k: round(v, 3) for k, v in out.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--variant", choices=VARIANTS)
    args = parser.parse_args()
    if args.variant:
        print(json.dumps(child(args.device, args.variant)))
        return 0
    results = {}
    for variant in VARIANTS:
        done = subprocess.run(
            [sys.executable, __file__, "--device", args.device, "--variant", variant],
            capture_output=True,
            text=True,
            timeout=300,
        )
        results[variant] = json.loads(done.stdout) if done.returncode == 0 else done.stderr[-500:]
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
