"""What does `mpscheck ops`'s recording cost a training loop? Per step, timed inside the script.

Two workloads, a small transformer and a small CNN, each trained for --steps steps (150 by
default), each step timed inside the script (perf_counter, with a CUDA synchronize at the end of
the step on --device cuda), once plain and once under the recording hook, alternating for
--rounds rounds. Printed per workload, in one run:

- the per-step ratios (recorded / plain): of the mean step (every step, the recorded ones first
  included: what the loop pays in all) and of the median step (the steady state);
- the whole-process ratio beside them (``import torch`` and start-up included, as a user would time
  the command), and when the recording paused.

The target is a mean per-step ratio of at most 1.2 (issue 19 item 5). Not a timed test.

    python benchmarks/bench_ops_recording.py [--device cpu|cuda] [--steps 150] [--rounds 2]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from mpscheck.ops.session import record_command
from mpscheck.probes.command import run_user_command

TARGET = 1.2

COMMON = """
import json, sys, time, torch
from torch import nn
steps, device, out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
torch.manual_seed(0)
sync = torch.cuda.synchronize if device == "cuda" else (lambda: None)
"""

TRANSFORMER = (
    COMMON
    + """
big = device == "cuda"
width, layers, batch, length, vocab = (256, 4, 32, 128, 1000) if big else (64, 2, 8, 32, 200)
emb = nn.Embedding(vocab, width).to(device)
enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(width, 4, 4 * width, batch_first=True), layers).to(device)
head = nn.Linear(width, vocab).to(device)
params = list(emb.parameters()) + list(enc.parameters()) + list(head.parameters())
opt = torch.optim.AdamW(params, lr=1e-3)
times = []
for _ in range(steps):
    started = time.perf_counter()
    tokens = torch.randint(0, vocab, (batch, length), device=device)
    loss = nn.functional.cross_entropy(head(enc(emb(tokens))).reshape(-1, vocab), tokens.reshape(-1))
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(params, 1.0)
    opt.step()
    sync()
    times.append(time.perf_counter() - started)
json.dump(times, open(out, "w"))
"""
)

CNN = (
    COMMON
    + """
big = device == "cuda"
channels, batch, size = (64, 64, 32) if big else (16, 16, 32)
model = nn.Sequential(
    nn.Conv2d(3, channels, 3, padding=1), nn.BatchNorm2d(channels), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(channels, 2 * channels, 3, padding=1), nn.BatchNorm2d(2 * channels), nn.ReLU(), nn.MaxPool2d(2),
    nn.Flatten(), nn.Dropout(0.1), nn.Linear(2 * channels * (size // 4) ** 2, 10),
).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
times = []
for _ in range(steps):
    started = time.perf_counter()
    x = torch.randn(batch, 3, size, size, device=device)
    y = torch.randint(0, 10, (batch,), device=device)
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    sync()
    times.append(time.perf_counter() - started)
json.dump(times, open(out, "w"))
"""
)

WORKLOADS = {"transformer": TRANSFORMER, "cnn": CNN}


def _one(argv: list[str], out: Path, recorded: bool) -> tuple[list[float], float, list[dict[str, object]]]:
    """(step times, whole-process seconds, pacing of each recorded process) of one run."""
    with open(os.devnull, "w") as sink:
        started = time.perf_counter()
        if recorded:
            run = record_command(argv, dict(os.environ), stdout=sink)
            code, pacing = run.child.exit_code, run.recording.pacing
        else:
            code, pacing = run_user_command(argv, dict(os.environ), stdout=sink).exit_code, []
        whole = time.perf_counter() - started
    if code != 0:
        raise SystemExit(f"the workload failed (exit {code}): {' '.join(argv)}")
    return json.loads(out.read_text()), whole, pacing


def _pause(pacing: list[dict[str, object]]) -> str:
    for process in pacing:
        for event in process.get("events", ()):  # type: ignore[union-attr]
            if event.get("event") == "paused":
                return f"paused after step {event.get('after_steps')}"
    return "never paused (recorded every step)"


def bench(name: str, source: str, steps: int, rounds: int, device: str) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as folder:
        script, out = Path(folder) / f"{name}.py", Path(folder) / "times.json"
        script.write_text(source)
        argv = [sys.executable, str(script), str(steps), device, str(out)]
        plain: list[list[float]] = []
        recorded: list[list[float]] = []
        whole = {"plain": [], "recorded": []}  # type: dict[str, list[float]]
        pause = ""
        for _ in range(rounds):
            times, seconds, _ = _one(argv, out, recorded=False)
            plain.append(times)
            whole["plain"].append(seconds)
            times, seconds, pacing = _one(argv, out, recorded=True)
            recorded.append(times)
            whole["recorded"].append(seconds)
            pause = _pause(pacing)
    mean_plain = statistics.median(statistics.fmean(t) for t in plain)
    mean_recorded = statistics.median(statistics.fmean(t) for t in recorded)
    median_plain = statistics.median(statistics.median(t) for t in plain)
    median_recorded = statistics.median(statistics.median(t) for t in recorded)
    return {
        "workload": name,
        "steps": steps,
        "plain_ms_mean": 1000 * mean_plain,
        "recorded_ms_mean": 1000 * mean_recorded,
        "per_step_mean_ratio": mean_recorded / mean_plain,
        "per_step_median_ratio": median_recorded / median_plain,
        "first_steps_recorded_ms": [round(1000 * t, 1) for t in recorded[-1][:5]],
        "whole_process_ratio": statistics.median(whole["recorded"]) / statistics.median(whole["plain"]),
        "pacing": pause,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", choices=("cpu", "cuda"), default="cpu")
    parser.add_argument("--steps", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--workload", choices=sorted(WORKLOADS), action="append")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON lines too")
    args = parser.parse_args()
    worst = 0.0
    for name in args.workload or list(WORKLOADS):
        row = bench(name, WORKLOADS[name], args.steps, args.rounds, args.device)
        worst = max(worst, float(row["per_step_mean_ratio"]))  # type: ignore[arg-type]
        print(
            f"{name:12s} {args.device}: step {row['plain_ms_mean']:.2f} ms plain, {row['recorded_ms_mean']:.2f} ms "
            f"recorded; per-step ratio mean {row['per_step_mean_ratio']:.2f}, median "
            f"{row['per_step_median_ratio']:.2f}; whole process {row['whole_process_ratio']:.2f}; {row['pacing']}",
            flush=True,
        )
        if args.json:
            print(json.dumps(row), flush=True)
    verdict = "ok" if worst <= TARGET else "OVER"
    print(f"worst mean per-step ratio {worst:.2f} (target <= {TARGET}): {verdict}")
    return 0 if worst <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
