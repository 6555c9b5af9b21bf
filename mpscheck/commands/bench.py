"""mpscheck bench: measure in the target interpreter, judge every figure against the CPU, print."""

from __future__ import annotations

import click

from mpscheck.commands.options import (
    check_output,
    device_option,
    finish,
    positive,
    probe,
)


@click.command()
@device_option("measure")
@click.option("--quick", is_flag=True, help="Smaller batches and fewer samples (about 15 s on an H100).")
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
    callback=positive,
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
    check_output(output)
    from mpscheck.pipeline import bench_report

    mode = "tiny" if tiny else "quick" if quick else "full"
    report = probe(lambda: bench_report(python, device=device, mode=mode, timeout=timeout))
    finish(report, fmt, output, verbose)


# ---- mpscheck ops / mpscheck run (issue 11) ------------------------------------------------------
