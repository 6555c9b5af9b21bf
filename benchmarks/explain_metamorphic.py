"""Does `mpscheck explain` keep its answer when the same paste arrives in another shape? (issue 17)

For every tuning-corpus case whose top cause and fix explain gets right, applies each meaning-preserving
transformation of tests/metamorphic.py (a terminal's hard wrap, CRLF, a quoted reply, a code fence, a
log prefix, prose around it, typography, a Python repr, a notebook's error object, colour codes, the
paste twice, shuffled package lists, HTML escapes) and checks that the top cause and the fix still
match the thread's (the rule of tests/test_corpus.py). Prints, per transformation, how many cases keep
the right answer, then every break. A transformation that leaves a paste unchanged is not counted.
Only the tuning corpus is read (tests/corpus/*.txt), never the held-out quarter. Run from the
repository root:

    python benchmarks/explain_metamorphic.py [-q] [--only=NAME[,NAME...]]
    python benchmarks/explain_metamorphic.py --draw   # print a new seeded CI subset (tests/test_explain_metamorphic.py)
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.corpus_cases import Case, cases, fix_matches
from tests.metamorphic import EXCLUDED, TRANSFORMS, answer


def right(case: Case, text: str) -> tuple[bool, str]:
    """Whether explain's answer for *text* is the thread's cause and fix, and what it answered."""
    diagnosis = answer(text)
    if diagnosis is None:
        return False, "(read as a saved report)"
    ok = diagnosis.cause.id == case.cause and fix_matches(case, diagnosis.cause.id, diagnosis.cause.fix)
    return ok, diagnosis.cause.id + ("" if diagnosis.cause.id != case.cause else " (other fix)")


def draw(base: list[Case], count: int = 40, seed: str = "issue-17") -> list[tuple[str, str]]:
    """A seeded subset of (transformation, case) pairs: one per transformation, the rest drawn at random, each
    a pair whose shape changes the paste, is not excluded, and keeps its answer today (a regression guard: the
    breaks still open are listed by the full run)."""
    rng = random.Random(seed)
    pools = {
        name: [
            c.name for c in base if t(c.paste) != c.paste and (c.name, name) not in EXCLUDED and right(c, t(c.paste))[0]
        ]
        for name, t in TRANSFORMS.items()
    }
    pairs = [(name, rng.choice(pool)) for name, pool in pools.items()]
    everything = sorted({(name, case) for name, pool in pools.items() for case in pool} - set(pairs))
    return pairs + rng.sample(everything, max(count - len(pairs), 0))


def false_healthy(names: list[str]) -> list[str]:
    """Every tuning case, right or wrong, under every shape: exit 0 (or "healthy") where the paste as given gets
    neither. The worst answer explain can give, so it is counted over all cases."""
    found = []
    for case in cases():
        before = answer(case.paste)
        if before is None or before.cause.id == "healthy" or before.exit_code == 0:
            continue
        for name in names:
            after = answer(TRANSFORMS[name](case.paste))
            if after is not None and (after.cause.id == "healthy" or after.exit_code == 0):
                found.append(f"HEALTHY {name:<17} {case.name:<56} as given: {before.cause.id}, now {after.cause.id}")
    return found


def main(argv: list[str]) -> int:
    if "--draw" in argv:
        print("\n".join(f"    {pair!r}," for pair in draw([c for c in cases() if right(c, c.paste)[0]])))
        return 0
    only = next((a.split("=", 1)[1] for a in argv if a.startswith("--only=")), None)
    names = only.split(",") if only else list(TRANSFORMS)
    base = [case for case in cases() if right(case, case.paste)[0]]
    print(f"== {len(base)} tuning cases whose cause and fix explain gets right, {len(names)} transformations")
    breaks: list[str] = []
    kept_all = total_all = 0
    for name in names:
        transform = TRANSFORMS[name]
        kept = total = skipped = 0
        for case in base:
            text = transform(case.paste)
            if text == case.paste:
                continue
            if (case.name, name) in EXCLUDED:
                skipped += 1
                continue
            total += 1
            ok, said = right(case, text)
            kept += ok
            if not ok:
                breaks.append(f"BREAK {name:<17} {case.name:<56} thread: {case.cause:<26} explain: {said}")
        kept_all += kept
        total_all += total
        note = f", {skipped} excluded (meaning changed)" if skipped else ""
        print(f"{name:<17} {kept:>4}/{total:<4} kept{note}")
    print(f"all               {kept_all:>4}/{total_all:<4} kept ({100 * kept_all / max(total_all, 1):.1f} %)")
    healthy = false_healthy(names)
    print(f"false healthy: {len(healthy)} (any corpus case, any shape: 'healthy' where the paste as given is not)")
    breaks += healthy
    if "-q" not in argv:
        print("\n".join(breaks))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
