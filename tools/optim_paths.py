"""Maintainer reader: which devices each torch release sends down the foreach and fused paths.

Called by ``tools/build_knowledge.py --optim-paths`` on the wheels already in its --cache (it never
downloads). From each macOS arm64 wheel it parses, with ast, torch/utils/_foreach_utils.py (the
device lists of _get_foreach_kernels_supported_devices, _get_fused_kernels_supported_devices and the
helpers _has_foreach_support / _device_has_foreach_support that clip_grad_norm_ and friends use) and,
where those lists do not exist yet (2.0), torch/optim/optimizer.py (_default_to_fused_or_foreach
testing ``p.is_cuda``). Output: mpscheck/knowledge/optim_paths.json, sorted, no timestamps.
"""

from __future__ import annotations

import ast
import json
import re
import zipfile
from pathlib import Path
from typing import Any

FUNCTIONS = {
    "foreach": "_get_foreach_kernels_supported_devices",
    "fused": "_get_fused_kernels_supported_devices",
}
HELPERS = ("_device_has_foreach_support", "_has_foreach_support")
WHEEL = re.compile(r"torch-(\d+\.\d+\.\d+)(?:-\d+)?-cp\d+-(?:none|cp\d+)-macosx_\d+_\d+_arm64\.whl$")


def _strings(node: ast.AST) -> list[str]:
    return sorted({n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)})


def _functions(source: str) -> dict[str, ast.FunctionDef]:
    return {n.name: n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef)}


def _device_strings(function: ast.FunctionDef) -> list[str]:
    """The device names a function's returns and comparisons list (its docstring left out)."""
    body = function.body[1:] if ast.get_docstring(function) else function.body
    return sorted({s for stmt in body for s in _strings(stmt) if s.isalnum() and s.islower()})


def read_wheel(path: Path) -> dict[str, Any]:
    with zipfile.ZipFile(path) as wheel:
        utils = _functions(wheel.read("torch/utils/_foreach_utils.py").decode("utf-8"))
        optimizer = wheel.read("torch/optim/optimizer.py").decode("utf-8")
    facts: dict[str, Any] = {"wheel": path.name}
    for key, name in FUNCTIONS.items():
        if name in utils:
            facts[key] = _device_strings(utils[name])
            facts[f"{key}_source"] = f"torch/utils/_foreach_utils.py {name}"
        elif "p.is_cuda" in optimizer:  # 2.0: the optimizer tests p.is_cuda itself
            facts[key] = ["cuda"]
            facts[f"{key}_source"] = "torch/optim/optimizer.py _default_to_fused_or_foreach (p.is_cuda)"
    helper = next((utils[name] for name in HELPERS if name in utils), None)
    if helper is not None:
        extra = _device_strings(helper)
        inherited = set(facts.get("foreach", ())) if not extra or "cpu" in extra else set()
        facts["helpers"] = sorted(set(extra) | inherited)
        facts["helpers_source"] = f"torch/utils/_foreach_utils.py {helper.name} (clip_grad_norm_, clip_grad_value_)"
    return facts


def build(cache: Path, out: Path) -> Path:
    """Read every cached arm64 wheel (one per release) and write the table; returns its path."""
    releases: dict[str, Any] = {}
    for path in sorted(cache.glob("torch-*.whl")):
        match = WHEEL.match(path.name)
        if match is None or match.group(1) in releases:
            continue
        releases[match.group(1)] = read_wheel(path)
    ordered = dict(sorted(releases.items(), key=lambda item: tuple(int(p) for p in item[0].split("."))))
    table = {
        "format": 1,
        "sources": {
            "wheels": "the macOS arm64 wheels of each release (tools/build_knowledge.py --cache), read with ast",
            "foreach": "devices whose optimizers default to the foreach path (foreach=None)",
            "fused": "devices an optimizer accepts fused=True for (else it raises RuntimeError)",
            "helpers": "devices on which clip_grad_norm_ / clip_grad_value_ (foreach=None) take the foreach path",
        },
        "releases": ordered,
    }
    target = out / "optim_paths.json"
    target.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return target
