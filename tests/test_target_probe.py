"""The target probe for real: the agent (probes/agent/) under this machine's Python with real CPU torch, and
under fake interpreters and a fake torch for what Linux cannot produce (hang, abort, MPS on a VM)."""

from __future__ import annotations

import ast
import sys
import time
from pathlib import Path

import pytest

from mpscheck.checks.diagnose import diagnose
from mpscheck.checks.smoke import ELEMENTWISE_TOLERANCE
from mpscheck.model import Requirement, Status
from mpscheck.probes.agent import workload
from mpscheck.probes.target import AGENT_PATH, PROTOCOL_VERSION, choose_target, probe_target
from tests.conftest import PYTHON, fake_torch_env

STDLIB = set(sys.stdlib_module_names)
AGENT = sorted(AGENT_PATH.parent.glob("*.py"))
ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("path", AGENT, ids=[p.name for p in AGENT])
def test_target_side_parses_as_python_38_and_imports_only_stdlib(path: Path) -> None:
    source = path.read_text()
    tree = ast.parse(source, feature_version=(3, 8))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            imported.add(node.module.split(".")[0])
    assert imported - {"__future__", "torch"} <= STDLIB, imported - STDLIB  # torch: what it probes
    annotated = [n for n in ast.walk(tree) if isinstance(n, ast.AnnAssign)]
    assert not annotated, "the agent runs on Python 3.8: no variable annotations that need evaluating"


def test_mpscheck_never_imports_the_agent_and_the_agent_never_imports_mpscheck() -> None:
    for path in (ROOT / "mpscheck").rglob("*.py"):
        inside = AGENT_PATH.parent in path.parents
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                if inside:
                    assert not name.startswith("mpscheck"), f"{path.name} imports {name}"
                else:
                    assert not name.startswith("mpscheck.probes.agent"), f"{path} imports {name}"


def test_the_two_sides_speak_the_same_protocol_version() -> None:
    from mpscheck.probes.agent import protocol

    assert protocol.PROTOCOL_VERSION == PROTOCOL_VERSION


def test_real_probe_reads_interpreter_and_torch(real_torch) -> None:
    facts = probe_target(PYTHON, workload="none", timeout=120)
    assert facts.run.status == "ok", facts.run
    interp, torch = facts.interpreter, facts.torch
    assert interp is not None and torch is not None
    assert interp.executable == PYTHON
    assert interp.version == ".".join(map(str, sys.version_info[:3]))
    assert interp.packages["torch"] and torch.version.startswith(interp.packages["torch"].split("+")[0])
    assert torch.installed and torch.import_error is None and torch.import_seconds > 0
    assert torch.mps_built is False and torch.mps_available is False
    assert torch.mps_error  # torch's own refusal text is kept as evidence
    assert facts.smoke is None


def test_real_full_workload_on_cpu_passes_every_step(real_torch) -> None:
    facts = probe_target(PYTHON, workload="full", device="cpu", timeout=300)
    assert facts.run.status == "ok", facts.run.stderr_tail
    smoke = facts.smoke
    assert smoke is not None and smoke.device == "cpu" and smoke.mode == "full"
    steps = {s.name: s for s in smoke.steps}
    assert list(steps) == list(workload.FULL_STEPS)
    for name in ("allocate", "elementwise", "matmul", "train", "dtypes", "memory"):
        assert steps[name].outcome == "ran", (name, steps[name].error)
        assert steps[name].seconds is not None and steps[name].seconds >= 0
    assert steps["fallback"].outcome == "skipped"
    assert steps["allocate"].values == {"elements": 4096, "mismatches": 0, "tensor_device": "cpu"}
    assert max(steps["elementwise"].values["max_relative_error"].values()) <= ELEMENTWISE_TOLERANCE
    matmul = steps["matmul"].values["float32"]
    assert matmul["n"] == 1024 and matmul["max_relative_error"] <= 1e-3 and matmul["gflops"] > 0
    train = steps["train"].values
    assert len(train["losses"]) == 5 and train["losses"][-1] < train["losses"][0]
    assert abs(train["losses"][0] - train["cpu_first_loss"]) < 1e-3 and train["gradients_finite"] is True
    assert train["optimizer"] == "torch.optim.adam._single_tensor_adam"  # torch's default on the CPU
    assert {row["result"] for row in steps["dtypes"].values["dtypes"].values()} == {"ran"}
    assert {row["mismatches"] for row in steps["dtypes"].values["dtypes"].values()} == {0}
    assert steps["memory"].values["readback"] == 1.0
    assert set(steps["dtypes"].values["dtypes"]) == set(workload.DTYPES)
    assert steps["memory"].values["synchronize"] in ("torch.cpu.synchronize", None)

    report = diagnose(facts_with_host(facts), command="smoke-test", require=Requirement.DEVICE)
    statuses = {f.id: f.status for f in report.findings}
    assert statuses["smoke-device"] is Status.PASS  # cpu was asked for explicitly
    assert all(statuses[f"smoke-{n}"] is Status.PASS for n in ("allocate", "elementwise", "matmul", "train", "dtypes"))
    assert statuses["smoke-fallback"] is Status.SKIP
    assert int(report.verdict.exit_code) == 0


