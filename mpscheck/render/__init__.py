"""Renderers: one module per output format. They print the report and decide nothing."""

from __future__ import annotations

import importlib
from typing import Callable

from mpscheck.model import Report

FORMATS = ("text", "json", "markdown", "github", "junit")
Renderer = Callable[[Report, bool], str]


MODULES = {"text": "text", "json": "json_report", "markdown": "markdown", "github": "github", "junit": "junit"}


def renderer(name: str) -> Renderer:
    """The render function of a format, imported on demand so --help stays fast."""
    if name not in MODULES:
        raise ValueError(f"unknown format {name!r}; choose from {', '.join(FORMATS)}")
    module = importlib.import_module(f"mpscheck.render.{MODULES[name]}")
    render: Renderer = module.render
    return render
