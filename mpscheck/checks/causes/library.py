"""Which installed library a traceback says made the failing call: the deepest frame above the error that
is not torch's own, when that frame lies in site-packages (the user's code, a notebook or a REPL is no
library). A float64 tensor made inside diffusers or transformers is that library's bug, fixed by
upgrading it (huggingface/diffusers#9074, huggingface/transformers#35295), not by the user's casts.
"""

from __future__ import annotations

import re

from mpscheck.probes.paste.model import Observation, Paste

# site-packages/<dir>/ (or a Debian dist-packages): the directory a frame's file was installed in.
PACKAGE_DIR = re.compile(r"/(?:site|dist)-packages/(?P<dir>[A-Za-z0-9_.-]{1,100})/")
# torch's own frames, and the modules that only call user code back, say nothing of who made the tensor.
NOT_THE_MAKER = frozenset({"torch", "torchvision", "torchaudio", "IPython", "ipykernel", "_pytest", "pluggy"})
# An import name whose distribution has another name: pip installs the distribution.
DISTRIBUTION = {"llama_cpp": "llama-cpp-python", "PIL": "pillow", "sklearn": "scikit-learn", "cv2": "opencv-python"}


def distribution(directory: str) -> str:
    """The name pip installs a site-packages directory by: llama_cpp -> llama-cpp-python."""
    return DISTRIBUTION.get(directory, directory)


def own_frames(paste: Paste, error_line: int) -> list[Observation]:
    """The traceback frames shown for the error on *error_line*: those after the previous error or exception
    line (an earlier traceback's frames are not this error's)."""
    earlier = [o.line for name in ("error", "paste.exception") for o in paste.all(name) if o.line < error_line]
    start = max(earlier, default=0)
    return [o for o in paste.all("paste.frame") if start < o.line < error_line and 'File "' in o.text]


def failing_library(paste: Paste, error_line: int) -> tuple[str, Observation] | None:
    """The library (its distribution name) whose frame is the deepest non-torch frame above *error_line*,
    and that frame; None when that frame is the user's own code or no frame is shown."""
    for frame in reversed(own_frames(paste, error_line)):
        match = PACKAGE_DIR.search(str(frame.value))
        directory = match["dir"] if match else None
        if directory in NOT_THE_MAKER:
            continue
        if directory is None or directory.endswith((".egg-info", ".dist-info")):
            return None
        return distribution(directory), frame
    return None
