"""mpscheck: can PyTorch use the GPU of this Mac (MPS)? If not, why, and what to type to fix it.

From Python: ``mpscheck.doctor()`` returns the report, ``mpscheck.device()`` the best working device
(mpscheck/api.py). They are imported on first use, so ``import mpscheck`` and ``mpscheck --help``
stay cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"
__all__ = ["Device", "DoctorReport", "__version__", "device", "doctor"]

if TYPE_CHECKING:
    from mpscheck.api import Device, DoctorReport, device, doctor


def __getattr__(name: str) -> Any:
    if name in ("Device", "DoctorReport", "device", "doctor"):
        from mpscheck import api

        return getattr(api, name)
    raise AttributeError(f"module 'mpscheck' has no attribute {name!r}")
