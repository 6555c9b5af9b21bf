"""The knowledge loaders and helpers compared whole, on what the golden file cannot show: a release
table field that every shipped release leaves empty, the helpers' "unknown" answers, the matcher of
torch messages on a small table of its own (its values, its gap and value bounds, and the work it
counts), a pattern's needles under its flags, and the version pins' every branch.

Inputs are the shipped tables (read here with plain code, not through the function under test) or a
small table written in the test; nothing imports torch.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any

import pytest

from mpscheck.knowledge import dtype_limits, releases, silent_bugs, sizes, versions
from mpscheck.knowledge import messages as M
from mpscheck.knowledge.error_rows import INT64_KERNELS_MACOS
from mpscheck.knowledge.needles import may_match, needles
from mpscheck.knowledge.op_limits import OpLimit


def _shipped(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(resources.files("mpscheck.knowledge").joinpath(name).read_text("utf-8"))
    return data


RELEASES = _shipped("torch_releases.json")


# ---------------------------------------------------------------------------------------------
# releases: every field of a release read from its own name


def _availability(version: str, arch: str) -> tuple[str, ...]:
    return tuple(
        sorted(
            e["text"]
            for e in RELEASES["texts"]
            if e["category"] == "availability" and e["arch"] == arch and version in e["releases"]
        )
    )


def test_every_optional_field_of_a_release_is_read_from_its_own_key() -> None:
    raw = dict(RELEASES["releases"]["2.0.0"])
    raw |= {
        "requires_python": ">=3.9",
        "numpy": ["numpy>=1.22", "numpy<2"],
        "numpy_modules": ["numpy.core._multiarray_umath", "numpy.core.x"],
        "macos_floor": "13.1",
        "device_check_macos": "14.2.1",
        "env_vars": ["PYTORCH_A", "PYTORCH_B"],
        "fallback_reader": "not-0",
        "install": {"cp312": "14.0", "cp39": "11"},
        "unavailable_messages": {"macos": "15.0", "at_least": ["a", "b"], "below": ["c"]},
    }
    facts = releases._facts("2.0.0", "arm64", raw)
    api = {m: frozenset(n["defs"]) | frozenset(n["all"]) for m, n in RELEASES["releases"]["2.0.0"]["api"].items()}
    assert facts == releases.ReleaseFacts(
        version="2.0.0",
        arch="arm64",
        wheel=raw["wheel"],
        platform_tag=raw["platform_tag"],
        requires_python=">=3.9",
        numpy_requirements=("numpy>=1.22", "numpy<2"),
        numpy_modules=("numpy.core._multiarray_umath", "numpy.core.x"),
        stated_floor=(13, 1),
        device_check_macos=(14, 2, 1),
        availability_texts=_availability("2.0.0", "arm64"),
        api=api,
        env_vars=frozenset({"PYTORCH_A", "PYTORCH_B"}),
        fallback_reader="not-0",
        install={"cp312": (14, 0), "cp39": (11,)},
        unavailable=releases.UnavailableRule((15, 0), ("a", "b"), ("c",)),
    )
    assert facts.macos_floor == (14, 2, 1)  # the later of the stated floor and the device check's macOS


def test_a_release_without_its_optional_fields_reads_them_as_unknown_or_empty() -> None:
    raw = {"wheel": "w.whl", "platform_tag": "macosx_11_0_arm64", "api": {}, "install": {"cp311": "not a version"}}
    facts = releases._facts("9.9.9", "x86_64", raw)
    assert facts == releases.ReleaseFacts(
        version="9.9.9",
        arch="x86_64",
        wheel="w.whl",
        platform_tag="macosx_11_0_arm64",
        requires_python=None,
        numpy_requirements=(),
        numpy_modules=(),
        stated_floor=None,
        device_check_macos=None,
        availability_texts=(),
        api={},
        env_vars=frozenset(),
        fallback_reader=None,
        install={"cp311": ()},
        unavailable=None,
    )
    assert facts.macos_floor is None and facts.key == (9, 9, 9)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (None, None),
        ({}, None),
        ({"macos": None, "at_least": ["a"]}, None),
        ({"macos": "Sonoma", "at_least": ["a"]}, None),
        ({"macos": "15.0"}, releases.UnavailableRule((15, 0), (), ())),
        ({"macos": "26", "at_least": ["x"], "below": None}, releases.UnavailableRule((26,), ("x",), ())),
    ],
)
def test_the_unavailable_rule(raw: dict[str, Any] | None, expected: releases.UnavailableRule | None) -> None:
    assert releases._unavailable(raw) == expected


def test_the_helpers_answer_unknown_rather_than_guess() -> None:
    assert releases.nearest_known("garbage") is None
    assert releases.nearest_known("1.13.1") is None  # older than the table
    assert releases.text_releases("a text no torch ever printed") == ()
    assert releases.has_api("garbage", "torch.mps", "empty_cache") is None
    assert releases.has_api("2.4.0", "torch.not_a_module", "empty_cache") is None
    assert releases.first_release_with_api("torch.not_a_module", "empty_cache") is None
    assert releases.first_release_with_api("torch.mps", "not_a_name") is None
    assert releases.cpython_tag("3") is None and releases.cpython_tag("") is None
    assert releases.cpython_tag("3.12.4") == "cp312"
    assert releases.newest_with_mps("3.11", "Sonoma") is None
    assert releases.newest_installable("3.11", "14.0", "ppc") is None


def test_has_api_and_the_first_release_with_a_name_read_the_table() -> None:
    first = next(
        v
        for v, raw in sorted(RELEASES["releases"].items(), key=lambda kv: tuple(map(int, kv[0].split("."))))
        if "Event" in raw["api"]["torch.mps"]["defs"] + raw["api"]["torch.mps"]["all"]
    )
    assert releases.first_release_with_api("torch.mps", "Event") == first
    assert releases.has_api(first, "torch.mps", "Event") is True
    assert releases.has_api("2.0.0", "torch.mps", "Event") is (first == "2.0.0")


def test_the_text_releases_are_the_tables() -> None:
    entry = next(e for e in RELEASES["texts"] if e["arch"] == "arm64")
    assert releases.text_releases(entry["text"]) == tuple(entry["releases"])
    x86 = next(e for e in RELEASES["texts"] if e["arch"] == "x86_64")
    assert releases.text_releases(x86["text"], "x86_64") == tuple(x86["releases"])


def test_the_numpy_pin_of_a_release_the_intel_table_lacks_is_read_from_the_arm64_wheel() -> None:
    intel = set(RELEASES["x86_64"])
    for version, raw in RELEASES["releases"].items():
        if version in intel or not raw["numpy_modules"]:
            continue
        numpy1 = "numpy._core._multiarray_umath" not in raw["numpy_modules"]
        expected = "numpy<2" if numpy1 else None
        assert releases.numpy_pin(version, "x86_64") == expected, version
        assert releases.numpy_pin(version, "arm64") == expected, version
        assert versions.numpy_pin(version, "x86_64") == expected, version
    assert releases.numpy_pin("2.1.0", "x86_64") == "numpy<2"  # 2.1.0 has no x86_64 row: arm64's numpy 1.x
    assert releases.numpy_pin("garbage") is None and releases.numpy_pin("1.13.1", "x86_64") is None


def test_the_last_intel_release_is_the_x86_64_tables_newest() -> None:
    newest = max(RELEASES["x86_64"], key=lambda v: tuple(map(int, v.split("."))))
    assert versions.last_intel_mac_torch() == newest


# ---------------------------------------------------------------------------------------------
# versions: the pin below a release, each branch


@pytest.mark.parametrize(
    ("known", "newest", "expected"),
    [
        (["2.7.0", "2.7.1", "2.8.0"], "2.7.0", "torch==2.7.0"),  # a newer patch of its minor lacks MPS here
        (["2.7.0", "2.7.1", "2.8.0"], "2.7.1", "torch<2.8"),
        (["2.9.1", "2.10.0"], "2.9.1", "torch<2.10"),
        (["2.9.1", "2.10.0"], "2.10.0", None),  # the newest: no pin
        (["2.9.1", "2.10.0"], None, None),
        (["1.13.1", "2.0.0"], "1.13.1", "torch<2.0"),
    ],
)
def test_the_pin_below(known: list[str], newest: str | None, expected: str | None) -> None:
    assert versions._pin_below(known, newest) == expected


# ---------------------------------------------------------------------------------------------
# sizes, dtype limits, silent bugs


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1 KB", 1024),
        ("1KB", 1024),
        ("  2 MiB  ", 2 * 1024**2),
        ("1.5 GB", int(1.5 * 1024**3)),
        ("3 TiB", 3 * 1024**4),
        ("7 bytes", 7),
        ("1  KB", None),  # one space at most between the number and the unit
        ("1 kB", None),
        ("1 PB", None),
        ("KB", None),
        ("1.KB", None),
        ("", None),
        (None, None),
        ("9" * 30 + " bytes", int(float("9" * 30))),
        ("9" * 31 + " bytes", None),
        ("1." + "5" * 30 + " bytes", 1),
        ("1." + "5" * 31 + " bytes", None),
        ("1 GB and more", None),
    ],
)
def test_size_bytes(text: str | None, expected: int | None) -> None:
    assert sizes.size_bytes(text) == expected


def test_a_limit_of_mixed_dtypes_names_them_all() -> None:
    row = dtype_limits.MessageRow(
        "t", frozenset({"aten::x"}), frozenset({"int64", "float16"}), (2, 0), (2, 1), "f", "s"
    )
    assert dtype_limits.as_limits((row,)) == (
        OpLimit(
            "message:t:float16+int64",
            frozenset({"int64", "float16"}),
            frozenset({"aten::x"}),
            (2, 0),
            (2, 1),
            None,
            "torch raises 't' for float16, int64 inputs",
            "f",
            "s",
        ),
    )
    complex_row = dtype_limits.MessageRow("c", frozenset(), dtype_limits.COMPLEX, (2, 0), (2, 4), "f", "s")
    (limit,) = dtype_limits.as_limits((complex_row,))
    assert (limit.id, limit.what) == ("message:c:complex128+complex32+complex64", "torch raises 'c' for complex inputs")
    long_row = dtype_limits.MessageRow("l", frozenset(), dtype_limits.INTEGERS, (2, 0), (2, 4), "f", "s")
    (limit,) = dtype_limits.as_limits((long_row,))
    assert limit.id == "message:l:" + "+".join(sorted(dtype_limits.INTEGERS))[:40]
    assert limit.what == "torch raises 'l' for integer and bool inputs"


def test_a_silent_bug_is_met_by_the_ops_base_name_and_its_dtypes() -> None:
    bug = silent_bugs.SilentBug(
        "b", "i", None, frozenset({"aten::mm"}), frozenset({"float32"}), None, None, "2.1.0", "2.3.0", "w", ""
    )
    table = (bug,)
    assert silent_bugs.hits("aten::mm.out", ("float32",), "2.2.0", None, table) == [bug]
    assert silent_bugs.hits("aten::mm", ("float16", "float32"), "2.1.0", None, table) == [bug]
    assert silent_bugs.hits("aten::mm", ("float16",), "2.2.0", None, table) == []
    assert silent_bugs.hits("aten::mmx", ("float32",), "2.2.0", None, table) == []
    assert silent_bugs.hits("aten::mm", ("float32",), "2.0.1", None, table) == []
    assert silent_bugs.hits("aten::mm", ("float32",), "2.3.0", None, table) == []
    assert silent_bugs.affecting("2.2.0", (14, 0), table) == [bug]
    assert silent_bugs.affecting("2.3.0", (14, 0), table) == []


# ---------------------------------------------------------------------------------------------
# needles


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (re.compile(r"abc def|ghi  jkl", re.VERBOSE), ("abcdef", "ghijkl")),  # read under the pattern's flags
        (re.compile(r"abc def|ghi  jkl"), ("abc def", "ghi  jkl")),
        (re.compile(r"abc"), ("abc",)),  # exactly MIN_NEEDLE characters
        (re.compile(r"ab"), None),
        (re.compile(r"abc|de"), None),
        (re.compile(r"xy\d+abcd\wefgh"), ("abcd",)),  # the longest run wins; a later run as long does not
        (re.compile(r"ab\dcdefg"), ("cdefg",)),
        (re.compile(r"ABC", re.IGNORECASE), None),
    ],
)
def test_needles(pattern: re.Pattern[str], expected: tuple[str, ...] | None) -> None:
    assert needles(pattern) == expected


def test_may_match() -> None:
    pattern = re.compile(r"Killed: 9|zsh: killed")
    assert may_match(pattern, "zsh: killed  python") and may_match(pattern, "Killed: 9")
    assert not may_match(pattern, "killed: 9")
    assert may_match(re.compile("ab"), "anything")  # no needles: always searched


# ---------------------------------------------------------------------------------------------
# torch messages: the matcher on a table of its own


def _index(*formats: str) -> M.MessageIndex:
    rows = [
        {
            "id": f"m{i}",
            "format": fmt,
            "releases": [["2.0.0", "2.1.0"], ["2.3.0", "2.4.0"]],
            "fixed_in": "2.5.0",
            "reworded_as": ["mz"],
            "condition": "other",
            "dtype": "int64",
            "macos": "14.0",
            "cause": "metal-bug-fixed-later",
            "source": {"file": "x.mm"},
        }
        for i, fmt in enumerate(formats)
    ]
    return M.MessageIndex(M.messages_of({"messages": rows}))


def _found(index: M.MessageIndex, text: str) -> list[tuple[str, tuple[str, ...], int]]:
    return [(m.id, m.values, m.line) for m in index.match(text)]


def test_a_match_carries_every_field_of_its_message() -> None:
    index = _index("Frobnicator {} exploded on MPS")
    line = "RuntimeError: Frobnicator 3000 exploded on MPS"
    assert index.match("first\n" + line) == [
        M.MessageMatch(
            id="m0",
            format="Frobnicator {} exploded on MPS",
            cause="metal-bug-fixed-later",
            condition="other",
            dtype="int64",
            first_seen="2.0.0",
            last_seen="2.4.0",
            fixed_in="2.5.0",
            reworded_as=("mz",),
            macos="14.0",
            source="x.mm",
            values=("3000",),
            line=2,
            text=line,
        )
    ]


def test_the_work_counts_characters_tokens_and_lookups() -> None:
    index = _index("Frobnicator {} exploded on MPS")
    text = "x\nFrobnicator 3000 exploded on MPS!"
    index.match(text)
    # the text (35) + line "x" (1) + the matching line (33) + its 6 tokens + "exploded on mps" found once (3)
    # + "frobnicator" found once (1) + one step of the chain (1)
    assert index.work == 35 + 1 + 33 + 6 + 3 + 1 + 1
    index.match("nothing known here")
    assert index.work == len("nothing known here")  # a new match starts from zero


def test_a_segment_shared_by_two_messages_is_looked_up_once_per_line() -> None:
    index = _index("Frobnicator {} exploded on MPS", "Widget {} exploded on MPS")
    line = "Frobnicator 3 exploded on MPS; Widget 4 exploded on MPS"
    assert _found(index, line) == [("m0", ("3",), 1), ("m1", ("4",), 1)]
    # the text and the line (2 x 55) + 11 tokens + "exploded on mps" found twice (3 + 3) + "widget" (1)
    # + "frobnicator" (1) + one chain step per message (2); the shared segment is not scanned again
    assert index.work == 2 * 55 + 11 + 6 + 1 + 1 + 2


@pytest.mark.parametrize(("gap", "found"), [(64, True), (65, False)])
def test_a_value_may_span_max_gap_tokens(gap: int, found: bool) -> None:
    index = _index("Frobnicator {} exploded on MPS")
    value = " ".join(["v"] * gap)
    expected = [("m0", (value,), 1)] if found else []
    assert _found(index, f"Frobnicator {value} exploded on MPS") == expected
    assert M.MAX_GAP == 64


@pytest.mark.parametrize("size", [199, 200, 201, 300])
def test_a_value_is_cut_to_max_value_characters(size: int) -> None:
    index = _index("Frobnicator {} exploded on MPS: {}")
    value = "y" * size
    (match,) = index.match(f"Frobnicator {value} exploded on MPS: {value}")
    assert match.values == (value[:200], value[:200])


def test_a_line_is_kept_to_500_characters() -> None:
    index = _index("Frobnicator {} exploded on MPS")
    line = "Frobnicator 1 exploded on MPS " + "z" * 600
    (match,) = index.match(line)
    assert match.text == line[:500] and len(match.text) == 500
    short = "Frobnicator 1 exploded on MPS " + "z" * 470
    assert index.match(short)[0].text == short


def test_leading_and_trailing_values_and_optional_end_punctuation() -> None:
    index = _index("{} frobnicated on MPS: {}")
    assert _found(index, "  'thing' frobnicated on MPS: the tail  ") == [("m0", ("thing", "the tail"), 1)]
    assert _found(index, "frobnicated on MPS: x") == [("m0", ("", "x"), 1)]
    assert _found(index, "`a` frobnicated on MPS:") == [("m0", ("a", ""), 1)]
    period = _index("Frobnicator {} exploded on MPS.")  # the closing period is optional in a paste
    assert _found(period, "Frobnicator 7 exploded on MPS") == [("m0", ("7",), 1)]
    assert _found(period, "Frobnicator 7 exploded on MPS.") == [("m0", ("7",), 1)]
    value_period = _index("Frobnicator exploded on {}.")  # a lone period after a value is not dropped
    assert _found(value_period, "Frobnicator exploded on 7") == []
    assert _found(value_period, "Frobnicator exploded on 7.") == [("m0", ("7",), 1)]
    quoted = _index('"Frobnicator exploded {}"')  # the opening quote is optional; the one after a value is not
    assert _found(quoted, 'Frobnicator exploded 7"') == [("m0", ("7",), 1)]
    assert _found(quoted, "Frobnicator exploded 7") == []


def test_a_format_of_values_alone_is_never_looked_for() -> None:
    index = _index("{}", "Frobnicator {} exploded on MPS")
    assert _found(index, "Frobnicator 1 exploded on MPS") == [("m1", ("1",), 1)]
    assert M._pattern(M.messages_of({"messages": [_row("{} {}")]})[0]) is None


def _row(fmt: str) -> dict[str, Any]:
    return {"id": "r", "format": fmt, "releases": [["2.0.0", "2.0.0"]], "condition": "other", "cause": "c"}


def test_a_message_read_from_a_minimal_row() -> None:
    (message,) = M.messages_of({"messages": [_row("Frobnicator {}")]})
    assert message == M.Message("r", "Frobnicator {}", (("2.0.0", "2.0.0"),), None, (), "other", None, None, "c", None)
    assert (message.first_seen, message.last_seen) == ("2.0.0", "2.0.0")


def test_several_matches_on_a_line_longest_first_and_lines_in_order() -> None:
    index = _index("Frobnicator {} exploded", "Frobnicator {} exploded on MPS twice")
    text = "Frobnicator 1 exploded on MPS twice\nno\nFrobnicator 2 exploded\nFrobnicator 1 exploded on MPS twice"
    assert _found(index, text) == [
        ("m1", ("1",), 1),
        ("m0", ("1",), 1),
        ("m0", ("2",), 3),
        ("m1", ("1",), 4),
        ("m0", ("1",), 4),
    ]


def test_an_anchor_word_is_found_with_punctuation_around_it() -> None:
    index = _index("Frobnicator {} exploded on MPS")
    shown = {
        "(Frobnicator": "3",
        "'Frobnicator',": "', 3",
        "[Frobnicator]": "] 3",
        "`Frobnicator`": "` 3",
        "'Frobnicator'.": "'. 3",
    }
    for word, value in shown.items():  # the value is the text between the literal pieces, as printed
        assert _found(index, f"{word} 3 exploded on MPS") == [("m0", (value,), 1)], word
    assert _found(index, "xFrobnicator 3 exploded on MPS") == []  # glued to a word: not the anchor


# ---------------------------------------------------------------------------------------------
# versions: the floor and where it was read, the readers of a release


def test_the_floors_note_says_where_the_floor_was_read() -> None:
    assumed = versions.Floor((15, 0), "2.15.0", False, True, (15, 0), assumed=True)
    assert assumed.note("2.99.0") == (
        "torch 2.99.0 is newer than mpscheck's release table, which ends at 2.15.0: the facts of 2.15.0 apply, assumed"
    )
    pre = versions.Floor((12, 3), None, False, True, (12, 3))
    assert (
        pre.note("1.12.1")
        == "torch 1.12.1 predates the table read from torch's wheels; floor from PyTorch's 1.12 notes"
    )
    near = versions.Floor((12, 3), "2.4.1", False, True, (12, 3))
    assert near.note("2.4.5") == "torch 2.4.5 is not in the table read from torch's wheels: the facts of 2.4.1 apply"
    assert versions.Floor((13, 0), "2.5.1", True, True, (12, 3)).note("2.5.1") is None


def _raw_floor(raw: dict[str, Any]) -> tuple[int, ...]:
    known = [tuple(map(int, raw[k].split("."))) for k in ("macos_floor", "device_check_macos") if raw.get(k)]
    return max(known)


def test_floor_for_a_release_of_the_table_and_around_it() -> None:
    raw = RELEASES["releases"]["2.5.1"]
    stated = tuple(map(int, raw["macos_floor"].split(".")))
    check = tuple(map(int, raw["device_check_macos"].split(".")))
    floor = _raw_floor(raw)
    assert versions.floor_for("2.5.1") == versions.Floor(floor, "2.5.1", True, check >= floor, stated, False)
    assert versions.floor_for("1.12.1") == versions.Floor((12, 3), None, False, True, (12, 3), False)
    assert versions.floor_for("1.11.0") is None and versions.floor_for(None) is None
    assert versions.floor_for("garbage") is None
    newest = max(RELEASES["releases"], key=lambda v: tuple(map(int, v.split("."))))
    beyond = versions.floor_for("2.99.0")
    assert beyond is not None and (beyond.release, beyond.exact, beyond.assumed) == (newest, False, True)
    assert versions.macos_floor((1, 11)) == (12, 3)  # no MPS there: the first floor
    assert versions.macos_floor((2, 5, 1)) == floor


@pytest.mark.parametrize(
    ("release", "expected"),
    [(None, "stoi"), ("garbage", "stoi"), ("2.7.1", "stoi"), ("2.8.0", "not-zero"), ("2.13.0", "not-zero")],
)
def test_how_a_release_reads_the_fallback_variable(release: str | None, expected: str) -> None:
    if release in RELEASES["releases"]:
        assert expected == ("not-zero" if RELEASES["releases"][release]["fallback_reader"] == "not-0" else "stoi")
    assert versions.fallback_reader(release) == expected


def test_the_pythons_of_a_release_per_architecture() -> None:
    def minors(arch: str, version: str) -> list[str]:
        return [f"3.{m}" for m in sorted(int(tag[3:]) for tag in RELEASES[arch][version]["install"])]

    assert versions.pythons_for("2.2.2", "i386") == minors("x86_64", "2.2.2")  # i386 is Intel
    assert versions.pythons_for("2.2.2", "x86_64") == minors("x86_64", "2.2.2")
    assert versions.pythons_for("2.13.0") == minors("releases", "2.13.0")
    assert versions.pythons_for("2.13.0", "i386") == []  # no Intel wheel of 2.13
    assert versions.pythons_for("garbage") == []


def test_install_advice_specs_and_the_pin() -> None:
    advice = versions.InstallAdvice("torch<2.9", "2.8.0", None, None, "numpy<2", "why")
    assert advice.specs == ("torch<2.9", "numpy<2")
    assert versions.InstallAdvice(None, None, None, None, None, "why").specs == ()
    assert versions.InstallAdvice("torch", "2.8.0", None, None, None, "w").specs == ("torch",)
    assert versions.torch_pin_for_macos((13, 0)) == versions.install_advice((13, 0), None).spec != "torch"
    newest = max(RELEASES["releases"], key=lambda v: tuple(map(int, v.split("."))))
    if versions.install_advice((26, 0), None).newest == newest:
        assert versions.torch_pin_for_macos((26, 0)) is None  # the newest runs: no pin


def test_show_and_at_least() -> None:
    assert versions.show((14, 4, 1)) == "14.4.1" and versions.show(()) == ""
    assert versions.at_least((14,), (14, 0)) and versions.at_least((14, 0), (14,))
    assert versions.at_least((14, 0, 1), (14, 0)) and not versions.at_least((13, 9, 9), (14,))
    assert not versions.at_least((), (0, 1)) and versions.at_least((), ())


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1" * 12, (int("1" * 12),)),
        ("1" * 13, (int("1" * 12),)),  # a part of 12 digits at most: the rest is not read
        ("  v2.6", (2, 6)),
        ("2.5.1+cpu", (2, 5, 1)),
        ("2..5", (2,)),
        ("x2.6", None),
        ("", None),
    ],
)
def test_parse_version_bounds(text: str, expected: tuple[int, ...] | None) -> None:
    assert versions.parse_version(text) == expected


# ---------------------------------------------------------------------------------------------
# chip peaks


PEAKS = json.loads(resources.files("mpscheck.knowledge").joinpath("chip_peaks.json").read_text("utf-8"))["rows"]


def test_every_chip_row_is_read_whole() -> None:
    from mpscheck.knowledge import peaks

    expected = tuple(
        peaks.ChipPeak(
            row["chip"], row.get("gpu_cores"), tuple(row["match"]), row.get("fp32_tflops"), row.get("fp16_tflops"),
            row.get("bf16_tflops"), row.get("memory_bandwidth_gbs"), tuple(row["sources"]), row.get("note", ""),
        )
        for row in PEAKS
    )  # fmt: skip
    assert peaks.load_peaks() == expected


def test_a_chips_peak_per_dtype() -> None:
    from mpscheck.knowledge import peaks

    row = peaks.ChipPeak("c", None, ("c",), 1, 2.5, None, None, (), "")
    assert (row.tflops("float32"), row.tflops("float16"), row.tflops("bfloat16")) == (1.0, 2.5, None)
    assert isinstance(row.tflops("float32"), float) and row.tflops("int8") is None


def test_match_chip_prefers_the_exact_core_count_and_never_another() -> None:
    from mpscheck.knowledge import peaks

    exact = next(p for p in PEAKS if p.get("gpu_cores") is not None)
    generic = [p for p in PEAKS if p.get("gpu_cores") is None]
    found = peaks.match_chip("  " + exact["chip"] + "  ", exact["gpu_cores"])
    assert found is not None and (found.chip, found.gpu_cores) == (exact["chip"], exact["gpu_cores"])
    assert peaks.match_chip(None) is None and peaks.match_chip("") is None
    assert peaks.match_chip("A chip nobody makes") is None
    other = peaks.match_chip(exact["chip"], 999)
    assert other is None or other.gpu_cores is None
    if other is not None:
        assert other.chip in {p["chip"] for p in generic}


# ---------------------------------------------------------------------------------------------
# the known-errors table: a match that spans lines, and the line first() names


def test_every_line_s_match_is_found_a_bare_zsh_killed_line_too() -> None:
    from mpscheck.knowledge.errors import find

    killed = "zsh: killed     python train.py"  # zsh's report of a process killed by the OS
    # zsh prints the command after "killed"; a line of "zsh: killed" alone is the same report (the
    # row once needed whitespace after the word, which only the next line's break supplied)
    hits = list(find(["zsh: killed", killed, "", killed]))
    assert [(h.row.id, h.line, h.text, dict(h.groups)) for h in hits] == [
        ("killed-9", 1, "zsh: killed", {"macos_or": INT64_KERNELS_MACOS}),
        ("killed-9", 2, killed, {"macos_or": INT64_KERNELS_MACOS}),
        ("killed-9", 4, killed, {"macos_or": INT64_KERNELS_MACOS}),
    ]
    assert [(h.line, h.text) for h in find(["zsh: killed"])] == [(1, "zsh: killed")]
    assert list(find(["zsh: killedx"])) == []
    assert list(find([])) == [] and list(find([""])) == []


def test_first_names_the_line_where_the_match_starts() -> None:
    from mpscheck.knowledge.errors import first

    killed = "zsh: killed     python train.py"
    for text, line in ((killed, 1), ("a\n" + killed, 2), ("a\nb\n" + killed + "\nc\nd", 3), ("\n\n" + killed, 3)):
        hit = first(text)
        assert hit is not None and (hit.row.id, hit.line, hit.text) == ("killed-9", line, killed), text


@pytest.mark.parametrize(
    ("pattern", "text", "groups"),
    [
        # the numbered twin of a name in another alternative folds into the name
        (r"(?P<op>aten::\w+) on (?P<device>mps)|(?P<op2>\w+) fell back", "sgn fell back", {"op": "sgn"}),
        (
            r"(?P<op>aten::\w+) on (?P<device>mps)|(?P<op2>\w+) fell back",
            "aten::mm on mps",
            {"op": "aten::mm", "device": "mps"},
        ),
        # the first of two names that fold together wins
        (r"(?P<package>\w+)=(?P<package2>\w+)", "torch=numpy", {"package": "torch"}),
        (r"(?P<package12>\w+)!", "torch!", {"package": "torch"}),
        # 'which' is given in upper case too (a template names WHICH where torch prints it so)
        (r"(?P<which>high|low) watermark", "low watermark", {"which": "low", "which_upper": "LOW"}),
        # a macOS the message names is the one its notes say
        (r"needs macOS (?P<macos>[\d.]+)", "needs macOS 14.0", {"macos": "14.0", "macos_or": "14.0"}),
    ],
)
def test_groups_of(pattern: str, text: str, groups: dict[str, str]) -> None:
    from mpscheck.knowledge.error_rows import groups_of

    match = re.search(pattern, text)
    assert match is not None
    expected = {"macos_or": INT64_KERNELS_MACOS, **groups}
    assert groups_of(match) == expected


def test_the_int64_kernels_macos_is_the_cumsum_rows() -> None:
    from mpscheck.knowledge.op_limits import OP_LIMITS

    (row,) = [r for r in OP_LIMITS if r.id == "cumsum-int64-macos13.3"]
    assert row.macos_below is not None
    assert ".".join(str(part) for part in row.macos_below) == INT64_KERNELS_MACOS
    assert INT64_KERNELS_MACOS.count(".") == len(row.macos_below) - 1 >= 1


@pytest.mark.parametrize(
    ("template", "values", "filled"),
    [
        ("{python} -m pip install {pkg}", {"python": "python3", "pkg": None}, "python3 -m pip install {pkg}"),
        ("{a}{b}", {}, "{a}{b}"),
        ("{a}", {"a": ""}, ""),
        ("broken {", {"a": "x"}, "broken {"),  # not a template: as written
        ("{0}", {"a": "x"}, "{0}"),  # a positional field: as written
        ("{a.b}", {"a": "x"}, "{a.b}"),  # an attribute of a value: as written
        ("{a[0]}", {"a": "xy"}, "x"),
    ],
)
def test_fill(template: str, values: dict[str, str | None], filled: str) -> None:
    from mpscheck.knowledge.error_rows import fill

    assert fill(template, values) == filled


# ---------------------------------------------------------------------------------------------
# dtype_limits' row builders, called here (the module calls them once, at import; a test must call them to
# see what they build) with a release of distinct parts so that each part is seen where it belongs

_MATMUL_SOURCE = (
    "TORCH_CHECK(self.scalar_type() == ScalarType::Double || ... Float || ... Half, 'T') in "
    "aten/src/ATen/native/mps/operations/LinearAlgebra.mm; complex allowed by supportedFloatingOrComplexType from "
    "PR pytorch/pytorch#127241 (merged 2024-05-28, torch 2.4; fixes issue #127178)"
)
_WHEELS = "the text is in the libtorch_cpu.dylib strings of the macOS arm64 wheels"


def test_an_int64_unary_row() -> None:
    text = "MPS does not support log1p op with int64 input"
    assert dtype_limits._int64_unary("log1p", "2.0.0-3.8.1", (3, 9)) == dtype_limits.MessageRow(
        text,
        frozenset({"aten::log1p"}),
        frozenset({"int64"}),
        (2, 0),
        (3, 9),
        "cast to float32 before the log1p (x.float()), or upgrade to torch>=3.9",
        f"{_WHEELS} 2.0.0-3.8.1 (not from 3.9.0 on); TORCH_CHECK(self.scalar_type() != ScalarType::Long, '{text}') "
        "in TORCH_IMPL_FUNC(log1p_out_mps), aten/src/ATen/native/mps/operations/UnaryOps.mm",
    )


def test_a_matmul_rows_complex_and_integer() -> None:
    ops = frozenset({"aten::mm", "aten::x"})
    assert dtype_limits._matmul("mm", ops, "T", "2.0.0-3.8.0", (3, 9)) == (
        dtype_limits.MessageRow(
            "T",
            ops,
            dtype_limits.COMPLEX,
            (2, 0),
            (2, 4),
            "upgrade to torch>=2.4 (complex mm on MPS, with macOS 14), or run the complex mm on the CPU",
            f"{_WHEELS} 2.0.0-3.8.0; {_MATMUL_SOURCE}",
        ),
        dtype_limits.MessageRow(
            "T",
            ops,
            dtype_limits.INTEGERS,
            (2, 0),
            (3, 9),
            "cast to float32 before the mm (x.float()), or upgrade to torch>=3.9",
            f"{_WHEELS} 2.0.0-3.8.0 (not from 3.9.0 on); {_MATMUL_SOURCE}",
        ),
    )


def test_the_shipped_rows_are_the_builders() -> None:
    assert dtype_limits.ROWS[0] == dtype_limits._int64_unary("log1p", "2.0.0-2.7.1", (2, 8))
    assert dtype_limits.ROWS[2:4] == dtype_limits._matmul(
        "mm", frozenset({"aten::mm"}), "MPS device does not support mm for non-float inputs", "2.0.0-2.6.0", (2, 7)
    )


# ---------------------------------------------------------------------------------------------
# defaults, the table loader's refusal, and how a message is indexed


def test_the_default_architecture_is_arm64() -> None:
    assert releases.texts("availability") == releases.texts("availability", "arm64") != ()
    assert releases.installable("3.11", "14.0") == releases.installable("3.11", "14.0", "arm64") != []
    assert releases.availability_texts() == releases.availability_texts("arm64") != ()
    assert releases.known_releases() == releases.known_releases("arm64") != releases.known_releases("x86_64")
    assert releases.newest_with_mps("3.11", "14.0") == releases.newest_with_mps("3.11", "14.0", "arm64") is not None
    assert releases.installable("3.11", "14.0", "ppc") == []


def test_a_table_of_another_format_is_refused_naming_both() -> None:
    from mpscheck.knowledge import load_table

    with pytest.raises(ValueError) as refused:
        load_table("torch_releases.json", version=2)
    assert str(refused.value) == "torch_releases.json has format 1; this mpscheck reads format 2"
    assert load_table("chip_peaks.json", version=None)["rows"] == PEAKS


def test_match_chip_ignores_case() -> None:
    from mpscheck.knowledge import peaks

    row = next(p for p in PEAKS if p.get("gpu_cores") is None and p["chip"].startswith("Apple"))
    found = peaks.match_chip(row["chip"].lower())
    assert found is not None and found.chip == row["chip"]


def test_a_message_is_indexed_by_its_best_word_or_its_two_best() -> None:
    index = _index(
        "Frobnicator {} exploded on MPS",  # a long rare word: alone
        "The {} was not found",  # every word short or common: the two best
        "xyz {}",  # one word: alone, however weak
        "{} fp16 xyzw",  # a word of 4 without 3 letters in a row ranks after one with them
    )
    assert sorted(index._by_key) == [("found", "not"), ("frobnicator",), ("xyz",), ("xyzw",)]  # "not" before "the": a-z
    assert _found(index, "The 7 was not found") == [("m1", ("7",), 1)]


def test_a_repeated_line_is_matched_once_and_reported_on_each_line() -> None:
    index = _index("Frobnicator {} exploded on MPS")
    line = "Frobnicator 3 exploded on MPS"
    assert _found(index, f"{line}\nother\n{line}") == [("m0", ("3",), 1), ("m0", ("3",), 3)]
    # the work counts the repeated line once: the text, then its two distinct lines
    assert index.work == (2 * len(line) + 7) + len(line) + len("other") + 5 + 3 + 1 + 1


def test_values_are_cut_from_the_lower_case_line_where_lower_changes_its_length() -> None:
    index = _index("Frobnicator {} exploded on MPS")
    assert "İ".lower() != "i" and len("İ".lower()) == 2  # one letter whose lower case is two characters
    assert _found(index, "İ Frobnicator ABC exploded on MPS") == [("m0", ("abc",), 1)]
    assert _found(index, "Frobnicator ABC exploded on MPS") == [("m0", ("ABC",), 1)]


def test_tokens_and_by_id() -> None:
    assert M.tokens("Can't  convert 'aten::mm.out' (x_1)!") == [
        "can", "'", "t", "convert", "'", "aten", ":", ":", "mm", ".", "out", "'", "(", "x_1", ")", "!",
    ]  # fmt: skip
    first = M.messages()[0]
    assert M.by_id(first.id) == first and M.by_id("no such id") is None


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


@pytest.mark.parametrize(
    ("version", "prerelease"),
    [
        ("2.10.0.dev20251008", True),
        ("2.9.0a0+git1eba9b3", True),
        ("2.9.0b1", True),
        ("2.9.0rc1", True),
        ("2.9.0", False),
        ("2.9.0+cpu", False),
        ("2.9.0+devbuild", False),  # a local label is not a pre-release
        ("2.9.0rc", False),  # rc without its number
    ],
)
def test_a_prerelease(version: str, prerelease: bool) -> None:
    assert releases._is_prerelease(version) is prerelease


def test_the_release_to_reason_from() -> None:
    arm = sorted(RELEASES["releases"], key=_key)
    newest_of = {}
    for version in arm:
        newest_of[tuple(_key(version)[:2])] = version

    def nearest(version: str) -> tuple[str, bool] | None:
        found = releases.nearest_known(version)
        return (found[0].version, found[1]) if found else None

    assert nearest("2.5.1+cpu") == ("2.5.1", True)
    assert nearest("2.5.1rc1") == (newest_of[(2, 5)], False)  # a pre-release is not the release itself
    assert nearest("2.4.9") == (newest_of[(2, 4)], False)  # an unknown patch: its minor's newest
    assert nearest("2.99.0") == (arm[-1], False)  # newer than the table: its newest
    assert nearest("1.13.1") is None and nearest("garbage") is None
    assert releases.newer_than_table("2.99.0") == arm[-1]
    assert releases.newer_than_table(arm[-1]) is None and releases.newer_than_table(None) is None
    assert releases.newer_than_table(arm[-1] + ".dev20990101") is None  # the same minor: not newer
    intel = sorted(RELEASES["x86_64"], key=_key)
    assert releases.newer_than_table("2.3.0", "x86_64") == intel[-1]
    assert releases.macos_floor("garbage") is None
