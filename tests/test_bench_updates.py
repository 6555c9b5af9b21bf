"""bench's optimizer steps (probes/agent/updates.py): torch.optim's update, without torch._dynamo's import."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
AGENT = ROOT / "mpscheck" / "probes" / "agent"


def load(name: str):
    """An agent module as the agent loads it: its folder as the private package, found by path."""
    package = "_mpscheck_agent"
    if package not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            package, AGENT / "__init__.py", submodule_search_locations=[str(AGENT)]
        )
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[package] = module
        spec.loader.exec_module(module)
    return importlib.import_module(f"{package}.{name}")


def small_model(torch):
    torch.manual_seed(5)
    return torch.nn.Sequential(
        torch.nn.Conv2d(3, 4, 3, bias=False), torch.nn.BatchNorm2d(4), torch.nn.Flatten(), torch.nn.Linear(4 * 6 * 6, 3)
    )


@pytest.mark.parametrize(
    ("kind", "lr", "momentum", "reference"),
    [
        ("sgd", 0.01, 0.9, lambda torch, p: torch.optim.SGD(p, lr=0.01, momentum=0.9)),
        ("adamw", 1e-2, 0.0, lambda torch, p: torch.optim.AdamW(p, lr=1e-2)),
    ],
)
def test_the_functional_step_computes_torch_optims_update_exactly(real_torch, kind, lr, momentum, reference) -> None:
    """Three steps from the same weights and batches: bit for bit the optimizer class's parameters."""
    import torch

    updates = load("updates")
    ours_model, theirs_model = small_model(torch), small_model(torch)
    ours = updates.make(torch, ours_model.parameters(), kind, lr, momentum)
    assert ours is not None, "torch's functional API no longer takes bench's arguments"
    theirs = reference(torch, theirs_model.parameters())
    generator = torch.Generator().manual_seed(6)
    for _ in range(3):
        inputs, labels = torch.randn(4, 3, 8, 8, generator=generator), torch.randint(0, 3, (4,), generator=generator)
        for model, optimizer in ((ours_model, ours), (theirs_model, theirs)):
            optimizer.zero_grad(set_to_none=True)
            torch.nn.functional.cross_entropy(model(inputs), labels).backward()
            optimizer.step()
    moved = [not torch.equal(a, b) for a, b in zip(ours_model.parameters(), small_model(torch).parameters())]
    assert all(moved)
    for mine, torchs in zip(ours_model.parameters(), theirs_model.parameters()):
        assert torch.equal(mine, torchs)


def test_a_functional_api_that_needs_other_arguments_gives_the_class() -> None:
    updates = load("updates")

    def needs_more(params, grads, buffers, *, lr, momentum, something_new):
        raise AssertionError("never called")

    assert updates._accepted(needs_more, {"lr": 1, "momentum": 0.9}) is None
    assert updates._accepted(None, {"lr": 1}) is None
    assert updates._accepted(lambda p, *, lr, old=1: None, {"lr": 2, "gone": 3}) == {"lr": 2}


def test_a_bench_training_step_never_imports_torch_dynamo(real_torch) -> None:
    """The tiny bench's model stages, answer check and timing, in a fresh interpreter."""
    script = f"""
import json, sys
sys.path.insert(0, {str(AGENT.parent.parent.parent)!r})
from tests.test_bench_updates import load
bench = load("bench")
import torch
plan = bench.PLANS["tiny"]
checked = bench.numerics(torch, "cpu", "bert-base", plan)
trained = {{}}
timed = bench.time_model(torch, "cpu", "resnet50", plan, False, trained)
print(json.dumps({{"dynamo": "torch._dynamo" in sys.modules, "checked": checked["status"], "timed": timed["status"]}}))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == '{"dynamo": false, "checked": "reference", "timed": "ok"}'


@pytest.mark.parametrize("name", ["updates", "ahead"])
def test_the_new_agent_modules_are_python_38_and_stdlib_only(name: str) -> None:
    tree = ast.parse((AGENT / f"{name}.py").read_text(), feature_version=(3, 8))
    nodes = list(ast.walk(tree))
    imported = {alias.name.split(".")[0] for node in nodes if isinstance(node, ast.Import) for alias in node.names}
    imported |= {(node.module or "").split(".")[0] for node in nodes if isinstance(node, ast.ImportFrom)}
    assert imported - {"__future__"} <= set(sys.stdlib_module_names), imported


def test_a_cpu_baseline_times_the_model_the_device_stage_handed_over(real_torch) -> None:
    """No second initialisation: the baseline trains the very model the device stage trained."""
    import torch

    bench = load("bench")
    plan = bench.PLANS["tiny"]
    torch.manual_seed(1)
    model = bench.build_model(torch, "vgg16", plan["width"], dropout=0.1)
    before = [p.detach().clone() for p in model.parameters()]
    trained = {"vgg16": model}
    result = bench.time_model(torch, "cpu", "vgg16", plan, True, trained)
    assert result["status"] == "ok" and trained == {}
    assert all(not torch.equal(p, old) for p, old in zip(model.parameters(), before))
