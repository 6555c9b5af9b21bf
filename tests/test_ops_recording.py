"""The start-up hook and the recording, with the real CPU torch: golden op lists for a small CNN and a
small transformer training step, a script that fails midway, a sparse constructor, hook chaining.

Regenerate the golden lists after a deliberate change: MPSCHECK_REGEN_GOLDEN=1 pytest tests/test_ops_recording.py
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from mpscheck.ops.recording import OpUse, Recording, RecordingError, merge, parse_record
from mpscheck.ops.session import record_command
from mpscheck.probes.command import hook_environment

pytest.importorskip("torch")

SCRIPTS = Path(__file__).parent / "op_scripts"
GOLDEN = Path(__file__).parent / "golden"


def _record(script: str, environ: dict[str, str] | None = None) -> tuple[int, Recording]:
    run = record_command([sys.executable, str(SCRIPTS / script)], environ or dict(os.environ))
    return run.child.exit_code, run.recording


def _golden_rows(recording: Recording) -> list[dict[str, object]]:
    return [
        {"name": u.name, "calls": u.calls, "dtypes": list(u.dtypes), "layout": "sparse" if u.sparse else "strided"}
        for u in recording.ops
    ]


@pytest.mark.parametrize("script", ["cnn_step.py", "transformer_step.py"])
def test_training_step_records_the_golden_op_list(script: str) -> None:
    code, recording = _record(script)
    assert code == 0
    assert recording.processes == 1
    rows = _golden_rows(recording)
    golden = GOLDEN / f"ops_{script.removesuffix('.py')}.json"
    if os.environ.get("MPSCHECK_REGEN_GOLDEN"):
        golden.write_text(json.dumps(rows, indent=1) + "\n")
    assert rows == json.loads(golden.read_text())


def test_training_step_records_forward_backward_and_optimizer_ops() -> None:
    """Independent of the golden file: the ops a CNN step must reach, backward included."""
    _, recording = _record("cnn_step.py")
    names = {u.name for u in recording.ops}
    assert {"aten::convolution", "aten::convolution_backward", "aten::native_batch_norm_backward"} <= names
    assert {"aten::max_pool2d_with_indices_backward", "aten::nll_loss_backward", "aten::addmm"} <= names
    assert "aten::add_.Tensor" in names  # the SGD momentum update


def test_a_failing_script_is_reported_with_the_ops_it_ran_before_it_failed() -> None:
    code, recording = _record("fails_midway.py")
    assert code == 1
    names = {u.name for u in recording.ops}
    assert "aten::roll" in names and "aten::sum" in names


def test_a_sparse_constructor_dispatches_on_its_layout_argument() -> None:
    _, recording = _record("sparse_build.py")
    rows = {u.name: u for u in recording.ops}
    # Dense inputs, but layout=torch.sparse_coo: SparseMPS is the kernel MPS would need.
    assert rows["aten::_sparse_coo_tensor_with_dims_and_tensors"].sparse
    assert rows["aten::_to_dense"].sparse  # a sparse input
    assert not rows["aten::sum"].sparse  # the dense result


def test_the_hook_chains_to_the_users_sitecustomize_and_leaves_sys_path_alone(tmp_path: Path) -> None:
    own = tmp_path / "own"
    own.mkdir()
    (own / "sitecustomize.py").write_text("import os\nos.environ['USER_SITECUSTOMIZE_RAN'] = 'yes'\n")
    script = tmp_path / "show.py"
    script.write_text(
        "import os, sys, json, torch\n"
        "torch.ones(1).add_(1)\n"
        "print(json.dumps({'ran': os.environ.get('USER_SITECUSTOMIZE_RAN'), 'path': sys.path}))\n"
    )
    env = dict(os.environ, PYTHONPATH=str(own))
    out = tmp_path / "out.txt"
    with out.open("w") as handle:
        run = record_command([sys.executable, str(script)], env, stdout=handle)
    shown = json.loads(out.read_text().strip().splitlines()[-1])
    assert run.child.exit_code == 0
    assert shown["ran"] == "yes"
    assert not any("mpscheck-hook-" in entry for entry in shown["path"])
    assert str(own) in shown["path"]
    assert "aten::add_.Tensor" in {u.name for u in run.recording.ops}


def test_hook_environment_prepends_the_hook_and_keeps_the_users_pythonpath() -> None:
    env = hook_environment({"PYTHONPATH": "/a:/b", "HOME": "/h"}, "/hook", record_prefix="/tmp/x/ops")
    assert env["PYTHONPATH"] == "/hook" + os.pathsep + "/a:/b"
    assert env["MPSCHECK_RECORD_OPS"] == "/tmp/x/ops" and env["HOME"] == "/h"
    assert "MPSCHECK_WARN_ALWAYS" not in env


def test_a_python_that_never_imports_torch_records_nothing_and_pays_nothing(tmp_path: Path) -> None:
    script = tmp_path / "plain.py"
    script.write_text("import sys\nprint('torch' in sys.modules)\n")
    out = tmp_path / "out.txt"
    with out.open("w") as handle:
        run = record_command([sys.executable, str(script)], dict(os.environ), stdout=handle)
    assert out.read_text().strip() == "False"
    assert run.recording.processes == 0 and run.recording.ops == []


def test_merge_sums_calls_per_name_layout_side_and_device_class() -> None:
    # Changed on purpose (issue 19 item 1): calls on CUDA are kept apart from calls on the CPU, and
    # the DataLoader's calls apart from the script's own, so each is judged by where it really ran.
    merged = merge(
        [
            OpUse("aten::mm", 2, ("float32",), ("cpu",)),
            OpUse("aten::mm", 3, ("float16",), ("cuda",)),
            OpUse("aten::mm", 4, ("bfloat16",), ("cuda",)),
            OpUse("aten::mm", 1, ("float32",), ("cpu",), sparse=True),
            OpUse("aten::mm", 7, ("float32",), ("cpu",), side="data-loading"),
            OpUse("aten::mm", 5, ("float64",), ("cpu",)),
        ]
    )
    assert [(u.calls, u.dtypes, u.devices, u.sparse, u.side) for u in merged] == [
        (7, ("float32", "float64"), ("cpu",), False, None),
        (7, ("bfloat16", "float16"), ("cuda",), False, None),
        (1, ("float32",), ("cpu",), True, None),
        (7, ("float32",), ("cpu",), False, "data-loading"),
    ]


def test_a_foreign_file_is_refused() -> None:
    with pytest.raises(RecordingError):
        parse_record({"format": 99, "ops": []})
    with pytest.raises(RecordingError):
        parse_record({"format": 1, "ops": []})  # the format before sides and pacing


def test_each_op_records_where_the_script_first_reached_it() -> None:
    _, recording = _record("roll_and_svd.py")
    roll = next(u for u in recording.ops if u.name == "aten::roll")
    assert roll.first_site == f"{SCRIPTS / 'roll_and_svd.py'}:6"


def test_ops_in_threads_started_after_import_torch_are_recorded() -> None:
    code, recording = _record("threads.py")
    assert code == 0
    names = {u.name for u in recording.ops}
    assert {"aten::roll", "aten::mul.Tensor", "aten::sum"} <= names


def test_the_dataloaders_work_and_ops_on_cpu_results_are_marked_as_cpu_side() -> None:
    code, recording = _record("dataloader_shuffle.py")
    assert code == 0
    rows = {(u.name, u.side) for u in recording.ops}
    # The sampler's seeding and shuffling, and the collate, are the DataLoader's (CPU on a Mac too).
    assert {("aten::random_", "data-loading"), ("aten::randperm.generator", "data-loading")} <= rows
    assert ("aten::stack", "data-loading") in rows
    # The same op in the script's own compute stays the script's, and so does the model.
    assert ("aten::random_", None) in rows and ("aten::addmm", None) in rows
    assert ("aten::argmax", "cpu-result") in rows


def test_the_script_sees_no_mpscheck_variable_and_its_own_pythonpath(tmp_path: Path) -> None:
    script = tmp_path / "env.py"
    script.write_text(
        "import json, os, sys, subprocess, torch\n"
        "torch.ones(1).add_(1)\n"
        "child = subprocess.run([sys.executable, '-c', 'import torch; torch.ones(2).mul_(2)'])\n"
        "print(json.dumps({'own': sorted(k for k in os.environ if k.startswith('MPSCHECK_')),\n"
        "                  'path': os.environ.get('PYTHONPATH'), 'child': child.returncode}))\n"
    )
    out = tmp_path / "out.txt"
    with out.open("w") as handle:
        env = dict(os.environ, PYTHONPATH="/users/own/path")
        run = record_command([sys.executable, str(script)], env, stdout=handle)
    shown = json.loads(out.read_text().strip().splitlines()[-1])
    assert shown == {"own": [], "path": "/users/own/path", "child": 0}
    # The process environment kept them: the child Python was recorded too.
    assert run.recording.processes == 2 and "aten::mul_.Tensor" in {u.name for u in run.recording.ops}


def test_recording_leaves_torch_compile_compiling_with_the_same_results(tmp_path: Path) -> None:
    """Issue 18 item 7: a custom backend still compiles once, and inductor's result is bit-identical."""
    import shutil
    import subprocess

    args = [str(SCRIPTS / "compiled.py")] + (["--inductor"] if shutil.which("cc") or shutil.which("gcc") else [])
    plain = subprocess.run([sys.executable, *args], capture_output=True, text=True, check=True)
    out = tmp_path / "out.txt"
    with out.open("w") as handle:
        run = record_command([sys.executable, *args], dict(os.environ), stdout=handle)
    expected = json.loads(plain.stdout.strip().splitlines()[-1])
    recorded = json.loads(out.read_text().strip().splitlines()[-1])
    assert expected["backend_calls"] == 1 and expected["dispatch_stack"] == 0
    assert {k: v for k, v in recorded.items() if k != "dispatch_stack"} == {
        k: v for k, v in expected.items() if k != "dispatch_stack"
    }
    # The graph the custom backend returned runs eager ops: those are recorded; inductor's are not,
    # and the recording says how many graphs ran compiled.
    assert {"aten::sin", "aten::cos", "aten::log1p"} <= {u.name for u in run.recording.ops}
    assert run.recording.compiled_graphs == (2 if "--inductor" in args else 1)


