"""The user says the run is slow on mps, and the paste shows no error and nothing that names why: still not enough
evidence (slowness alone names no cause: the corpus's slow threads ended in ops falling back to the CPU, a model
swapping out of unified memory, a library with no Metal backend and a torch whose kernels got faster later), but the
answer names those causes and the commands that tell them apart instead of the bare "run mpscheck on the Mac". One
shape names its cause: one way of computing said slower than another on mps (3-D F.linear against torch.matmul,
pytorch#189847), neither the CPU nor another machine in the comparison: a slow kernel path of that torch, which later
releases route around.
"""

from __future__ import annotations

from mpscheck.checks.causes.model import Cause, Evidence
from mpscheck.model import Remediation
from mpscheck.probes.paste.model import Observation

NOT_ENOUGH = "not-enough-evidence"
BUG = "metal-bug-fixed-later"
SOURCES = (
    "https://github.com/pytorch/pytorch/issues/77764 (ops that fall back to the CPU); "
    "https://github.com/pytorch/pytorch/pull/127242 (fused Adam/AdamW on MPS, torch 2.4); "
    "https://github.com/2noise/ChatTTS/issues/742; https://discuss.pytorch.org/t/optim-step-is-significantly-slow-on-mps/191237"
)


def slow_said(said: Observation, versus_op: Observation | None = None, python: str = "python3") -> Cause:
    """Slowness told in words: which of its usual causes it is, the paste does not show; the commands that tell."""
    if versus_op is not None:
        return slow_path(versus_op, python)
    return Cause(
        NOT_ENOUGH,
        "the paste says the run is slow on mps, and shows nothing that names why (no error, no fallback warning, "
        "no memory figure, no device line)",
        Remediation(
            "Tell the usual causes apart: list the ops that would fall back to the CPU (each copies its tensors "
            "back and forth), check that the model and its inputs are on mps (a GPU idle at 0 % may mean the run "
            "never used it, or that it waits on swapping), watch memory pressure while it runs (a model larger than "
            "unified memory swaps), and "
            "upgrade torch (MPS kernels, the optimizers' among them, got faster in later releases).",
            ("mpscheck ops -- python your_script.py", "mpscheck doctor --format markdown"),
        ),
        (Evidence(said.line, said.text),),
        SOURCES,
        variant="slow",
    )


def slow_path(said: Observation, python: str) -> Cause:
    """One op said slower on mps than an equivalent one: a slow kernel path of this torch, not a fallback."""
    return Cause(
        BUG,
        "the paste says one way of computing is slower on mps than an equivalent one (no CPU in the comparison): a "
        "slow kernel path of this torch's MPS backend",
        Remediation(
            "Upgrade torch (slow MPS kernel paths are routed around in later releases); meanwhile use the faster "
            "equivalent the paste names (e.g. torch.matmul, or a 2-D input reshaped back).",
            (f"{python} -m pip install --upgrade torch",),
        ),
        (Evidence(said.line, said.text),),
        "https://github.com/pytorch/pytorch/issues/189847",
        variant="slow-path",
    )
