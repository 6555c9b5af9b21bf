"""Install commands fit the user's setup: pip, a uv venv (no pip in it), a uv project, read-only Pythons."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mpscheck.checks.diagnose import diagnose
from mpscheck.checks.installing import install_command
from mpscheck.facts import InterpreterFacts, TorchFacts
from tests import recorded as rec
from tests.scenarios import PHYSICAL, facts, interpreter, mac_host

PY = "/Users/dev/proj/.venv/bin/python"


@pytest.mark.parametrize(
    ("setup", "kwargs", "command"),
    [
        ({}, {}, f"{PY} -m pip install torch"),
        ({"has_pip": True, "venv_tool": "venv"}, {"upgrade": True}, f"{PY} -m pip install --upgrade torch"),
        ({}, {"reinstall": True}, f"{PY} -m pip install --force-reinstall --no-cache-dir torch"),
        ({"venv_tool": "uv", "has_pip": False}, {}, f"uv pip install --python {PY} torch"),
        ({"venv_tool": "uv"}, {"reinstall": True}, f"uv pip install --python {PY} --reinstall --no-cache torch"),
        ({"venv_tool": "venv", "has_pip": False}, {}, f"uv pip install --python {PY} torch"),
        ({"venv_tool": "uv", "uv_project": "/Users/dev/proj"}, {}, "cd /Users/dev/proj && uv add torch"),
        (
            {"venv_tool": "uv", "uv_project": "/Users/dev/proj"},
            {"upgrade": True},
            "cd /Users/dev/proj && uv add --upgrade-package torch 'torch>=2.3'",
        ),
        (
            {"venv_tool": "uv", "uv_project": "/Users/dev/proj"},
            {"reinstall": True},
            "cd /Users/dev/proj && uv sync --reinstall-package torch",
        ),
        (
            {"site_packages_writable": False},
            {},
            f"{PY} -m venv ~/.venvs/torch && ~/.venvs/torch/bin/python -m pip install torch",
        ),
    ],
)
def test_install_command(setup: dict, kwargs: dict, command: str) -> None:
    info = InterpreterFacts(executable=PY, **setup)
    spec = "torch>=2.3" if kwargs.get("upgrade") and setup.get("uv_project") else "torch"
    assert install_command(info, PY, spec, **kwargs) == command


def test_an_app_pipx_installed_is_changed_by_pipx_runpip() -> None:
    app = "/Users/dev/.local/pipx/venvs/insanely-fast-whisper/bin/python"
    info = InterpreterFacts(executable=app)
    assert install_command(info, app, "transformers", upgrade=True) == (
        "pipx runpip insanely-fast-whisper install --upgrade transformers"
    )
    assert install_command(info, app, "torch", reinstall=True) == (
        "pipx runpip insanely-fast-whisper install --force-reinstall --no-cache-dir torch"
    )
    # a venv that merely sits in a folder called pipx is a plain venv
    plain = "/Users/dev/pipx/.venv/bin/python"
    assert install_command(InterpreterFacts(executable=plain), plain, "torch") == f"{plain} -m pip install torch"


def test_torch_import_in_a_uv_project_says_uv_add() -> None:
    # macOS 15: the newest torch (2.15.0, "supported on macOS 15.0+") runs here, so no pin
    host = mac_host({**rec.SYSCTL_M1, **PHYSICAL}, rec.SW_VERS_15_6, rec.DISPLAYS_M1)
    uv = interpreter(executable=PY, venv_tool="uv", has_pip=False, uv_project="/Users/dev/proj")
    report = diagnose(facts(host, uv, TorchFacts(installed=False)))
    torch_import = next(f for f in report.findings if f.id == "torch-import")
    assert torch_import.fix.commands == ("cd /Users/dev/proj && uv add torch",)


def test_the_agent_reads_a_real_venv(tmp_path: Path) -> None:
    """pyvenv.cfg and pip, read for real from a venv made here (without pip: what uv makes by default)."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    (tmp_path / "uv.lock").write_text("version = 1\n")
    module = str(Path(__file__).resolve().parent.parent / "mpscheck" / "probes" / "agent" / "installer.py")
    code = (
        "import importlib.util, json, sys; "
        f"spec = importlib.util.spec_from_file_location('installer', {module!r}); "
        "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); print(json.dumps(m.installer_facts()))"
    )
    done = subprocess.run([str(venv / "bin" / "python"), "-c", code], capture_output=True, text=True, timeout=60)
    found = json.loads(done.stdout)
    assert found["has_pip"] is False and found["venv_tool"] == "venv"
    assert found["uv_project"] == str(tmp_path) and found["site_packages_writable"] is True
