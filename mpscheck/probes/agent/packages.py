"""Versions of installed distributions, from the *.dist-info folder names on sys.path.

One listing per path entry, first match wins as for imports: much cheaper than one
importlib.metadata scan per name, and this runs on the doctor's critical path.
"""

from __future__ import annotations

import os
import sys

# Frameworks whose MPS decision the doctor compares with torch's, and the libraries that
# torch.utils.collect_env lists for a bug report.
DISTRIBUTIONS = (
    "lightning",
    "pytorch-lightning",
    "transformers",
    "accelerate",
    "torch",
    "torchvision",
    "torchaudio",
    "numpy",
)


def _normalise(name):
    return name.lower().replace("-", "_").replace(".", "_")


def distribution_versions(names=DISTRIBUTIONS):
    wanted = {_normalise(name): name for name in names}
    found = dict.fromkeys(names)
    for entry in sys.path:
        try:
            listing = os.listdir(entry or os.curdir)
        except OSError:
            continue
        for item in listing:
            if not item.endswith((".dist-info", ".egg-info")):
                continue
            stem = item.rsplit(".", 1)[0]
            name, _, version = stem.partition("-")
            key = _normalise(name)
            if key in wanted and found[wanted[key]] is None and version:
                found[wanted[key]] = version
    return found
