"""Keep secrets and terminal control out of everything mpscheck prints: one masking pass (credentials,
by value and by shape, wherever they are) and one sanitising pass (control sequences), for every byte
that leaves mpscheck.

Environment variables are shown only from the allowlist below, which the probe inside the target
applies (probes/agent/allowlist.py receives it as ENV_POLICY); masking is the second line of
defence, for any text that came from the target, a paste or the caller: the values of
credential-named variables (inside a path, PYTHONPATH, torch's error text), the userinfo of any URL
(``https://user:pass@host``, even with ``/`` or ``@`` in the password), an anaconda.org ``/t/<token>/``
channel, ``name=value`` pairs and query parameters whose name says secret, Authorization headers,
PEM private keys, and the shapes of common tokens (Hugging Face, GitHub, GitLab, OpenAI, AWS,
Google, Stripe, Slack and its webhooks, JWTs). Sanitising removes what a terminal would act on
rather than print: escape sequences (colours, window titles, hyperlinks, resets), other C0 and C1
controls, and bidirectional overrides. ``scrub`` does both; ``redact_report`` applies it to a whole
report, once, before any renderer runs. Every pattern here is linear-time on any text.
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
ENV_SECRET_MARKERS = (
    "TOKEN",
    "SECRET",
    "KEY",
    "PASSWORD",
    "PASSWD",
    "PASS",
    "CREDENTIAL",
    "AUTH",
    "COOKIE",
    "PRIVATE",
    "SESSION",
)
ENV_POLICY = {"prefixes": ENV_ALLOWED_PREFIXES, "names": ENV_ALLOWED_NAMES, "secret_markers": ENV_SECRET_MARKERS}

MASK = "***"
_MIN_SECRET_LENGTH = 6  # shorter values ("1", "yes") would mask ordinary words
# userinfo: up to the last @ of the URL's first word, so a password holding "/" or "@" is masked whole
_URL_USERINFO = re.compile(r"(?<=://)[^\s/@:]{0,256}:[^\s]{0,256}@|(?<=://)[^\s/?#@:]{1,256}@")
_TOKEN_SHAPES = re.compile(
    r"(?<![A-Za-z0-9_])(?:"
    r"hf_[A-Za-z0-9]{20,}"  # Hugging Face
    r"|gh[pousr]_[A-Za-z0-9]{20,}"  # GitHub classic, OAuth, app and refresh tokens
    r"|github_pat_[A-Za-z0-9_]{20,}"  # GitHub fine-grained tokens
    r"|glpat-[A-Za-z0-9_-]{20,}"  # GitLab personal access tokens
    r"|sk-(?=[A-Za-z0-9_-]*[0-9])[A-Za-z0-9_-]{20,}"  # OpenAI-style API keys
    r"|(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{10,}"  # Stripe
    r"|AIza[0-9A-Za-z_-]{30,}"  # Google API keys
    r"|xox[abposr]-[A-Za-z0-9-]{10,}"  # Slack bot, user and app tokens
    r"|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*"  # JWTs (a JSON header, base64url)
    r"|(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])"  # AWS access key ids
    r")"
)
_SLACK_WEBHOOK = re.compile(r"(?<=hooks\.slack\.com/)(?:services|workflows|triggers)/[A-Za-z0-9/_-]+")
_CONDA_TOKEN = re.compile(r"(?<=/t/)[^/\s]{6,}(?=/)")  # https://conda.anaconda.org/t/<token>/channel
_AUTHORIZATION = re.compile(r"(?i)(?<![A-Za-z0-9_])(bearer|basic|token)(\s+)[A-Za-z0-9._~+/-]{8,}=*")
_SECRET_NAME = r"[A-Za-z0-9_.-]{0,64}(?:pass(?:word|wd)?|secret|token|[_.-]key|apikey|auth|credentials?|cookie)"
# name=value, name: value, "name": "value", ?name=value: the value, whose name says it is a secret
_NAMED_SECRET = re.compile(
    rf"(?i)(?<![A-Za-z0-9_.-])({_SECRET_NAME})(\"?\s{{0,4}}[=:]\s{{0,4}}[\"']?)(?![\s*\"'])([^\s\"'&,;)]+)"
)
_PRIVATE_KEY = re.compile(r"(-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----)[A-Za-z0-9+/=\s]*(-----END)?")
_CONTROL = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]?"  # CSI: colours, cursor moves, erasing
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC: window title, hyperlinks
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\)?"  # DCS, SOS, PM, APC strings
    r"|\x1b.?"  # any other escape (ESC c resets the terminal)
    r"|[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]"  # C0/C1 controls but tab and newline; bidi
)
_T = TypeVar("_T")


def secret_values(environ: Mapping[str, str]) -> list[str]:
    names = (n for n in environ if any(marker in n.upper() for marker in ENV_SECRET_MARKERS))
    values = {environ[n] for n in names if len(environ[n]) >= _MIN_SECRET_LENGTH}
    return sorted(values, key=len, reverse=True)


def mask(text: str, secrets: list[str]) -> str:
    """*text* with every known secret value and every credential shape replaced by ***."""
    for value in secrets:
        text = text.replace(value, MASK)
    text = _PRIVATE_KEY.sub(lambda m: f"{m[1]}{MASK}{m[2] or ''}", text)
    text = _URL_USERINFO.sub(MASK + "@", text)
    text = _CONDA_TOKEN.sub(MASK, text)
    text = _SLACK_WEBHOOK.sub(MASK, text)
    text = _AUTHORIZATION.sub(lambda m: f"{m[1]}{m[2]}{MASK}", text)
    text = _TOKEN_SHAPES.sub(MASK, text)
    return _NAMED_SECRET.sub(lambda m: f"{m[1]}{m[2]}{MASK}", text)


def sanitise(text: str) -> str:
    """*text* without what a terminal would act on: escape sequences, C0/C1 controls (tab and newline
    stay; a carriage return, which would let a line overwrite another, becomes a newline), bidirectional overrides."""
    return _CONTROL.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))


def redact(text: str, environ: Mapping[str, str]) -> str:
    return mask(text, secret_values(environ))


def scrub(text: str, environ: Mapping[str, str]) -> str:
    """The one step every byte passes before it leaves mpscheck: secrets masked, control removed."""
    return sanitise(redact(text, environ))


def redact_report(report: _T, environ: Mapping[str, str]) -> _T:
    """A copy of *report* (any dataclass tree) with every string masked and sanitised: one place for all formats."""
    secrets = secret_values(environ)
    result: _T = _map_strings(report, lambda text: sanitise(mask(text, secrets)))
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
