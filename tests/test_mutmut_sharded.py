"""The mutation run's stats pass is split over processes by test file (benchmarks/mutmut_sharded.py): every file
in exactly one shard, the largest files spread first, no empty shard."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from mutmut_sharded import shards_of


def test_every_file_is_in_one_shard_and_the_big_ones_apart() -> None:
    ids = [f"tests/test_big.py::t[{n}]" for n in range(100)] + [f"tests/test_mid.py::t{n}" for n in range(60)]
    ids += ["tests/test_a.py::x", "tests/test_b.py::y", "tests/test_b.py::z"]
    shards = shards_of(ids, 3)
    assert sorted(path for shard in shards for path in shard) == [
        "tests/test_a.py",
        "tests/test_b.py",
        "tests/test_big.py",
        "tests/test_mid.py",
    ]
    assert shards[0] == ["tests/test_big.py"] and shards[1] == ["tests/test_mid.py"]  # each alone
    assert shards[2] == ["tests/test_b.py", "tests/test_a.py"]  # the small ones share the least loaded
    assert shards_of(ids, 16) == [
        ["tests/test_big.py"],
        ["tests/test_mid.py"],
        ["tests/test_b.py"],
        ["tests/test_a.py"],
    ]
    assert shards_of([], 4) == []
