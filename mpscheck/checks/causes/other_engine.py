"""An error that no row knows, raised by another machine-learning engine (TensorFlow, JAX, MLX): its exception is
named by that engine's module path ("tensorflow.python.framework.errors_impl.InternalError: ...", "jaxlib.
xla_extension.XlaRuntimeError: ...", "mlx.core...") or its traceback runs through that engine's package and none of
torch's. mpscheck judges PyTorch on MPS; calling such an error a torch backend bug fixed by upgrading torch would
state what the paste does not show (developer.apple.com/forums/thread/759438: a TensorFlow error on a Mac, once
read as a torch bug), so it says so and asks for the Mac's report only if torch is in doubt too.
"""

from __future__ import annotations

import re
from typing import Any

from mpscheck.checks.causes.model import Cause, Evidence
from mpscheck.model import Remediation

NAMES = {"tensorflow": "TensorFlow", "keras": "Keras", "jax": "JAX", "jaxlib": "JAX", "mlx": "MLX"}
# The exception's qualified name, at the start of an error line or after a notebook's arrow; the engine's module
# first, then a bounded dotted path, then the class and its colon.
QUALIFIED = re.compile(r"(?:^|\s)(?P<engine>tensorflow|jaxlib|jax|mlx)\.[\w.]{1,160}?(?:Error|Exception):")
# A frame of the engine's own package (site-packages/tensorflow/...), the traceback's way of naming it.
ENGINE_FRAME = re.compile(r"[/\\](?:site|dist)-packages[/\\](?P<engine>tensorflow|keras|jaxlib|jax|mlx)[/\\]")


def other_engine(first: Any, frames: list[Any], torch_framed: bool) -> Cause | None:
    """not-enough-evidence, naming the engine, for an unknown error raised by TensorFlow, JAX or MLX with no frame
    of torch's; None when the error is not such an engine's or torch's frames are in its traceback."""
    if torch_framed:
        return None
    match = QUALIFIED.search(first.text)
    shown = Evidence(first.line, first.text)
    if match is None:
        framed = next((f for f in reversed(frames) if ENGINE_FRAME.search(str(f.value))), None)
        if framed is None:
            return None
        match = ENGINE_FRAME.search(str(framed.value))
        shown = Evidence(framed.line, framed.text)
    assert match is not None
    engine = NAMES[match["engine"]]
    return Cause(
        "not-enough-evidence",
        f"the error (“{first.value}”) is raised by {engine}, not by torch: mpscheck judges PyTorch on MPS, and "
        "nothing in the paste shows torch failing",
        Remediation(
            f"Look that error up with {engine} (on a Mac, its Metal plugin or backend, where it has one); if "
            "PyTorch's MPS is in doubt as well, run mpscheck on the Mac and paste its report.",
            ("mpscheck doctor --format markdown",),
        ),
        (Evidence(first.line, first.text),) + ((shown,) if shown.line != first.line else ()),
        "",
        variant="other-engine",
    )
