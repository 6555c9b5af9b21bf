"""The process around the CLI: what must hold before click loads and after the command returns.

The console script imports this module first; its first act is a SIGINT handler, so that a
Ctrl-C in the first milliseconds (while click, rich and the probes load) ends with one line and
exit 130, not a traceback. Before it run only the package's ``__init__`` (which imports nothing)
and the lines above the handler, which load nothing new (os and sys are Python's own, already
loaded): well under a millisecond. Out of reach: Python's own start-up before any mpscheck line
(site, the ``.pth`` files, the console script's ``import re``).

mpscheck's standard streams are guarded (render/output_stream.py): a closed stdout,
/dev/full, a broken pipe or an ASCII-only encoding ends in a clear error and exit 2, never exit 3.
"""

from __future__ import annotations

import os  # loaded by Python's start-up already: no time, and the handler below needs it
import sys

INTERRUPTED = b"mpscheck: interrupted\n"


def _interrupted_while_loading(_signum: int, _frame: object) -> None:
    _say(INTERRUPTED)
    os._exit(130)  # nothing has started yet that needs cleaning up


def _say(message: bytes) -> None:
    try:
        os.write(2, message)
    except OSError:
        return


# At import, not in main(): this module is the console script's, and the sooner the better (the
# console script imports it, then calls main(); a Ctrl-C in between would print a traceback).
# Through _signal, the C module Python loads before any code runs: `import signal` would first
# build signal.py's enums (0.5 ms, several under load), a window of its own.
_handlers = sys.modules.get("_signal") or __import__("signal")
_handlers.signal(_handlers.SIGINT, _interrupted_while_loading)

import signal  # noqa: E402 - after the handler: every line before it is a window for a traceback


def main() -> None:
    signal.signal(signal.SIGINT, _interrupted_while_loading)
    import click

    from mpscheck.cli import cli
    from mpscheck.render.output_stream import StreamError, flush_streams, guard_streams

    guard_streams()
    signal.signal(signal.SIGINT, signal.default_int_handler)  # from here the CLI's own handling
    try:
        try:
            try:
                code = cli.main(prog_name="mpscheck", standalone_mode=False)
            except SystemExit as exc:  # the commands' own exit with the verdict, or a signal's 128 + n
                code = _exit_code(exc)
            finally:
                flush_streams()
        except click.exceptions.Abort:  # click's word for a KeyboardInterrupt outside a command
            _say(INTERRUPTED)
            code = 130
        except click.ClickException as exc:  # usage errors, and StreamError: a stream that cannot be written
            code = exc.exit_code
            exc.show()
            flush_streams()
    except StreamError as exc:  # stderr cannot take the message either: say it where it can go, if anywhere
        _say(f"mpscheck: {exc.format_message()}\n".encode(errors="backslashreplace"))
        code = exc.exit_code
    except KeyboardInterrupt:  # during the final flush or the message
        _say(INTERRUPTED)
        code = 130
    _leave(code if isinstance(code, int) else 0)


def _exit_code(exc: SystemExit) -> int:
    """The status Python itself would exit with for *exc*: a message goes to stderr, with 1."""
    if exc.code is None or isinstance(exc.code, int):
        return exc.code or 0
    print(exc.code, file=sys.stderr)
    return 1


def _leave(code: int) -> None:
    """Exit without the interpreter's teardown (20 ms of a 0.2 s doctor here, more where imports are
    slow): every file is closed, every temporary folder removed and every probe's process ended by
    now, all threads are daemons, and the two streams are flushed here first. A stream that cannot
    be flushed leaves through Python's own exit, which reports it as before."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:  # whatever it is, Python's own exit handles it as it always did
        sys.exit(code)
    os._exit(code)
