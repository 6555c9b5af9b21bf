"""Start the CUDA driver (cuInit) in a thread while torch imports, where a driver is installed.

torch's first CUDA question (torch.cuda.is_available) initialises the driver: about 0.2 s on an H100,
after the import, on the doctor's critical path. cuInit is process-wide and idempotent, and ctypes
releases the GIL while it runs, so calling it first, beside the import, leaves torch's own calls
the same answers with the wait already done. It observes nothing itself: what torch then says is
what is reported. Linux only (libcuda.so.1); elsewhere, or without a driver, it does nothing.

For the bench, which will use the GPU anyway, the thread also retains device 0's primary context
(the one torch's runtime uses): its creation (a few tenths of a second on an H100) then happens
beside the import too instead of in the first answer check. The doctor never does this: a context
it did not need would cost memory and a slower exit.
"""

from __future__ import annotations

import sys
import threading


def start_in_background(context=False):
    """A started daemon thread calling cuInit(0) (and with *context*, retaining device 0's primary
    context), or None where there is no CUDA driver to start."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        driver = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return None
    work = (lambda: _start_with_context(driver, ctypes)) if context else (lambda: driver.cuInit(0))
    thread = threading.Thread(target=work, name="mpscheck-cuinit", daemon=True)
    thread.start()
    return thread


def _start_with_context(driver, ctypes):
    """cuInit, then cuDevicePrimaryCtxRetain on device 0; any failure is left for torch to meet."""
    if driver.cuInit(0) != 0:
        return
    device, context = ctypes.c_int(0), ctypes.c_void_p()
    if driver.cuDeviceGet(ctypes.byref(device), 0) == 0:
        driver.cuDevicePrimaryCtxRetain(ctypes.byref(context), device)
