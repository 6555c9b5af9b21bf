"""The knowledge tables read from torch's macOS wheels: they load, agree with themselves per release,
and say what the wheels say about the facts of /work/shared/mps-facts.md section 0.

Every expected value here was read from the wheels named in torch_releases.json ("wheel") by
tools/build_knowledge.py; the fixtures under tests/fixtures/wheels/ hold real excerpts of a few.
"""

from __future__ import annotations

import re

import pytest

from mpscheck.knowledge import ops, releases

RELEASES = releases.known_releases()


def test_the_tables_load_and_cover_torch_2_0_to_2_15() -> None:
    assert RELEASES[0] == "2.0.0"
    assert "2.15.0" in RELEASES
    assert sorted(RELEASES, key=lambda v: tuple(int(p) for p in v.split("."))) == RELEASES
    assert ops.known_releases() == RELEASES
    assert releases.known_releases("x86_64") == ["2.2.2"]
    for version in RELEASES:
        facts = releases.release_facts(version)
        assert facts is not None and facts.version == version and facts.arch == "arm64"
        assert facts.wheel.startswith(f"torch-{version}-") and facts.wheel.endswith("arm64.whl")


@pytest.mark.parametrize("version", RELEASES)
def test_each_release_states_a_floor_that_the_table_parsed_from_its_own_text(version: str) -> None:
    facts = releases.release_facts(version)
    assert facts is not None
    stated = [t for t in facts.availability_texts if "MPS backend is supported on" in t]
    assert len(stated) == 1, stated
    number = re.search(r"[Mm]ac ?OS (\d+(?:\.\d+)?)\+", stated[0])
    assert number is not None
    assert facts.stated_floor == tuple(int(p) for p in number.group(1).split("."))
    assert releases.macos_floor(version) == facts.macos_floor
    assert facts.macos_floor is not None and facts.macos_floor >= facts.stated_floor
    assert stated[0] in releases.availability_texts()
    assert version in releases.text_releases(stated[0])


@pytest.mark.parametrize("version", RELEASES)
def test_each_release_exports_only_what_it_defines_and_has_the_core_api(version: str) -> None:
    facts = releases.release_facts(version)
    assert facts is not None
    for module in ("torch.backends.mps", "torch.mps"):
        assert module in facts.api
    for name in ("is_available", "is_built"):
        assert releases.has_api(version, "torch.backends.mps", name) is True
    assert releases.has_api(version, "torch.mps", "synchronize") is True
    assert releases.has_api(version, "torch.backends.mps", "no_such_function") is False


@pytest.mark.parametrize("version", RELEASES)
def test_each_release_requires_a_python_that_its_wheels_are_built_for(version: str) -> None:
    facts = releases.release_facts(version)
    assert facts is not None and facts.requires_python is not None
    match = re.fullmatch(r">=\s*3\.(\d+)(?:\.\d+)?", facts.requires_python)
    assert match, facts.requires_python
    lowest = int(match.group(1))
    assert facts.install, "pip index lists no Python for this release"
    for tag in facts.install:
        assert int(tag[3:]) >= lowest, (tag, facts.requires_python)
    # The macOS its wheel tag allows is never newer than the floor MPS needs on the wheels from 2.12
    # on, and the oldest macOS pip accepts is what the file name says.
    tag_macos = tuple(int(p) for p in re.match(r"macosx_(\d+)_(\d+)_", facts.platform_tag).groups())
    assert min(facts.install.values()) <= tag_macos


@pytest.mark.parametrize("version", RELEASES)
def test_each_release_reads_the_fallback_variable_in_a_known_way(version: str) -> None:
    assert releases.fallback_reader(version) in ("stoi", "not-0")
    facts = releases.release_facts(version)
    assert facts is not None and "PYTORCH_ENABLE_MPS_FALLBACK" in facts.env_vars


# --- mps-facts.md section 0, as the wheels say it -------------------------------------------------


def stated_floors() -> dict[str, tuple[int, ...]]:
    return {v: releases.release_facts(v).stated_floor or () for v in RELEASES}  # type: ignore[union-attr]


