"""tools/build_knowledge.py's extractors on small real excerpts of torch's wheels, and its writer.

The fixtures under tests/fixtures/wheels/<version>/ are real excerpts of the wheels each SOURCE.txt
names (sha256 included); nothing here downloads anything.
"""

from __future__ import annotations

import json
import random
from importlib import resources
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from mpscheck.knowledge import releases
from tests import tools_loader

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).parent / "fixtures" / "wheels"


def load_tool() -> ModuleType:
    return tools_loader.load_tool("build_knowledge")


tool = load_tool()
ARM64_FIXTURES = sorted(p.name for p in FIXTURES.iterdir() if p.is_dir() and "-" not in p.name)


def strings_of(version: str) -> list[str]:
    return (FIXTURES / version / "libtorch_cpu.strings.txt").read_text(encoding="ascii").splitlines()


def test_fixtures_cite_their_wheel() -> None:
    for directory in FIXTURES.iterdir():
        source = (directory / "SOURCE.txt").read_text()
        assert "sha256" in source and ".whl" in source and "pip download" in source


@pytest.mark.parametrize("version", ARM64_FIXTURES)
def test_strings_extractor_finds_the_same_texts_the_table_holds(version: str) -> None:
    texts, names = tool.categorize_strings(strings_of(version))
    facts = releases.release_facts(version)
    assert facts is not None
    assert sorted(texts["availability"]) == sorted(facts.availability_texts)
    assert names == set(facts.env_vars)
    floors = {tool.stated_floor(t) for t in texts["availability"]} - {None}
    assert len(floors) == 1
    assert releases.parse(floors.pop()) == facts.macos_floor
    assert "MPS backend out of memory (MPS allocated: " in texts["oom"]
    assert any("is not currently" in t for t in texts["fallback"])


def test_strings_extractor_on_raw_bytes_like_strings_n6() -> None:
    data = b"\x00\x01The MPS backend is supported on MacOS 14.0+. \x00ab\x00PYTORCH_MPS_FAST_MATH\x00\xff"
    assert list(tool.printable_strings(data)) == [
        "The MPS backend is supported on MacOS 14.0+. ",
        "PYTORCH_MPS_FAST_MATH",
    ]


def test_floor_texts() -> None:
    assert tool.stated_floor("The MPS backend is supported on MacOS 12.3+.") == "12.3"
    assert tool.stated_floor("The MPS backend is supported on macOS 15.0+. ") == "15.0"
    assert tool.stated_floor("MPS backend is only supported on devices with unified memory") is None


@pytest.mark.parametrize("version", ARM64_FIXTURES)
def test_api_extractor_on_the_real_module(version: str) -> None:
    found = tool.api_names((FIXTURES / version / "backends_mps_init.py.txt").read_text())
    facts = releases.release_facts(version)
    assert facts is not None
    assert set(found["defs"]) | set(found["all"]) == facts.api["torch.backends.mps"]
    mps = tool.api_names((FIXTURES / version / "mps_init.py.txt").read_text())
    assert set(mps["defs"]) | set(mps["all"]) == facts.api["torch.mps"]


def test_api_extractor_sees_get_name_first_in_2_9() -> None:
    def names(v: str) -> set[str]:
        found = tool.api_names((FIXTURES / v / "backends_mps_init.py.txt").read_text())
        return set(found["defs"])

    assert "get_name" not in names("2.8.0")
    assert {"get_name", "get_core_count"} <= names("2.9.0")


def test_python_registered_mps_kernels() -> None:
    found = tool.python_mps_impls((FIXTURES / "2.8.0" / "backends_mps_init.py.txt").read_text())
    assert found == ["aten::native_group_norm", "aten::native_group_norm_backward"]


@pytest.mark.parametrize("version", sorted(p.name for p in FIXTURES.iterdir()))
def test_metadata_extractor(version: str) -> None:
    meta = tool.metadata_facts((FIXTURES / version / "METADATA").read_text())
    arch = "x86_64" if version.endswith("x86_64") else "arm64"
    facts = releases.release_facts(version.split("-")[0], arch)
    assert facts is not None and meta["requires_python"] == facts.requires_python


