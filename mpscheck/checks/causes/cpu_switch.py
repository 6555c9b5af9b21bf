"""Running on the CPU, said in the framework the paste shows: where MPS cannot run on this Mac (an Intel Mac,
a macOS too old, a VM, no Metal device), the fix's "run on the CPU" is a setting of the framework that chose
mps by itself, so the command given is that framework's own switch, not generic advice.

fastai: ``defaults.use_cuda = False`` makes default_device() the CPU (fastai torch_core; the reporter's fix in
fastai/fastai#3952). Lightning: ``Trainer(accelerator='cpu')`` (Lightning's Trainer docs). Ultralytics: the
same ``yolo`` command with ``device=cpu`` (Ultralytics' train/predict settings).
"""

from __future__ import annotations

import re
from dataclasses import replace

from mpscheck.checks.causes.model import Cause
from mpscheck.model import Remediation
from mpscheck.probes.paste.model import Paste

# fastai named in the paste (its version, a frame, an import): fastai picks its device itself (default_device:
# CUDA, else mps when torch says it is there), a choice its own setting turns to the CPU.
FASTAI = re.compile(r"(?i)(?<![\w.-])fastai(?![\w-])")
# Causes whose fix includes running on the CPU of this very Mac.
CPU_HERE = frozenset({"intel-mac", "macos-too-old", "virtual-machine", "no-metal-device"})
FASTAI_CPU = "from fastai.torch_core import defaults; defaults.use_cuda = False"
LIGHTNING_CPU = "Trainer(accelerator='cpu')"


def cpu_switches(paste: Paste) -> list[tuple[str, str]]:
    """Each framework the paste shows, and the line that makes it run on the CPU."""
    out = []
    if FASTAI.search(paste.text):
        out.append(("fastai", FASTAI_CPU))
    if paste.value("paste.lightning"):
        out.append(("Lightning", LIGHTNING_CPU))
    command = paste.value("paste.yolo_command")
    if isinstance(command, str):
        out.append(("Ultralytics", re.sub(r"(?<!\s)\s+device=\S+", "", command).rstrip() + " device=cpu"))
    return out


def fit_cpu_switch(cause: Cause, paste: Paste) -> Cause:
    """*cause* with its framework's CPU switch added, where its fix runs on the CPU and a framework is shown."""
    if cause.fix is None or cause.id not in CPU_HERE:
        return cause
    switches = cpu_switches(paste)
    if not switches:
        return cause
    summary = cause.fix.summary.removesuffix(":") + (
        " (the first lines below)." if cause.fix.summary.endswith(":") else ""
    )
    names = " and ".join(name for name, _ in switches)
    said = f" To run {names} on the CPU: the last line{'s' if len(switches) > 1 else ''}."
    return replace(cause, fix=Remediation(summary + said, (*cause.fix.commands, *(line for _, line in switches))))
