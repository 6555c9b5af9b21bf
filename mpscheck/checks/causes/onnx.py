"""The paste shows onnxruntime running the model on the Mac (insightface's provider lines, the CoreML provider) and
no error, nor any sign that torch ran on mps: the engine is not torch, and onnxruntime has no MPS backend. Its CoreML
provider takes only the ops CoreML supports and leaves the rest on the CPU provider, which is why face-swap apps on a
Mac show high CPU use and low frame rates whatever torch can do (hacksider/Deep-Live-Cam#1144, #1373;
microsoft/onnxruntime#21271).
"""

from __future__ import annotations

from mpscheck.checks.causes.model import Cause, Evidence
from mpscheck.model import Remediation
from mpscheck.probes.paste.model import Paste

SOURCE = (
    "https://github.com/microsoft/onnxruntime/issues/21271 (no MPS execution provider); "
    "https://onnxruntime.ai/docs/execution-providers/CoreML-ExecutionProvider.html"
)


def onnx_engine(paste: Paste) -> Cause | None:
    """backend-has-no-mps for a paste whose model runs in onnxruntime, with the line that shows it."""
    shown = paste.get("paste.onnx_engine")
    if shown is None:
        return None
    return Cause(
        "backend-has-no-mps",
        "the model runs in onnxruntime (its CoreML or CPU execution provider), not in torch: onnxruntime has no MPS "
        "backend, and its CoreML provider leaves every op CoreML does not take on the CPU",
        Remediation(
            "Expect onnxruntime's speed, not torch's: check that the CoreML provider is applied and takes the model "
            "(its options, a model CoreML supports), turn it off where the CPU provider is as fast, or run a PyTorch "
            "port of the model on mps for the GPU.",
            ('python -c "import onnxruntime; print(onnxruntime.get_available_providers())"',),
        ),
        (Evidence(shown.line, shown.text),),
        SOURCE,
        variant="onnxruntime",
    )
