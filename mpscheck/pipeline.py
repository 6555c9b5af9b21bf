"""The pipeline of one run: choose the target, gather facts, judge them. The CLI, the Python API
(api.py) and the pytest plugin all call this, so a report means the same thing wherever it was made.

The checks are imported only once the target is running (gather.py warms them in its host thread):
the target interpreter starts its `import torch` before mpscheck loads what judges the result.
"""

from __future__ import annotations

import os
from typing import Iterable, Mapping

from mpscheck.model import Report, Requirement
from mpscheck.probes.gather import collect_facts
from mpscheck.probes.target import TargetChoice, choose_target

DOCTOR_TIMEOUT = 60.0  # a cold `import torch` on a Mac can take tens of seconds after an install
SMOKE_TIMEOUT = 120.0  # long enough for a cold Metal start and shader compilation


def doctor_report(
    python: str | None = None,
    *,
    require: Requirement = Requirement.MPS,
    strict: bool = False,
    smoke: bool = True,
    timeout: float = DOCTOR_TIMEOUT,
    only: Iterable[str] = (),
    environ: Mapping[str, str] | None = None,
    target: TargetChoice | None = None,
) -> Report:
    """mpscheck doctor, and the Python API's doctor() and device() (mpscheck/api.py).

    *target*: the interpreter already chosen (the API's caller), else *python* is read as --python.
    """
    environ = os.environ if environ is None else environ
    choice = target or choose_target(python, environ, timeout=timeout)
    # The quick smoke runs on a GPU only: on a CPU-only machine there is nothing to smoke-test.
    facts = collect_facts(choice, workload="quick" if smoke else "none", device="gpu", timeout=timeout, environ=environ)
    from mpscheck.checks import DOCTOR
    from mpscheck.checks.diagnose import diagnose

    return diagnose(facts, command=DOCTOR, require=require, strict=strict, only=only)


def smoke_report(
    python: str | None = None,
    *,
    device: str = "auto",
    require: Requirement = Requirement.DEVICE,
    strict: bool = False,
    timeout: float = SMOKE_TIMEOUT,
    environ: Mapping[str, str] | None = None,
) -> Report:
    environ = os.environ if environ is None else environ
    choice = choose_target(python, environ, timeout=timeout)
    facts = collect_facts(choice, workload="full", device=device, timeout=timeout, environ=environ)
    from mpscheck.checks import SMOKE
    from mpscheck.checks.diagnose import diagnose

    return diagnose(facts, command=SMOKE, require=require, strict=strict)


BENCH_TIMEOUT = {"full": 900.0, "quick": 300.0, "tiny": 120.0}  # the CPU baselines dominate on a slow CPU
BENCH_WORKLOADS = {"full": "bench", "quick": "bench-quick", "tiny": "bench-tiny"}


def bench_report(
    python: str | None = None,
    *,
    device: str = "auto",
    mode: str = "full",
    timeout: float | None = None,
    environ: Mapping[str, str] | None = None,
) -> Report:
    """mpscheck bench: measure in the target interpreter, then judge every figure against the CPU."""
    environ = os.environ if environ is None else environ
    choice = choose_target(python, environ)
    facts = collect_facts(
        choice,
        workload=BENCH_WORKLOADS[mode],
        device=device,
        timeout=timeout or BENCH_TIMEOUT[mode],
        environ=environ,
    )
    from mpscheck.checks.diagnose import diagnose

    return diagnose(facts, command="bench", require=Requirement.DEVICE)
