"""Keep secrets out of everything mpscheck prints: values of credential-like variables are masked.

Environment variables are shown only from an allowlist (see probes/in_target.py); this is the
second line of defence for free text that comes back from the target (stderr, error messages).
"""

from __future__ import annotations

from typing import Mapping

from mpscheck.probes.in_target import ENV_SECRET_MARKERS

MASK = "***"
_MIN_SECRET_LENGTH = 6  # shorter values ("1", "yes") would mask ordinary words


def secret_values(environ: Mapping[str, str]) -> list[str]:
    names = (n for n in environ if any(marker in n.upper() for marker in ENV_SECRET_MARKERS))
    values = {environ[n] for n in names if len(environ[n]) >= _MIN_SECRET_LENGTH}
    return sorted(values, key=len, reverse=True)


def redact(text: str, environ: Mapping[str, str]) -> str:
    for value in secret_values(environ):
        text = text.replace(value, MASK)
    return text