def test_recording_pauses_when_stable_and_re_arms_at_a_phase_change(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    with out.open("w") as handle:
        run = record_command([sys.executable, str(SCRIPTS / "long_loop.py")], dict(os.environ), stdout=handle)
    assert json.loads(out.read_text().strip().splitlines()[-1]) == {"stack_mid_training": 0}
    recording = run.recording
    assert recording.paused
    events = [event["event"] for event in recording.pacing[0]["events"]]
    assert events[:2] == ["paused", "re-armed"]
    names = {u.name: u.calls for u in recording.ops}
    assert "aten::topk" in names  # reached only in the evaluation, after the pause
    assert names["aten::addmm"] < 40 * 2  # calls are counted while recording: not every step's
    full = record_command(
        [sys.executable, str(SCRIPTS / "long_loop.py")], dict(os.environ), extra_env={"MPSCHECK_RECORD_ALL": "1"}
    )
    assert not full.recording.paused
    # Two layers: 40 steps and one evaluation, every call counted.
    assert {u.name: u.calls for u in full.recording.ops}["aten::addmm"] == 40 * 2 + 2


@pytest.mark.parametrize("name", ["startup_hook.py", "hook_pacing.py"])
def test_the_hook_files_parse_as_python_38_and_import_only_stdlib_and_torch(name: str) -> None:
    import ast

    path = Path(__file__).resolve().parent.parent / "mpscheck" / "probes" / name
    tree = ast.parse(path.read_text(), feature_version=(3, 8))
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}  # fmt: skip
    imported |= {node.module.split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module and node.level == 0}  # fmt: skip
    assert imported - {"torch"} <= set(sys.stdlib_module_names), imported
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.AnnAssign)]
