"""Readings of "pip found no torch wheel" that say more than "this Python version has none": pip's fall-back to
torch 0.1.2, the placeholder source package PyPI keeps (no wheel fitted this interpreter at all, whatever was
pinned), an arm64 Python that reports macOS 10.16 (built with an old SDK), whose version torch does have wheels
for, and a version list that stops at a release newer ones followed (those dropped this Python); and, for a package
other than torch, a pin whose releases all predate the Python shown. Kept apart from errors.py, which builds the
cause; these only read the paste and word the answer.
"""

from __future__ import annotations

import re

from mpscheck.checks.installing import NATIVE_VENV
from mpscheck.knowledge import errors as table
from mpscheck.knowledge import releases
from mpscheck.knowledge.versions import parse_version
from mpscheck.model import Remediation

# Installer rows whose own summary says why no torch fits (the arm64 wheel refused, the 0.1.2 placeholder, PDM's
# lock): kept, not replaced by the general "no wheel at all for this Python version".
OWN_REASON = frozenset({"arm64-wheel-skipped", "torch-placeholder-sdist", "pdm-no-candidate"})
PLACEHOLDER = "torch-placeholder-sdist"


def placeholder_row(text: str) -> table.Row | None:
    """The 0.1.2-placeholder row when it matches a line of the paste (pip took torch 0.1.2, or lists only it)."""
    row = next((r for r in table.TABLE if r.id == PLACEHOLDER), None)
    if row is None or not any(row.pattern.search(line) for line in text.split("\n")):
        return None
    return row


def old_sdk_tags(python_command: str, version: str | None) -> tuple[str, Remediation]:
    """No wheel at all for an arm64 Python whose platform.mac_ver() says 10.16: torch has wheels for its version,
    but a pip that takes 10.16 for its platform tags accepts no macosx_11_0 wheel (pytorch#75534, #128939)."""
    summary = (
        "pip found no torch wheel for this Python"
        + (f" {version}" if version else "")
        + ", which reports macOS 10.16 (platform.mac_ver(), an interpreter built with an old macOS SDK): a pip "
        "that takes that version for its platform tags accepts none of torch's macosx_11_0 wheels"
    )
    remedy = Remediation(
        "Upgrade pip and check the platform tags it accepts (they must include macosx_11_0_arm64); or make the "
        "venv with a Python built with a current SDK (python.org, Homebrew or Miniforge arm64).",
        (
            f"{python_command} -m pip install --upgrade pip",
            f"{python_command} -m pip debug --verbose",
            f"{python_command} -m pip install torch",
        ),
    )
    return summary, remedy


def python_left_behind(versions: list[str]) -> tuple[str, Remediation] | None:
    """pip lists torch only up to a release that newer ones followed ("from versions: ..., 2.7.1, 2.8.0" where 2.9
    and 2.10 exist, unslothai/unsloth#7306): the next release has no wheel for some Python this one had, and that
    Python is the interpreter's. None where the list ends at the newest release or the next one dropped no Python
    (then the list says nothing of the interpreter)."""
    known = releases.known_releases("arm64")
    last = versions[-1] if versions else None
    if last is None or last not in known or last == known[-1]:
        return None
    before, after = releases.release_facts(last), releases.release_facts(known[known.index(last) + 1])
    if before is None or after is None:
        return None
    dropped = sorted((tag for tag in before.install if tag not in after.install), key=lambda t: int(t[3:]))
    if not dropped:
        return None
    python = " or ".join(f"3.{tag[3:]}" for tag in dropped)
    summary = (
        f"pip lists torch only up to {last} for this Python: torch {after.version} and later have no wheel for "
        f"Python {python}, so this interpreter is Python {python}, too old for the torch asked for"
    )
    remedy = Remediation(
        f"Make the environment with a newer Python (e.g. 3.12), native arm64: torch after {last} needs it.",
        ("/opt/homebrew/bin/brew install python@3.12", NATIVE_VENV),
    )
    return summary, remedy


def poetry_plain_torch(local: str, pip_fix: Remediation) -> Remediation:
    """Poetry asked for a +cpu/+cuXXX build (a pin, or a source such as download.pytorch.org/whl/cpu), which has
    Linux and Windows wheels only: on macOS the plain release from PyPI is the one (hands-on-llms#58, comp-loinc#250,
    PennyLane demos#1125)."""
    return Remediation(
        f"Drop the {local} pin (or the CPU/CUDA source Poetry takes torch from) for macOS in pyproject.toml and add "
        "the plain torch from PyPI, whose macOS wheel runs on mps; with pip, the plain release is the second command.",
        ("poetry add torch", *pip_fix.commands),
    )


# pip's refusal of a pinned package with the releases it can install listed: "requirement mlx<0.27,>=0.26.0 (from
# moshi-mlx) (from versions: 0.29.4, 0.30.0, 0.30.1)"; the spec's versions, and who asked when it is a package's name.
PINNED = re.compile(
    r"requirement (?P<package>[A-Za-z0-9][\w.-]{0,80})(?P<spec>[<>=!~][^\s(]{0,80})? "
    r"(?:\(from (?P<parent>[A-Za-z0-9][\w.-]{0,80})(?:\[[\w,.-]{0,80}\])?[^()\n]{0,40}\) )?"
    r"\(from versions: (?P<versions>[^)\n]{1,2000})\)"
)
# the versions a pin caps: "<0.27", "<=1.2", "==0.9.4" (a ">=" floor caps nothing; "~=2.1" caps below 3, not 2.1)
SPEC_CAP = re.compile(r"(?:<=?|==)\s?(\d+(?:\.\d+){0,3})")


def pin_predates_python(line: str, python: str | None) -> tuple[str, Remediation] | None:
    """pip lists the pinned package only from releases newer than every version its pin names (kyutai-labs/moshi#394:
    mlx pinned below 0.27, pip lists 0.29.4 and up): pip lists only releases with a file this interpreter can
    install, so the pinned releases have none for it, and with a Python newer than 3.12 shown, they predate that
    Python. None where the list reaches the pin, no version is pinned, or the Python is not shown newer."""
    match = PINNED.search(line)
    version = parse_version(python) if python else None
    if match is None or match["spec"] is None or version is None or version[:2] < (3, 13):
        return None
    caps = [v for v in (parse_version(text) for text in SPEC_CAP.findall(match["spec"])) if v is not None]
    listed = [v for v in (parse_version(text.strip()) for text in match["versions"].split(",")) if v is not None]
    if not caps or not listed or min(listed) <= max(caps):
        return None
    package, parent = match["package"], match["parent"] or match["package"]
    summary = (
        f"pip lists {package} only from {match['versions'].split(',')[0].strip()} on for this Python {python}: the "
        f"releases pinned ({package}{match['spec']}) have no file for it, being older than this Python"
    )
    remedy = Remediation(
        f"Make the environment with an older Python that the pinned {package} supports (e.g. 3.12), native arm64, "
        f"and install {parent} there; or use a release of {parent} that allows a newer {package}.",
        ("/opt/homebrew/bin/brew install python@3.12", f"/opt/homebrew/bin/python3.12 -m pip install {parent}"),
    )
    return summary, remedy
