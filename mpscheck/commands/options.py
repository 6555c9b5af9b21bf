"""What every command shares: the options that mean the same everywhere (--format, --output, --strict,
-v, --require, --check, --python, --timeout, --device), the guard that turns a crash into exit 3, and
the steps around the pipeline (check --output first, probe, deliver, exit with the verdict's code).
"""

from __future__ import annotations

import os
import sys
from typing import Any, Callable

import click

from mpscheck.model import ExitCode, Report

FORMAT_CHOICES = ("text", "json", "markdown", "github", "junit")
REQUIRE_CHOICES = ("mps", "gpu", "none")


class GuardedGroup(click.Group):
    """Turns an unexpected exception into a one-line error and exit 3, never a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.exceptions.Abort, SystemExit):
            raise
        except KeyboardInterrupt:
            click.echo("mpscheck: interrupted", err=True)
            ctx.exit(130)
        except Exception as exc:
            if os.environ.get("MPSCHECK_DEBUG"):
                raise
            from mpscheck.redact import scrub

            click.echo(
                scrub(f"mpscheck: internal error: {type(exc).__name__}: {exc} ", os.environ)
                + "(set MPSCHECK_DEBUG=1 for the traceback; please report it)",
                err=True,
            )
            ctx.exit(int(ExitCode.INTERNAL))


check_option = click.option(
    "--check", "only", multiple=True, metavar="ID", help="Report only these check ids (repeatable, or comma-separated)."
)


def positive(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    from mpscheck.probes.process import timeout_problem

    problem = None if value is None else timeout_problem(value)
    if problem:
        raise click.BadParameter(problem)
    return value


def output_options(function: Callable[..., Any]) -> Callable[..., Any]:
    """--format, --output, --strict, -v: the same on every command."""
    for option in reversed(
        (
            click.option(
                "--format",
                "fmt",
                type=click.Choice(FORMAT_CHOICES),
                default=None,
                help="Output format [default: text; github under GitHub Actions].",
            ),
            click.option(
                "--output",
                "-o",
                type=click.Path(dir_okay=False),
                default=None,
                help="Write the report to this file; a one-line summary goes to stderr.",
            ),
            click.option("--strict", is_flag=True, help="Warnings fail too (exit 1)."),
            click.option("-v", "--verbose", is_flag=True, help="Show the evidence behind every check."),
        )
    ):
        function = option(function)
    return function


def target_options(default_timeout: float) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def decorate(function: Callable[..., Any]) -> Callable[..., Any]:
        function = click.option(
            "--timeout",
            type=float,
            default=default_timeout,
            show_default=True,
            callback=positive,
            help="Seconds the target interpreter may take.",
        )(function)
        return click.option(
            "--python",
            "python",
            metavar="PATH",
            default=None,
            help="The interpreter to diagnose (a path, a name on PATH, or an env folder) "
            "[default: the active venv/conda env, else mpscheck's own].",
        )(function)

    return decorate


def device_option(verb: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """--device of the commands that run a workload: the agent's pick_device reads the same names."""
    return click.option(
        "--device",
        type=click.Choice(("auto", "gpu", "mps", "cuda", "cpu")),
        default="auto",
        show_default=True,
        help=f"Where to {verb}; auto picks mps, then cuda, then cpu; gpu the same but never the cpu.",
    )


def known_ids(values: tuple[str, ...]) -> list[str]:
    """--check ids, comma-separated or repeated; an id no check has is a usage error in every command."""
    ids = [part.strip() for value in values for part in value.split(",") if part.strip()]
    if ids:
        from mpscheck.checks import REGISTRY

        unknown = [i for i in ids if i not in REGISTRY]
        if unknown:
            raise click.BadParameter(
                f"unknown check id {', '.join(unknown)}; see mpscheck doctor --list-checks", param_hint="--check"
            )
    return ids


def check_output(output: str | None) -> None:
    from mpscheck.render.deliver import OutputError, check_writable

    if output:
        try:
            check_writable(output)
        except OutputError as exc:
            raise click.UsageError(str(exc)) from exc


def probe(run: Callable[[], Report]) -> Report:
    from mpscheck.probes.target import TargetError

    try:
        return run()
    except TargetError as exc:
        raise click.UsageError(str(exc)) from exc


def finish(report: Report, fmt: str | None, output: str | None, verbose: bool) -> None:
    from mpscheck.render.deliver import OutputError, deliver

    try:
        deliver(report, fmt, output, verbose, os.environ)
    except OutputError as exc:
        raise click.UsageError(str(exc)) from exc
    sys.exit(int(report.verdict.exit_code))


def deliver_text(text: str, output: str | None, headline: str, to_stderr: bool = False, command: str = "") -> None:
    from mpscheck.render.deliver import OutputError, deliver_text

    try:
        deliver_text(text, output, headline, os.environ, to_stderr, command=command)
    except OutputError as exc:
        raise click.UsageError(str(exc)) from exc
