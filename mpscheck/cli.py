"""The command line: options, target, pipeline, output, exit code. Click only; no decisions here.

Exit codes: 0 ready, 1 problems, 2 usage error, 3 mpscheck itself failed. Heavy modules (rich,
the probes, the checks) are imported inside the commands so that `mpscheck --help` stays fast.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Callable

import click

from mpscheck import __version__
from mpscheck.model import ExitCode, Report, Requirement

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
            click.echo(
                f"mpscheck: internal error: {type(exc).__name__}: {exc} "
                "(set MPSCHECK_DEBUG=1 for the traceback; please report it)",
                err=True,
            )
            ctx.exit(int(ExitCode.INTERNAL))


check_option = click.option(
    "--check", "only", multiple=True, metavar="ID", help="Report only these check ids (repeatable, or comma-separated)."
)


def _positive(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
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
            callback=_positive,
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


@click.group(cls=GuardedGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="mpscheck")
def cli() -> None:
    """Can PyTorch use the GPU of this Mac (MPS)? If not: why, and what to type to fix it."""


@cli.command()
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
    selected = _known_ids(only)
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
    _check_output(output)
    from mpscheck.pipeline import doctor_report

    report = _probe(
        lambda: doctor_report(
            python, require=Requirement(require), strict=strict, smoke=not no_smoke, timeout=timeout, only=selected
        )
    )
    _finish(report, fmt, output, verbose)


@cli.command("smoke-test")
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
    _check_output(output)
    from mpscheck.pipeline import smoke_report

    requirement = Requirement(require) if require else Requirement.DEVICE
    report = _probe(lambda: smoke_report(python, device=device, require=requirement, strict=strict, timeout=timeout))
    _finish(report, fmt, output, verbose)


@cli.command()
@click.argument("report_path", metavar="INPUT", type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--require",
    type=click.Choice(REQUIRE_CHOICES),
    default=None,
    help="Judge a saved report with this policy [default: the one the report was made with].",
)
@check_option
@output_options
def explain(
    report_path: str,
    require: str | None,
    only: tuple[str, ...],
    fmt: str | None,
    output: str | None,
    strict: bool,
    verbose: bool,
) -> None:
    """Explain INPUT (a file, or - for stdin): a report saved with --format json, re-judged by today's checks,
    or pasted text: collect_env, uname, sysctl, sw_vers, conda info, pip/uv errors, REPL lines, framework
    banners, tracebacks, a line naming the Mac. Exit 0: it shows a working setup; 1: a problem; 2: unreadable."""
    from mpscheck.checks.diagnose import diagnose
    from mpscheck.probes.explain_input import InputError, read_input, saved_report
    from mpscheck.probes.saved_report import ReportError

    _check_output(output)
    try:
        given = read_input(report_path)
        if not given.is_report:
            return _explain_paste(given.text, fmt, output, verbose, strict)
        saved = saved_report(given, report_path)
    except (InputError, ReportError) as exc:
        raise click.UsageError(str(exc)) from exc
    requirement = Requirement(require) if require else saved.require
    report = diagnose(
        saved.facts, command=saved.command, require=requirement, strict=strict or saved.strict, only=_known_ids(only)
    )
    _finish(report, fmt, output, verbose)


def _explain_paste(text: str, fmt: str | None, output: str | None, verbose: bool, strict: bool) -> None:
    from mpscheck.judgement import explain_text
    from mpscheck.probes.paste import ACCEPTED
    from mpscheck.redact import redact
    from mpscheck.render.deliver import append_step_summary
    from mpscheck.render.paste import headline, render

    diagnosis = explain_text(text)
    if diagnosis.exit_code is ExitCode.USAGE:
        raise click.UsageError("nothing in the input could be read; explain accepts: " + "; ".join(ACCEPTED))
    fmt = fmt or ("github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text")
    if fmt == "github":
        append_step_summary(redact(render(diagnosis, "markdown", verbose), os.environ), os.environ)
    _deliver_text(render(diagnosis, fmt, verbose), output, headline(diagnosis))
    code = diagnosis.exit_code
    sys.exit(int(ExitCode.PROBLEMS if strict and code is ExitCode.READY and diagnosis.cause.id != "healthy" else code))


def _known_ids(values: tuple[str, ...]) -> list[str]:
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


def _check_output(output: str | None) -> None:
    from mpscheck.render.deliver import OutputError, check_writable

    if output:
        try:
            check_writable(output)
        except OutputError as exc:
            raise click.UsageError(str(exc)) from exc


def _probe(run: Callable[[], Report]) -> Report:
    from mpscheck.probes.target import TargetError

    try:
        return run()
    except TargetError as exc:
        raise click.UsageError(str(exc)) from exc


def _finish(report: Report, fmt: str | None, output: str | None, verbose: bool) -> None:
    from mpscheck.render.deliver import OutputError, deliver

    try:
        deliver(report, fmt, output, verbose, os.environ)
    except OutputError as exc:
        raise click.UsageError(str(exc)) from exc
    sys.exit(int(report.verdict.exit_code))


def main() -> None:
    cli(prog_name="mpscheck")


# ---- mpscheck bench ------------------------------------------------------------------------------------


@cli.command()
@device_option("measure")
@click.option("--quick", is_flag=True, help="Smaller batches and fewer samples (about 30 s on an H100).")
@click.option("--size", "tiny", type=click.Choice(("tiny",)), default=None, hidden=True)  # tests: shrunken models
@click.option(
    "--python",
    "python",
    metavar="PATH",
    default=None,
    help="The interpreter to bench [default: the active venv/conda env, else mpscheck's own].",
)
@click.option(
    "--timeout",
    type=float,
    default=None,
    callback=_positive,
    help="Seconds the target interpreter may take [default: 900; 300 with --quick].",
)
@click.option("--format", "fmt", type=click.Choice(("text", "json", "markdown")), default="text", show_default=True)
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None, help="Write the report to this file.")
@click.option("-v", "--verbose", is_flag=True, help="Show the evidence behind every check.")
def bench(
    device: str,
    quick: bool,
    tiny: str | None,
    python: str | None,
    timeout: float | None,
    fmt: str,
    output: str | None,
    verbose: bool,
) -> None:
    """Measure matmul TFLOP/s, copy GB/s and training samples/s against the CPU and the chip's peak."""
    _check_output(output)
    from mpscheck.pipeline import bench_report

    mode = "tiny" if tiny else "quick" if quick else "full"
    report = _probe(lambda: bench_report(python, device=device, mode=mode, timeout=timeout))
    _finish(report, fmt, output, verbose)