def test_stated_floor_is_12_3_to_2_5_then_13_from_2_6_then_14_from_2_9_then_15_at_2_15() -> None:
    for version, floor in stated_floors().items():
        minor = tuple(int(p) for p in version.split("."))[:2]
        if minor <= (2, 5):
            assert floor == (12, 3), version
        elif minor <= (2, 8):
            assert floor == (13, 0), version
        elif minor <= (2, 14):
            assert floor == (14, 0), version
        else:
            assert floor == (15, 0), version


def test_device_check_makes_2_5_need_macos_13_although_its_text_says_12_3() -> None:
    checks = {v: releases.release_facts(v).device_check_macos for v in RELEASES}  # type: ignore[union-attr]
    for version, macos in checks.items():
        minor = tuple(int(p) for p in version.split("."))[:2]
        if minor <= (2, 4):
            assert macos == (12, 3), version
        elif minor <= (2, 8):
            assert macos == (13, 0), version
        elif minor <= (2, 14):
            assert macos == (14, 0), version
    assert releases.macos_floor("2.5.1") == (13, 0)
    assert releases.macos_floor("2.4.1") == (12, 3)
    assert releases.macos_floor("2.15.0") == (15, 0)


def test_2_12_writes_macos_in_lower_case_and_2_15_names_no_supported_metal_gpu() -> None:
    assert "The MPS backend is supported on MacOS 14.0+. " in releases.release_facts("2.11.0").availability_texts
    assert "The MPS backend is supported on macOS 14.0+. " in releases.release_facts("2.12.0").availability_texts
    texts_215 = releases.release_facts("2.15.0").availability_texts
    assert "The MPS backend is supported on macOS 15.0+. " in texts_215
    assert "MPS backend is unavailable: no supported Metal GPU was found. " in texts_215
    assert releases.text_releases("MPS backend is unavailable: no supported Metal GPU was found. ") == ("2.15.0",)


def test_unified_memory_text_is_in_2_13_and_later_only() -> None:
    carried = releases.text_releases("MPS backend is only supported on devices with unified memory")
    assert carried == tuple(v for v in RELEASES if tuple(map(int, v.split("."))) >= (2, 13))


def test_bfloat16_and_complex_texts_are_in_2_3_to_2_8_only() -> None:
    expected = tuple(v for v in RELEASES if (2, 3) <= tuple(map(int, v.split(".")))[:2] <= (2, 8))
    assert releases.text_releases("MPS bfloat16 type is supported on MacOS 14.0 or newer.") == expected
    assert releases.text_releases("MPS complex types are only supported on MacOS 14.0 or newer.") == expected


def test_api_firsts() -> None:
    assert releases.first_release_with_api("torch.backends.mps", "get_name") == "2.9.0"
    assert releases.first_release_with_api("torch.backends.mps", "get_core_count") == "2.9.0"
    assert releases.first_release_with_api("torch.mps", "recommended_max_memory") == "2.5.0"
    assert releases.has_api("2.8.0", "torch.backends.mps", "get_name") is False
    assert releases.has_api("2.9.0", "torch.backends.mps", "get_name") is True


def test_requires_python_and_wheel_tags() -> None:
    def facts(v: str) -> releases.ReleaseFacts:
        found = releases.release_facts(v)
        assert found is not None
        return found

    for version in ("2.12.0", "2.12.1", "2.13.0", "2.14.0", "2.14.1"):
        assert facts(version).requires_python == ">=3.10"
        assert facts(version).platform_tag == "macosx_14_0_arm64"
    assert facts("2.15.0").requires_python == ">=3.11"
    assert facts("2.15.0").platform_tag == "macosx_14_0_arm64"
    for version in ("2.9.0", "2.10.0", "2.11.0"):
        assert facts(version).platform_tag == "macosx_11_0_arm64"


def test_fallback_variable_is_read_with_stoi_to_2_7_and_compared_with_0_from_2_8() -> None:
    for version in RELEASES:
        minor = tuple(int(p) for p in version.split("."))[:2]
        assert releases.fallback_reader(version) == ("stoi" if minor <= (2, 7) else "not-0"), version


def test_last_intel_wheel_is_2_2_2_for_python_3_8_to_3_12_and_needs_numpy_below_2() -> None:
    intel = releases.release_facts("2.2.2", "x86_64")
    assert intel is not None and intel.platform_tag == "macosx_10_9_x86_64"
    assert sorted(intel.install) == ["cp310", "cp311", "cp312", "cp38", "cp39"]
    assert releases.numpy_pin("2.2.2", "x86_64") == "numpy<2"
    assert releases.numpy_pin("2.2.2") == "numpy<2"
    assert releases.numpy_pin("2.3.0") is None
    assert releases.newest_installable("3.12", "14.4", "x86_64") == "2.2.2"
    assert releases.newest_installable("3.13", "14.4", "x86_64") is None


