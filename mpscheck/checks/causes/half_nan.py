"""A picture said (or shown by numpy's NaN cast) to come out black on mps, in a paste that also shows half precision
at work: a front end's float32 switch named (``--force-upcast-attention``, ``--no-half``, ``--vae-in-fp32``), the
web UI's ``NansException``, or numpy's ``invalid value encountered in cast`` (NaN in the picture). float16 overflowing
to NaN on mps is what the front ends' threads conclude there (Comfy-Org/ComfyUI#4799, AUTOMATIC1111#8555,
Fooocus#3070), so the fix is the front end's own float32 switch; with no such sign a black picture stays a backend
bug (checks/causes/unmatched.py). The two are told apart by one run in float32, which the fix names.
"""

from __future__ import annotations

from typing import Any

from mpscheck.checks.causes.model import Cause, Evidence
from mpscheck.knowledge import errors as table
from mpscheck.knowledge.causes import CAUSES
from mpscheck.knowledge.needles import gated
from mpscheck.model import Remediation

HALF_SHOWN = gated(
    r"--(?:force-upcast-attention|no-half(?:-vae)?|upcast-sampling|vae-in-fp32|all-in-fp32|force-fp32)\b"
    r"|Upcast cross attention|NansException|invalid value encountered in cast"
)
# Each front end's float32 switch, where the paste names the front end (its banner, its script, its name).
FRONT_ENDS = (
    (
        gated(r"(?i)comfyui|\bmain\.py\b|--force-upcast-attention"),
        "python main.py --force-upcast-attention",
        "ComfyUI's --force-upcast-attention",
    ),
    (
        gated(r"(?i)fooocus|entry_with_update\.py|--vae-in-fp32"),
        "python entry_with_update.py --vae-in-fp32",
        "Fooocus's --vae-in-fp32",
    ),
    (
        gated(r"(?i)stable-diffusion-webui|webui\.sh|automatic1111|\bforge\b|--no-half|--upcast-sampling"),
        "./webui.sh --no-half",
        "the web UI's --no-half",
    ),
)
OWN_CODE = "load the model in float32 (torch_dtype=torch.float32, or model.float()) instead of float16"


def half_precision(text: str, said: Any) -> Cause | None:
    """The black picture on mps read as float16 gone NaN, where the paste shows half precision at work."""
    sign = HALF_SHOWN.search(text)
    if sign is None:
        return None
    line = text.count("\n", 0, sign.start()) + 1
    command, how = next(((c, h) for words, c, h in FRONT_ENDS if words.search(text)), (None, OWN_CODE))
    general = CAUSES["half-precision-nan"]
    summary = table.fill(general.summary, {"why": sign.group(0)})
    fix = Remediation(table.fill(general.fix, {"how": how}), (command,) if command else ())
    evidence = (Evidence(said.line, said.text), Evidence(line, text.split("\n")[line - 1]))
    return Cause("half-precision-nan", summary, fix, evidence, general.source)
