"""mutmut 3's command line with its stats pass split over forked processes, one shard of test files each.

mutmut runs every selected test once, in one process, to learn which tests reach which function: with ~7,000
tests and the judge's trampolines that pass took 7.5 minutes on the device machine, most of a 10-minute call.
Here it runs in MUTMUT_SHARDS forked processes (default 16), the test files shared out by their number of tests,
and their records are merged: the same tests-by-function map as one process gives (checked on a small selection).
Whole files, never node ids: a test whose parameters are regular expressions has ids pytest cannot take as
arguments. MUTMUT_SKIP_CLEAN=1 skips mutmut's clean run of the selected tests, which repeats the stats pass.

    python benchmarks/mutmut_sharded.py run --max-children 16 [NAMES...]     # in benchmarks/mutation.py's copy
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import traceback
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Callable

SHARDS = int(os.environ.get("MUTMUT_SHARDS", "16"))


def shards_of(test_ids: Iterable[str], count: int) -> list[list[str]]:
    """The test files of *test_ids* shared out over *count* shards, the largest first onto the least loaded."""
    per_file: dict[str, int] = {}
    for node in test_ids:
        path = node.split("::")[0]
        per_file[path] = per_file.get(path, 0) + 1
    shards: list[list[str]] = [[] for _ in range(count)]
    loads = [0] * count
    for path, tests in sorted(per_file.items(), key=lambda item: (-item[1], item[0])):
        least = loads.index(min(loads))
        shards[least].append(path)
        loads[least] += tests + 20  # a file's collection costs about as much as 20 tests
    return [shard for shard in shards if shard]


def sharded(run_stats: Callable[..., int]) -> Callable[..., int]:
    """mutmut's PytestRunner.run_stats, run on each shard in a forked child and the records merged."""

    def sharded_run_stats(self: Any, *, tests: Iterable[str]) -> int:
        return _sharded(self, run_stats, tests)

    return sharded_run_stats


def _sharded(self: Any, run_stats: Callable[..., int], tests: Iterable[str]) -> int:
    from mutmut.state import state

    ids = sorted(tests) if tests else sorted(self.list_all_tests().ids)
    folder = Path(tempfile.mkdtemp(prefix="mutmut-stats-"))
    children = []
    for number, shard in enumerate(shards_of(ids, SHARDS)):
        pid = os.fork()
        if pid == 0:  # the child: one shard's stats, written down, then gone without running mutmut on
            record: dict[str, Any] = {"code": 99, "error": ""}
            try:
                record["code"] = run_stats(self, tests=shard)
            except BaseException:
                record["error"] = traceback.format_exc()
            finally:
                record["tests"] = {k: sorted(v) for k, v in state().tests_by_mangled_function_name.items()}
                record["dependencies"] = {k: sorted(v) for k, v in state().function_dependencies.items()}
                record["durations"] = state().duration_by_test
                (folder / f"{number}.json").write_text(json.dumps(record))
                os._exit(0)
        children.append((number, pid))
    codes = []
    for number, pid in children:
        os.waitpid(pid, 0)
        path = folder / f"{number}.json"
        record = json.loads(path.read_text()) if path.exists() else {"code": 98, "error": "the shard left no record"}
        codes.append(record["code"])
        if record["error"]:
            print(f"stats shard {number}: {record['error'][-3000:]}", file=sys.__stderr__, flush=True)
        for name, names in record.get("tests", {}).items():
            state().tests_by_mangled_function_name[name] |= set(names)
        for name, callers in record.get("dependencies", {}).items():
            state().function_dependencies[name] |= set(callers)
        state().duration_by_test.update(record.get("durations", {}))
    return max(codes, default=0)


def main() -> None:
    from mutmut.runners.harness import PytestRunner
    from mutmut.workers import isolation

    PytestRunner.run_stats = sharded(PytestRunner.run_stats)  # type: ignore[method-assign]
    if os.environ.get("MUTMUT_SKIP_CLEAN") == "1":
        for runner in list(vars(isolation).values()):
            if isinstance(runner, type) and "run_clean_tests" in vars(runner):
                runner.run_clean_tests = lambda self, tests: 0  # type: ignore[attr-defined]
    import mutmut.__main__ as mutmut_cli

    sys.argv = ["mutmut", *sys.argv[1:]]
    mutmut_cli.cli()


if __name__ == "__main__":
    main()
