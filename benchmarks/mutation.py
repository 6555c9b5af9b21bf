"""Mutation run over the whole judge: do the in-process tests fail when a rule changes?

Not part of CI: it takes long (about half an hour on 16 cores for the whole judge). mutmut 3
(``pip install -e '.[mutation]'``) mutates every function of the judge ([tool.mutmut] in
pyproject.toml): the check rules and the policy, the paste judge (checks/causes), the paste readers
and the explain input reader, the saved-report reader, the knowledge loaders and tables, the op
prediction and the masking step. For each mutant it runs the in-process tests that reach the
mutated function. It prints killed/total per package, the survivors counted by the kind of change,
and writes every survivor with its diff to ``survivors.txt`` in the work folder.

mutmut 3 leaves decorated functions alone: every check is registered with ``@check(...)`` and the
table loaders are cached with ``@lru_cache``. So the run works in a scratch copy of the tree (never
in the worktree) where each such top-level decorator is written as the equivalent call after the
function (``name = check(...)(name)``): same behaviour, and the bodies become mutable. The copy's
tests clear every cache of the package before each test module, so that a table loaded before the
fork is loaded again by the mutant, and mutmut credits a loader to every module that reads it.

    .venv/bin/python benchmarks/mutation.py                         # the whole judge, 2 workers
    .venv/bin/python benchmarks/mutation.py --max-children 16 'mpscheck.redact*'
    .venv/bin/python benchmarks/mutation.py --tally-only            # re-read a finished run
"""

from __future__ import annotations

