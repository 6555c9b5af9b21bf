"""Where does a gap between bench's matmul TFLOP/s and a plain loop's come from? One variable at a time.

For each dtype, in one process, rounds of (interleaved, so that clock and heat drift hit all alike):
  plain         a bare torch.matmul loop of about 0.5 s on data from torch.randn (the reference)
  plain-seeded  the same loop on bench's own data (agent/bench.py _random: a seeded generator)
  samples       bench's timing method (timed_samples: warm-up, calibrated repeats, synchronised
                samples, median) on the plain loop's data
  bench         agent/bench.py time_matmul itself (its data, its method)
  plain-long    the bare loop for about 2 s
and prints each variant's best and median TFLOP/s and its ratio to plain.

    python benchmarks/bench_matmul_gap.py [--device cuda] [--rounds 3] [--mode quick]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys

from bench_bench import load_bench_workload, plain_loop


def variants_for(torch, bench, device: str, dtype_name: str, n: int, mode: str) -> dict:
    """Each variant: a function returning TFLOP/s, at the same size and dtype."""
    dtype = getattr(torch, dtype_name)
    flops = 2.0 * n**3
    a, b = torch.randn(n, n, device=device, dtype=dtype), torch.randn(n, n, device=device, dtype=dtype)
    sa, sb = bench._random((n, n), dtype, device, 21), bench._random((n, n), dtype, device, 22)
    samples = bench.PLANS[mode]["samples"]

    def timed_samples() -> float:
        seconds, _ = bench.timed_samples(torch, device, lambda: torch.matmul(a, b), samples, 20.0)
        return flops / bench.median(seconds) / 1e12

    return {
        "plain": lambda: flops / plain_loop(torch, device, lambda: torch.matmul(a, b)) / 1e12,
        "plain-seeded": lambda: flops / plain_loop(torch, device, lambda: torch.matmul(sa, sb)) / 1e12,
        "samples": timed_samples,
        "bench": lambda: bench.time_matmul(torch, device, dtype_name, mode)["value"],
        "plain-long": lambda: flops / plain_loop(torch, device, lambda: torch.matmul(a, b), 2.0) / 1e12,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--mode", default="quick")
    args = parser.parse_args()
    import torch

    bench = load_bench_workload()
    device = args.device
    out = {}
    for dtype_name in ("bfloat16", "float16", "float32"):
        n = bench._size_for(bench.MATMUL_N, device, args.mode)
        variants = variants_for(torch, bench, device, dtype_name, n, args.mode)
        seen: dict[str, list[float]] = {name: [] for name in variants}
        for _ in range(args.rounds):
            for name, measure in variants.items():
                seen[name].append(measure())
        reference = max(seen["plain"])
        out[f"{dtype_name} n={n}"] = {
            name: {
                "best": round(max(values), 2),
                "median": round(statistics.median(values), 2),
                "best_vs_plain": round(max(values) / reference, 3),
            }
            for name, values in seen.items()
        }
    print(json.dumps({"device": device, "torch": torch.__version__, "variants": out}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
