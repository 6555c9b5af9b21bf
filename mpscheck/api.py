"""The Python API: ``mpscheck.doctor()`` and ``mpscheck.device()`` for notebooks and scripts.

Both run the CLI's own pipeline (mpscheck/pipeline.py): the same probes, the same checks, the same
policy, so a report means the same thing from Python as from the shell. torch is never imported into
the caller's process: the probe runs in a child process of the caller's own interpreter
(``sys.executable``), which costs about one ``import torch`` and keeps a crash inside Metal from
taking a notebook's kernel down with it. Every string handed back is masked (redact.py) first.
"""

from __future__ import annotations

import json
import os
import sys
from typing import TYPE_CHECKING, Any

from mpscheck.model import ExitCode, Finding, Requirement, Status

if TYPE_CHECKING:
    from mpscheck.facts import Facts
    from mpscheck.model import Report
    from mpscheck.probes.target import TargetChoice

DEFAULT_TIMEOUT = 60.0  # the CLI's doctor default: a cold `import torch` after an install is slow
GPU_ORDER = ("mps", "cuda")  # the agent's pick_device order (probes/agent/device.py)
CALLER = "the calling interpreter, sys.executable"


class DoctorReport:
    """What ``mpscheck.doctor()`` returns: the verdict, the findings with their fixes, the JSON.

    ``str(report)`` and Jupyter's display show the text report; ``_repr_markdown_`` the Markdown one.
    """

    def __init__(self, report: Report) -> None:
        from mpscheck.redact import redact_report

        self.report = redact_report(report, os.environ)  # every byte handed out is masked

    @property
    def ready(self) -> bool:
        """True only when every check the requirement rests on passed."""
        return self.report.verdict.ready

    @property
    def exit_code(self) -> ExitCode:
        """What ``mpscheck doctor`` would exit with: 0 ready, 1 problems, 3 mpscheck broke."""
        return self.report.verdict.exit_code

    @property
    def headline(self) -> str:
        return self.report.verdict.headline

    @property
    def findings(self) -> list[Finding]:
        """Every check's finding, in cause-to-effect order; ``finding.fix`` holds the remedy."""
        return list(self.report.findings)

    @property
    def problems(self) -> list[Finding]:
        """The findings that failed, warned or crashed: each with its fix."""
        bad = (Status.FAIL, Status.WARN, Status.CRASH)
        return [finding for finding in self.report.findings if finding.status in bad]

    @property
    def facts(self) -> Facts:
        return self.report.facts

    def finding(self, check_id: str) -> Finding | None:
        return next((f for f in self.report.findings if f.id == check_id), None)

    def to_dict(self) -> dict[str, Any]:
        """The JSON report as a dict, in the versioned shape of ``--format json``."""
        from mpscheck.render.json_report import report_to_dict

        return report_to_dict(self.report)

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    def render(self, fmt: str = "text", verbose: bool = False) -> str:
        """The report in one of the CLI's formats: text, json, markdown, github, junit."""
        from mpscheck.render import renderer

        return renderer(fmt)(self.report, verbose)

    def __str__(self) -> str:
        return self.render("text")

    def __repr__(self) -> str:
        return f"<mpscheck DoctorReport exit_code={int(self.exit_code)}: {self.headline}>"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:  # IPython's plain-text display
        printer.text(repr(self) if cycle else str(self))

    def _repr_markdown_(self) -> str:  # Jupyter's rich display
        return self.render("markdown")


class Device(str):
    """A device name that works wherever a string does (``torch.device(d)``, ``t.to(d)``), with why.

    ``reason`` says why this device and not a better one; ``report`` holds the doctor's evidence.
    """

    reason: str
    report: DoctorReport | None

    def __new__(cls, name: str, reason: str, report: DoctorReport | None = None) -> Device:
        made = super().__new__(cls, name)
        made.reason = reason
        made.report = report
        return made

    def __repr__(self) -> str:
        return f"Device({str(self)!r}, reason={self.reason!r})"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(f"{self}: {self.reason}")


def _caller_target(python: str | None) -> TargetChoice | None:
    """The interpreter to probe: *python* as the CLI reads --python, else the caller's own."""
    from mpscheck.probes.target import TargetChoice

    if python is not None or not sys.executable:  # an embedded interpreter may not know its binary
        return None
    return TargetChoice(sys.executable, CALLER)