def facts_with_host(target):
    from mpscheck.facts import Facts
    from mpscheck.probes.host import probe_host

    return Facts(host=probe_host(), target=target)


def test_doctor_quick_smoke_is_skipped_without_a_gpu(real_torch) -> None:
    facts = probe_target(PYTHON, workload="quick", device="gpu", timeout=120)
    assert facts.smoke is not None and facts.smoke.device is None
    assert "neither MPS nor CUDA" in facts.smoke.reason
    assert facts.smoke.steps == []


def test_requested_device_that_is_not_usable_runs_nothing(real_torch) -> None:
    facts = probe_target(PYTHON, workload="full", device="mps", timeout=120)
    assert facts.smoke is not None and facts.smoke.device is None
    assert facts.smoke.reason == "--device mps was requested and torch cannot use mps here"


def test_hanging_interpreter_times_out_quickly(make_python) -> None:
    python = make_python("sleep 30")
    facts = probe_target(python, timeout=1.0)
    assert facts.run.status == "timeout"
    assert facts.run.seconds < 10
    assert facts.interpreter is None


@pytest.mark.parametrize(("signal_name", "number"), [("SIGABRT", 6), ("SIGSEGV", 11)])
def test_interpreter_killed_by_a_signal_is_reported_as_crashed(make_python, signal_name, number) -> None:
    python = make_python(f"echo 'dying now' >&2; kill -{signal_name[3:]} $$")
    facts = probe_target(python, timeout=10)
    assert facts.run.status == "crashed"
    assert facts.run.returncode == -number
    assert signal_name in facts.run.message
    assert "dying now" in facts.run.stderr_tail


def test_interpreter_printing_junk_is_bad_output(make_python) -> None:
    facts = probe_target(make_python("echo 'Welcome to my shell'; exit 0"), timeout=10)
    assert facts.run.status == "bad-output"
    assert "Welcome to my shell" in facts.run.message


def test_interpreter_failing_with_status_is_failed(make_python) -> None:
    facts = probe_target(make_python("echo 'no such module' >&2; exit 7"), timeout=10)
    assert facts.run.status == "failed" and "status 7" in facts.run.message


def test_import_that_hangs_keeps_the_interpreter_facts() -> None:
    facts = probe_target(PYTHON, timeout=4, environ=fake_torch_env("import-hangs"))
    assert facts.run.status == "timeout"
    assert facts.run.running_stage == "torch"
    assert facts.interpreter is not None and facts.torch is None
    report = diagnose(facts_with_host(facts), require=Requirement.NONE)
    torch_import = next(f for f in report.findings if f.id == "torch-import")
    assert torch_import.status is Status.FAIL and "did not finish within 4 s" in torch_import.summary


def test_abort_during_the_smoke_names_the_step() -> None:
    facts = probe_target(PYTHON, workload="quick", device="gpu", timeout=30, environ=fake_torch_env("abort-in-smoke"))
    assert facts.run.status == "crashed" and "SIGABRT" in facts.run.message
    assert facts.run.running_stage == "step:allocate"
    assert facts.torch is not None and facts.torch.mps_available is True
    assert facts.smoke is not None and facts.smoke.device == "mps" and facts.smoke.steps == []


