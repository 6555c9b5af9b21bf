"""A chip and a macOS version in prose, written as people type them (issue 17: "chip names in other
casings or with sizes attached are misread"): lower-case families and tiers, the tier joined or
hyphenated, "MBP", "MacOS". The lines are users' own words from public threads (sources beside each).
"""

from __future__ import annotations

import pytest

from mpscheck.probes.paste import read

GB = 1024**3


@pytest.mark.parametrize(
    ("line", "brand", "memory"),
    [
        # pinokiocomputer/pinokio#941
        ("Hello! I'm running pinokio on Macbook Pro m1 16 gb Sonoma 14.7.5", "Apple M1", 16 * GB),
        # Acly/krita-ai-diffusion#1489
        ("simultaneously on a Mac mini M4 pro 24 GB Ram and with a PC Nvidia 1660", "Apple M4 Pro", 24 * GB),
        # datalab-to/marker#321
        ("same on M3 macbook pro 18gb, 16 pages book chapter", "Apple M3", 18 * GB),
        ("Same issue M3 MacBook 16 GB", "Apple M3", 16 * GB),
    ],
)
def test_chip_and_memory_in_any_casing(line: str, brand: str, memory: int) -> None:
    host = read(line).facts.host
    assert (host.cpu_brand, host.memory_bytes) == (brand, memory)


@pytest.mark.parametrize(
    ("line", "brand"),
    [("on my MBP M1Pro", "Apple M1 Pro"), ("an M2-Max MacBook", "Apple M2 Max"), ("macbook air m2", "Apple M2")],
)
def test_tier_joined_or_hyphenated(line: str, brand: str) -> None:
    assert read(line).facts.host.cpu_brand == brand


def test_a_chip_like_word_without_a_mac_word_or_inside_a_name_is_not_a_chip() -> None:
    assert read("Same m1 pro 16gb").facts.host.cpu_brand is None  # no Mac word: could be anything
    assert read("loading m1.pth on my mac").facts.host.cpu_brand is None


def test_macos_word_in_any_casing() -> None:
    assert read("# user: upgraded to MacOS 14.2 yesterday").facts.host.macos_version == "14.2"
    assert read("# user: MACOS 15.1 on an M3").facts.host.macos_version == "15.1"


@pytest.mark.parametrize(
    ("line", "version"),
    [
        # torch's own floors and a text's requirement: a version the text asks for, not this Mac's
        ("The MPS backend is supported on MacOS 12.3+.Current OS version can be queried using `sw_vers`", None),
        ("MPS is only available on macOS 14 or later, I think", None),
        ("you need macOS 13.3 and above for int64 cumsum on mps", None),
        ("The operator is natively supported starting from macOS 13.0 on my Mac", None),
        # the user's own Mac
        ("I'm on macOS 14.5 with an M1 Mac", "14.5"),
        ("MacBook Air M2, macOS Sonoma 14.2.1", "14.2.1"),
        ("my Mac runs macOS 12.3", "12.3"),
    ],
)
def test_a_macos_floor_in_a_text_is_not_this_mac_s_version(line: str, version: str | None) -> None:
    said = [o.value for o in read(line).observations if o.fact == "host.macos_version"]
    assert said == ([version] if version else []), said
