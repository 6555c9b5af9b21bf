"""The user says the run hangs on mps, and the paste shows no error: a hang of the MPS backend until shown otherwise
(a command buffer that never completes: pytorch#144634, torch.mps.synchronize() waiting forever after a kernel failed;
pytorch#135442, a kernel that never ends). Before any sign that MPS works: a run that hangs is no healthy run. The
commands name the other usual hangs too: a DataLoader's worker processes, and a model swapping out of memory.
"""

from __future__ import annotations

from mpscheck.checks.causes.model import Cause, Evidence
from mpscheck.model import Remediation
from mpscheck.probes.paste.model import Observation

BUG = "metal-bug-fixed-later"
SOURCES = "https://github.com/pytorch/pytorch/issues/144634; https://github.com/pytorch/pytorch/issues/135442"


def hang_said(said: Observation, python: str) -> Cause:
    """A hang told in words where mps is named: the backend's, with the commands that tell the other hangs apart."""
    return Cause(
        BUG,
        "the paste says the run hangs on mps, and shows no error that would say why: a hang of the MPS backend (work "
        "on the GPU that never completes) until shown otherwise",
        Remediation(
            "Upgrade torch and run it again; if it still hangs, see where it waits (sample the process, or py-spy dump "
            "--pid), try the same on the CPU, and rule out a DataLoader's workers (num_workers=0) and memory pressure "
            "(a model swapping out of unified memory only looks hung).",
            (f"{python} -m pip install --upgrade torch",),
        ),
        (Evidence(said.line, said.text),),
        SOURCES,
        variant="hang-said",
    )
