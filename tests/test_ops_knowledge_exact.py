"""The knowledge loaders the op prediction reads, pinned exactly (issue 16 item 7): the silent-bug
table (silent_bugs.py: every field of a row, the release and macOS bounds at the limit and one past
it, the op and dtype filters), the in-kernel limits (op_limits.py: base names, the torch range, the
op, dtype and extra filters, the macOS floors) and the foreach/fused paths (optim_paths.py: every field
of a release's facts, the differences between two releases, the first fused release). Expected values
come from the JSON tables read with plain code, or from small tables written here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mpscheck.knowledge import op_limits, optim_paths, silent_bugs
from mpscheck.knowledge.op_limits import OP_LIMITS, OpLimit, dtype_macos_floor, dtype_macos_floors, limits_for
from mpscheck.knowledge.optim_paths import PathFacts, differences, facts, first_fused_on
from mpscheck.knowledge.silent_bugs import SilentBug, affecting, bugs, hits

KNOWLEDGE = Path(__file__).resolve().parent.parent / "mpscheck" / "knowledge"


def _json(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((KNOWLEDGE / name).read_text(encoding="utf-8"))
    return data


# --- silent_bugs.py ----------------------------------------------------------------------------------------


def _bug(**kw: Any) -> SilentBug:
    fields: dict[str, Any] = {
        "id": "b",
        "issue": "i",
        "fixed_by": None,
        "ops": frozenset({"aten::x"}),
        "dtypes": None,
        "condition": None,
        "macos_from": None,
        "affected_from": None,
        "fixed_in": None,
        "what": "w",
        "fixed_why": "",
    }
    fields.update(kw)
    return SilentBug(**fields)


def _version(text: str | None) -> tuple[int, ...] | None:
    return None if text is None else tuple(int(part) for part in text.split("."))


def test_every_row_is_read_field_by_field() -> None:
    raws = _json("silent_bugs.json")["bugs"]
    expected = tuple(
        SilentBug(
            id=raw["id"],
            issue=raw["issue"],
            fixed_by=raw.get("fixed_by"),
            ops=frozenset(raw["ops"]),
            dtypes=frozenset(raw["dtypes"]) if raw.get("dtypes") else None,
            condition=raw.get("condition"),
            macos_from=_version(raw.get("macos_from")),
            affected_from=raw.get("affected_from"),
            fixed_in=raw.get("fixed_in"),
            what=raw["what"],
            fixed_why=raw.get("fixed_why", ""),
        )
        for raw in raws
    )
    assert bugs() == expected


def test_the_loader_itself_reads_every_row() -> None:
    """The loader's own body, past its cache (each test of a mutation run must reach it)."""
    assert silent_bugs.bugs.__wrapped__() == bugs()
    assert [bug.id for bug in silent_bugs.bugs.__wrapped__()] == [
        raw["id"] for raw in _json("silent_bugs.json")["bugs"]
    ]


def test_a_full_row_is_read_field_by_field() -> None:
    raw = {
        "id": "r",
        "issue": "https://example.invalid/1",
        "fixed_by": "https://example.invalid/2",
        "ops": ["aten::y", "aten::z"],
        "dtypes": ["float16"],
        "condition": "a transpose",
        "macos_from": "14.4",
        "affected_from": "2.3.0",
        "fixed_in": "2.6.0",
        "what": "wrong values",
        "fixed_why": "the PR",
    }
    assert silent_bugs._row(raw) == SilentBug(
        id="r",
        issue="https://example.invalid/1",
        fixed_by="https://example.invalid/2",
        ops=frozenset({"aten::y", "aten::z"}),
        dtypes=frozenset({"float16"}),
        condition="a transpose",
        macos_from=(14, 4),
        affected_from="2.3.0",
        fixed_in="2.6.0",
        what="wrong values",
        fixed_why="the PR",
    )


def test_a_row_without_optional_fields_reads_as_any_and_empty() -> None:
    raw = {"id": 7, "issue": "u", "ops": ["aten::y"], "dtypes": [], "what": "w"}
    assert silent_bugs._row(raw) == _bug(id="7", issue="u", ops=frozenset({"aten::y"}), what="w")


@pytest.mark.parametrize(
    ("release", "macos", "affected"),
    [
        ("2.1.0", None, False),  # one before affected_from
        ("2.2", None, True),  # exactly affected_from, padded
        ("2.2.0", None, True),
        ("2.4.9", None, True),  # one before fixed_in
        ("2.5.0", None, False),  # exactly fixed_in
        ("2.5", None, False),
        ("2.6.0", None, False),
        ("2.3.0", (14, 9), False),  # one below macos_from
        ("2.3.0", (15,), True),  # exactly macos_from
        ("2.3.0", (15, 0, 1), True),
    ],
)
def test_affects_at_each_bound(release: str, macos: tuple[int, ...] | None, affected: bool) -> None:
    bug = _bug(affected_from="2.2.0", fixed_in="2.5.0", macos_from=(15, 0))
    assert bug.affects(release, macos) is affected