def test_fake_vm_torch_fails_the_first_allocation_with_the_vm_signature() -> None:
    facts = probe_target(PYTHON, workload="quick", device="gpu", timeout=30, environ=fake_torch_env("mps-vm"))
    assert facts.run.status == "ok"
    assert facts.torch.mps_device_name == "Apple Paravirtual device"
    allocate = facts.smoke.steps[0]
    assert allocate.name == "allocate" and allocate.outcome == "raised"
    assert "MPS allocated: 0 bytes" in allocate.error and allocate.error_type == "RuntimeError"


def test_prints_during_import_do_not_corrupt_the_protocol() -> None:
    facts = probe_target(PYTHON, timeout=30, environ=fake_torch_env("stdout-noise"))
    assert facts.run.status == "ok", facts.run.message
    assert facts.torch is not None and facts.torch.version == "2.5.1"
    assert "hello from a noisy torch import" in facts.run.stderr_tail
    assert "raw write to fd 1" in facts.run.stderr_tail


def test_agent_writes_no_bytecode_beside_itself(tmp_path) -> None:
    """The doctor changes nothing on the machine: loading the agent's modules must not leave a __pycache__."""
    import shutil
    import subprocess

    shutil.copytree(AGENT_PATH.parent, tmp_path / "agent", ignore=shutil.ignore_patterns("__pycache__"))
    env = fake_torch_env("mps-vm")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    done = subprocess.run(
        [PYTHON, str(tmp_path / "agent" / "main.py"), "--workload", "quick", "--device", "gpu"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert '"stage": "step:allocate"' in done.stdout
    assert not list(tmp_path.rglob("__pycache__"))


def test_default_target_prefers_the_active_environment(tmp_path) -> None:
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text("")
    choice = choose_target(None, {"VIRTUAL_ENV": str(venv)}, own="/own/python")
    assert choice.path == str(venv / "bin" / "python") and "virtual environment" in choice.why
    assert choose_target(None, {}, own="/own/python").path == "/own/python"


def _old_python(version: str) -> str | None:
    """A real interpreter of that version (not a pyenv shim that may refuse to run)."""
    import glob
    import shutil
    import subprocess

    candidates = sorted(glob.glob(f"/root/.pyenv/versions/{version}.*/bin/python{version}"))
    found = candidates[0] if candidates else shutil.which(f"python{version}")
    if found and subprocess.run([found, "-c", "pass"], capture_output=True, check=False).returncode == 0:
        return found
    return None


def test_agent_runs_under_python_38() -> None:
    """The target may be older than mpscheck: the agent must really run on 3.8, not just parse."""
    python = _old_python("3.8")
    if python is None:
        pytest.skip("no Python 3.8 on this machine")
    facts = probe_target(python, workload="quick", device="gpu", timeout=60, environ=fake_torch_env("mps-vm"))
    assert facts.run.status == "ok", facts.run.stderr_tail
    assert facts.interpreter.version.startswith("3.8.")
    assert facts.torch.version == "2.5.1" and facts.smoke.steps[0].outcome == "raised"  # the fake torch, on 3.8


def test_timeout_kills_the_interpreters_children_too(make_python) -> None:
    """A helper process holding the output pipes open must not keep the doctor waiting."""
    facts = probe_target(make_python("sleep 30 & sleep 30 & wait"), timeout=1.0)
    assert facts.run.status == "timeout" and facts.run.seconds < 10


def test_the_agent_does_not_wait_for_the_interpreters_teardown() -> None:
    """After its last record the agent exits at once: torch's teardown says nothing and costs seconds."""
    started = time.monotonic()
    facts = probe_target(PYTHON, workload="quick", device="auto", timeout=30, environ=fake_torch_env("slow-teardown"))
    assert facts.run.status == "ok", facts.run.message
    assert facts.smoke is not None and facts.smoke.device == "mps"
    assert time.monotonic() - started < 25
