"""How long does `mpscheck explain` take on any input up to 10 MB? One run's figures, not a timed test.

Writes inputs of 10 MB (10,000,000 bytes) built to be slow: the whole corpus repeated (real text that
every reader and every error row matches, over and over), a training log of one torch warning
repeated, 4000-character lines of `_`, `/`, spaces, digits, quotes and brackets, the words of the
readers' patterns repeated, lines of the prose readers' anchor words, random bytes, one line with no newline at all,
many short lines (`seq`, `yes`), and UTF-16 with a BOM.
Runs `mpscheck explain FILE --format json` on each as a subprocess (start-up included) and prints
the median wall time of the rounds and the exit code (target: < 2 s each, on the 2-core workplace).

    python benchmarks/bench_explain_large.py [--rounds 3] [--size 10000000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "corpus"
MPSCHECK = [sys.executable, "-m", "mpscheck", "explain", "--format", "json"]
WARNING = (
    "/Users/me/train.py:42: UserWarning: The operator 'aten::sgn.out' is not currently supported on the MPS "
    "backend and will fall back to run on the CPU. This may have performance implications.\n"
)


def inputs(size: int) -> dict[str, bytes]:
    corpus = "\n".join(p.read_text(encoding="utf-8").partition("\n---\n")[2] for p in sorted(CORPUS.glob("*.txt")))
    rng = random.Random(18)

    def fill(unit: str) -> bytes:
        return (unit * (size // len(unit) + 1))[:size].encode()

    lines = {
        name: fill((ch * 3999)[:3999] + "\n")
        for name, ch in [
            ("underscores", "_"),
            ("slashes", "/"),
            ("spaces", " "),
            ("digits", "7"),
            ("quotes", "'\""),
            ("brackets", "([{"),
        ]
    }

    # the prose readers' anchor words, each repeated over 4000-character lines: a window regex of the form
    # "words.{0,60}mps" works 60 characters at every "mps" (prose.Near looks from the rarer words instead)
    # (each line numbered, so that no line is a copy that the readers read once)
    def numbered(word: str) -> bytes:
        line = (word * 4000)[:3990]
        return "".join(f"{n:>8} {line}\n" for n in range(size // 4000 + 1)).encode()[:size]

    words = {
        f"lines of {word.strip()!r}": numbered(word)
        for word in ("mps ", "MPS ", "mac ", "gpu ", "results wrong ", "noise ")
    }
    return {
        "corpus repeated": fill(corpus + "\n"),
        "warning log": fill(WARNING),
        **lines,
        **words,
        "pattern words": fill(
            "MPS: MPS backend out of memory (MPS allocated: Ultralytics YOLO mps available "
            "Darwin Kernel Version torch- Downloading user@host uname_result(system='"
        ),
        "random bytes": bytes(rng.getrandbits(8) for _ in range(size)),
        "one long line": fill("a b_c/d 1.2 "),
        # a printed tensor that never closes, on every line, each line different (no line is read once for all)
        "unclosed tensors": "".join(f"tensor([{n}., 2., " + "3., " * 20 + "\n" for n in range(size // 90)).encode()[
            :size
        ],
        "nested brackets": fill("tensor(" + "(" * 3990 + "\n"),
        # many short lines: every reader pays per line (`seq`: 65,000 lines in the first 400,000 characters)
        "numbers (seq)": "".join(f"{n}\n" for n in range(1, size // 6)).encode()[:size],
        "one letter (yes)": fill("y\n"),
        # a progress bar's updates, CR-separated: one line to a LF count, hundreds of thousands to the readers
        "progress bar (CR)": fill("\r 42%|####      | 420/1000 [00:07<00:09, 61.3it/s]"),
        "utf-16 with BOM": b"\xff\xfe"
        + (corpus * (size // (2 * len(corpus)) + 1))[: size // 2 - 1].encode("utf-16-le"),
    }


def timed(path: Path) -> tuple[float, int]:
    started = time.perf_counter()
    done = subprocess.run([*MPSCHECK, str(path)], capture_output=True, check=False, timeout=600)
    return time.perf_counter() - started, done.returncode


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--rounds", type=int, default=3)
    options.add_argument("--size", type=int, default=10_000_000)
    args = options.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for name, data in inputs(args.size).items():
            path = Path(folder) / "input.txt"
            path.write_bytes(data)
            runs = [timed(path) for _ in range(args.rounds)]
            seconds = statistics.median(s for s, _ in runs)
            codes = sorted({c for _, c in runs})
            print(
                f"{name:<18} {len(data) / 1e6:5.1f} MB  median {seconds:5.2f} s  max {max(s for s, _ in runs):5.2f} s"
                f"  exit {codes}"
            )


if __name__ == "__main__":
    main()
