"""How often does `mpscheck explain` find the thread's root cause in the corpus of real pastes?

Reads every tests/corpus/*.txt, runs the paste through the parsers and the judgement, and prints one
line per case (OK, or XX with the thread's cause and the engine's), then the share whose top cause is
the thread's and the share whose fix also matches the thread's fix (the same rule as
tests/test_corpus.py), for the tuning corpus and for the held-out quarter (tests/corpus/heldout/,
never tuned on). Not a timed test; run it from the repository root:

    python benchmarks/explain_corpus.py [-q]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mpscheck.checks.causes import explain_text
from tests.corpus_cases import CORPUS, HELDOUT, cases, fix_matches


def main(argv: list[str]) -> int:
    for label, folder in (("corpus", CORPUS), ("held-out", HELDOUT)):
        print(f"== {label} ({folder.relative_to(Path.cwd()) if folder.is_relative_to(Path.cwd()) else folder})")
        score(folder, quiet="-q" in argv)
    return 0


def score(folder: Path, quiet: bool) -> None:
    all_cases = cases(folder)
    right_cause = right_fix = 0
    for case in all_cases:
        diagnosis = explain_text(case.paste)
        cause_ok = diagnosis.cause.id == case.cause
        fix_ok = cause_ok and fix_matches(case, diagnosis.cause.id, diagnosis.cause.fix)
        right_cause += cause_ok
        right_fix += fix_ok
        if not quiet or not fix_ok:
            mark = "OK" if fix_ok else ("FIX" if cause_ok else "XX")
            print(f"{mark:<3} {case.name:<52} thread: {case.cause:<26} explain: {diagnosis.cause.id}")
    total = len(all_cases)
    print(f"top cause right: {right_cause}/{total} ({100 * right_cause / total:.0f} %)")
    print(f"top cause and fix right: {right_fix}/{total} ({100 * right_fix / total:.0f} %)")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