def test_an_open_row_without_bounds_affects_every_release_and_macos() -> None:
    bug = _bug()
    assert bug.affects("2.0.0") is True and bug.affects("9.9.9", (11, 0)) is True
    assert _bug(macos_from=(15, 0)).affects("2.0.0", None) is True  # macOS unknown: may hit


def test_hits_filter_by_base_name_dtype_and_release() -> None:
    any_dtype = _bug(id="any", ops=frozenset({"aten::x", "aten::z"}))
    typed = _bug(id="typed", ops=frozenset({"aten::x"}), dtypes=frozenset({"float32", "float16"}))
    old = _bug(id="old", ops=frozenset({"aten::x"}), fixed_in="2.1.0")
    table = (any_dtype, typed, old)
    assert hits("aten::x.Tensor", ("float16", "int64"), "2.0.0", None, table) == [any_dtype, typed, old]
    assert hits("aten::x", ("int64",), "2.0.0", None, table) == [any_dtype, old]
    assert hits("aten::x.out", ("float32",), "2.1.0", None, table) == [any_dtype, typed]
    assert hits("aten::z", (), "2.1.0", None, table) == [any_dtype]
    assert hits("aten::xx", ("float32",), "2.0.0", None, table) == []
    assert hits("aten::x_", ("float32",), "2.0.0", None, table) == []  # the in-place op is another name
    assert hits("aten::x.a.b", ("float32",), "2.0.0", None, table) == [any_dtype, typed, old]  # up to the first dot
    assert affecting("2.0.0", None, table) == [any_dtype, typed, old]
    assert affecting("2.1.0", None, table) == [any_dtype, typed]


def test_hits_and_affecting_read_the_shipped_table_by_default() -> None:
    rows = {raw["id"]: raw for raw in _json("silent_bugs.json")["bugs"]}
    found = hits("aten::bmm", ("float32",), "2.7.0", (14, 0))
    assert [bug.id for bug in found] == [i for i in rows if "aten::bmm" in rows[i]["ops"]]
    assert [bug.id for bug in affecting("2.13.0", (15, 0))] == [
        bug.id for bug in bugs() if bug.affects("2.13.0", (15, 0))
    ]


# --- op_limits.py ------------------------------------------------------------------------------------------


def _op_limit(limit_id: str, **kw: Any) -> OpLimit:
    fields: dict[str, Any] = {
        "dtypes": None,
        "ops": None,
        "torch_from": None,
        "torch_below": None,
        "macos_below": None,
        "what": limit_id,
        "fix": "f",
        "source": "s",
    }
    fields.update(kw)
    return OpLimit(limit_id, **fields)


@pytest.mark.parametrize(
    ("name", "base"),
    [
        ("aten::cumsum", "aten::cumsum"),
        ("aten::cumsum_", "aten::cumsum"),
        ("aten::cumsum.out", "aten::cumsum"),
        ("aten::cumsum_.dim", "aten::cumsum"),
        ("aten::_fft_r2c", "aten::_fft_r2c"),
        ("aten::add.Tensor.extra", "aten::add"),
        ("aten::opX_", "aten::opX"),  # only underscores are stripped
    ],
)
def test_base_name(name: str, base: str) -> None:
    assert op_limits._base(name) == base


@pytest.mark.parametrize(
    ("version", "start", "below", "inside"),
    [
        ((2, 3), (2, 3), (2, 9), True),  # the start is inside
        ((2, 2, 9), (2, 3), (2, 9), False),
        ((2, 8, 9), (2, 3), (2, 9), True),
        ((2, 9), (2, 9, 0), None, True),
        ((2, 9, 0), (2, 3), (2, 9), False),  # the end is not
        ((2, 9), None, (2, 9, 0), False),  # the end, padded
        ((2, 3), (2, 3, 0), (2, 9, 0), True),
        ((2,), (2, 0, 0), (2, 0, 1), True),  # padded with zeros
        ((3,), None, None, True),
        ((0,), None, (2, 3), True),
        ((9, 9), (2, 3), None, True),
    ],
)
def test_the_torch_range(version: tuple[int, ...], start: Any, below: Any, inside: bool) -> None:
    assert op_limits._within(version, start, below) is inside


def test_limits_for_filters_by_op_dtype_and_release() -> None:
    everything = _op_limit("everything")
    cumsum = _op_limit("cumsum", ops=frozenset({"aten::cumsum"}))
    int64 = _op_limit("int64", dtypes=frozenset({"int64", "int32"}))
    ranged = _op_limit("ranged", torch_from=(2, 3), torch_below=(2, 9))
    extra = (everything, cumsum, int64, ranged)
    shipped = {limit.id: limit for limit in OP_LIMITS}
    expected_rows = [shipped["float64"], shipped["cumsum-macos13"], everything, cumsum, ranged]
    assert limits_for("aten::cumsum_.out", ("float64",), (2, 3), extra) == expected_rows
    assert limits_for("aten::mm", ("int32", "float16"), (2, 9), extra) == [everything, int64]
    assert limits_for("aten::mm", (), (2, 2), extra) == [everything]


