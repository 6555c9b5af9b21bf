"""The chip table (mpscheck/knowledge/chip_peaks.json): the M5 family as Apple announced it, the NVIDIA
L4 with NVIDIA's own figures, and every row citing where its figures were read."""

from __future__ import annotations

import json
from importlib import resources

from mpscheck.knowledge.peaks import match_chip


def test_the_m5_family_has_apples_bandwidth_and_no_guessed_tflops() -> None:
    for name, cores, bandwidth in (("Apple M5", 10, 153), ("Apple M5 Pro", 20, 307), ("Apple M5 Max", 40, 614)):
        peak = match_chip(name, cores)
        assert peak is not None and peak.memory_bandwidth_gbs == bandwidth, name
        assert (peak.fp32_tflops, peak.fp16_tflops, peak.bf16_tflops) == (None, None, None), name
    assert match_chip("Apple M5 Max", 32) is None  # 614 GB/s is the 40-core configuration's


def test_the_l4_has_nvidias_dense_figures() -> None:
    peak = match_chip("NVIDIA L4")
    assert peak is not None
    assert (peak.fp32_tflops, peak.fp16_tflops, peak.bf16_tflops, peak.memory_bandwidth_gbs) == (30.3, 121, 121, 300)


def test_every_row_cites_its_sources() -> None:
    table = json.loads(resources.files("mpscheck.knowledge").joinpath("chip_peaks.json").read_text(encoding="utf-8"))
    for row in table["rows"]:
        assert row["sources"] and all(url.startswith("https://") for url in row["sources"]), row["chip"]
        assert row["note"], row["chip"]
