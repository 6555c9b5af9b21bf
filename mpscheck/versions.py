"""Version arithmetic for torch and macOS, and what each torch release needs from macOS.

Pure functions: the floors come from ../shared/mps-facts.md section 2.1 (PRs pytorch/pytorch#133141,
#139427, #159275, #174410 and Apple's "Accelerated PyTorch training on Mac" page).
"""

from __future__ import annotations

import re

Version = tuple[int, ...]

LAST_INTEL_MAC_TORCH = "2.2.2"  # pytorch/pytorch#114602; 2.2.0 release notes
MAC_FLOOR_BY_TORCH: tuple[tuple[Version, Version], ...] = (
    ((2, 10), (14, 0)),  # "MPS no longer supports MacOS-13" (pytorch/pytorch#159275, #174410)
    ((2, 5), (13, 0)),  # "[MPS][BE] Delete MacOS-12.3 specific checks" (pytorch/pytorch#133141)
    ((0,), (12, 3)),  # MPS first shipped in 1.12 for macOS 12.3+
)
NEWEST_TORCH_FOR_MACOS: tuple[tuple[Version, str], ...] = (
    ((13, 0), "2.10"),  # macOS 13: torch<2.10
    ((12, 3), "2.5"),  # macOS 12.3-12.x: torch<2.5
)


def parse_version(text: str | None) -> Version | None:
    """'2.5.1+cpu' -> (2, 5, 1); '2.10.0.dev20251008' -> (2, 10, 0); '14.4.1' -> (14, 4, 1)."""
    if not text:
        return None
    match = re.match(r"\s*(\d+(?:\.\d+)*)", text)
    if not match:
        return None
    return tuple(int(part) for part in match.group(1).split("."))


def show(version: Version) -> str:
    return ".".join(str(part) for part in version)


def at_least(version: Version, floor: Version) -> bool:
    width = max(len(version), len(floor))
    return version + (0,) * (width - len(version)) >= floor + (0,) * (width - len(floor))


def macos_floor(torch_version: Version) -> Version:
    """The oldest macOS on which this torch's MPS backend finds a device."""
    for first_torch, floor in MAC_FLOOR_BY_TORCH:
        if at_least(torch_version, first_torch):
            return floor
    return MAC_FLOOR_BY_TORCH[-1][1]


def torch_pin_for_macos(macos: Version) -> str | None:
    """The pip specifier of the newest torch whose MPS still runs on this macOS, or None if none."""
    if at_least(macos, (14, 0)):
        return None  # every current torch is fine
    for floor, below in NEWEST_TORCH_FOR_MACOS:
        if at_least(macos, floor):
            return f"torch<{below}"
    return None


def fallback_reader(torch_version: str | None) -> str:
    """How a torch release reads PYTORCH_ENABLE_MPS_FALLBACK: "stoi" (std::stoi) or "not-zero".

    aten/src/ATen/mps/MPSFallback.mm, read at pytorch/pytorch commit 035290b77d8b (after the 2.6
    message change), still calls std::stoi; a later switch to c10::utils::get_env compared with "0"
    is reported (../shared/mps-facts.md section 0) but not confirmed at a release, so stoi it is.
    """
    return "stoi"
