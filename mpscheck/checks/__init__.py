"""The checks, and the one explicit list that fixes their order in a report: cause before effect.

Each area module registers its checks with ``@check`` when imported. ORDER, not import order, is
the report order: machine -> interpreter -> macOS against torch -> torch -> environment ->
workload -> frameworks. A registered check missing from ORDER (or the reverse) fails the tests.
"""

from __future__ import annotations

import importlib

from mpscheck.checks.registry import BENCH, DOCTOR, INPUT, REGISTRY, SMOKE, Check, Context

AREAS = (
    "system",
    "interpreter",
    "macos",
    "torch_backend",
    "environment",
    "smoke",
    "silent",
    "frameworks",
    "bench",
    "errors",
)
for _area in AREAS:
    importlib.import_module(f"mpscheck.checks.{_area}")

ORDER: dict[str, tuple[str, ...]] = {
    DOCTOR: (
        "platform",
        "chip",
        "virtual-machine",
        "interpreter",
        "python-arch",
        "python-macos-compat",
        "macos-version",
        "torch-import",
        "mps-built",
        "mps-available",
        "cuda",
        "mps-fallback-env",
        "mps-watermark-env",
        "mps-env-vars",
        "smoke",
        "silent-bugs",
        "frameworks",
    ),
    SMOKE: (
        "smoke-device",
        "smoke-allocate",
        "smoke-elementwise",
        "smoke-matmul",
        "smoke-train",
        "smoke-dtypes",
        "smoke-memory",
        "smoke-fallback",
        "smoke-exit",
    ),
    BENCH: ("bench-device", "bench-matmul", "bench-copy", "bench-resnet50", "bench-bert-base", "bench-vgg16"),
    INPUT: ("error-text",),
}

__all__ = ["BENCH", "DOCTOR", "INPUT", "ORDER", "REGISTRY", "SMOKE", "Check", "Context", "checks_for"]


def checks_for(suite: str) -> list[Check]:
    """The checks of *suite* in report order."""
    return [REGISTRY[check_id] for check_id in ORDER[suite]]
