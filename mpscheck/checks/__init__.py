"""The checks, registered in report order: cause before effect.

Importing this package registers every check; the order of the imports below is the order of
the report (machine -> interpreter -> macOS vs torch -> torch -> environment -> workload -> frameworks).
"""

from mpscheck.checks import (  # noqa: F401  (imported to register their checks, in this order)
    environment,
    frameworks,
    interpreter,
    macos,
    smoke,
    system,
    torch_backend,
)
from mpscheck.checks.registry import DOCTOR, REGISTRY, SMOKE, Check, Context

__all__ = ["DOCTOR", "REGISTRY", "SMOKE", "Check", "Context", "checks_for"]


def checks_for(suite: str) -> list[Check]:
    return [c for c in REGISTRY if c.suite == suite]
