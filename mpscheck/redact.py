"""Keep secrets out of everything mpscheck prints: values of credential-like variables are masked.

Environment variables are shown only from the allowlist below, which the probe inside the target
applies (probes/agent/allowlist.py receives it as ENV_POLICY); masking is the second line of
defence for free text that comes back from the target (stderr, error messages).
"""

from __future__ import annotations

from typing import Mapping

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


def secret_values(environ: Mapping[str, str]) -> list[str]:
    names = (n for n in environ if any(marker in n.upper() for marker in ENV_SECRET_MARKERS))
    values = {environ[n] for n in names if len(environ[n]) >= _MIN_SECRET_LENGTH}
    return sorted(values, key=len, reverse=True)


def redact(text: str, environ: Mapping[str, str]) -> str:
    for value in secret_values(environ):
        text = text.replace(value, MASK)
    return text
