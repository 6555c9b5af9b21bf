"""Renderers: one module per output format. They print the report and decide nothing."""

from __future__ import annotations

from typing import Callable

from mpscheck.model import Report

FORMATS = ("text", "json", "markdown", "github", "junit")
Renderer = Callable[[Report, bool], str]


def renderer(name: str) -> Renderer:
    """The render function of a format, imported on demand so --help stays fast."""
    if name == "text":
        from mpscheck.render.text import render
    elif name == "json":
        from mpscheck.render.json_report import render
    elif name == "markdown":
        from mpscheck.render.markdown import render
    elif name == "github":
        from mpscheck.render.github import render
    elif name == "junit":
        from mpscheck.render.junit import render
    else:
        raise ValueError(f"unknown format {name!r}; choose from {', '.join(FORMATS)}")
    return render