import argparse
import ast
import difflib
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Decorators written as calls in the copy: the check registry and the caches of the loaders.
UNDECORATED = {"check", "lru_cache", "cache"}
# The packages of the judge, as the issue names them: the first prefix that matches wins.
PACKAGES = [
    ("checks/causes (paste judge)", "mpscheck/checks/causes/"),
    ("checks (rules, policy)", "mpscheck/checks/"),
    ("probes/paste (readers)", "mpscheck/probes/paste/"),
    ("probes (explain input, saved report)", "mpscheck/probes/"),
    ("knowledge (tables, loaders, errors)", "mpscheck/knowledge/"),
    ("ops/prediction.py", "mpscheck/ops/prediction.py"),
    ("redact.py", "mpscheck/redact.py"),
]
CACHE_RESET = '''

@pytest.fixture(autouse=True, scope="{scope}")
def _mutation_run_clears_caches():
    """Added by benchmarks/mutation.py: a loader cached before the fork runs again as the mutant, and
    once per test module, so that mutmut credits its body to every module that reads it (a cache
    filled once would credit only the first test)."""
    for name, module in list(sys.modules.items()):
        if name.startswith("mpscheck"):
            for value in list(vars(module).values()):
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()
    yield
'''

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
    """The files git knows (tracked, or untracked and not ignored): no venv, no caches.

    Outside a git checkout (a copy carried to another machine), every file but caches and venvs.
    """
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        timeout=60,
    )
    names = [n for n in listed.stdout.decode().split("\0") if n] if listed.returncode == 0 else []
    if not names:
        skip = shutil.ignore_patterns(".git", ".venv", ".wt-*", "__pycache__", "mutants", ".mypy_cache", ".ruff_cache")
        shutil.copytree(ROOT, destination, ignore=skip, dirs_exist_ok=True)
        return
    for name in names:
        source = ROOT / name
        if source.is_file():
            target = destination / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def _decorator_name(decorator: ast.expr) -> str | None:
    """``check`` for ``@check(...)``, ``lru_cache`` for ``@functools.lru_cache(maxsize=1)``."""
    func = decorator.func if isinstance(decorator, ast.Call) else decorator
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def undecorate(source: str) -> str:
    """Each top-level function with one registry or cache decorator, wrapped by a call instead."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    edits = []
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef) or len(node.decorator_list) != 1:
            continue
        decorator = node.decorator_list[0]
        if _decorator_name(decorator) not in UNDECORATED:
            continue
        call = ast.get_source_segment(source, decorator)
        assert call is not None and node.end_lineno is not None
        edits.append((decorator.lineno, decorator.end_lineno or decorator.lineno, node.end_lineno, node.name, call))
    for first, last, end, name, call in reversed(edits):
        lines.insert(end, f"\n\n{name} = {call}({name})\n")
        del lines[first - 1 : last]
    return "".join(lines)


def prepare(work: Path, scope: str = "module") -> None:
    """A scratch copy of the tree, decorators undone in the judge, caches cleared per test session."""
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    copy_tree(work)
    for path in sorted((work / "mpscheck").rglob("*.py")):
        text = path.read_text()
        rewritten = undecorate(text)
        if rewritten != text:
            path.write_text(rewritten)
    conftest = work / "tests" / "conftest.py"
    text = conftest.read_text()
    if "\nimport sys\n" not in text:
        text = text.replace("import pytest\n", "import sys\n\nimport pytest\n", 1)
    conftest.write_text(text + CACHE_RESET.replace("{scope}", scope))


def package_of(path: str) -> str:
    for name, prefix in PACKAGES:
        if path.startswith(prefix):
            return name
    return path


def statuses(work: Path) -> dict[str, dict[str, str]]:
    """Every mutant's status per mutated file, from mutmut's own records (mutants/<file>.meta)."""
    out: dict[str, dict[str, str]] = {}
    for meta in sorted((work / "mutants").rglob("*.py.meta")):
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        name = str(meta.relative_to(work / "mutants")).removesuffix(".meta")
        out[name] = {key: STATUS.get(code, "suspicious") for key, code in codes.items()}
    return out


def _functions(path: Path) -> dict[str, str]:
    """Every function of a mutated file, unparsed, by name (mutants are functions named *__mutmut_N)."""
    tree = ast.parse(path.read_text())
    found: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found[node.name] = ast.unparse(node.body if len(node.body) > 1 else node.body[0])
    return found


def kind_of(before: str, after: str) -> str:
    """What a mutant changed, in words, from the tokens that differ from the original."""
    old = set(re.findall(r"\w+|[^\w\s]+", before))
    new = set(re.findall(r"\w+|[^\w\s]+", after))
    removed, added = old - new, new - old
    changed = added | removed
    if "XX" in after and "XX" not in before:
        return "string changed"
    if any(t.isdigit() for t in changed):
        return "number changed"
    if added & {"None"}:
        return "value replaced by None"
    if changed and changed <= {"True", "False"}:
        return "boolean flipped"
    if changed and changed <= {"and", "or", "not", "is"}:
        return "boolean operator"
    if changed & {"<", "<=", ">", ">=", "==", "!="}:
        return "comparison changed"
    if changed & {"+", "-", "*", "/", "//", "%", "+=", "-=", "**", "|", "&"}:
        return "arithmetic changed"
    if changed & {"break", "continue", "return"}:
        return "control flow"
    if len(after) < len(before):
        return "argument or item removed"
    if before.lower() == after.lower():
        return "string case changed"
    return "other"


def survivors(work: Path, found: dict[str, dict[str, str]]) -> list[tuple[str, str, str, str]]:
    """(package, mutant, kind, diff) for every surviving mutant."""
    out = []
    for path, by_key in found.items():
        names = [key for key, status in by_key.items() if status == "survived"]
        if not names:
            continue
        functions = _functions(work / "mutants" / path)
        for key in names:
            function = key.rsplit(".", 1)[-1]
            original = functions.get(function.rsplit("__mutmut_", 1)[0] + "__mutmut_orig", "")
            mutant = functions.get(function, "")
            diff = "\n".join(
                line
                for line in difflib.unified_diff(original.splitlines(), mutant.splitlines(), lineterm="", n=0)
                if line[:1] in "+-" and line[:3] not in ("+++", "---")
            )
            out.append((package_of(path), key, kind_of(original, mutant), diff))
    return out


def wilson(killed: int, total: int) -> tuple[float, float]:
    """The 95 % interval of the killed share when the mutants are a random sample (Wilson score)."""
    if not total:
        return (0.0, 0.0)
    z = 1.96
    share = killed / total
    centre = (share + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(share * (1 - share) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return (centre - half, centre + half)


def line(name: str, counts: Counter[str], sampled: bool = False) -> str:
    total = sum(counts.values())
    killed = counts["killed"]
    others = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()) if s != "killed")
    interval = ""
    if sampled:
        low, high = wilson(killed, total)
        interval = f" (95 % {100 * low:.1f}-{100 * high:.1f})"
    return f"{name:<40} {killed:>5}/{total:<5} {100 * killed / total if total else 0:5.1f} %{interval}  {others}"


def draw_sample(work: Path, per_package: int, seed: int, only: tuple[str, ...] = ()) -> list[str]:
    """Up to ``per_package`` mutants of each package (of those starting with one of *only*, if given),
    drawn at random (seeded) from every mutant."""
    by_package: dict[str, list[str]] = {}
    for path, by_key in statuses(work).items():
        if not only or package_of(path).startswith(only):
            by_package.setdefault(package_of(path), []).extend(by_key)
    chosen: list[str] = []
    draw = random.Random(seed)
    for _package, keys in sorted(by_package.items()):
        keys.sort()
        chosen.extend(keys if len(keys) <= per_package else draw.sample(keys, per_package))
    return sorted(chosen)


def report(work: Path) -> int:
    found = statuses(work)
    if not found:
        print("mutmut recorded no mutants", file=sys.stderr)
        return 2
    sample_file = work / "sample.txt"
    sampled = sample_file.exists()
    if sampled:
        keep = set(sample_file.read_text().split())
        found = {path: {k: v for k, v in by_key.items() if k in keep} for path, by_key in found.items()}
        print(f"a random sample of {len(keep)} mutants ({sample_file})")
    per_package: dict[str, Counter[str]] = {}
    for path, by_key in found.items():
        per_package.setdefault(package_of(path), Counter()).update(by_key.values())
    print()
    for name, counts in per_package.items():
        print(line(name, counts, sampled))
    print(line("the whole judge", sum(per_package.values(), Counter()), sampled))
    alive = survivors(work, found)
    kinds: dict[str, Counter[str]] = {}
    for package, _key, kind, _diff in alive:
        kinds.setdefault(package, Counter())[kind] += 1
    print("\nsurvivors by kind of change:")
    for package, counts in kinds.items():
        print(f"  {package}: " + ", ".join(f"{n} {k}" for k, n in counts.most_common()))
    listing = work / "survivors.txt"
    listing.write_text("".join(f"## {key} [{package}; {kind}]\n{diff}\n\n" for package, key, kind, diff in alive))
    print(f"\nevery survivor with its diff: {listing}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="mutant name globs for mutmut run (e.g. 'mpscheck.redact*')")
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "mpscheck-mutation")
    parser.add_argument("--max-children", type=int, default=2)
    parser.add_argument("--tally-only", action="store_true", help="re-read a finished run's records")
    parser.add_argument("--sample", type=int, metavar="N", help="only N mutants per package, drawn at random")
    parser.add_argument("--seed", type=int, default=20261124, help="the seed of --sample's draw")
    parser.add_argument("--packages", nargs="+", default=(), help="--sample only these packages (name prefixes)")
    parser.add_argument("--names-from", type=Path, help="a file of mutant names to run, one per line")
    parser.add_argument(
        "--clear-caches",
        choices=("module", "session"),
        default="module",
        help="when the copy's tests clear the package's caches: per module credits a cached loader to every "
        "module that reads it; per session is faster",
    )
    args = parser.parse_args()
    work: Path = args.workdir.resolve()
    if not args.tally_only:
        prepare(work, args.clear_caches)
        # mutmut's stats pass split over as many processes as it runs mutants in (benchmarks/mutmut_sharded.py)
        sharded = str(Path(__file__).resolve().parent / "mutmut_sharded.py")
        mutmut = [sys.executable, sharded, "run", "--max-children", str(args.max_children)]
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "MUTMUT_SHARDS": str(args.max_children)}
        names = list(args.names) + (args.names_from.read_text().split() if args.names_from else [])
        if args.sample:
            # mutmut generates every mutant before it filters by name: a name that matches none
            # makes it stop right after, with every mutant's name in its records.
            subprocess.run([*mutmut, "mpscheck.no_such_function_*"], cwd=work, env=env, capture_output=True)
            names = draw_sample(work, args.sample, args.seed, tuple(args.packages))
            (work / "sample.txt").write_text("\n".join(names) + "\n")
        run = subprocess.run([*mutmut, *names], cwd=work, env=env)
        if run.returncode not in (0, 1):
            print(f"mutmut run exited with {run.returncode}", file=sys.stderr)
            return 2
    return report(work)


if __name__ == "__main__":
    sys.exit(main())
