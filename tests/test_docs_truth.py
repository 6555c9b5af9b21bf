"""The docs say what the tool does: the schema version it writes, the default macOS per torch release
that `mpscheck ops` predicts for, references that stay inside the repository, and CI snippets that
install mpscheck in a way that works before it is on the package index."""

from __future__ import annotations

import re
from pathlib import Path

from mpscheck.knowledge import releases
from mpscheck.knowledge.versions import macos_floor, parse_version, show
from mpscheck.model import SCHEMA_VERSION

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def test_the_readme_names_the_schema_version_the_tool_writes() -> None:
    readme = (ROOT / "README.md").read_text()
    assert f'"schema_version": {SCHEMA_VERSION}' in readme
    assert not re.search(rf'report is versioned \(`"schema_version": (?!{SCHEMA_VERSION}`)', readme)


def _floor_ranges() -> str:
    """The docs' wording of each floor and its releases (an en dash between them), from the table."""
    groups: list[tuple[str, list[str]]] = []
    for release in releases.known_releases():
        minor = ".".join(release.split(".")[:2])
        floor = show(macos_floor(parse_version(release) or ()))
        if groups and groups[-1][0] == floor:
            if groups[-1][1][-1] != minor:
                groups[-1][1].append(minor)
        else:
            groups.append((floor, [minor]))
    parts = []
    for index, (floor, minors) in enumerate(groups):
        if index == 0:
            parts.append(f"{floor} up to {minors[-1]}")
        elif index == len(groups) - 1:
            parts.append(f"{floor} from {minors[0]}")
        else:
            parts.append(f"{floor} for {minors[0]}–{minors[-1]}")
    return ", ".join(parts)


def test_docs_ops_gives_the_default_macos_the_tool_uses() -> None:
    text = " ".join((ROOT / "docs" / "ops.md").read_text().split())
    assert f"oldest macOS that release supports ({_floor_ranges()};" in text, _floor_ranges()


def test_no_doc_points_outside_the_repository() -> None:
    for doc in DOCS:
        text = doc.read_text()
        assert "shared/" not in text and "/work/" not in text, doc.name
        for target in re.findall(r"\]\(([^)#\s]+)", text):
            if "://" in target:
                continue
            resolved = (doc.parent / target).resolve()
            assert resolved.is_relative_to(ROOT) and resolved.exists(), (doc.name, target)


def test_ci_docs_install_mpscheck_without_the_package_index() -> None:
    text = (ROOT / "docs" / "ci.md").read_text()
    for line in text.splitlines():
        if "pip install" in line and "mpscheck" in line:
            assert re.search(r"\./mpscheck|git\+https://", line), line
        if re.search(r"\buses:.*mpscheck", line):
            assert re.search(r"uses: \./", line), line
