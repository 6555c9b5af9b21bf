"""mpscheck ops and mpscheck run: record a script's ops and predict MPS coverage; gate a command on the doctor."""

from __future__ import annotations

import os
import sys

import click

from mpscheck.commands.options import (
    FORMAT_CHOICES,
    REQUIRE_CHOICES,
    check_output,
    deliver_text,
    probe,
    target_options,
)
from mpscheck.model import ExitCode, Requirement

OPS_FORMATS = ("text", "json", "markdown")
_PASS_THROUGH = {"ignore_unknown_options": True, "allow_interspersed_args": False}


@click.command("ops", context_settings=_PASS_THROUGH)
@click.option(
    "--torch",
    "torch_release",
    metavar="VERSION",
    help="Predict for this torch release [default: the installed one if the table has it, else the newest].",
)
@click.option(
    "--macos", metavar="VERSION", help="Predict for this macOS [default: the oldest the torch release supports]."
)
@click.option("--format", "fmt", type=click.Choice(OPS_FORMATS), default="text", show_default=True)
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None, help="Write the report to this file.")
@click.option(
    "--op", "op_name", metavar="NAME[.overload]", help="Look one op up across releases instead of running a command."
)
@click.option("-v", "--verbose", is_flag=True, help="List every op, not only the problems.")
@click.argument("command", nargs=-1, type=click.UNPROCESSED)
def ops_command(
    torch_release: str | None,
    macos: str | None,
    fmt: str,
    output: str | None,
    op_name: str | None,
    verbose: bool,
    command: tuple[str, ...],
) -> None:
    """Run a Python command once here (CPU or CUDA), record every aten op, and predict which would
    not run on MPS.  Usage: mpscheck ops [OPTIONS] -- python train.py ARGS"""
    from mpscheck.ops.commands import OpsUsageError, lookup_lines, ops_report

    if op_name:
        if command:
            raise click.UsageError("--op looks one op up; give it no command")
        try:
            click.echo("\n".join(lookup_lines(op_name)))
        except OpsUsageError as exc:
            raise click.UsageError(str(exc)) from exc
        return
    if not command:
        raise click.UsageError("give the command to record after --, e.g. mpscheck ops -- python train.py")
    check_output(output)
    try:
        report = ops_report(list(command), torch_release, macos, script_stdout_to_stderr=fmt != "text" and not output)
    except OpsUsageError as exc:
        raise click.UsageError(str(exc)) from exc
    from mpscheck.ops.render import RENDERERS

    text = RENDERERS[fmt](report, verbose)
    deliver_text(text, output, report.headline)
    sys.exit(report.exit_code)


@click.command("run", context_settings=_PASS_THROUGH)
@click.option(
    "--require",
    type=click.Choice(REQUIRE_CHOICES),
    default="mps",
    show_default=True,
    help="What the doctor must find before the command starts: mps, gpu (MPS or CUDA), none.",
)
@click.option("--fallback", is_flag=True, help="Set PYTORCH_ENABLE_MPS_FALLBACK=1 for the command.")
@click.option(
    "--trace", is_flag=True, help="Report which ops fell back to the CPU (on a Mac), or predict it (elsewhere)."
)
@click.option("--smoke", is_flag=True, help="Also run the doctor's quick GPU smoke test before starting.")
@target_options(60.0)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMAT_CHOICES),
    default="text",
    show_default=True,
    help="Format of mpscheck's own report (stderr, or --output).",
)
@click.option(
    "--output", "-o", type=click.Path(dir_okay=False), default=None, help="Write mpscheck's report to this file."
)
@click.argument("command", nargs=-1, type=click.UNPROCESSED)
def run_command_cli(
    require: str,
    fallback: bool,
    trace: bool,
    smoke: bool,
    python: str | None,
    timeout: float,
    fmt: str,
    output: str | None,
    command: tuple[str, ...],
) -> None:
    """Check with the doctor, then run COMMAND; its exit code becomes mpscheck's.
    Usage: mpscheck run [OPTIONS] -- python train.py ARGS

    The doctor checks --python if given, else the command's own interpreter when the command
    starts with python..., else the active venv/conda env."""
    if not command:
        raise click.UsageError("give the command to run after --, e.g. mpscheck run -- python train.py")
    check_output(output)
    from mpscheck.ops.commands import OpsUsageError, gate, run_after_gate
    from mpscheck.redact import scrub

    report = probe(lambda: gate(list(command), python, Requirement(require), smoke, timeout))
    if report.verdict.exit_code is not ExitCode.READY:  # --require none passes whatever was found
        from mpscheck.render import renderer

        deliver_text(renderer(fmt)(report, True), output, report.verdict.headline, to_stderr=True)
        click.echo(
            scrub(f"mpscheck: not starting {' '.join(command)}: {report.verdict.headline}", os.environ), err=True
        )
        sys.exit(int(report.verdict.exit_code))
    click.echo(scrub(f"mpscheck: {report.verdict.headline}; starting {' '.join(command)}", os.environ), err=True)
    try:
        code, summary = run_after_gate(list(command), fallback=fallback, trace=trace, fmt=fmt)
    except OpsUsageError as exc:  # raised before the command starts (e.g. no coverage table)
        raise click.UsageError(str(exc)) from exc
    if summary is not None:
        deliver_text(summary, output, "trace summary", to_stderr=True)
    sys.exit(code)