# ---- mpscheck ops / mpscheck run (issue 11) ------------------------------------------------------

OPS_FORMATS = ("text", "json", "markdown")
_PASS_THROUGH = {"ignore_unknown_options": True, "allow_interspersed_args": False}


@cli.command("ops", context_settings=_PASS_THROUGH)
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
    _check_output(output)
    try:
        report = ops_report(list(command), torch_release, macos, script_stdout_to_stderr=fmt != "text" and not output)
    except OpsUsageError as exc:
        raise click.UsageError(str(exc)) from exc
    from mpscheck.ops.render import RENDERERS

    text = RENDERERS[fmt](report, verbose)
    _deliver_text(text, output, report.headline)
    sys.exit(report.exit_code)


@cli.command("run", context_settings=_PASS_THROUGH)
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
    _check_output(output)
    from mpscheck.ops.commands import OpsUsageError, gate, run_after_gate

    report = _probe(lambda: gate(list(command), python, Requirement(require), smoke, timeout))
    if report.verdict.exit_code is not ExitCode.READY:  # --require none passes whatever was found
        from mpscheck.render import renderer

        _deliver_text(renderer(fmt)(report, True), output, report.verdict.headline, to_stderr=True)
        click.echo(f"mpscheck: not starting {' '.join(command)}: {report.verdict.headline}", err=True)
        sys.exit(int(report.verdict.exit_code))
    click.echo(f"mpscheck: {report.verdict.headline}; starting {' '.join(command)}", err=True)
    try:
        code, summary = run_after_gate(list(command), fallback=fallback, trace=trace, fmt=fmt)
    except OpsUsageError as exc:  # raised before the command starts (e.g. no coverage table)
        raise click.UsageError(str(exc)) from exc
    if summary is not None:
        _deliver_text(summary, output, "trace summary", to_stderr=True)
    sys.exit(code)


def _deliver_text(text: str, output: str | None, headline: str, to_stderr: bool = False) -> None:
    from mpscheck.render.deliver import OutputError, deliver_text

    try:
        deliver_text(text, output, headline, os.environ, to_stderr)
    except OutputError as exc:
        raise click.UsageError(str(exc)) from exc
