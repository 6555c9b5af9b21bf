"""Keep secrets out of everything mpscheck prints: credentials are masked by value, wherever they are.

Environment variables are shown only from the allowlist below, which the probe inside the target
applies (probes/agent/allowlist.py receives it as ENV_POLICY); masking is the second line of
defence, for any text that came from the target or the caller: the values of credential-named
variables (inside a path, PYTHONPATH, torch's error text), the userinfo of any URL
(``https://user:pass@host`` in CONDA_CHANNELS, PIP_INDEX_URL, a proxy), and the shapes of common
tokens. ``redact_report`` applies it to a whole report, once, before any renderer runs.
"""

from __future__ import annotations

import dataclasses
import enum
import re
from typing import Any, Callable, Mapping, TypeVar

# Environment variables the report may show. Everything else stays private: tokens and keys live
# in the environment, and reports get pasted into public issues.
ENV_ALLOWED_PREFIXES = ("PYTORCH_", "CONDA_", "TORCH_", "MPS_", "ACCELERATE_", "PL_")
ENV_ALLOWED_NAMES = (
    "VIRTUAL_ENV",
    "PYTHONPATH",
    "PYTHONHOME",
    "SYSTEM_VERSION_COMPAT",
    "ARCHPREFERENCE",
    "TERM_PROGRAM",
    "TERM_PROGRAM_VERSION",
    "__CFBundleIdentifier",
    "HOMEBREW_PREFIX",
    "CUDA_VISIBLE_DEVICES",
    "KMP_DUPLICATE_LIB_OK",
    "OMP_NUM_THREADS",
    "USE_MPS_DEVICE",
    "DISABLE_MPS",
    "CI",
    "GITHUB_ACTIONS",
    "RUNNER_OS",
    "RUNNER_ARCH",
    "RUNNER_ENVIRONMENT",
)
# Even an allowed prefix never shows a name that looks like a credential (CONDA_TOKEN, ...).
ENV_SECRET_MARKERS = ("TOKEN", "SECRET", "KEY", "PASSWORD", "PASSWD", "CREDENTIAL", "AUTH", "COOKIE")
ENV_POLICY = {"prefixes": ENV_ALLOWED_PREFIXES, "names": ENV_ALLOWED_NAMES, "secret_markers": ENV_SECRET_MARKERS}

MASK = "***"
_MIN_SECRET_LENGTH = 6  # shorter values ("1", "yes") would mask ordinary words
_URL_USERINFO = re.compile(r"(?<=://)[^\s/?#@]+@")
_TOKEN_SHAPES = re.compile(
    r"(?<![A-Za-z0-9_])(?:"
    r"hf_[A-Za-z0-9]{20,}"  # Hugging Face
    r"|gh[pousr]_[A-Za-z0-9]{20,}"  # GitHub classic, OAuth, app and refresh tokens
    r"|github_pat_[A-Za-z0-9_]{20,}"  # GitHub fine-grained tokens
    r"|sk-(?=[A-Za-z0-9_-]*[0-9])[A-Za-z0-9_-]{20,}"  # OpenAI-style API keys
    r"|(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])"  # AWS access key ids
    r")"
)
_T = TypeVar("_T")


def secret_values(environ: Mapping[str, str]) -> list[str]:
    names = (n for n in environ if any(marker in n.upper() for marker in ENV_SECRET_MARKERS))
    values = {environ[n] for n in names if len(environ[n]) >= _MIN_SECRET_LENGTH}
    return sorted(values, key=len, reverse=True)


def mask(text: str, secrets: list[str]) -> str:
    """*text* with every known secret value, URL userinfo and token-shaped word replaced by ***."""
    for value in secrets:
        text = text.replace(value, MASK)
    text = _URL_USERINFO.sub(MASK + "@", text)
    return _TOKEN_SHAPES.sub(MASK, text)


def redact(text: str, environ: Mapping[str, str]) -> str:
    return mask(text, secret_values(environ))


def redact_report(report: _T, environ: Mapping[str, str]) -> _T:
    """A copy of *report* (any dataclass tree) with every string masked: one place for all formats."""
    secrets = secret_values(environ)
    result: _T = _map_strings(report, lambda text: mask(text, secrets))
    return result


def _map_strings(value: Any, change: Callable[[str], str]) -> Any:
    if isinstance(value, enum.Enum):  # Status and Requirement are str enums: keep them as they are
        return value
    if isinstance(value, str):
        return change(value)
    if isinstance(value, list):
        return [_map_strings(item, change) for item in value]
    if isinstance(value, tuple):
        return tuple(_map_strings(item, change) for item in value)
    if isinstance(value, dict):
        return {_map_strings(k, change): _map_strings(v, change) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {f.name: _map_strings(getattr(value, f.name), change) for f in dataclasses.fields(value) if f.init}
        return dataclasses.replace(value, **changes)
    return value
