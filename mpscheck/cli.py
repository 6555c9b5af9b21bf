"""The command line: the group and its commands (mpscheck/commands/, one module each). Click only; no
decisions here.

Exit codes: 0 ready, 1 problems, 2 usage error, 3 mpscheck itself failed. Heavy modules (rich,
the probes, the checks) are imported inside the commands so that `mpscheck --help` stays fast.
"""

from __future__ import annotations

import click

from mpscheck import __version__
from mpscheck.commands.bench import bench
from mpscheck.commands.doctor import doctor, smoke_test
from mpscheck.commands.explain import explain
from mpscheck.commands.ops import ops_command, run_command_cli
from mpscheck.commands.options import GuardedGroup


@click.group(cls=GuardedGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="mpscheck")
def cli() -> None:
    """Can PyTorch use the GPU of this Mac (MPS)? If not: why, and what to type to fix it."""


for _command in (doctor, smoke_test, explain, bench, ops_command, run_command_cli):
    cli.add_command(_command)


def main() -> None:
    cli(prog_name="mpscheck")
