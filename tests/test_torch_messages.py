"""The table of torch's MPS messages (torch_messages.json): its shape, its matcher on real pastes and
hostile input, and tools/build_messages.py's extractors on recorded excerpts of real wheel strings.

The fixtures under tests/fixtures/messages/<version>/ are real excerpts of the wheels each SOURCE.txt
names (sha256 included); the pastes are lines of tests/corpus/*.txt (real user pastes, sources in their
headers). Nothing here downloads anything.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from types import ModuleType

import pytest

from mpscheck.knowledge import load_table
from mpscheck.knowledge import messages as M
from tests import tools_loader

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).parent / "fixtures" / "messages"
CORPUS = Path(__file__).parent / "corpus"
CONDITIONS = {
    "availability",
    "memory",
    "fallback",
    "macos-version",
    "device-mismatch",
    "size-limit",
    "dtype",
    "unimplemented",
    "other",
}


def load_tool() -> ModuleType:
    return tools_loader.load_tool("build_messages")


tool = load_tool()


def fixture_strings(version: str) -> list[str]:
    return (FIXTURES / version / "libtorch_cpu.mps.strings.txt").read_text(encoding="ascii").splitlines()


def corpus_line(name: str, needle: str) -> str:
    """The first line of a corpus paste (below its header) that holds `needle`."""
    body = (CORPUS / name).read_text(encoding="utf-8").split("\n---\n", 1)[1]
    return next(line for line in body.splitlines() if needle in line)


def documented_causes() -> set[str]:
    text = (ROOT / "docs" / "explain.md").read_text(encoding="utf-8")
    return set(re.findall(r"^### `([a-z0-9-]+)`$", text, re.M))


def by_format(fmt: str) -> M.Message:
    found = [m for m in M.messages() if m.format == fmt]
    assert len(found) == 1, fmt
    return found[0]


# ---------------------------------------------------------------------------------------------
# The table


def test_table_loads_with_its_format_and_the_releases_of_the_releases_table() -> None:
    table = M.table()
    assert table["format"] == 1
    releases = load_table("torch_releases.json")["releases"]
    assert sorted(table["releases"]) == sorted(releases)
    assert table["releases"][0] == "2.0.0" and table["releases"][-1] == "2.15.0"
    assert len(M.messages()) > 500


def test_every_message_has_a_documented_class_a_condition_and_valid_releases() -> None:
    causes = documented_causes()
    order = {r: i for i, r in enumerate(M.table()["releases"])}
    ids = [m.id for m in M.messages()]
    assert len(ids) == len(set(ids))
    for message in M.messages():
        assert message.cause in causes, (message.cause, message.format)
        assert message.condition in CONDITIONS
        assert message.format.strip() and message.releases
        for first, last in message.releases:
            assert order[first] <= order[last]
        assert message.id == tool.message_id(message.format)


def test_fixed_in_is_the_release_after_the_last_one_holding_the_message() -> None:
    releases = M.table()["releases"]
    for message in M.messages():
        if message.last_seen == releases[-1]:
            assert message.fixed_in is None
        else:
            assert message.fixed_in == releases[releases.index(message.last_seen) + 1]
        for other in message.reworded_as:
            assert M.by_id(other) is not None and M.by_id(other).first_seen == message.fixed_in  # type: ignore[union-attr]


def test_the_table_is_sorted_and_written_as_the_tool_writes_it() -> None:
    path = ROOT / "mpscheck" / "knowledge" / "torch_messages.json"
    text = path.read_text(encoding="utf-8")
    table = json.loads(text)
    assert [m["format"] for m in table["messages"]] == sorted(m["format"] for m in table["messages"])
    assert text == tool.bk.dump(table)
    assert not re.search(r"20\d\d-\d\d-\d\dT", text)  # no timestamps


def test_every_availability_text_of_the_releases_table_is_here_for_the_same_release() -> None:
    """torch_releases.json read the availability texts from the same wheels, by another extractor."""
    from mpscheck.knowledge import releases

    order = M.table()["releases"]
    for version in order:
        facts = releases.release_facts(version)
        assert facts is not None
        for text in facts.availability_texts:
            holding = [
                m
                for m in M.messages()
                if m.format.startswith(text.strip())
                and any(order.index(a) <= order.index(version) <= order.index(b) for a, b in m.releases)
            ]
            assert holding, (version, text)


def test_known_texts_of_known_releases() -> None:
    """Facts docs/knowledge.md states from the same wheels, read here from this table."""
    old = by_format("The MPS backend is supported on MacOS 13.0+.")
    assert (old.first_seen, old.last_seen, old.fixed_in) == ("2.6.0", "2.8.0", "2.9.0")
    unified = by_format("MPS backend is only supported on devices with unified memory")
    assert unified.first_seen == "2.13.0" and unified.fixed_in is None
    bf16 = by_format("MPS BFloat16 is only supported on MacOS 14 or newer")
    assert (bf16.first_seen, bf16.fixed_in, bf16.cause, bf16.dtype, bf16.macos) == (
        "2.3.0",
        "2.9.0",
        "dtype-needs-macos14",
        "bfloat16",
        "14.0",
    )


# ---------------------------------------------------------------------------------------------
# match() on real pastes


def test_fallback_warning_from_a_real_paste() -> None:
    line = corpus_line("pytorch-106594-sgn-fallback-warning.txt", "UserWarning: The operator")
    found = {m.format: m for m in M.match(line)}
    hit = found["{}' is not currently supported on the MPS backend and will fall back to run on the CPU."]
    assert hit.cause == "op-fallback-warning" and hit.values == ("aten::sgn.out",)
    assert hit.source == "aten/src/ATen/mps/MPSFallback.mm" and hit.line == 1


def test_out_of_memory_from_a_real_paste_captures_the_sizes() -> None:
    line = corpus_line("fooocus-1139-oom-m2-watermark.txt", "MPS backend out of memory")
    (hit,) = [m for m in M.match(line) if m.cause == "out-of-memory"]
    assert hit.values[:3] == ("8.89 GB", "172.98 MB", "9.07 GB")
    assert hit.condition == "memory" and hit.fixed_in is None


def test_availability_text_of_2_6_to_2_8_gives_fixed_in_and_the_rewording() -> None:
    line = corpus_line("pytorch-164943-nightly-needs-macos14.txt", "RuntimeError: The MPS backend")
    found = {m.format: m for m in M.match(line)}
    hit = found["The MPS backend is supported on MacOS 13.0+."]
    assert (hit.cause, hit.first_seen, hit.last_seen, hit.fixed_in) == ("no-metal-device", "2.6.0", "2.8.0", "2.9.0")
    newer = by_format("The MPS backend is supported on MacOS 14.0+. Current OS version can be queried using `sw_vers`")
    assert newer.id in hit.reworded_as
    assert newer.id not in found  # 14.0 is not 13.0


def test_int64_op_names_the_op_and_the_macos() -> None:
    line = corpus_line("pytorch-96610-cumsum-int64-13-3.txt", "RuntimeError: MPS does not support")
    (hit,) = [m for m in M.match(line) if "13.3" in m.format]
    assert hit.cause == "int64-op-needs-newer-macos"
    assert hit.values == ("cumsum",) and hit.macos == "13.3" and hit.dtype == "int64"


@pytest.mark.parametrize(
    ("paste", "needle", "cause"),
    [
        ("tianshou-1237-float64-repl.txt", "TypeError: Cannot convert", "float64-unsupported"),
        ("diffusers-9224-flux-float64.txt", "Cannot convert a MPS", "float64-unsupported"),  # no closing period
        ("torchchat-616-bf16-ci-macos13.txt", "TypeError: MPS BFloat16", "dtype-needs-macos14"),
        ("pytorch-86195-slow-conv2d-input-on-cpu.txt", "NotImplementedError", "op-not-implemented"),
        ("pytorch-119088-complex-mul-assert.txt", "INTERNAL ASSERT", "metal-bug-fixed-later"),
    ],
)
def test_real_pastes_reach_their_class(paste: str, needle: str, cause: str) -> None:
    assert cause in {m.cause for m in M.match(corpus_line(paste, needle))}


def test_an_internal_assert_carries_its_file_line_and_fix() -> None:
    line = corpus_line("pytorch-119088-complex-mul-assert.txt", "INTERNAL ASSERT")
    (hit,) = [m for m in M.match(line) if m.cause == "metal-bug-fixed-later"]
    assert hit.source == "aten/src/ATen/native/mps/operations/BinaryKernel.mm"
    assert hit.values[1] == "340"
    assert hit.fixed_in == "2.3.0"  # the assert is in the 2.2.x wheels only


def test_the_op_not_implemented_text_names_the_op() -> None:
    line = corpus_line("pytorch-86195-slow-conv2d-input-on-cpu.txt", "NotImplementedError")
    hits = [m for m in M.match(line) if m.cause == "op-not-implemented"]
    assert hits and all(m.values[0] == "aten::_slow_conv2d_forward" for m in hits)
    assert {m.fixed_in for m in hits} == {"2.1.0", "2.6.0"}  # the 2.0 and the 2.1-2.5 wordings


def test_a_text_no_released_wheel_holds_matches_nothing() -> None:
    # torch 1.12's "not current implemented" (a typo fixed before 2.0) is in no wheel of the table
    line = corpus_line("invokeai-232-index-put-fallback.txt", "NotImplementedError")
    assert not [m for m in M.match(line) if m.cause == "op-not-implemented"]


def test_whitespace_differences_and_line_numbers() -> None:
    text = "\n".join(
        [
            "some output",
            "RuntimeError:   Placeholder\tstorage has not been allocated   on MPS device!",
            "more",
            "Trying to convert  BFloat16 to the MPS  backend but it does not have support for that dtype.",
        ]
    )
    found = {(m.line, m.format): m for m in M.match(text)}
    assert (2, "Placeholder storage has not been allocated on MPS device!") in found
    convert = found[(4, "Trying to convert {} to the MPS backend but it does not have support for that dtype.")]
    assert convert.values == ("BFloat16",) and convert.cause == "dtype-unsupported"


def test_values_of_a_line_whose_lower_case_is_longer() -> None:
    # "İ".lower() is two characters: the values must still be the text between the pieces
    line = "İİ RuntimeError: Trying to convert BFloat16 to the MPS backend but it does not have support for that dtype."
    (hit,) = M.match(line)
    assert hit.values == ("bfloat16",)


def test_a_repeated_line_is_reported_on_every_line() -> None:
    line = "TypeError: MPS BFloat16 is only supported on MacOS 14 or newer"
    found = [m.line for m in M.match("\n".join([line, "x", line]))]
    assert found == [1, 3]


def test_match_takes_another_table() -> None:
    table = {
        "messages": [
            {
                "id": "mtest",
                "format": "Frobnicator {} exploded on MPS",
                "releases": [["2.0.0", "2.1.0"]],
                "fixed_in": "2.1.1",
                "condition": "other",
                "cause": "metal-bug-fixed-later",
                "source": None,
            }
        ]
    }
    index = M.MessageIndex(M.messages_of(table))
    (hit,) = M.match("x\nFrobnicator 3000 exploded on MPS!", using=index)
    assert (hit.id, hit.values, hit.line, hit.fixed_in, hit.source) == ("mtest", ("3000",), 2, "2.1.1", None)
    assert M.match("Frobnicator 3000 exploded on MPS") == []  # not in the shipped table


def test_nothing_in_unrelated_text() -> None:
    assert M.match("") == []
    assert M.match("Epoch 1/10 loss=0.25 accuracy=0.91\nSaving checkpoint to ./out\n") == []


def test_every_message_matches_its_own_text() -> None:
    """Each format, with its values filled in, is found again; the only ones that cannot be are those
    with no word free of a {} to index them by."""
    unreachable = []
    for message in M.messages():
        text = "RuntimeError: " + message.format.replace("{}", " 7 ")
        if message.id not in {m.id for m in M.match(text)}:
            unreachable.append(message.format)
    assert all(not M._anchor_candidates(fmt) for fmt in unreachable), unreachable
    assert len(unreachable) <= 3


# ---------------------------------------------------------------------------------------------
# Hostile and large input: bounded work


HOSTILE = {
    "a": "a" * 1_000_000,
    "underscore": "_" * 1_000_000,
    "slash": "/" * 1_000_000,
    "fallback prefix": ("The operator 'aten::x' is not currently " * 30_000)[:1_000_000],
    "convert prefix": ("Trying to convert " * 60_000)[:1_000_000],
    "oom prefix": ("MPS backend out of memory (MPS allocated: " * 30_000)[:1_000_000],
    "assert prefix": ('false INTERNAL ASSERT FAILED at "/x/aten/src/' * 25_000)[:1_000_000],
    "quotes": ("'" * 1_000_000),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_long_lines_take_bounded_work(name: str) -> None:
    index = M.index()
    text = HOSTILE[name]
    started = time.perf_counter()
    index.match(text)
    assert time.perf_counter() - started < 2.0
    assert index.work <= 4 * len(text)


def test_ten_megabytes_of_real_pastes_in_bounded_work() -> None:
    corpus = "".join(p.read_text(encoding="utf-8") for p in sorted(CORPUS.glob("*.txt")))
    text = (corpus * (10_000_000 // len(corpus) + 1))[:10_000_000]
    index = M.index()
    started = time.perf_counter()
    found = index.match(text)
    assert time.perf_counter() - started < 2.0
    assert index.work <= 3 * len(text)
    assert len(found) > 1000


def test_a_matching_line_repeated_with_its_prefix_many_times() -> None:
    line = "RuntimeError: Placeholder storage has not been allocated on MPS device! " * 20_000
    index = M.index()
    found = index.match(line)
    assert [m.format for m in found] == ["Placeholder storage has not been allocated on MPS device!"]
    assert index.work <= 4 * len(line)


# ---------------------------------------------------------------------------------------------
# tools/build_messages.py on recorded excerpts of real wheel strings


def test_every_source_checked_by_reading_pytorch_is_in_the_table_with_that_file() -> None:
    checked = tool.checked_sources()
    assert len(checked) >= 10
    for (fmt, path), where in checked.items():
        message = by_format(fmt)
        assert message.source == path and where.startswith("pytorch/pytorch@")
        row = next(r for r in M.table()["messages"] if r["format"] == fmt)
        assert row["source"]["checked"] == where


def test_fixtures_cite_their_wheel() -> None:
    for directory in FIXTURES.iterdir():
        source = (directory / "SOURCE.txt").read_text()
        assert "sha256" in source and ".whl" in source and "pip download" in source


def test_extractor_joins_the_pieces_of_one_message_and_names_its_file() -> None:
    found = tool.mps_messages(fixture_strings("2.9.0"))
    assert found["Trying to convert {} to the MPS backend but it does not have support for that dtype."] == (
        "aten/src/ATen/native/mps/OperationUtils.mm"
    )
    assert found["The MPS backend is supported on MacOS 14.0+. Current OS version can be queried using `sw_vers`"] == (
        "aten/src/ATen/mps/EmptyTensor.cpp"
    )
    assert "invalid high watermark ratio {}" in found
    assert any(f.startswith("MPS backend out of memory (MPS allocated: {}, other allocations: {}") for f in found)
    assert 'device.is_mps() INTERNAL ASSERT FAILED at "{}aten/src/ATen/mps/EmptyTensor.cpp":{}' in " ".join(found)
    assert not any(re.search(r"\[\[|;\s*$|kernel void|#include", f) for f in found)  # no Metal source


def test_extractor_output_is_in_the_table_for_that_release() -> None:
    for version in sorted(p.name for p in FIXTURES.iterdir()):
        for fmt in tool.mps_messages(fixture_strings(version)):
            message = by_format(fmt)
            order = M.table()["releases"]
            assert any(order.index(a) <= order.index(version) <= order.index(b) for a, b in message.releases)


def test_table_from_two_fixture_releases_gives_fixed_in_and_rewording() -> None:
    per_release = {
        v: {"messages": tool.wheel_messages({"strings": {tool.CONTENT_LIBS[0]: fixture_strings(v)}, "python": {}})}
        for v in ("2.8.0", "2.9.0")
    }
    table = tool.messages_table(per_release, ["2.8.0", "2.9.0"])
    rows = {m["format"]: m for m in table["messages"]}
    old = rows["The MPS backend is supported on MacOS 13.0+."]
    new = rows["The MPS backend is supported on MacOS 14.0+. Current OS version can be queried using `sw_vers`"]
    assert old["fixed_in"] == "2.9.0" and old["releases"] == [["2.8.0", "2.8.0"]]
    assert new["fixed_in"] is None and new["releases"] == [["2.9.0", "2.9.0"]]
    assert old["reworded_as"] == [new["id"]]
    assert rows["Placeholder storage has not been allocated on MPS device!"]["releases"] == [["2.8.0", "2.9.0"]]
    assert tool.bk.dump(table) == tool.bk.dump(tool.messages_table(per_release, ["2.8.0", "2.9.0"]))


@pytest.mark.parametrize(
    ("left", "right", "glue"),
    [
        ("Trying to convert ", " to the MPS backend but it does not have support for that dtype.", "{}"),
        ("Unsupported scalar type '", "' on MPS backend.", "{}"),
        ("for the MPS device. If you want this op to be added in priority during the prototype ", "phase of", ""),
        ("The MPS backend is supported on MacOS 14.0+. ", "Current OS version can be queried using `sw_vers`", ""),
        ("linalg.solve_triangular(): MPS only supports float32 and complex64, got ", "linalg.solve_triangular()", None),
        ("Tensor: invalid null storage", "resize_mps_", None),
    ],
)
def test_joins_on_real_adjacent_pieces(left: str, right: str, glue: str | None) -> None:
    assert tool.joins(left, right) == glue


def test_python_module_messages_from_the_real_module() -> None:
    source = (ROOT / "tests" / "fixtures" / "wheels" / "2.9.0" / "mps_init.py.txt").read_text()
    found = tool.python_messages(source)
    assert "Invalid fraction value: {}. Allowed range: 0~2" in found
    assert by_format("Invalid fraction value: {}. Allowed range: 0~2").source == "torch/mps/__init__.py"


def test_strings_outside_mps_files_are_kept_only_when_they_mention_mps() -> None:
    strings = [
        "/Users/runner/work/pytorch/pytorch/pytorch/aten/src/ATen/native/Linear.cpp",
        "linear(): input and weight must have the same dtype",
        "Cannot execute emptyCache() without MPS backend.",
        "/Users/runner/work/pytorch/pytorch/pytorch/aten/src/ATen/mps/MPSDevice.mm",
        "Skipping device ",
        " that does not support Metal 2.0",
    ]
    found = tool.mps_messages(tool.relevant_strings(strings))
    assert found == {
        "Cannot execute emptyCache() without MPS backend.": None,
        "Skipping device {} that does not support Metal 2.0": "aten/src/ATen/mps/MPSDevice.mm",
    }


@pytest.mark.parametrize(
    ("fmt", "condition", "cause", "dtype", "macos"),
    [
        (
            "Cannot convert a float64 Tensor to MPS as the MPS framework doesn't support float64.",
            "dtype",
            "float64-unsupported",
            "float64",
            None,
        ),
        (
            "linalg.matrix_exp on MPS requires macOS 15.0 or newer",
            "macos-version",
            "op-needs-newer-macos",
            None,
            "15.0",
        ),
        (
            "MPS: grid_sampler_2d op is supported natively starting from macOS 13.2. Falling back on CPU.",
            "fallback",
            "op-fallback-warning",
            None,
            "13.2",
        ),
        ("MPSGraph does not support tensor dims larger than INT_MAX", "size-limit", "mps-size-limit", None, None),
        ("nansum on MPS does not support complex inputs", "dtype", "dtype-unsupported", "complex", None),
        ("Conv3D is not supported on MPS", "unimplemented", "mps-unsupported-feature", None, None),
        ("Released buffer of size {} (use#: {}", "other", "mps-diagnostic-output", None, None),
        ("tensors must be 2-D", "other", "invalid-argument", None, None),
    ],
)
def test_classification(fmt: str, condition: str, cause: str, dtype: str | None, macos: str | None) -> None:
    assert tool.classify(fmt) == {"condition": condition, "dtype": dtype, "macos": macos, "cause": cause}


def test_argument_checks_are_the_callers_and_bugs_are_internal_asserts_or_metal_failures() -> None:
    """An argument check (shapes, ranks, values) is invalid-argument, never a torch bug; what the table calls a
    bug fixed later is an INTERNAL ASSERT or a failure of Metal itself (a library, a command buffer)."""
    table = json.loads((Path(M.__file__).parent / "torch_messages.json").read_text(encoding="utf-8"))
    for message in table["messages"]:
        if message["cause"] == "metal-bug-fixed-later":
            assert "INTERNAL ASSERT" in message["format"] or re.search(
                r"(?i)\bfailed to\b|command buffer", message["format"]
            ), message["format"]
    assert tool.classify("Expected self.dim() == 2 to be true, but got false.")["cause"] == "invalid-argument"


def test_reclassifying_the_stored_table_offline_changes_nothing(tmp_path: Path) -> None:
    stored = Path(M.__file__).parent / "torch_messages.json"
    copy = tmp_path / "torch_messages.json"
    copy.write_text(stored.read_text(encoding="utf-8"), encoding="utf-8")
    assert tool.main(["--reclassify", "--out", str(copy)]) == 0
    assert copy.read_text(encoding="utf-8") == stored.read_text(encoding="utf-8")
