"""Round 11's environment readers, pinned: uv's 'has no wheels with a matching platform tag' for a torch
range and wrapped with its indentation (knowledge/errors.py), Markdown's escaped backticks in a quoted hint
(probes/paste/normalise.py), and Apple's chips named by their family letter ("the M chip", prose.py)."""

from __future__ import annotations

import pytest

from mpscheck.checks.causes import explain_text
from mpscheck.knowledge.errors import first
from mpscheck.probes.paste import read
from mpscheck.probes.paste.normalise import markdown_unescape

UV_RANGE = (
    "  ╰─▶ ... torch>=2.6.0,<=2.10.0+cpu has no wheels with a matching\n      platform tag (e.g., `macosx_26_0_x86_64`)"
)


@pytest.mark.parametrize(
    "spec", ["torch", "torch==2.6.0", "torch>=2.6.0,<=2.10.0+cpu", "torch~=2.5", "torch!=2.4.0,>=2.3"]
)
def test_uv_no_matching_tag_is_read_for_any_torch_specifier(spec: str) -> None:
    hit = first(f"{spec} has no wheels with a matching platform tag (e.g., `macosx_15_0_x86_64`)")
    assert hit is not None and hit.row.id == "no-matching-distribution" and hit.groups.get("package") == "torch"


def test_uv_message_wrapped_with_its_indentation_is_joined_and_read() -> None:
    assert explain_text(UV_RANGE).cause.id == "no-matching-distribution"


def test_markdown_escaped_backticks_are_the_backticks_printed() -> None:
    assert markdown_unescape(r"(e.g., \`macosx_26_0_x86_64\`)") == "(e.g., `macosx_26_0_x86_64`)"
    assert markdown_unescape("no escapes here") == "no escapes here"
    escaped = "# user: on Apple Silicon\n" + UV_RANGE.replace("`", "\\`")
    assert explain_text(escaped).cause.id == "rosetta-python"  # the x86_64 tag is read through the escapes
    assert read(escaped).get("interpreter.machine") is not None


@pytest.mark.parametrize(
    ("line", "arm"),
    [
        ("# user: but still cannot use the M chip", True),
        ("I have a Mac with M-series chips", True),
        ("on the m series chip", True),
        ("use the mchip tool", False),
        ("a chip on the motherboard", False),
        ("ARM chips are great", False),
    ],
)
def test_apples_chips_by_family_letter(line: str, arm: bool) -> None:
    assert bool(read(line).get("host.arm64_hardware")) is arm


def test_uv_message_wrapped_inside_a_quoted_reply_keeps_its_tag() -> None:
    quoted = "\n".join("> " + line for line in UV_RANGE.split("\n"))
    assert explain_text(quoted).cause.id == "no-matching-distribution"
    machine = read(quoted).get("interpreter.machine")
    assert machine is not None and machine.value == "x86_64"
