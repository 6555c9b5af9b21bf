"""Entry point for ``python -m mpscheck``.

Its first act, before mpscheck.entry loads, is the same one-line SIGINT handling as the console
script's (entry.py then installs its own): a Ctrl-C while Python finds and loads that module ends
with one line and exit 130, not a traceback through this file. It sets it through ``_signal``, the
C module Python loads before any code runs, as entry.py does: ``import signal`` is a window itself.
"""

if __name__ == "__main__":
    import os
    import sys

    def _interrupted(_signum: int, _frame: object) -> None:
        try:
            os.write(2, b"mpscheck: interrupted\n")
        finally:
            os._exit(130)

    _handlers = sys.modules.get("_signal") or __import__("signal")
    _handlers.signal(_handlers.SIGINT, _interrupted)

    from mpscheck.entry import main

    main()
