"""A traceback whose frames show CUDA called: the code ran a ``.cuda(...)`` call, or went into torch's own
``Module.cuda`` / ``torch.cuda`` initialisation, on its way to the error. On a Mac that is the cause whatever the last
line says, and it is shown even where the stored traceback ends before its error line (orb-models#172: the source
line ``model.cuda(device)`` under a frame, then torch's ``module.py ... in cuda`` frames, and the copy cut).

Recorded as ``paste.cuda_asked`` (the fact prose_cuda.py records for CUDA asked for in words or in unguarded code),
which the judge takes only where no error names another cause and the paste shows a Mac. Read from frames only:

- a frame's source line (the line right under ``File "...", line N, in f``, or IPython's ``--> N`` calling line)
  that calls ``.cuda(`` with any arguments, unguarded (not ``x.cuda() if torch.cuda.is_available() else x``);
- torch's own frames of that call: ``torch/nn/modules/module.py ... in cuda`` (Module.cuda) and
  ``torch/cuda/__init__.py ... in _lazy_init`` (the first use of CUDA).

A line of code outside a traceback (an indented line of the user's snippet, maybe under ``if
torch.cuda.is_available():``) is no frame's source line and is left to prose_cuda.py. ``torch.cuda.is_available()``,
``torch.cuda.empty_cache()`` and ``cuda_graph(`` are no ``.cuda(`` call. Every pattern is anchored and reaches over
bounded runs of one class: linear on any line.
"""

from __future__ import annotations

import re

from mpscheck.probes.paste.model import Observation, observe
from mpscheck.probes.paste.prose_cuda import CUDA_GUARD

KIND = "traceback"
FRAME = re.compile(
    r'^\s*File (?:"(?P<path>[^"]{1,500})", line \d{1,7}|(?P<ipath>[^\s"]{1,500}):\d{1,7}), in '
    r"(?P<function>[\w<>.]{1,100})"
)
# IPython's arrow at a frame's calling line ("--> 313     model.cuda(device)", "---> 75     return ...").
ARROW = re.compile(r"^\s*-{1,3}> ?\d{1,7}\b")
# A source line calling .cuda( with any arguments: "model.cuda(device)", "lambda t: t.cuda(device)", ".cuda()".
CUDA_CALL = re.compile(r"[\w)\]]\.cuda\(")
# torch's own frames of a CUDA call: Module.cuda, and torch.cuda's lazy initialisation.
TORCH_CUDA_FRAME = re.compile(r"torch/nn/modules/module\.py$|torch/cuda/__init__\.py$")
TORCH_CUDA_FUNCTIONS = frozenset({"cuda", "_lazy_init"})


def parse(lines: list[str]) -> list[Observation]:
    for index, line in enumerate(lines):
        if ARROW.match(line) and _calls_cuda(line):  # IPython's calling line of a frame
            return [observe(KIND, lines, index + 1, "paste.cuda_asked", True)]
        if "File " not in line or (frame := FRAME.match(line)) is None:
            continue
        path = frame["path"] or frame["ipath"]
        if TORCH_CUDA_FRAME.search(path) and frame["function"] in TORCH_CUDA_FUNCTIONS:
            return [observe(KIND, lines, index + 1, "paste.cuda_asked", True)]
        source = lines[index + 1] if index + 1 < len(lines) else ""
        if frame["path"] and _calls_cuda(source) and not FRAME.match(source):
            return [observe(KIND, lines, index + 2, "paste.cuda_asked", True)]
    return []


def _calls_cuda(source: str) -> bool:
    return bool(CUDA_CALL.search(source)) and not CUDA_GUARD.search(source)
