"""mpscheck explain: a saved report re-judged by today's checks, or pasted text read into facts and judged."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

import click

from mpscheck.commands.options import (
    REQUIRE_CHOICES,
    check_option,
    check_output,
    deliver_text,
    finish,
    known_ids,
    output_options,
)
from mpscheck.model import ExitCode, Requirement

if TYPE_CHECKING:
    from mpscheck.probes.explain_input import ExplainInput


@click.command()
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

    check_output(output)
    selected = known_ids(only)  # an unknown id is a usage error, whatever the input turns out to be
    try:
        given = read_input(report_path)
        if not given.is_report:
            requirement = Requirement(require) if require else Requirement.MPS
            return _explain_paste(given, fmt, output, verbose, requirement, strict, selected)
        saved = saved_report(given, report_path)
    except (InputError, ReportError) as exc:
        raise click.UsageError(str(exc)) from exc
    requirement = Requirement(require) if require else saved.require
    report = diagnose(
        saved.facts, command=saved.command, require=requirement, strict=strict or saved.strict, only=selected
    )
    finish(report, fmt, output, verbose)


def _explain_paste(
    given: ExplainInput,
    fmt: str | None,
    output: str | None,
    verbose: bool,
    require: Requirement,
    strict: bool,
    only: list[str],
) -> None:
    from mpscheck.checks.causes import explain_text
    from mpscheck.checks.causes.judge import judge_cut
    from mpscheck.probes.paste import ACCEPTED
    from mpscheck.redact import scrub
    from mpscheck.render.deliver import append_step_summary
    from mpscheck.render.paste import github_parts, headline, render

    # Masked before the judge reads it, so that quoting cannot cut a token short of its mask.
    diagnosis = explain_text(scrub(given.text, os.environ), require=require, strict=strict, input_line=given.input_line)
    if given.cut:
        diagnosis = judge_cut(diagnosis, given.notice(), require=require, strict=strict)
    if only:  # --check filters what is shown, never the verdict
        diagnosis.findings = [f for f in diagnosis.findings if f.id in only]
    if diagnosis.exit_code is ExitCode.USAGE:
        cut = f" ({given.notice()})" if given.cut else ""
        raise click.UsageError(f"nothing in the input could be read{cut}; explain accepts: " + "; ".join(ACCEPTED))
    fmt = fmt or ("github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text")
    if fmt == "github":
        append_step_summary(scrub(render(diagnosis, "markdown", verbose), os.environ), os.environ)
    command, text = github_parts(diagnosis, verbose) if fmt == "github" else ("", render(diagnosis, fmt, verbose))
    deliver_text(text, output, headline(diagnosis), command=command)
    sys.exit(int(diagnosis.exit_code))
