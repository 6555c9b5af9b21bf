"""Renderers: one module per output format. They print the report and decide nothing."""

from __future__ import annotations

import importlib
from typing import Callable

from mpscheck.model import Report

FORMATS = ("text", "json", "markdown", "github", "junit")
Renderer = Callable[[Report, bool], str]


# format -> the module whose render() prints it; JSON is the report format itself, kept with its reader.
MODULES = {
    "text": "mpscheck.render.text",
    "json": "mpscheck.render.json_report",
    "markdown": "mpscheck.render.markdown",
    "github": "mpscheck.render.github",
    "junit": "mpscheck.render.junit",
}


def renderer(name: str) -> Renderer:
    """The render function of a format, imported on demand so --help stays fast."""
    if name not in MODULES:
        raise ValueError(f"unknown format {name!r}; choose from {', '.join(FORMATS)}")
    module = importlib.import_module(MODULES[name])
    render: Renderer = module.render
    return render
