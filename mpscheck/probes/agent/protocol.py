"""The protocol stream: one JSON line per stage event on the process's real stdout, flushed at once.

Everything else, torch's own prints and C-level writes included, is pointed at stderr before torch
loads, so no stray output can corrupt the stream. mpscheck's probes/target.py reads it.
"""

from __future__ import annotations

import json
import math
import os
import sys

PROTOCOL_VERSION = 1


class Channel:
    """The process's real stdout, kept for the protocol; fd 1 and sys.stdout now lead to stderr."""

    def __init__(self):
        self._out = os.fdopen(os.dup(1), "w")
        os.dup2(2, 1)  # C-level writes to fd 1 (torch, Metal logs) now land on stderr
        sys.stdout = sys.stderr

    def emit(self, event, stage, data=None):
        record = {"v": PROTOCOL_VERSION, "event": event, "stage": stage}
        if data is not None:
            record["data"] = json_safe(data)
        self._out.write(json.dumps(record, allow_nan=False) + "\n")
        self._out.flush()


def json_safe(value):
    """Plain JSON values only: non-finite floats and foreign objects become strings."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)
