"""Where a rendered report goes: stdout, an --output file written whole or not at all, and the
GitHub Actions step summary.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import Mapping


class OutputError(ValueError):
    """--output cannot be written: a usage error (exit 2)."""


def check_writable(path: str) -> None:
    """Fail before any probing when --output could not be written later."""
    target = Path(path)
    if target.is_dir():
        raise OutputError(f"--output {path}: is a folder")
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        raise OutputError(f"--output {path}: folder {parent} does not exist")
    if not os.access(parent, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise OutputError(f"--output {path}: not writable")


def write_whole(path: str, text: str) -> None:
    """Write via a temporary file and a rename, so a reader never sees half a report."""
    target = Path(path)
    try:
        fd, temporary = tempfile.mkstemp(prefix=".mpscheck-", dir=target.parent if str(target.parent) else ".")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temporary, target)
    except OSError as exc:
        with contextlib.suppress(OSError, UnboundLocalError):
            os.unlink(temporary)
        raise OutputError(f"--output {path}: {exc}") from exc


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
