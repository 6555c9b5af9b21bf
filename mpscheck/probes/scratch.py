"""mpscheck's temporary folders: each names its owner, and one left behind by an mpscheck that was
killed outright (SIGKILL from a CI timeout, the OOM killer: no cleanup can run) is removed by the
next mpscheck that makes one.

Every exit that runs code removes its folder (the ``with`` block; signals go through the probes'
guard and `run`/`ops`' relay). For the exit that runs none, each folder holds ``.mpscheck-owner``
with its maker's pid and start time; a folder in the temp directory named ``mpscheck-*``, ours
(same uid, a real folder, not a link), whose owner file names a process that is gone, is removed.
A folder without an owner file, or whose owner cannot be checked, is never touched.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from pathlib import Path
from typing import Iterator

from mpscheck.probes.children import LINUX_PROC, linux_start_time

OWNER_FILE = ".mpscheck-owner"
PREFIX = "mpscheck-"


@contextlib.contextmanager
def scratch(prefix: str = PREFIX) -> Iterator[str]:
    """A fresh temporary folder for the duration of the block, after sweeping up abandoned ones."""
    sweep()
    folder = tempfile.mkdtemp(prefix=prefix)
    try:
        Path(folder, OWNER_FILE).write_text(_me(), encoding="utf-8")
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def sweep(parent: str | None = None) -> list[str]:
    """Remove the abandoned mpscheck folders in *parent* (the temp directory); returns their paths."""
    parent = parent or tempfile.gettempdir()
    removed: list[str] = []
    try:
        names = [n for n in os.listdir(parent) if n.startswith(PREFIX)]
    except OSError:
        return removed
    for name in names:
        path = os.path.join(parent, name)
        if _abandoned(path):
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return removed


def _abandoned(path: str) -> bool:
    try:
        info = os.lstat(path)
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
            return False
        with open(os.path.join(path, OWNER_FILE), encoding="utf-8") as handle:
            pid_text, _, started = handle.read(100).partition(" ")
        pid, start_time = int(pid_text), float(started)
    except (OSError, ValueError):
        return False
    return _gone(pid, start_time)


def _gone(pid: int, start_time: float) -> bool:
    if LINUX_PROC.is_dir():  # the kernel's own table: no psutil import on every run's path
        started = linux_start_time(pid)
        return started is None or abs(started - start_time) > 1.0
    try:
        import psutil

        return abs(psutil.Process(pid).create_time() - start_time) > 1.0  # the pid was reused
    except ImportError:
        return False
    except Exception as exc:  # psutil.NoSuchProcess: gone; AccessDenied and the rest: cannot tell
        return type(exc).__name__ in ("NoSuchProcess", "ZombieProcess")


def _me() -> str:
    """This process's pid and start time; on Linux read from /proc, as psutil does (its import costs
    35 ms on the doctor's critical path, before the target starts)."""
    if LINUX_PROC.is_dir():
        return f"{os.getpid()} {linux_start_time(os.getpid()) or 0}"
    try:
        import psutil

        return f"{os.getpid()} {psutil.Process().create_time()}"
    except Exception:
        return f"{os.getpid()} 0"
