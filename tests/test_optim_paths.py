"""The foreach/fused path table read from the wheels (knowledge/optim_paths.json) and its loader."""

from __future__ import annotations

from mpscheck.knowledge import ops as coverage
from mpscheck.knowledge.optim_paths import differences, facts, first_fused_on, table


def test_every_release_of_the_op_coverage_table_was_read() -> None:
    assert set(table()["releases"]) == set(coverage.known_releases())


def test_what_the_wheels_say_about_mps() -> None:
    # torch/utils/_foreach_utils.py: "mps" joins _get_fused_kernels_supported_devices in 2.5.0 and
    # is in no release's foreach list; clip_grad_norm_'s helper adds only "cpu" to that list.
    assert first_fused_on("mps") == "2.5.0"
    for release in coverage.known_releases():
        found = facts(release)
        assert found is not None and found.foreach is not None and "mps" not in found.foreach
        assert found.helpers is not None and "cpu" in found.helpers and "mps" not in found.helpers
    old = facts("2.0.0")
    assert old is not None and old.foreach == frozenset({"cuda"}) and "p.is_cuda" in old.source("foreach")


def test_differences_name_the_path_and_the_wheel() -> None:
    said = differences("2.13.0", "2.4.0")
    assert len(said) == 1 and "fused=True" in said[0] and "torch-2.4.0" in said[0]
    assert differences("2.13.0", "2.14.0") == [] and differences("2.13.0", "9.9.9") == []