def test_numpy_modules_tell_a_numpy_1_build() -> None:
    old = (FIXTURES / "2.2.2-x86_64" / "libtorch_python.numpy.txt").read_text().split()
    new = (FIXTURES / "2.3.0" / "libtorch_python.numpy.txt").read_text().split()
    assert old == ["numpy.core._multiarray_umath"]
    assert "numpy._core._multiarray_umath" in new


def test_op_kinds_from_a_real_yaml_excerpt() -> None:
    entries = tool.load_yaml((FIXTURES / "2.15.0" / "native_functions.excerpt.yaml").read_text())
    kinds, delegates = tool.op_kinds(entries)
    assert kinds["aten::add.out"] == "mps"
    assert delegates["aten::add.Tensor"] == "aten::add.out"
    assert kinds["aten::add.Tensor"] == "mps"
    assert kinds["aten::dropout"] == "composite-implicit"
    assert kinds["aten::_efficientzerotensor.out"] == "composite-explicit"  # autogen:
    # a delegate outside the excerpt is not guessed to be MPS
    lonely, _ = tool.op_kinds([{"func": "x.Tensor(Tensor self) -> Tensor", "structured_delegate": "x.out"}])
    assert lonely["aten::x.Tensor"] == "none"

    def kind(dispatch: dict[str, str]) -> str:
        return tool.op_kinds([{"func": "y() -> Tensor", "dispatch": dispatch}])[0]["aten::y"]

    assert kind({"SparseMPS": "k", "SparseCPU": "k"}) == "sparse-mps"
    assert kind({"CPU, CUDA, MPS": "k"}) == "mps"
    assert kind({"CPU, CUDA": "k"}) == "none"
    assert kind({"CPU": "k", "CompositeExplicitAutograd": "k"}) == "composite-explicit"
    assert kind({}) == "none"  # `dispatch: {}`: no kernel at all (torch 2.13's _nested_get_ragged_idx)
    assert tool.op_kinds([{"func": "w() -> Tensor"}])[0]["aten::w"] == "composite-implicit"
    # a structured op whose own keys are for other layouts runs dense tensors through its delegate
    structured = tool.op_kinds(
        [
            {"func": "z.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", "dispatch": {"CPU, MPS": "k"}},
            {"func": "z.Tensor(Tensor self) -> Tensor", "structured_delegate": "z.out", "dispatch": {"SparseCPU": "k"}},
        ]
    )[0]
    assert structured["aten::z.Tensor"] == "mps"


@pytest.mark.parametrize(("version", "reader"), [("2.7.1", "stoi"), ("2.8.0", "not-0")])
def test_fallback_reader_from_the_disassembled_registration(version: str, reader: str) -> None:
    directory = FIXTURES / version
    stubs = {}
    for line in (directory / "stubs.txt").read_text().splitlines():
        address, _, name = line.split()
        stubs[int(address, 16)] = name
    asm = (directory / "fallback_init.asm.txt").read_text()
    calls = tool.called_stubs(asm, stubs)
    assert tool.classify_reader(calls, asm) == reader
    assert releases.fallback_reader(version) == reader


def test_cpu_always_names_from_the_disassembled_registration() -> None:
    for version in ("2.7.1", "2.8.0"):
        directory = FIXTURES / version
        table = dict(line.split(" ", 1) for line in (directory / "cstrings.txt").read_text().splitlines())
        addresses = tool.cstring_addresses((directory / "aten_init.asm.txt").read_text())
        names = [table[f"0x{a:x}"] for a in addresses if f"0x{a:x}" in table]
        assert "embedding_renorm_" in names and "linalg_svd" in names
        assert ("col2im" in names) == (version == "2.7.1")


# --- the writer ----------------------------------------------------------------------------------


def committed(name: str) -> str:
    return resources.files("mpscheck.knowledge").joinpath(name).read_text(encoding="utf-8")


@pytest.mark.parametrize("name", ["torch_releases.json", "op_coverage.json"])
def test_committed_tables_are_in_the_writers_canonical_form(name: str) -> None:
    text = committed(name)
    assert tool.dump(json.loads(text)) == text


def shuffled(value: Any, rng: random.Random) -> Any:
    if isinstance(value, dict):
        items = list(value.items())
        rng.shuffle(items)
        return {k: shuffled(v, rng) for k, v in items}
    if isinstance(value, list):
        return [shuffled(v, rng) for v in value]
    return value


