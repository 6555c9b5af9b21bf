"""--output: through symlinks to their target, as-is into devices and FIFOs, atomically into regular
files, with the mode the file already had (or the umask's default for a new one)."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from mpscheck.render.deliver import check_writable, write_whole


def test_a_symlink_is_written_through_and_stays_a_symlink(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (real / "report.json").write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(real / "report.json")
    check_writable(str(link))
    write_whole(str(link), "new report")
    assert link.is_symlink()
    assert (real / "report.json").read_text() == "new report"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.json", "real"]
    assert [p.name for p in real.iterdir()] == ["report.json"]


def test_a_dangling_symlink_creates_its_target(tmp_path: Path) -> None:
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "made.json")
    write_whole(str(link), "x")
    assert link.is_symlink() and (tmp_path / "made.json").read_text() == "x"


def test_a_fifo_is_written_as_is(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    check_writable(str(fifo))
    write_whole(str(fifo), "through the pipe")
    reader.join(timeout=10)
    assert received == [b"through the pipe"]
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


def test_a_character_device_is_written_as_is_never_replaced(tmp_path: Path) -> None:
    """/dev/null as root was replaced by a regular file; a null device node of our own shows it safely."""
    node = tmp_path / "null"
    try:
        os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # the null device's numbers on Linux
    except (OSError, AttributeError) as exc:
        pytest.skip(f"cannot make a device node here: {exc}")
    check_writable(str(node))
    write_whole(str(node), "discarded")
    assert stat.S_ISCHR(node.lstat().st_mode)
    assert node.read_text() == ""


def test_dev_null_is_accepted() -> None:
    check_writable("/dev/null")
    write_whole("/dev/null", "discarded")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_an_existing_file_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "report.json"
    target.write_text("old")
    target.chmod(0o644)
    write_whole(str(target), "new")
    assert stat.S_IMODE(target.stat().st_mode) == 0o644 and target.read_text() == "new"


def test_a_new_file_gets_the_umask_default_not_0600(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        write_whole(str(tmp_path / "report.json"), "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "report.json").stat().st_mode) == 0o644
