"""conda's "not available from current channels" for a CUDA package (pytorch-cuda, cudatoolkit, cuda-toolkit):
the command or the environment file asks for CUDA, which no macOS channel has and no Mac can use. That is a CUDA
request, not a platform that lacks PyTorch: the answer is the same command without the CUDA packages.
Kept apart from errors.py, which builds every other error's cause; this one only reads the paste and words it.
"""

from __future__ import annotations

import re

from mpscheck.checks.causes.model import Cause, Evidence
from mpscheck.model import Remediation
from mpscheck.probes.paste.conda import CUDA_PACKAGE
from mpscheck.probes.paste.model import Observation

SOURCE = "https://github.com/Gouryella/ChatTTS-webui/issues/4; https://github.com/xNul/chat-llama-discord-bot/issues/11"
# A spec of the command: an optional channel:: prefix, the name, an optional =/==/>= version (pytorch-cuda=12.1).
SPEC = re.compile(r"(?:[\w.-]{1,40}::)?(?P<name>[\w.-]{1,60})(?:[=<>!~].{0,40})?")
CHANNEL_FLAGS = ("-c", "--channel")


def conda_cuda_cause(
    said: Observation | None, command: Observation | None, evidence: tuple[Evidence, ...], system: str | None
) -> Cause | None:
    """The cause when conda's not-found list names a CUDA package (*said*, read by probes/paste/conda.py), unless
    the paste shows a system other than macOS (Linux has CUDA packages: there the list means something else)."""
    if said is None or said.kind != "conda" or (system and system != "Darwin"):
        return None
    package = SPEC.match(said.text.strip().lstrip("- ").strip())
    name = package["name"] if package else "a CUDA package"
    summary = (
        f"conda found no {name} for this platform: it is a CUDA package, and CUDA does not exist on a Mac (no macOS "
        "channel has one); PyTorch on a Mac uses mps instead"
    )
    plain = without_cuda(command.value) if command is not None and isinstance(command.value, str) else None
    remedy = Remediation(
        "Drop the CUDA packages (pytorch-cuda, cudatoolkit, cuda-*) and the nvidia channel from the conda command "
        "or the environment file, and install PyTorch alone: on a Mac it runs on mps (or the CPU), not CUDA.",
        (plain,) if plain else (),
    )
    found = (*evidence, Evidence(said.line, said.text))
    if command is not None:
        found = (*found, Evidence(command.line, command.text))
    return Cause("cuda-requested-on-mac", summary, remedy, found, SOURCE)


def without_cuda(command: str) -> str | None:
    """*command* (a conda install/create) less its CUDA specs and its nvidia channels; None if nothing is left."""
    words = command.split()
    kept: list[str] = []
    skip = False
    for index, word in enumerate(words):
        if skip:
            skip = False
            continue
        if word in CHANNEL_FLAGS and index + 1 < len(words) and words[index + 1].startswith("nvidia"):
            skip = True
            continue
        spec = SPEC.fullmatch(word)
        if spec and not word.startswith("-") and CUDA_PACKAGE.fullmatch(spec["name"]):
            continue
        kept.append(word)
    return " ".join(kept) if len(kept) > 2 else None
