"""Start the CUDA driver (cuInit) in a thread while torch imports, where a driver is installed.

torch's first CUDA question (torch.cuda.is_available) initialises the driver: about 0.2 s on an H100,
after the import, on the doctor's critical path. cuInit is process-wide and idempotent, and ctypes
releases the GIL while it runs, so calling it first, beside the import, leaves torch's own calls
the same answers with the wait already done. It observes nothing itself: what torch then says is
what is reported. Linux only (libcuda.so.1); elsewhere, or without a driver, it does nothing.
"""

from __future__ import annotations

import sys
import threading


def start_in_background():
    """A started daemon thread calling cuInit(0), or None where there is no CUDA driver to start."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        driver = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return None
    thread = threading.Thread(target=driver.cuInit, args=(0,), name="mpscheck-cuinit", daemon=True)
    thread.start()
    return thread
