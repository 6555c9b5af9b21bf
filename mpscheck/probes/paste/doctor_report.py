"""mpscheck's own report pasted as text: `mpscheck doctor` (terminal) or `--format markdown`.

Each failing check row is the doctor's judgement of the machine it ran on: ``[✗] python-arch  x86_64
Python under Rosetta ...`` or ``| ❌ | `python-arch` | ... |``, with its fix below (``→ summary`` and
indented commands in text; ``**python-arch**: summary`` and a ``sh`` block in markdown). The header
``mpscheck doctor · probed PATH`` names the interpreter.
"""

from __future__ import annotations

import re

from mpscheck.probes.paste.model import Observation, observe

KIND = "mpscheck report"
HEADER = re.compile(r"^(?:## )?mpscheck (?:doctor|smoke-test) · probed (?P<python>/\S+|~/\S+)")
TEXT_ROW = re.compile(r"^\[(?P<mark>[✓✗!-])\] (?P<id>[a-z0-9-]+)\s+(?P<summary>\S.*)$")
MARKDOWN_ROW = re.compile(r"^\| (?P<mark>✅|❌|⚠️|➖|💥) \| `(?P<id>[a-z0-9-]+)` \| (?P<summary>.*) \|\s*$")
MARKDOWN_FIX = re.compile(r"^\*\*(?P<id>[a-z0-9-]+)\*\*: (?P<summary>.+)$")
TEXT_FIX = re.compile(r"^\s+→ (?P<summary>.+)$")
FAILED = ("✗", "❌", "💥")


def parse(lines: list[str]) -> list[Observation]:
    out: list[Observation] = []
    current: str | None = None  # the failing check whose fix follows
    fix_at: int | None = None  # text format: the line of its "→ summary" (continued on 6-space lines)
    fix_text = ""
    in_block = False  # markdown: inside the ```sh block of the current fix
    column = 0  # text format: where a row's summary starts, so its wrapped lines can be joined
    summary, summary_at = "", 0
    for number, line in enumerate(lines, start=1):
        if summary and column and line.startswith(" " * column) and line[column : column + 1].strip():
            summary += " " + line.strip()
            continue
        if summary:
            out.append(observe(KIND, lines, summary_at, f"paste.doctor_summary.{current}", summary))
            summary = ""
        if fix_at is not None and re.match(r"^ {6}(?! )\S", line) and not line.lstrip().startswith("→"):
            fix_text += " " + line.strip()
            continue
        if fix_at is not None and current is not None and fix_text:
            out.append(observe(KIND, lines, fix_at, f"paste.doctor_fix.{current}", fix_text))
            fix_text = ""
        if match := HEADER.match(line):
            out.append(observe(KIND, lines, number, "interpreter.executable", match["python"]))
        elif match := TEXT_ROW.match(line) or MARKDOWN_ROW.match(line):
            current, fix_at, in_block = (match["id"] if match["mark"] in FAILED else None), None, False
            if current:
                out.append(observe(KIND, lines, number, "paste.doctor_failed", current))
                summary, summary_at, column = match["summary"], number, match.start("summary")
        elif in_block:
            if line.startswith("```"):
                in_block = False
            elif line.strip() and current:
                out.append(observe(KIND, lines, number, f"paste.doctor_command.{current}", line.strip()))
        elif match := MARKDOWN_FIX.match(line):
            current = match["id"]
            out.append(observe(KIND, lines, number, f"paste.doctor_fix.{current}", match["summary"]))
        elif line.startswith("```sh") and current:
            in_block = True
        elif current and (match := TEXT_FIX.match(line)):
            fix_at, fix_text = number, match["summary"]
        elif current and fix_at is not None and re.match(r"^ {10}\S", line):
            out.append(observe(KIND, lines, number, f"paste.doctor_command.{current}", line.strip()))
    if fix_at is not None and current is not None and fix_text:
        out.append(observe(KIND, lines, fix_at, f"paste.doctor_fix.{current}", fix_text))
    if summary:
        out.append(observe(KIND, lines, summary_at, f"paste.doctor_summary.{current}", summary))
    return out
