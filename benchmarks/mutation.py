"""Mutation run over the check rules and the policy: do the fast tests fail when a rule changes?

Not part of CI: it takes minutes. mutmut 3 (``pip install -e '.[mutation]'``) mutates every
function of mpscheck/checks/ and mpscheck/checks/policy.py ([tool.mutmut] in pyproject.toml) and runs the
pure tests that cover each one. It prints killed/total, per file and in all, and the survivors.

mutmut 3 leaves decorated functions alone, and every check is registered with ``@check(...)``. So
the run works in a scratch copy of the tree (never in the worktree) where each top-level
``@check(...)`` decorator is written as the equivalent call after the function,
``name = check(...)(name)``: same registration, and the check bodies become mutable.

    .venv/bin/python benchmarks/mutation.py                 # fresh run, 2 workers
    .venv/bin/python benchmarks/mutation.py --max-children 1
    cd "$TMPDIR/mpscheck-mutation" && mutmut results      # then: mutmut show NAME
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REWRITTEN = "mpscheck/checks"  # where @check(...) decorators are undone in the copy

# mutmut's exit-code meanings (mutmut/stats.py status_by_exit_code, mutmut 3.8.1).
STATUS = {
    1: "killed",
    3: "killed",
    0: "survived",
    5: "no tests",
    33: "no tests",
    34: "skipped",
    35: "suspicious",
    36: "timeout",
    24: "timeout",
    -24: "timeout",
    152: "timeout",
    255: "timeout",
    -11: "segfault",
    -9: "segfault",
    37: "caught by type check",
    None: "not checked",
}


def copy_tree(destination: Path) -> None:
    """The files git knows (tracked, or untracked and not ignored): no venv, no caches."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        timeout=60,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            target = destination / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def undecorate(source: str) -> str:
    """Each top-level function with a single ``@check(...)`` decorator, registered by a call instead."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    edits = []
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef) or len(node.decorator_list) != 1:
            continue
        decorator = node.decorator_list[0]
        if not (isinstance(decorator, ast.Call) and getattr(decorator.func, "id", None) == "check"):
            continue
        call = ast.get_source_segment(source, decorator)
        assert call is not None and node.end_lineno is not None
        edits.append((decorator.lineno, decorator.end_lineno or decorator.lineno, node.end_lineno, node.name, call))
    for first, last, end, name, call in reversed(edits):
        lines.insert(end, f"\n\n{name} = {call}({name})\n")
        del lines[first - 1 : last]
    return "".join(lines)


def tally(work: Path) -> dict[str, Counter[str]]:
    """Statuses per mutated file, from mutmut's own records (mutants/<file>.meta)."""
    out: dict[str, Counter[str]] = {}
    for meta in sorted((work / "mutants").rglob("*.py.meta")):
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        name = str(meta.relative_to(work / "mutants")).removesuffix(".meta")
        out[name] = Counter(STATUS.get(code, "suspicious") for code in codes.values())
    return out


def line(name: str, counts: Counter[str]) -> str:
    total = sum(counts.values())
    killed = counts["killed"]
    others = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()) if s != "killed")
    return f"{name:<40} {killed:>5}/{total:<5} {100 * killed / total if total else 0:5.1f} %  {others}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "mpscheck-mutation")
    parser.add_argument("--max-children", type=int, default=2)
    args = parser.parse_args()
    work: Path = args.workdir.resolve()
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    copy_tree(work)
    for path in sorted((work / REWRITTEN).glob("*.py")):
        path.write_text(undecorate(path.read_text()))
    mutmut = Path(sys.executable).with_name("mutmut")
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    run = subprocess.run([str(mutmut), "run", "--max-children", str(args.max_children)], cwd=work, env=env)
    if run.returncode not in (0, 1):
        print(f"mutmut run exited with {run.returncode}", file=sys.stderr)
        return 2
    counts = tally(work)
    if not counts:
        print("mutmut recorded no mutants", file=sys.stderr)
        return 2
    print()
    for name, found in counts.items():
        print(line(name, found))
    checks = sum((c for n, c in counts.items() if n.startswith(REWRITTEN)), Counter())
    print(line("mpscheck/checks (all)", checks))
    print(line("all mutated files", sum(counts.values(), Counter())))
    print(f"\nsurvivors: cd {work} && {mutmut} results; then {mutmut.name} show NAME")
    return 0


if __name__ == "__main__":
    sys.exit(main())
