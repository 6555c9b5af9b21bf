"""One line break for every way text arrives: LF, CR LF, CR CR LF (an editor that doubled a Windows line end) and a
lone CR (a progress bar's updates). The input reader cuts and counts lines by it, and the paste readers split by it,
so that both number the same lines."""

from __future__ import annotations

import re

BREAK = re.compile(r"\r\r?\n|\r")  # every line break that is not a lone LF


def one_break(text: str) -> str:
    """*text* with every line break a LF."""
    return BREAK.sub("\n", text) if "\r" in text else text
