"""What does `mpscheck ops`'s recording cost? The ratio, from one run, of a training script's wall
time with the recording hook on to its time without (target: <= 2.0). Not a timed test.

The default workload trains the small CNN and the small transformer of tests/op_scripts for a few
seconds (whole process, `import torch` included, as a user would time it). Pass --script to time
your own. Runs alternate; the ratio of medians decides, and the ratio of the fastest runs is shown
beside it (less sensitive to other load on a shared machine).

    python benchmarks/bench_ops_recording.py [--rounds 3] [--steps 10] [--script PATH]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from mpscheck.ops.session import record_command
from mpscheck.probes.command import run_user_command

WORKLOAD = """
import sys, torch
from torch import nn
steps = int(sys.argv[1])
torch.manual_seed(0)
cnn = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
                    nn.Flatten(), nn.Linear(16 * 16 * 16, 10))
enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(64, 4, 128, batch_first=True), 2)
head = nn.Linear(64, 100)
emb = nn.Embedding(100, 64)
opt = torch.optim.AdamW(list(cnn.parameters()) + list(enc.parameters()) + list(head.parameters())
                        + list(emb.parameters()), lr=1e-3)
for _ in range(steps):
    x, y = torch.randn(16, 3, 32, 32), torch.randint(0, 10, (16,))
    t = torch.randint(0, 100, (8, 32))
    loss = nn.functional.cross_entropy(cnn(x), y)
    loss = loss + nn.functional.cross_entropy(head(enc(emb(t))).reshape(-1, 100), t.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--script", help="time this script instead of the built-in training workload")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        script = args.script or str(Path(folder) / "workload.py")
        if not args.script:
            Path(script).write_text(WORKLOAD)
        argv = [sys.executable, script] + ([] if args.script else [str(args.steps)])
        plain, recorded = [], []
        calls = 0
        with open(os.devnull, "w") as sink:
            for _ in range(args.rounds):
                started = time.perf_counter()
                run_user_command(argv, dict(os.environ), stdout=sink)
                plain.append(time.perf_counter() - started)
                started = time.perf_counter()
                run = record_command(argv, dict(os.environ), stdout=sink)
                recorded.append(time.perf_counter() - started)
                calls = sum(op.calls for op in run.recording.ops)
    ratio = statistics.median(recorded) / statistics.median(plain)
    fastest = min(recorded) / min(plain)  # less sensitive to other load on a shared machine
    print(f"script: {' '.join(argv[1:])}")
    print(f"plain    median {statistics.median(plain):.2f} s  {[round(t, 2) for t in plain]}")
    print(f"recorded median {statistics.median(recorded):.2f} s  {[round(t, 2) for t in recorded]}")
    print(f"ops recorded per run: {calls} calls")
    print(
        f"ratio of medians {ratio:.2f}, of fastest runs {fastest:.2f} "
        f"(target <= 2.0): {'ok' if ratio <= 2.0 else 'OVER'}"
    )
    return 0 if ratio <= 2.0 else 1


if __name__ == "__main__":
    sys.exit(main())
