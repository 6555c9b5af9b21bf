"""mpscheck doctor and mpscheck smoke-test: probe the target, run the checks, print, exit with the verdict."""

from __future__ import annotations

import click

from mpscheck.commands.options import (
    REQUIRE_CHOICES,
    check_option,
    check_output,
    device_option,
    finish,
    known_ids,
    output_options,
    probe,
    target_options,
)
from mpscheck.model import Requirement


@click.command()
@target_options(60.0)
@click.option("--no-smoke", is_flag=True, help="Skip the small tensor test on the GPU.")
@click.option(
    "--require",
    type=click.Choice(REQUIRE_CHOICES),
    default="mps",
    show_default=True,
    help="What must work for exit 0: mps, gpu (MPS or CUDA), none (report only).",
)
@check_option
@click.option("--list-checks", is_flag=True, help="List the check ids and exit.")
@output_options
def doctor(
    python: str | None,
    timeout: float,
    no_smoke: bool,
    require: str,
    only: tuple[str, ...],
    list_checks: bool,
    fmt: str | None,
    output: str | None,
    strict: bool,
    verbose: bool,
) -> None:
    """Diagnose whether PyTorch can use MPS here, with a fix for every problem."""
    selected = known_ids(only)
    if list_checks:  # the checks are imported only when asked for: they are not free
        from mpscheck.checks import DOCTOR, checks_for

        if fmt == "json":
            import json

            listed = [{"id": item.id, "title": item.title} for item in checks_for(DOCTOR)]
            click.echo(json.dumps(listed, indent=2))
            return
        for item in checks_for(DOCTOR):
            click.echo(f"{item.id:<22} {item.title}")
        return
    check_output(output)
    from mpscheck.pipeline import doctor_report

    report = probe(
        lambda: doctor_report(
            python, require=Requirement(require), strict=strict, smoke=not no_smoke, timeout=timeout, only=selected
        )
    )
    finish(report, fmt, output, verbose)


@click.command("smoke-test")
@device_option("run")
@target_options(120.0)
@click.option(
    "--require",
    type=click.Choice(REQUIRE_CHOICES),
    default=None,
    help="What must work for exit 0 [default: the workload passed on the device that ran].",
)
@output_options
def smoke_test(
    device: str,
    python: str | None,
    timeout: float,
    require: str | None,
    fmt: str | None,
    output: str | None,
    strict: bool,
    verbose: bool,
) -> None:
    """Run a real workload on the device and check it against the CPU, step by step."""
    check_output(output)
    from mpscheck.pipeline import smoke_report

    requirement = Requirement(require) if require else Requirement.DEVICE
    report = probe(lambda: smoke_report(python, device=device, require=requirement, strict=strict, timeout=timeout))
    finish(report, fmt, output, verbose)
