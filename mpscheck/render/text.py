"""The terminal report, in the style of `flutter doctor`: one line per check, fixes indented below.

Fix commands are printed unwrapped, so they copy-paste whole. Colour only on a terminal and never
with NO_COLOR (rich decides both). Skips that share a reason collapse into one line unless -v.
"""

from __future__ import annotations

import io
from collections import OrderedDict

from rich.console import Console
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from mpscheck.model import Finding, Mark, Report

MARKS = {
    Mark.PASS: ("[✓]", "green"),
    Mark.WARN: ("[!]", "yellow"),
    Mark.FAIL: ("[✗]", "red"),
    Mark.SKIP: ("[-]", "dim"),
    Mark.CRASH: ("[✗]", "bold red"),
    Mark.NOT_COUNTED: ("[·]", "dim"),
}
NOT_COUNTED = "(not counted for --require {})"  # every format says it in these words


def header(report: Report) -> str:
    target = report.facts.target
    python = target.requested or "unknown interpreter"
    why = f" ({target.chosen_because})" if target.chosen_because else ""
    return f"mpscheck {report.command} · probed {python}{why}"


def print_report(report: Report, console: Console, verbose: bool = False) -> None:
    console.print(Text(header(report), style="bold"), soft_wrap=True)
    console.print()
    width = max((len(f.id) for f in report.findings), default=10)
    for group in _groups(report, verbose):
        _print_group(console, group, width, verbose, report)
    if report.command == "bench":
        from mpscheck.render.bench import print_bench

        print_bench(report, console)
    console.print()
    mark, style = ("✓", "green") if report.verdict.ready else ("✗", "red")
    if report.verdict.exit_code == 3:
        mark, style = "✗", "bold red"
    console.print(Text(f"{mark} {report.verdict.headline}", style=f"bold {style}"), soft_wrap=True)


def _groups(report: Report, verbose: bool) -> list[list[Finding]]:
    """Each finding alone, except skips sharing one summary, which go together unless verbose."""
    if verbose:
        return [[f] for f in report.findings]
    groups: OrderedDict[str, list[Finding]] = OrderedDict()
    for index, finding in enumerate(report.findings):
        key = f"skip:{finding.summary}" if report.mark(finding) is Mark.SKIP else f"{index}"
        groups.setdefault(key, []).append(finding)
    return list(groups.values())


def _print_group(console: Console, group: list[Finding], width: int, verbose: bool, report: Report) -> None:
    """One line (or a collapsed group of skips), its evidence and its fix; a problem on a path the
    requirement does not take is shown dim, with no fix, and says so."""
    first = group[0]
    shown = report.mark(first)
    mark, style = MARKS[shown]
    if shown is Mark.NOT_COUNTED:
        first = Finding(
            first.id,
            first.title,
            first.status,
            f"{first.summary} {NOT_COUNTED.format(report.require.value)}",
            first.details,
            None,
            first.blocked_by,
        )
    row = Table.grid(padding=(0, 1))
    row.add_column(width=3, no_wrap=True)
    if len(group) == 1:
        row.add_column(width=width, no_wrap=True)
        row.add_column(ratio=1)
        row.add_row(Text(mark, style=style), Text(first.id, style="bold"), Text(first.summary))
    else:
        row.add_column(ratio=1)
        row.add_row(Text(mark, style=style), Text(f"{', '.join(f.id for f in group)}: {first.summary}", style="dim"))
    console.print(row)
    if verbose or shown in (Mark.FAIL, Mark.CRASH):
        for detail in first.details:
            console.print(Padding(Text(f"• {detail}", style="dim"), (0, 0, 0, 6)))
    advice = report.advice(first)
    if advice and first in report.fixes():
        console.print(Padding(Text(f"→ {advice.summary}", style=style), (0, 0, 0, 6)))
        for command in advice.commands:  # never wrapped: a command must copy-paste whole
            console.print(Text(f"          {command}", style="cyan"), soft_wrap=True)


def render(report: Report, verbose: bool = False, width: int = 100) -> str:
    """The report as plain text (no colour), for files and for other renderers to embed."""
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, color_system=None, highlight=False, emoji=False)
    print_report(report, console, verbose)
    return "".join(line.rstrip() + "\n" for line in buffer.getvalue().splitlines())
