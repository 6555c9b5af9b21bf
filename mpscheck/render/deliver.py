"""Delivering a report: stdout, an --output file written whole or not at all (or as is into a device
or FIFO), and the GitHub Actions step summary. The CLI hands every report here.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path
from typing import Mapping

from mpscheck.model import Report


class OutputError(ValueError):
    """--output cannot be written: a usage error (exit 2)."""


def _resolve(path: str) -> Path:
    """The file a write lands in: a symlink's target, so the link itself stays a link."""
    return Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)


def _is_special(target: Path) -> bool:
    """A device or FIFO (``--output /dev/null``, ``/dev/stdout``): written as is, never replaced."""
    try:
        mode = target.stat().st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def check_writable(path: str) -> None:
    """Fail before any probing when --output could not be written later."""
    target = _resolve(path)
    if target.is_dir():
        raise OutputError(f"--output {path}: is a folder")
    if _is_special(target):
        if not os.access(target, os.W_OK):
            raise OutputError(f"--output {path}: not writable")
        return
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        raise OutputError(f"--output {path}: folder {parent} does not exist")
    if not os.access(parent, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise OutputError(f"--output {path}: not writable")


def write_whole(path: str, text: str) -> None:
    """Write a regular file via a temporary file and a rename, so a reader never sees half a report.

    A symlink is followed to its target; a device or FIFO is written as is. The file keeps the mode
    it had, and a new one gets the umask's default: a report holds no secret to hide with 0600.
    """
    target = _resolve(path)
    try:
        if _is_special(target):
            with open(target, "w", encoding="utf-8") as handle:
                handle.write(text)
            return
        mode = _mode_for(target)
        fd, temporary = tempfile.mkstemp(prefix=".mpscheck-", dir=target.parent if str(target.parent) else ".")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except OSError as exc:
        with contextlib.suppress(OSError, UnboundLocalError):
            os.unlink(temporary)
        raise OutputError(f"--output {path}: {exc}") from exc


def _mode_for(target: Path) -> int:
    """The existing file's permission bits, else what open() would give a new file under the umask."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def append_step_summary(markdown: str, environ: Mapping[str, str]) -> bool:
    """Append to $GITHUB_STEP_SUMMARY when Actions provides it; True if written."""
    path = environ.get("GITHUB_STEP_SUMMARY")
    if not path:
        return False
    try:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(markdown + "\n")
    except OSError:
        return False
    return True


def deliver(report: Report, fmt: str | None, output: str | None, verbose: bool, environ: Mapping[str, str]) -> str:
    """Put the report where it was asked for; returns the format used. Raises OutputError (a usage error).

    Secrets are masked once, here, so every format, the file and the step summary see the same masked
    report. Under GitHub Actions the default format is github, and the Markdown summary is appended
    to $GITHUB_STEP_SUMMARY. Text goes to a terminal in colour (never with NO_COLOR).
    """
    import sys

    from mpscheck.redact import redact_report
    from mpscheck.render import renderer

    report = redact_report(report, environ)
    fmt = fmt or ("github" if environ.get("GITHUB_ACTIONS") == "true" else "text")
    if fmt == "github":
        append_step_summary(renderer("markdown")(report, verbose), environ)
    if output:
        write_whole(output, renderer(fmt)(report, verbose))
        print(f"{report.verdict.headline} (report written to {output})", file=sys.stderr)
    elif fmt == "text" and sys.stdout.isatty() and "NO_COLOR" not in environ and not under_actions(environ):
        from rich.console import Console

        from mpscheck.render.text import print_report

        print_report(report, Console(highlight=False, emoji=False), verbose)
    elif fmt == "github":
        from mpscheck.render.github import parts

        plain, commands = parts(report, verbose)
        to_stdout(plain, environ, github=True, tail=commands)
    else:
        to_stdout(renderer(fmt)(report, verbose), environ)
    return fmt


def under_actions(environ: Mapping[str, str]) -> bool:
    return environ.get("GITHUB_ACTIONS") == "true"


def to_stdout(plain: str, environ: Mapping[str, str], *, github: bool = False, head: str = "", tail: str = "") -> None:
    """The one way mpscheck's output reaches stdout, whatever the format.

    Under GitHub Actions, and in the github format anywhere, no line of *plain* can start a workflow
    command: a probed value, a paste or a saved report may hold a line break and then ``::error::``
    or ``##[``, and the runner reads every line of the log. Such lines are defused as stderr's are
    (render/output_stream.py: ``: :``, ``## [``; in JSON a string value changes by that blank and
    stays valid JSON). *head* and *tail* are mpscheck's own workflow commands, escaped by their
    renderer, written as they are.
    """
    import sys

    if github or under_actions(environ):
        from mpscheck.render.output_stream import defuse_text

        plain = defuse_text(plain)
    sys.stdout.write(head + plain + tail)
    sys.stdout.flush()


def deliver_text(
    text: str,
    output: str | None,
    headline: str,
    environ: Mapping[str, str],
    to_stderr: bool = False,
    *,
    command: str = "",
) -> None:
    """An already rendered report (explain, ops, run's gate and trace): scrubbed (secrets masked, control
    sequences removed), then to --output or a stream. *command*: the github format's own workflow
    command line, which goes before the text (its text is defused on stdout, see to_stdout)."""
    import sys

    from mpscheck.redact import scrub

    text, command = scrub(text, environ), scrub(command, environ)
    if output:
        write_whole(output, command + text)
        print(f"{scrub(headline, environ)} (report written to {output})", file=sys.stderr)
        return
    if to_stderr:  # every line written to stderr is defused there (render/output_stream.py)
        sys.stderr.write(command + text)
        sys.stderr.flush()
        return
    to_stdout(text, environ, github=bool(command), head=command)
