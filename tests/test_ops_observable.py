"""What a script can observe of `mpscheck ops`'s recording, as docs/ops.md lists it (issue 18, item 7).

The recording cannot be made invisible (docs/ops.md says why); so what a script sees is pinned here,
plain run against recorded run, and a change to the hook that adds or removes a trace fails this
test until the docs' list is brought up to date.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from mpscheck.ops.session import record_command
from mpscheck.probes.command import run_user_command

pytest.importorskip("torch")

OBSERVE = """
import json, os, sys, threading, traceback
import torch
from torch.utils._python_dispatch import _get_current_dispatch_mode, is_in_torch_dispatch_mode
from torch.utils.data import dataloader
from torch.optim import optimizer
seen = {
    "stack": torch._C._len_torch_dispatch_stack(),
    "mode": type(_get_current_dispatch_mode()).__name__,
    "in_mode": is_in_torch_dispatch_mode(),
    "python_key": torch._C._dispatch_tls_is_dispatch_key_included(torch._C.DispatchKey.Python),
    "sitecustomize": getattr(sys.modules.get("sitecustomize"), "__file__", None),
    "thread_bootstrap": threading.Thread._bootstrap_inner.__name__,
    "wrapped": sorted(name for name, f in [("Tensor.cpu", torch.Tensor.cpu), ("Module.train", torch.nn.Module.train),
        ("DataLoader.__iter__", dataloader.DataLoader.__iter__)] if hasattr(f, "__wrapped__")),
    "optimizer_post_hooks": len(optimizer._global_optimizer_post_hooks),
    "mpscheck_variables": sorted(k for k in os.environ if k.startswith("MPSCHECK_")),
}
try:
    torch.ones(2, 3) @ torch.ones(2, 3)
except RuntimeError as exc:
    seen["error"] = str(exc)
    seen["frames"] = [f.name for f in traceback.extract_tb(exc.__traceback__)][1:]
print(json.dumps(seen))
"""


def _seen(tmp_path: Path, recorded: bool) -> dict[str, object]:
    script = tmp_path / "observe.py"
    script.write_text(OBSERVE)
    out = tmp_path / ("recorded.json" if recorded else "plain.json")
    with out.open("w") as handle:
        if recorded:
            run = record_command([sys.executable, str(script)], dict(os.environ), stdout=handle)
            assert run.child.exit_code == 0, run.last_words
        else:
            assert run_user_command([sys.executable, str(script)], os.environ, stdout=handle).exit_code == 0
    seen: dict[str, object] = json.loads(out.read_text())
    return seen


def test_what_a_script_sees_of_the_recording_is_what_the_docs_list(tmp_path: Path) -> None:
    plain, recorded = _seen(tmp_path, recorded=False), _seen(tmp_path, recorded=True)
    assert plain["stack"] == 0 and recorded["stack"] == 1
    assert plain["mode"] == "NoneType" and recorded["mode"] == "OpRecorder"
    assert plain["in_mode"] is False and recorded["in_mode"] is True
    assert plain["python_key"] is False and recorded["python_key"] is True
    assert plain["sitecustomize"] is None or "mpscheck-hook-" not in str(plain["sitecustomize"])
    assert "mpscheck-hook-" in str(recorded["sitecustomize"])  # the script has no sitecustomize of its own
    assert plain["thread_bootstrap"] == "_bootstrap_inner" and recorded["thread_bootstrap"] == "bootstrap_inner"
    assert plain["wrapped"] == [] and recorded["wrapped"] == ["DataLoader.__iter__", "Module.train", "Tensor.cpu"]
    assert recorded["optimizer_post_hooks"] == plain["optimizer_post_hooks"] + 1
    assert plain["mpscheck_variables"] == recorded["mpscheck_variables"] == []  # hidden from os.environ
    # An op that raises: the same error, with the hook's frames between the script's line and torch's.
    assert recorded["error"] == plain["error"]
    extra = [name for name in recorded["frames"] if name not in plain["frames"]]  # type: ignore[union-attr]
    assert "__torch_dispatch__" in extra