def test_limits_for_reads_the_message_table_by_default() -> None:
    from mpscheck.knowledge.dtype_limits import as_limits

    mm_int = [
        row for row in as_limits() if row.ops is not None and "aten::mm" in row.ops and "int64" in (row.dtypes or ())
    ]
    assert len(mm_int) == 1
    assert limits_for("aten::mm", ("int64",), (2, 0)) == mm_int
    assert limits_for("aten::mm", ("int64",), (2, 0), ()) == []


def test_the_dtype_macos_floors_are_the_whole_op_rows_with_a_macos() -> None:
    expected = {
        dtype: limit.macos_below
        for limit in OP_LIMITS
        if limit.ops is None and limit.dtypes and limit.macos_below
        for dtype in limit.dtypes
    }
    assert dtype_macos_floors() == expected == {"bfloat16": (14, 0), "complex64": (14, 0), "complex32": (14, 0)}
    assert dtype_macos_floor("bfloat16") == (14, 0)
    assert dtype_macos_floor("float64") is None  # never on MPS: no floor


# --- optim_paths.py ----------------------------------------------------------------------------------------


def test_the_facts_of_a_release_field_by_field() -> None:
    releases = _json("optim_paths.json")["releases"]
    for release, raw in releases.items():
        read_from = {key: raw[f"{key}_source"] for key in ("foreach", "fused", "helpers") if f"{key}_source" in raw}
        expected = PathFacts(
            release,
            frozenset(raw["foreach"]) if isinstance(raw.get("foreach"), list) else None,
            frozenset(raw["fused"]) if isinstance(raw.get("fused"), list) else None,
            frozenset(raw["helpers"]) if isinstance(raw.get("helpers"), list) else None,
            str(raw.get("wheel")),
            read_from,
        )
        assert facts(release) == expected
    assert facts("9.9.9") is None


def test_facts_of_a_partly_read_release() -> None:
    data = {"releases": {"2.0.0": {"foreach": ["cuda"], "foreach_source": "a.py f", "fused": "?", "wheel": "w"}}}
    found = facts("2.0.0", data)
    assert found == PathFacts("2.0.0", frozenset({"cuda"}), None, None, "w", {"foreach": "a.py f"})
    assert found is not None
    assert found.source("foreach") == "w: a.py f"
    assert found.source("fused") == "w: not read"
    assert facts("2.1.0", data) is None


def test_differences_name_each_path_that_changes_on_mps(monkeypatch: pytest.MonkeyPatch) -> None:
    sources = {"fused_source": "fu", "helpers_source": "h"}
    data = {
        "releases": {
            "2.0.0": {"fused": ["cuda"], "helpers": ["cpu", "cuda"], "wheel": "w0", **sources},
            "2.5.0": {"fused": ["cuda", "mps"], "helpers": ["cpu", "mps"], "wheel": "w5", **sources},
            "2.6.0": {"fused": ["mps", "cuda"], "helpers": None, "wheel": "w6", "fused_source": "fu"},
        }
    }
    monkeypatch.setattr(optim_paths, "table", lambda: data)
    assert differences("2.0.0", "2.5.0") == [
        "torch 2.5.0's optimizers accept fused=True on cuda, mps; torch 2.0.0's on cuda (w5: fu)",
        "torch 2.5.0's clip_grad_norm_ takes foreach on cpu, mps; torch 2.0.0's on cpu, cuda (w5: h)",
    ]
    assert differences("2.5.0", "2.0.0") == [
        "torch 2.0.0's optimizers accept fused=True on cuda; torch 2.5.0's on cuda, mps (w0: fu)",
        "torch 2.0.0's clip_grad_norm_ takes foreach on cpu, cuda; torch 2.5.0's on cpu, mps (w0: h)",
    ]
    assert differences("2.5.0", "2.6.0") == []  # fused the same on mps; helpers not read in 2.6.0
    assert differences("2.6.0", "2.0.0") == [
        "torch 2.0.0's optimizers accept fused=True on cuda; torch 2.6.0's on cuda, mps (w0: fu)"
    ]
    assert differences("2.0.0", "9.9.9") == [] and differences("9.9.9", "2.0.0") == []


def test_the_first_release_with_fused_on_a_device_sorts_as_versions() -> None:
    data = {
        "releases": {
            "2.10.0": {"fused": ["mps"]},
            "2.9.0": {"fused": ["cuda", "mps"]},
            "2.2.0": {"fused": None},
            "2.0.0": {"fused": ["cuda"]},
        }
    }
    assert first_fused_on("mps", data) == "2.9.0"
    assert first_fused_on("cuda", data) == "2.0.0"
    assert first_fused_on("xpu", data) is None
    releases = _json("optim_paths.json")["releases"]
    shipped = sorted((r for r in releases if "mps" in (releases[r].get("fused") or ())), key=_version)
    assert first_fused_on("mps") == shipped[0]
