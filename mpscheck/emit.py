"""Where a rendered report goes: stdout, an --output file written whole or not at all (or as is into
a device or FIFO), and the GitHub Actions step summary.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path
from typing import Mapping


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