def doctor(
    python: str | None = None,
    *,
    require: str = "mps",
    smoke: bool = True,
    timeout: float = DEFAULT_TIMEOUT,
    strict: bool = False,
) -> DoctorReport:
    """Diagnose whether PyTorch can use MPS, as ``mpscheck doctor`` does, and return the report.

    *python* is the interpreter to diagnose (a path, a name on PATH, an env folder); by default the
    one running this call. *require* is ``"mps"``, ``"gpu"`` (MPS or CUDA) or ``"none"``; *smoke*
    runs the small tensor test on the GPU. Raises ``ValueError`` for an unusable *python*,
    *require* or *timeout* (the CLI's usage errors); everything found on the machine is a finding.
    """
    from mpscheck.pipeline import doctor_report
    from mpscheck.probes.process import timeout_problem

    problem = timeout_problem(timeout)
    if problem:
        raise ValueError(f"timeout: {problem}")
    report = doctor_report(
        python,
        require=Requirement(_requirement(require)),
        strict=strict,
        smoke=smoke,
        timeout=timeout,
        target=_caller_target(python),
    )
    return DoctorReport(report)


def _requirement(value: str) -> str:
    if value not in ("mps", "gpu", "none"):
        raise ValueError(f"require: {value!r}; choose mps, gpu or none")
    return value


def device(python: str | None = None, *, timeout: float = DEFAULT_TIMEOUT) -> Device:
    """The best device that works: mps, then cuda, then cpu, each GPU proven by a tiny allocation.

    A GPU counts only when the doctor's quick smoke (a round trip of 4096 values and a few
    elementwise ops compared with the CPU) passed on it, so a VM whose MPS says available but cannot
    allocate gets ``cpu``, with the reason. The probe runs in a child process of *python* (default:
    this interpreter); torch is not imported here. Use the result as ``torch.device(d)`` or ``.to(d)``.
    """
    from mpscheck.probes.process import timeout_problem

    problem = timeout_problem(timeout)
    if problem:
        raise ValueError(f"timeout: {problem}")
    # MPS exists on macOS only and CUDA never on macOS, so the agent's order (mps, then cuda) tries
    # the one GPU a machine can have; no second probe is needed for the other.
    report = _smoked(python, timeout)
    chosen = _passed_on(report)
    if chosen is not None:
        smoke = report.finding("smoke")
        return Device(chosen, smoke.summary if smoke else "the smoke test passed", report)
    return Device("cpu", "no GPU works here: " + _why_not(report), report)


def _smoked(python: str | None, timeout: float) -> DoctorReport:
    from mpscheck.pipeline import doctor_report

    report = doctor_report(python, require=Requirement.GPU, smoke=True, timeout=timeout, target=_caller_target(python))
    return DoctorReport(report)


def _ran_on(report: DoctorReport) -> str | None:
    smoke = report.facts.target.smoke
    return smoke.device if smoke else None


def _passed_on(report: DoctorReport) -> str | None:
    """The GPU the quick smoke passed on: positive evidence, never availability alone."""
    smoke = report.finding("smoke")
    device_ran = _ran_on(report)
    if smoke is None or smoke.status is not Status.PASS or device_ran not in GPU_ORDER:
        return None
    return device_ran


def _why_not(report: DoctorReport) -> str:
    """Why no GPU passed in *report*: the smoke's own words, else the first problem the doctor found."""
    smoke = report.finding("smoke")
    torch = report.facts.target.torch
    version = f" (torch {torch.version})" if torch and torch.version else ""
    if smoke is not None and smoke.status in (Status.FAIL, Status.CRASH):
        return f"{_ran_on(report) or 'the GPU'} failed the smoke test: {smoke.summary}{version}"
    ran = report.facts.target.smoke
    if ran is not None and ran.device is None and ran.reason:  # the agent's own words: no GPU to try
        return f"{ran.reason}{version}"
    blocking = report.finding(smoke.blocked_by) if smoke and smoke.blocked_by else None
    said = blocking or smoke or next(iter(report.problems), None)
    return f"{said.summary}{version}" if said else f"the doctor found nothing to test{version}"
