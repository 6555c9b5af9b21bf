"""sysctlbyname() of this very process, as Apple documents for sysctl.proc_translated.

The Rosetta flag describes the calling process, so it is read here, in-process, not through a
`sysctl` child (../shared/mps-facts.md 6.1).
"""

from __future__ import annotations

import sys


def read_sysctl(name, kind="int"):
    """Returns (value, error). A missing key (ENOENT) is the error "ENOENT": for
    sysctl.proc_translated that means "not translated" (Intel Macs, older macOS).
    """
    if sys.platform != "darwin":
        return None, "not macOS"
    try:
        import ctypes
        import ctypes.util

        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        size = ctypes.c_size_t(0)
        key = name.encode()
        if libc.sysctlbyname(key, None, ctypes.byref(size), None, ctypes.c_size_t(0)) != 0:
            err = ctypes.get_errno()
            return None, "ENOENT" if err == 2 else "errno %d" % err
        buf = ctypes.create_string_buffer(max(size.value, 1))
        if libc.sysctlbyname(key, buf, ctypes.byref(size), None, ctypes.c_size_t(0)) != 0:
            return None, "errno %d" % ctypes.get_errno()
        raw = buf.raw[: size.value]
        if kind == "int":
            return int.from_bytes(raw, sys.byteorder), None
        return raw.rstrip(b"\0").decode("utf-8", "replace"), None
    except Exception as exc:  # ctypes can fail in odd ways on odd builds; the fact is then unknown
        return None, "%s: %s" % (type(exc).__name__, exc)
