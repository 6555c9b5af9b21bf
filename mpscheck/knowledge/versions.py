"""Version arithmetic for torch and macOS, and what each torch release needs from macOS.

Pure functions. What a release needs and which release a Python and macOS can install are read from
the table generated from torch's own macOS wheels (mpscheck/knowledge/torch_releases.json, through
mpscheck.knowledge.releases; docs/knowledge.md). The only hand-kept fact is for the releases before
the table (1.12 - 1.13), cited beside it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

Version = tuple[int, ...]

FIRST_MPS_TORCH: Version = (1, 12)  # MPS first shipped in torch 1.12, for macOS 12.3+ (mps-facts.md 1.1)
PRE_TABLE_FLOOR: Version = (12, 3)  # torch 1.12 - 1.13: "macOS 12.3 or later" (PyTorch 1.12 announcement)


def parse_version(text: str | None) -> Version | None:
    """'2.5.1+cpu' -> (2, 5, 1); '2.10.0.dev20251008' -> (2, 10, 0); '14.4.1' -> (14, 4, 1); 'v2.6' -> (2, 6).
    The one version reader: knowledge/releases.py and every rule read versions through it."""
    if not text:
        return None
    match = re.match(r"\A(?:\s*v?(\d{1,12}(?:\.\d{1,12})*))", str(text))
    if not match:
        return None
    return tuple(int(part) for part in match.group(1).split("."))


def show(version: Version) -> str:
    return ".".join(str(part) for part in version)


def at_least(version: Version, floor: Version) -> bool:
    width = max(len(version), len(floor))
    return version + (0,) * (width - len(version)) >= floor + (0,) * (width - len(floor))


def surely_below(version: Version, floor: Version) -> bool:
    """*version* is older than *floor* whatever the parts it does not show: 'macOS 12' (a paste's "Monterey")
    is below 13.0 but may be 12.3 or later, so it is not surely below 12.3; '12.0' is."""
    if len(version) < len(floor):
        return version < floor[: len(version)]
    return not at_least(version, floor)


@dataclass(frozen=True)
class Floor:
    """The oldest macOS on which a torch finds an MPS device, and where that was read."""

    macos: Version
    release: str | None  # the release of the table it was read from; None: before the table (hand fact)
    exact: bool  # False: the table lacks this very release (a nightly, a newer release) and uses `release`
    enforced: bool  # False: torch states the floor but its device check does not test it (2.15.0)
    stated: Version | None = None  # what its availability text says, where read
    assumed: bool = False  # this torch is newer than the whole table: the newest release's floor is assumed

    def note(self, torch_version: str) -> str | None:
        """A detail line when the floor was not read from this very release."""
        if self.assumed:
            return (
                f"torch {torch_version} is newer than mpscheck's release table, which ends at {self.release}: "
                f"the facts of {self.release} apply, assumed"
            )
        if self.release is None:
            return f"torch {torch_version} predates the table read from torch's wheels; floor from PyTorch's 1.12 notes"
        if not self.exact:
            return (
                f"torch {torch_version} is not in the table read from torch's wheels: the facts of {self.release} apply"
            )
        return None


def floor_for(torch_version: str | None) -> Floor | None:
    """The macOS floor of a torch version (text as torch reports it); None if unknown or without MPS."""
    from mpscheck.knowledge import releases

    key = parse_version(torch_version)
    if key is None or not at_least(key, FIRST_MPS_TORCH):
        return None
    found = releases.nearest_known(torch_version or "")
    if found is None:  # older than the table: 1.12 - 1.13
        return Floor(PRE_TABLE_FLOOR, None, False, True, PRE_TABLE_FLOOR)
    facts, exact = found
    floor = facts.macos_floor or PRE_TABLE_FLOOR
    enforced = facts.device_check_macos is not None and at_least(facts.device_check_macos, floor)
    assumed = releases.newer_than_table(torch_version) is not None
    return Floor(floor, facts.version, exact, enforced, facts.stated_floor, assumed)


def macos_floor(torch_version: Version) -> Version:
    """The oldest macOS on which this torch's MPS backend finds a device (see floor_for for the details)."""
    found = floor_for(show(torch_version))
    return found.macos if found else PRE_TABLE_FLOOR


def last_intel_mac_torch() -> str:
    """The last torch with a macOS x86_64 wheel (the table's only x86_64 release)."""
    from mpscheck.knowledge import releases

    return releases.known_releases("x86_64")[-1]


def pythons_for(torch_version: str, arch: str = "arm64") -> list[str]:
    """The Python versions ('3.8', ...) with a wheel of this release for this arch, oldest first."""
    from mpscheck.knowledge import releases

    facts = releases.release_facts(torch_version, _arch(arch))
    tags = sorted((int(tag[3:]) for tag in facts.install), key=int) if facts else []
    return [f"3.{minor}" for minor in tags]


def pythons_with_mps(macos: Version, arch: str | None = "arm64") -> list[str]:
    """The Python versions ('3.10', ...) that can install some torch whose MPS runs on this macOS."""
    from mpscheck.knowledge import releases

    kind = _arch(arch)
    minors = sorted({int(tag[3:]) for v in releases.known_releases(kind) for tag in _install_tags(v, kind)})
    return [f"3.{m}" for m in minors if releases.newest_with_mps(f"3.{m}", show(macos), kind)]


def _install_tags(version: str, kind: str) -> list[str]:
    from mpscheck.knowledge import releases

    facts = releases.release_facts(version, kind)
    return list(facts.install) if facts else []


def numpy_pin(torch_version: str, arch: str = "arm64") -> str | None:
    """'numpy<2' for a release built against numpy 1.x only (read from its binaries), else None."""
    from mpscheck.knowledge import releases

    return releases.numpy_pin(torch_version, arch)


@dataclass(frozen=True)
class InstallAdvice:
    """Which torch to install for MPS on this macOS, with this Python and architecture."""

    spec: str | None  # the pip requirement to install ("torch", "torch<2.9"); None: no torch with MPS installs
    newest: str | None  # the newest release with MPS here that has a wheel for this Python
    plain: str | None  # what a plain `pip install torch` resolves to here (None: nothing installs)
    plain_has_mps: bool | None  # whether that release's MPS runs on this macOS
    numpy: str | None  # "numpy<2" where the release to install needs it
    why: str  # one sentence for the finding

    @property
    def specs(self) -> tuple[str, ...]:
        return tuple(s for s in (self.spec, self.numpy) if s)


def _arch(arch: str | None) -> str:
    return "x86_64" if arch in ("x86_64", "i386") else "arm64"


def install_advice(macos: Version, python: str | None, arch: str | None = "arm64") -> InstallAdvice:
    """The torch to install for MPS here: never a release without a wheel for this Python, macOS and
    arch; a pin where a plain `pip install torch` would resolve to a torch whose MPS needs a newer macOS."""
    from mpscheck.knowledge import releases

    kind = _arch(arch)
    known = releases.known_releases(kind)
    shown = show(macos)
    if python is None or parse_version(python) is None:
        # Python unknown: pin by macOS alone, from the floors of every release in the table.
        usable = [v for v in known if _runs_on(releases.release_facts(v, kind), macos)]
        newest = usable[-1] if usable else None
        if newest is None:
            return InstallAdvice(None, None, None, None, None, f"no torch release has MPS on macOS {shown}")
        why = f"torch {newest} is the newest release whose MPS runs on macOS {shown}"
        return InstallAdvice(_pin_below(known, newest) or "torch", newest, None, None, _numpy(newest, kind), why)
    plain = releases.newest_installable(python, shown, kind)
    newest = releases.newest_with_mps(python, shown, kind)
    plain_facts = releases.release_facts(plain, kind) if plain else None
    plain_has_mps = None if plain_facts is None else at_least(macos, plain_facts.macos_floor or ())
    py = ".".join(python.split(".")[:2])
    if newest is None:
        why = (
            f"no torch release has a wheel for Python {py} on macOS {shown} ({kind})"
            if plain is None
            else f"no torch release that Python {py} can install on macOS {shown} has MPS there"
        )
        return InstallAdvice(None, None, plain, plain_has_mps, None, why)
    if plain == newest:
        why = (
            f"torch {newest} is the last release with a macOS x86_64 wheel"
            if kind == "x86_64"
            else f"torch {newest}, what `pip install torch` resolves to, runs MPS on macOS {shown}"
        )
        return InstallAdvice("torch", newest, plain, True, _numpy(newest, kind), why)
    pin = _pin_below(known, newest) or f"torch=={newest}"
    why = (
        f"a plain `pip install torch` resolves to torch {plain} here, whose MPS needs macOS "
        f"{show(plain_facts.macos_floor or ())}+; torch {newest} is the newest with MPS on macOS {shown}"
        if plain_facts is not None
        else f"torch {newest} is the newest with MPS on macOS {shown}"
    )
    return InstallAdvice(pin, newest, plain, plain_has_mps, _numpy(newest, kind), why)


def _runs_on(facts: object, macos: Version) -> bool:
    floor = getattr(facts, "macos_floor", None)
    return floor is not None and at_least(macos, floor)


def _pin_below(known: list[str], newest: str | None) -> str | None:
    """'torch<2.9' when `newest` is 2.8.x and a newer minor exists; None when `newest` is the newest."""
    if newest is None or newest == known[-1]:
        return None
    later = known[known.index(newest) + 1]
    major, minor = later.split(".")[:2]
    if later.split(".")[:2] == newest.split(".")[:2]:
        return f"torch=={newest}"  # a newer patch of the same minor lacks MPS here: pin the release itself
    return f"torch<{major}.{minor}"


def _numpy(version: str | None, arch: str) -> str | None:
    from mpscheck.knowledge import releases

    return releases.numpy_pin(version, arch) if version else None


def torch_pin_for_macos(macos: Version, python: str | None = None, arch: str | None = "arm64") -> str | None:
    """The pip requirement of the newest torch whose MPS still runs here, or None when the newest does
    (or none does: install_advice says which)."""
    advice = install_advice(macos, python, arch)
    return advice.spec if advice.spec and advice.spec != "torch" else None


def fallback_reader(torch_version: str | None) -> str:
    """How a torch release reads PYTORCH_ENABLE_MPS_FALLBACK: "stoi" (std::stoi) or "not-zero".

    Read per release from the disassembled MPSFallback.mm registration in libtorch_cpu.dylib (the
    table's fallback_reader): getenv + std::stoi up to 2.7, c10::utils::get_env compared with "0" from
    2.8. An unknown release is read as stoi, the reading under which a value can kill `import torch`.
    """
    from mpscheck.knowledge import releases

    if torch_version is None:
        return "stoi"
    reader = releases.fallback_reader(torch_version)
    return "not-zero" if reader == "not-0" else "stoi"
