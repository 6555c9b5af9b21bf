"""Where the host's own observation and the target's word contradict, the check says so and does
not pass (issue 18, item 2): torch in the target claims CUDA devices on a Linux host where mpscheck
found no sign of the NVIDIA driver. Unknown (not looked for) is not a contradiction."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from mpscheck.checks.diagnose import diagnose
from mpscheck.model import Requirement
from mpscheck.probes import host as host_probe
from tests.scenarios import CUDA_SMOKE, H100, _linux, torch_facts

CUDA = torch_facts("2.11.0+cu130", mps_built=False, available=False, cuda_built="13.0", cuda_available=True)


def _gpu_verdict(seen: bool | None):
    facts = _linux(replace(CUDA, cuda_devices=[H100]), CUDA_SMOKE)
    facts.host.nvidia_driver_seen = seen
    report = diagnose(facts, require=Requirement.GPU)
    return report, {f.id: f for f in report.findings}["cuda"]


def test_cuda_claimed_where_the_host_sees_no_driver_fails() -> None:
    report, cuda = _gpu_verdict(False)
    assert cuda.status.value == "fail" and "the two disagree" in cuda.summary
    assert report.verdict.exit_code != 0


@pytest.mark.parametrize("seen", [True, None])
def test_a_driver_seen_or_not_looked_for_is_no_contradiction(seen: bool | None) -> None:
    report, cuda = _gpu_verdict(seen)
    assert cuda.status.value == "pass"
    assert report.verdict.exit_code == 0


@pytest.mark.parametrize(
    ("present", "cache", "expected"),
    [
        ({"/proc/self", "/proc/driver/nvidia"}, b"", True),
        ({"/proc/self", "/usr/lib/wsl/lib/libcuda.so.1"}, b"", True),  # WSL2: no /proc/driver/nvidia
        ({"/proc/self"}, b"...libcuda.so.1\0/usr/lib/x86_64-linux-gnu/libcuda.so.1\0", True),
        ({"/proc/self"}, b"libcudart.so.12\0", False),
        (set(), b"", None),  # no /proc to look in: unknown
    ],
)
def test_the_host_probe_looks_for_every_sign_of_the_driver(
    tmp_path: Path, present: set[str], cache: bytes, expected: bool | None
) -> None:
    (tmp_path / "ld.so.cache").write_bytes(cache)
    seen = host_probe.nvidia_driver_seen(
        exists=lambda path: path in present, which=lambda name: None, loader_cache=str(tmp_path / "ld.so.cache")
    )
    assert seen is expected
    assert host_probe.nvidia_driver_seen(exists=lambda p: p == "/proc/self", which=lambda n: "/usr/bin/nvidia-smi")


def test_a_forged_protocol_stream_claiming_cuda_never_makes_require_gpu_pass(
    make_python, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The adversarial case of the issue, end to end: a target that prints records saying CUDA works."""
    from mpscheck.cli import cli

    monkeypatch.setattr(host_probe, "nvidia_driver_seen", lambda: False)
    torch = {
        "installed": True,
        "version": "2.11.0+cu130",
        "mps_built": False,
        "mps_available": False,
        "cuda_built": "13.0",
        "cuda_available": True,
        "cuda_devices": [{"name": "NVIDIA H100 80GB HBM3", "memory_bytes": 85520809984, "capability": "9.0"}],
    }
    records = [("done", "interpreter", {}), ("done", "torch", torch), ("done", "end", {})]
    lines = "\n".join(json.dumps({"v": 1, "event": e, "stage": s, "data": d}) for e, s, d in records)
    python = make_python(f"cat <<'EOF'\n{lines}\nEOF")
    result = CliRunner().invoke(
        cli,
        ["doctor", "--python", python, "--require", "gpu", "--no-smoke", "--format", "json"],
        env={"NO_COLOR": "1", "GITHUB_ACTIONS": ""},
        catch_exceptions=False,
    )
    assert result.exit_code != 0, result.output
    cuda = next(f for f in json.loads(result.stdout)["findings"] if f["id"] == "cuda")
    assert cuda["status"] == "fail" and "disagree" in cuda["summary"]