# --- loaders ----------------------------------------------------------------------------------------


def test_nearest_known_says_when_it_is_not_the_release_itself() -> None:
    newest = RELEASES[-1]
    exact = releases.nearest_known("2.9.0+cpu")
    assert exact is not None and exact[0].version == "2.9.0" and exact[1] is True
    nightly = releases.nearest_known("2.99.0.dev20991231")
    assert nightly is not None and nightly[0].version == newest and nightly[1] is False
    dev = releases.nearest_known("2.9.0.dev20250801")
    assert dev is not None and dev[0].version == "2.9.1" and dev[1] is False
    unknown_patch = releases.nearest_known("2.6.3")
    assert unknown_patch is not None and unknown_patch[0].version == "2.6.0" and unknown_patch[1] is False
    assert releases.nearest_known("1.13.1") is None
    assert releases.nearest_known("not a version") is None
    assert releases.release_facts("2.99.0") is None


def test_what_a_python_and_macos_can_install() -> None:
    # macOS 13: wheels up to 2.11 are tagged macosx_11_0, but MPS there needs torch < 2.9.
    assert releases.newest_installable("3.12", "13.6") == "2.11.0"
    assert releases.newest_with_mps("3.12", "13.6") == "2.8.0"
    assert releases.newest_installable("3.12", "14.5") == "2.15.0"
    assert releases.newest_with_mps("3.12", "14.5") == "2.14.1"
    assert releases.newest_with_mps("3.12", "15.1") == "2.15.0"
    assert releases.newest_installable("3.10", "15.1") == "2.14.1"  # 2.15 requires Python >= 3.11
    assert releases.newest_installable("3.8", "14.0") == "2.4.1"
    assert releases.newest_installable("3.9", "14.0") == "2.8.0"
    assert releases.newest_with_mps("3.12", "12.6") == "2.4.1"  # 2.5 checks for a macOS 13.0 method
    assert releases.newest_installable("3.12", "10.15") is None
    assert releases.newest_installable("3.12", None) is None  # type: ignore[arg-type]


def test_op_kinds_read_from_native_functions_yaml() -> None:
    assert ops.op_kind("aten::add.out", "2.13.0") == "mps"
    assert ops.op_kind("add.Tensor", "2.13.0") == "mps"
    assert ops.warning_name("aten::add.Tensor") == "aten::add.out"
    assert ops.warning_name("aten::dropout") == "aten::dropout"
    assert ops.op_kind("aten::dropout", "2.13.0") == "composite-implicit"
    assert ops.op_kind("aten::_efficientzerotensor.out", "2.13.0") == "composite-explicit"  # autogen
    assert ops.op_kind("aten::add.out", "9.9.9") is None
    assert ops.op_kind("aten::no_such_op", "2.13.0") is None
    assert ops.first_mps_release("aten::add.out") == "2.0.0"
    assert ops.op_kind("aten::relu.default", "2.13.0") == ops.op_kind("aten::relu", "2.13.0")


def test_op_histories_are_transitions_in_release_order() -> None:
    table = ops.table()
    order = {r: i for i, r in enumerate(table["releases"])}
    for name, entry in table["ops"].items():
        history = entry["history"]
        assert history[0][0] == "2.0.0", name
        positions = [order[r] for r, _ in history]
        assert positions == sorted(set(positions)), name
        kinds = [k for _, k in history]
        assert all(a != b for a, b in zip(kinds, kinds[1:])), name
        assert set(kinds) <= set(ops.KINDS), name


def test_cpu_always_is_read_per_release_from_the_binary() -> None:
    for release in RELEASES:
        always = ops.cpu_always(release)
        assert "aten::embedding_renorm_" in always, release
        assert "aten::_slow_conv2d_forward" not in always
    assert "aten::col2im" in ops.cpu_always("2.7.1")
    assert "aten::col2im" not in ops.cpu_always("2.8.0")
    assert ops.cpu_always("9.9.9") == frozenset()
