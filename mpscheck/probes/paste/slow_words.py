"""The user's words that the run is slow on mps: read apart from prose.py's other words (which must stay under 400
lines), in linear time like them (near.py). What the judge makes of it: checks/causes/slow.py.
"""

from __future__ import annotations

from mpscheck.knowledge.needles import gated
from mpscheck.probes.paste.near import Near

GPU_WORD = gated(r"(?i)\b(?:mps|gpu|metal)\b")
# The user's words that the run is slow on mps ("Optim.step() is significantly SLOW on MPS", discuss.pytorch.org
# /t/191237; "mps 加速比cpu 慢", ChatTTS#742): slowness told, which names no cause of its own (checks/causes/slow.py).
SLOW_WORDS = gated(r"(?i)\bslow(?:er|ly|ness)?\b|慢")
SLOW_SAID = (Near(SLOW_WORDS), Near(SLOW_WORDS, 60, GPU_WORD, len("metal")))
TORCH_SLOWER = "slower than running natively"  # torch's own words in its NotImplementedError, not the user's
COMPARED = gated(r"(?i)\bslower\b|\bthan\b|比")

# One way of computing said slower than another on mps ("3D `F.linear` on `[B,1,K]` ... is up to 8.5x slower than 2D /
# `torch.matmul`", pytorch#189847): two paths of the same backend compared, neither the CPU nor another machine. A slow
# kernel path of that torch, not a fallback or a model too large.
SLOWER_THAN_OP = gated(
    r"(?i)\bslower than (?:the |a |an )?(?:[234]-?d\b|`?(?:torch|f|nn)\.\w|(?:float|fp|bf|bfloat)(?:16|32)\b"
    r"|(?:the )?(?:same|equivalent) (?:op|operation|call|kernel|computation)\b)"
)


def slow_on_mps(line: str) -> bool:
    """Slowness said of mps (or the GPU), not of the CPU the user switched to ("when I change mps as cpu generating
    can work well but too slow", ng-video-lecture#35): a plain "slow" after a later "cpu" than "mps" is the CPU's."""
    if TORCH_SLOWER in line or not any(near.search(line) for near in SLOW_SAID):
        return False
    match = SLOW_WORDS.search(line)
    assert match is not None
    before = line[: match.start()].lower()
    return before.rfind("cpu") <= before.rfind("mps") or bool(COMPARED.search(line))
