"""tools/add_release.py (``build_knowledge.py --add``): one new release merged into the tables equals the
tables built with it from the start, on facts read from the recorded wheel excerpts in
tests/fixtures/wheels/ (nothing is downloaded)."""

from __future__ import annotations

import copy
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests import tools_loader
from tests.test_knowledge_extract import FIXTURES, strings_of, tool

ROOT = Path(__file__).resolve().parent.parent


def _load(name: str) -> ModuleType:
    return tools_loader.load_tool(name)


add = _load("add_release")
ARM64 = ("2.3.0", "2.7.1", "2.8.0", "2.9.0", "2.15.0")


def _cpu_always(directory: Path) -> list[str]:
    table = dict(line.split(" ", 1) for line in (directory / "cstrings.txt").read_text().splitlines())
    addresses = tool.cstring_addresses((directory / "aten_init.asm.txt").read_text())
    return [table[f"0x{a:x}"] for a in addresses if f"0x{a:x}" in table]


def wheel_facts(version: str) -> dict[str, Any]:
    """What read_wheel gives for a release, from its recorded excerpts."""
    directory = FIXTURES / version
    texts, names = tool.categorize_strings(strings_of(version))
    python_sources = [(directory / f).read_text() for f in ("backends_mps_init.py.txt", "mps_init.py.txt")]
    return {
        "wheel": f"torch-{version}-cp311-none-macosx_11_0_arm64.whl",
        "platform_tag": "macosx_11_0_arm64",
        "texts": {t: {"category": c, "files": [tool.LIBTORCH_CPU]} for c, ts in texts.items() for t in ts},
        "env_vars": {n: [tool.LIBTORCH_CPU] for n in names},
        "api": {
            "torch.backends.mps": tool.api_names(python_sources[0]),
            "torch.mps": tool.api_names(python_sources[1]),
        },
        "python_mps_impls": [impl for source in python_sources for impl in tool.python_mps_impls(source)],
        "metadata": tool.metadata_facts((directory / "METADATA").read_text()),
        "ops": tool.op_entries(tool.load_yaml((directory / "native_functions.excerpt.yaml").read_text())),
        "fallback": {"reader": None, "calls": [], "cpu_always": _cpu_always(directory)},
    }


INSTALL = {"macosx_11_0_arm64": {"3.11": list(ARM64)}}
FACTS = {f"{v}/arm64": wheel_facts(v) for v in ARM64}


def _added(per_release: dict[str, Any], version: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The two tables without *version*, then *version* added as --add does it."""
    without = {label: facts for label, facts in per_release.items() if label != f"{version}/arm64"}
    releases, ops = tool.releases_table(without, INSTALL), tool.ops_table(without)
    facts = per_release[f"{version}/arm64"]
    releases = add.merge_releases(releases, tool.releases_table({f"{version}/arm64": facts}, INSTALL), tool.version_key)
    kinds, delegates = tool.kinds_of(facts["ops"])
    cpu = sorted({tool.op_key(n) for n in facts["fallback"]["cpu_always"]} - tool.NOT_CPU_FALLBACK)
    ops = add.merge_ops(
        ops, version, kinds, delegates, cpu, facts["python_mps_impls"], tool.version_key, tool.transitions
    )
    return releases, ops


@pytest.mark.parametrize("version", ["2.15.0", "2.8.0", "2.3.0"])  # the newest, one in the middle, the oldest
def test_adding_one_release_gives_the_tables_a_full_build_gives(version: str) -> None:
    releases, ops = _added(FACTS, version)
    assert tool.dump(releases) == tool.dump(tool.releases_table(FACTS, INSTALL))
    assert tool.dump(ops) == tool.dump(tool.ops_table(FACTS))


def test_a_release_newer_than_the_table_changes_what_it_changed_only() -> None:
    """A made-up 2.16.0 (2.15.0's facts, one op gaining an MPS kernel) lands as a new transition."""
    facts = copy.deepcopy(FACTS["2.15.0/arm64"])
    kinds, _ = tool.kinds_of(facts["ops"])
    op = next(name for name, kind in kinds.items() if kind == "none")
    facts["ops"][op] = {**facts["ops"][op], "keys": [*facts["ops"][op]["keys"], "MPS"]}
    per_release = {**FACTS, "2.16.0/arm64": facts}
    releases, ops = _added(per_release, "2.16.0")
    assert "2.16.0" in releases["releases"] and releases["releases"]["2.16.0"]["wheel"].startswith("torch-2.15.0")
    assert tool.dump(ops) == tool.dump(tool.ops_table(per_release))
    assert ops["releases"][-1] == "2.16.0"
    changed = [name for name, entry in ops["ops"].items() if entry["history"][-1][0] == "2.16.0"]
    assert changed == [op] and ops["ops"][op]["history"][-1] == ["2.16.0", "mps"]


def test_re_adding_a_release_replaces_it() -> None:
    releases, ops = tool.releases_table(FACTS, INSTALL), tool.ops_table(FACTS)
    facts = FACTS["2.15.0/arm64"]
    again = add.merge_releases(releases, tool.releases_table({"2.15.0/arm64": facts}, INSTALL), tool.version_key)
    assert tool.dump(again) == tool.dump(releases)
    kinds, delegates = tool.kinds_of(facts["ops"])
    cpu = sorted({tool.op_key(n) for n in facts["fallback"]["cpu_always"]} - tool.NOT_CPU_FALLBACK)
    same = add.merge_ops(
        ops, "2.15.0", kinds, delegates, cpu, facts["python_mps_impls"], tool.version_key, tool.transitions
    )
    assert tool.dump(same) == tool.dump(ops)


def test_missing_lists_final_releases_the_table_lacks() -> None:
    table = tool.releases_table(FACTS, INSTALL)
    listed = ["1.13.1", "2.3.0", "2.15.0", "2.16.0", "2.16.0rc1", "2.17.0"]
    assert add.missing(listed, table, tool.FIRST_RELEASE, tool.version_key) == ["2.16.0", "2.17.0"]
