"""Lines that show onnxruntime running the model (insightface's "Applied providers: [...]", the CoreML execution
provider, a face-swap app's "--execution-provider coreml"): on a Mac the work is onnxruntime's, which has no MPS
backend, so torch's MPS is not what makes it fast or slow. A package list naming onnxruntime is no such line: many
torch apps install it beside torch without running the model in it.
"""

from __future__ import annotations

from mpscheck.knowledge.needles import gated

# Each alternative a literal prefix: linear on any line.
ONNX_ENGINE = gated(
    r"\bApplied providers: \[|\bCoreMLExecutionProvider\b|--execution-providers? ['\"]?coreml\b"
    r"|\bexecution_providers=\[['\"]coreml"
)
