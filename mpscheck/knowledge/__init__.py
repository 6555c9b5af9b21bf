"""Knowledge read from torch's releases and other cited sources, as data with loaders."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any


def load_table(name: str, version: int | None = 1) -> dict[str, Any]:
    """A JSON table shipped in this package; *version*: the "format" this mpscheck reads (None: unversioned)."""
    data: dict[str, Any] = json.loads(resources.files(__name__).joinpath(name).read_text(encoding="utf-8"))
    if version is not None and data.get("format") != version:
        raise ValueError(f"{name} has format {data.get('format')!r}; this mpscheck reads format {version}")
    return data
