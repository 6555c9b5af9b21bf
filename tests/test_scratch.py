"""A temporary folder left by an mpscheck killed outright (SIGKILL: no cleanup runs) is removed by
the next run; a live mpscheck's folder, a folder without an owner file and a link are never touched
(issue 18, item 4: `ops` left its hook folder in the temp directory)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mpscheck.probes.scratch import OWNER_FILE, scratch, sweep
from tests.conftest import PYTHON

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX")
ROOT = Path(__file__).resolve().parent.parent


def test_a_folder_whose_owner_is_gone_is_swept_and_others_are_kept(tmp_path: Path) -> None:
    dead = subprocess.run([PYTHON, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    abandoned = tmp_path / "mpscheck-ops-abandoned"
    abandoned.mkdir()
    (abandoned / OWNER_FILE).write_text(f"{dead.stdout.strip()} 12345.0")
    live = tmp_path / "mpscheck-live"
    live.mkdir()
    (live / OWNER_FILE).write_text(f"{os.getpid()} {__import__('psutil').Process().create_time()}")
    unowned = tmp_path / "mpscheck-unowned"
    unowned.mkdir()
    other = tmp_path / "not-mpscheck"
    other.mkdir()
    (other / OWNER_FILE).write_text("1 0")
    link = tmp_path / "mpscheck-link"
    link.symlink_to(abandoned)
    assert sweep(str(tmp_path)) == [str(abandoned)]
    assert not abandoned.exists() and live.exists() and unowned.exists() and other.exists()


def test_scratch_removes_its_folder_and_names_its_owner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    with scratch("mpscheck-x-") as folder:
        pid, _, started = Path(folder, OWNER_FILE).read_text().partition(" ")
        assert int(pid) == os.getpid() and float(started) > 0
    assert not Path(folder).exists()


def test_ops_killed_outright_leaves_a_folder_that_the_next_run_removes(tmp_path: Path) -> None:
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(temp), "NO_COLOR": "1", "GITHUB_ACTIONS": ""}
    script = "import time; print('ready', flush=True); time.sleep(120)"
    ops = subprocess.Popen(
        [sys.executable, "-m", "mpscheck", "ops", "--output", str(tmp_path / "r.txt"), "--", PYTHON, "-c", script],
        stdout=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        env=env,
        start_new_session=True,
    )
    try:
        assert ops.stdout is not None and b"ready" in ops.stdout.readline()
        assert [p.name.startswith("mpscheck-ops-") for p in temp.iterdir()] == [True]
        os.killpg(ops.pid, signal.SIGKILL)  # mpscheck and the script: nothing runs a cleanup
        ops.wait(timeout=10)
        time.sleep(0.2)
        assert len(list(temp.iterdir())) == 1
        again = subprocess.run(
            [sys.executable, "-m", "mpscheck", "ops", "--output", str(tmp_path / "r.txt"), "--", PYTHON, "-c", "pass"],
            env=env,
            capture_output=True,
            timeout=120,
        )
        assert again.returncode in (0, 1), again.stderr
        assert list(temp.iterdir()) == []
    finally:
        if ops.poll() is None:
            os.killpg(ops.pid, signal.SIGKILL)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the /proc reading is Linux's")
def test_on_linux_the_owner_file_is_psutils_start_time_without_importing_psutil(tmp_path: Path) -> None:
    """psutil's import (35 ms) stood before the doctor's target start; /proc gives the same time."""
    script = (
        "import sys, tempfile; tempfile.tempdir = sys.argv[1]\n"
        "from pathlib import Path\n"
        "from mpscheck.probes.scratch import OWNER_FILE, scratch\n"
        "with scratch() as folder:\n"
        "    print(Path(folder, OWNER_FILE).read_text())\n"
        "print('psutil' in sys.modules)\n"
        "import psutil; print(psutil.Process().create_time())\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True, cwd=ROOT)
    owner, imported, psutil_time = done.stdout.split("\n")[:3]
    pid, _, started = owner.partition(" ")
    assert imported == "False" and int(pid) > 0
    assert float(started) == pytest.approx(float(psutil_time), abs=0.02)
