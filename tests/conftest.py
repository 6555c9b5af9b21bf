"""Shared test helpers: the real interpreter with real torch, fake interpreters, fake torch."""

from __future__ import annotations

import importlib.util
import os
import stat
import sys
from pathlib import Path

import pytest

FAKES = Path(__file__).parent / "fakes"
FAKE_TORCH = FAKES / "torch_pkg"
# Planted in the environment of every probe that a secrets test runs: none may come back out.
SECRETS = {
    "HF_TOKEN": "hf_plantedTokenValue123456",
    "AWS_SECRET_ACCESS_KEY": "planted/AWS+secret/key/987654321",
    "GITHUB_TOKEN": "ghp_plantedGithubToken0000000000",
    "CONDA_TOKEN": "conda-planted-token-55555",
}


@pytest.fixture(scope="session")
def real_torch() -> None:
    """Tests that run real torch: in CI torch is installed first, so a missing torch is a failure there."""
    if importlib.util.find_spec("torch") is None:
        if os.environ.get("CI"):
            pytest.fail("torch is not installed, and CI must run the real-torch tests (.ci/run installs it)")
        pytest.skip("torch is not installed (pip install torch==2.13.0)")


@pytest.fixture
def make_python(tmp_path: Path):
    """A fake interpreter named `python` whose body is the given shell script."""

    def make(body: str, folder: str = "fake") -> str:
        directory = tmp_path / folder
        directory.mkdir(exist_ok=True)
        path = directory / "python"
        path.write_text("#!/bin/sh\n" + body + "\n")
        path.chmod(path.stat().st_mode | stat.S_IEXEC)
        return str(path)

    return make


def fake_torch_env(mode: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(FAKE_TORCH) + os.pathsep + env.get("PYTHONPATH", "")
    env["FAKE_TORCH_MODE"] = mode
    return env


PYTHON = sys.executable

pytest_plugins = ["pytester"]


GOLDEN = Path(__file__).parent / "golden"
README = Path(__file__).parent.parent / "README.md"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="Rewrite tests/golden/* (and the README samples that quote them) from what the code prints now.",
    )


@pytest.fixture
def golden(request: pytest.FixtureRequest):
    """Compare text with tests/golden/NAME; with --update-golden, rewrite the file and the README's copy."""

    def check(name: str, got: str) -> None:
        path = GOLDEN / name
        if request.config.getoption("--update-golden"):
            old = path.read_text() if path.exists() else None
            path.write_text(got)
            readme = README.read_text()
            if old and old.strip() and old.rstrip("\n") in readme:
                README.write_text(readme.replace(old.rstrip("\n"), got.rstrip("\n")))
        assert got == path.read_text(), f"{name} changed: rerun with `pytest --update-golden` if that is intended"

    return check
