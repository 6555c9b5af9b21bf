"""The part of the environment a report may show: allowlisted names, never a credential.

The policy itself (prefixes, names, secret markers) is mpscheck's (redact.py) and arrives on the
command line, so it has one home; this only applies it.
"""

from __future__ import annotations


def allowed_env(environ, policy):
    """{name: value} for allowed names; a name that looks like a credential never passes."""
    prefixes = tuple(policy.get("prefixes", ()))
    names = set(policy.get("names", ()))
    markers = tuple(policy.get("secret_markers", ()))
    shown = {}
    for name, value in environ.items():
        if any(marker in name.upper() for marker in markers):
            continue
        if name in names or (prefixes and name.startswith(prefixes)):
            shown[name] = value
    return shown
