"""The checks, registered in report order: cause before effect.

Each area module registers its checks with ``@check`` when imported; AREAS fixes the order of the
areas (a list of names, so no import sorter can reorder the report): machine -> interpreter ->
macOS against torch -> torch -> environment -> workload -> frameworks.
"""

from __future__ import annotations

import importlib

from mpscheck.checks.registry import DOCTOR, REGISTRY, SMOKE, Check, Context

AREAS = ("system", "interpreter", "macos", "torch_backend", "environment", "smoke", "frameworks", "bench")
for _area in AREAS:
    importlib.import_module(f"mpscheck.checks.{_area}")

__all__ = ["DOCTOR", "REGISTRY", "SMOKE", "Check", "Context", "checks_for"]


def checks_for(suite: str) -> list[Check]:
    return [c for c in REGISTRY if c.suite == suite]
