"""mpscheck: can PyTorch use the GPU of this Mac (MPS)? If not, why, and what to type to fix it.

From Python: ``mpscheck.doctor()`` returns the report, ``mpscheck.device()`` the best working device
(mpscheck/api.py). They are imported on first use, so ``import mpscheck`` and ``mpscheck --help``
stay cheap.
"""

from __future__ import annotations

# Not `from typing import ...`: this file runs before the console script's SIGINT handler (entry.py,
# imported as mpscheck.entry), and typing takes ~17 ms to import: a window in which a Ctrl-C
# would print a traceback. Type checkers read a module-level TYPE_CHECKING = False as typing's.
TYPE_CHECKING = False
__version__ = "0.1.0"
__all__ = ["Device", "DoctorReport", "__version__", "device", "doctor"]

if TYPE_CHECKING:
    from typing import Any

    from mpscheck.api import Device, DoctorReport, device, doctor


def __getattr__(name: str) -> Any:
    if name in ("Device", "DoctorReport", "device", "doctor"):
        from mpscheck import api

        return getattr(api, name)
    raise AttributeError(f"module 'mpscheck' has no attribute {name!r}")