def test_writer_is_deterministic_whatever_order_the_facts_arrive_in() -> None:
    per_release: dict[str, Any] = {}
    for version in ("2.7.1", "2.8.0"):
        directory = FIXTURES / version
        texts, names = tool.categorize_strings(strings_of(version))
        raw_ops = tool.op_entries(tool.load_yaml((FIXTURES / "2.15.0" / "native_functions.excerpt.yaml").read_text()))
        per_release[f"{version}/arm64"] = {
            "wheel": f"torch-{version}-cp311-none-macosx_11_0_arm64.whl",
            "platform_tag": "macosx_11_0_arm64",
            "texts": {t: {"category": c, "files": [tool.LIBTORCH_CPU]} for c, ts in texts.items() for t in ts},
            "env_vars": {n: [tool.LIBTORCH_CPU] for n in names},
            "api": {"torch.backends.mps": tool.api_names((directory / "backends_mps_init.py.txt").read_text())},
            "python_mps_impls": [],
            "metadata": tool.metadata_facts((directory / "METADATA").read_text()),
            "ops": raw_ops,
            "fallback": {"reader": None, "calls": [], "cpu_always": ["embedding_renorm_"]},
        }
    install = {"macosx_11_0_arm64": {"3.11": ["2.7.1", "2.8.0"]}}
    first = tool.dump(tool.releases_table(per_release, install)) + tool.dump(tool.ops_table(per_release))
    rng = random.Random(7)
    for _ in range(3):
        again = shuffled(per_release, rng)
        second = tool.dump(tool.releases_table(again, install)) + tool.dump(tool.ops_table(again))
        assert second == first


def test_tables_stay_small() -> None:
    sizes = [len(committed(n).encode()) for n in ("torch_releases.json", "op_coverage.json")]
    assert sum(sizes) < 600_000, sizes


def lines_table(path: Path) -> dict[int, str]:
    """'0xADDR text' lines -> {address: text}."""
    table = {}
    for line in path.read_text().splitlines():
        if line.strip():
            address, text = line.split(" ", 1)
            table[int(address, 16)] = text
    return table


@pytest.mark.parametrize(
    ("version", "selector"),
    [
        ("2.3.0", "LSTMWithSourceTensor:recurrentWeight:inputWeight:bias:initState:initCell:descriptor:name:"),
        ("2.8.0", "cumulativeSumWithTensor:axis:name:"),
        ("2.9.0", "HermiteanToRealFFTWithTensor:axes:descriptor:name:"),
        ("2.15.0", None),
    ],
)
def test_device_check_selector_from_the_disassembled_constructor(version: str, selector: str | None) -> None:
    directory = FIXTURES / version
    selrefs = lines_table(directory / "selrefs.txt")
    stubs = {a: t.split()[-1] for a, t in lines_table(directory / "stubs.txt").items()}
    found = tool.respond_to_selectors((directory / "device_ctor.asm.txt").read_text(), selrefs.get, stubs)
    assert found == ([selector] if selector else [])
    facts = releases.release_facts(version)
    assert facts is not None
    expected = releases.parse(tool.SELECTOR_MACOS[selector]) if selector else None
    assert facts.device_check_macos == expected


def test_2_15_says_15_0_below_macos_15_and_no_metal_gpu_at_or_above_it() -> None:
    directory = FIXTURES / "2.15.0"
    texts = lines_table(directory / "mps_unavailable_error.cstrings.txt")
    branches = tool.unavailable_branches((directory / "mps_unavailable_error.asm.txt").read_text(), texts)
    versions = tool.enum_versions((directory / "is_macos_13_plus.asm.txt").read_text())
    assert branches is not None and versions[branches["enum"]] == (15, 0)
    assert "MPS backend is unavailable: no supported Metal GPU was found. " in branches["at_least"]
    assert "The MPS backend is supported on macOS 15.0+. " in branches["below"]
    rule = releases.release_facts("2.15.0").unavailable  # type: ignore[union-attr]
    assert rule is not None and rule.macos == (15, 0)
    assert rule.at_least[0] == "MPS backend is unavailable: no supported Metal GPU was found. "
    assert rule.below[0] == "The MPS backend is supported on macOS 15.0+. "
    assert releases.release_facts("2.14.1").unavailable is None  # type: ignore[union-attr]
