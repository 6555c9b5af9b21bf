""" "Placeholder storage has not been allocated on MPS device" under a default device of mps, raised by torch's own
machinery: not a tensor the user left on the CPU.

The message usually means the user's tensors are split between the CPU and mps (the device-mismatch row). But where
the paste sets mps as the default device (``torch.set_default_device("mps")``, ``with torch.device("mps"):``) and the
failing call is torch's own tracing or optimizer (torch.optim calling into dynamo, torch.export, torch.compile),
the tensors at fault are the ones torch makes for itself on the default device: pytorch#149184 (an optimizer built
after set_default_device("mps"); fixed by pytorch#158706, which makes dynamo's tensors on the CPU) and pytorch#158121
(torch.export under ``with torch.device("mps")``; "produces a graph for me on main"). A later torch fixes them; until
then the model is built on the CPU and moved with .to('mps').
"""

from __future__ import annotations

import re

from mpscheck.checks.causes.model import Cause, Evidence
from mpscheck.model import Remediation

DEFAULT_MPS = re.compile(r"set_default_device\(\s*['\"]mps\b|\bwith torch\.device\(\s*['\"]mps\b")
# torch's own machinery that makes tensors of its own: the optimizer (which calls into dynamo), dynamo, export, compile.
MACHINERY = re.compile(r"\btorch\._dynamo\b|\btorch\.export\b|\b(?:export|compile)\(|\btorch\.optim\b|\boptimi[sz]er\b")
SOURCE = "https://github.com/pytorch/pytorch/issues/149184; https://github.com/pytorch/pytorch/issues/158121"


def default_device_bug(text: str, evidence: tuple[Evidence, ...], python: str) -> Cause | None:
    """The torch bug behind a device mismatch raised under a default device of mps in torch's own machinery;
    None where the paste does not show both."""
    default = DEFAULT_MPS.search(text)
    if default is None or (machinery := MACHINERY.search(text)) is None:
        return None
    lines = text.split("\n")
    shown = [*evidence]
    for start in (default.start(), machinery.start()):
        number = text.count("\n", 0, start) + 1
        shown.append(Evidence(number, lines[number - 1]))
    return Cause(
        "metal-bug-fixed-later",
        "the tensors on the wrong device are torch's own: with mps as the default device, torch's optimizer, "
        "dynamo or export made tensors of its own that trip the device check (a torch bug, fixed in later releases)",
        Remediation(
            "Upgrade torch; until then build the model on the CPU and move it with .to('mps') rather than setting mps "
            "as the default device (or call torch._dynamo.disable() before torch.set_default_device('mps')).",
            (f"{python} -m pip install --upgrade torch",),
        ),
        tuple(dict.fromkeys(shown)),
        SOURCE,
    )
