"""pip failing to build a package from its source, with no row that knows the package: an install failure, not an
error of torch's MPS backend (round 40: Langchain-Chatchat#3771, where only the title names xformers).

Read as an unrecognised MPS error it gave "upgrade torch", which a failed build of another package never needs. The
paste shows pip's own words ("error: subprocess-exited-with-error", "Getting requirements to build wheel did not run
successfully", "Failed building wheel for X"); which package failed and why is in its build output, so the answer
says so, claims no MPS bug and names the package when pip does. A CUDA-only package (xformers, flash-attn) has a row
of its own (knowledge/cuda_only_rows.py) that outranks this.

The same for a module that is not installed ("ModuleNotFoundError: No module named 'pytorch3d'" after pip installed an
empty placeholder release on an Apple-silicon Mac, facebookresearch/pytorch3d#1348): an install problem of that
package, never torch's MPS backend (torch's own modules, "No module named 'torch.mps'", have rows of their own).
"""

from __future__ import annotations

import re
from typing import Any

from mpscheck.checks.causes.model import Cause, Evidence
from mpscheck.model import Remediation

PIP_BUILD = re.compile(
    r"\berror: subprocess-exited-with-error\b"
    r"|\b(?:Getting requirements to build wheel|python setup\.py (?:egg_info|bdist_wheel)|Preparing metadata "
    r"\((?:setup\.py|pyproject\.toml)\)) did not run successfully\b"
    r"|\b(?:Failed building wheel for|Could not build wheels for|Failed to build) (?P<package>[\w.-]{1,80})"
)


MODULE_MISSING = re.compile(r"\bNo module named '?(?P<module>(?!torch\b)[A-Za-z_][\w.]{0,80}?)'?(?![\w.])")


def module_missing(first: Any, text: str) -> Cause | None:
    """*first* says a module (not torch's) is not installed in this Python: no MPS error claimed. A notebook's header
    line ("ModuleNotFoundError    Traceback ...") has its message further down the paste's *text*."""
    match = MODULE_MISSING.search(str(first.text))
    if match is None and "ModuleNotFoundError" in str(first.text):
        match = MODULE_MISSING.search(text)
    if match is None:
        return None
    module = match["module"]
    return Cause(
        "not-enough-evidence",
        f"the module {module} is not installed in the Python that ran (“{first.value}”): an install problem, not an "
        "error of torch's MPS backend (on a Mac, a package with no macOS arm64 release may not install at all, or "
        "install as an empty placeholder)",
        Remediation(
            f"Install {module}'s package into this very Python (python -m pip install ...), checking that it has a "
            "release for macOS arm64; build it from source where it has none.",
            ("python -m pip show -f " + module.split(".")[0],),
        ),
        (Evidence(first.line, first.text),),
        "",
        variant="module-missing",
    )


def pip_build_failed(first: Any) -> Cause | None:
    """*first* (the paste's first unrecognised error) is pip's failure to build a package: no MPS error claimed."""
    match = PIP_BUILD.search(str(first.text))
    if match is None:
        return None
    package = match["package"] if match["package"] and match["package"] != "installable" else None
    what = f"the package {package}" if package else "a package"
    return Cause(
        "not-enough-evidence",
        f"pip failed to build {what} from its source (“{first.value}”): an install failure, not an error of torch's "
        "MPS backend; the build output above it says why (a package built for CUDA only, such as xformers or "
        "flash-attn, has no macOS build at all)",
        Remediation(
            "Read the build output for the first compiler or setup error; install the project without that package "
            "if it is CUDA-only, or with a release that ships a macOS arm64 wheel.",
            ("mpscheck doctor --format markdown",),
        ),
        (Evidence(first.line, first.text),),
        "",
        variant="pip-build-failed",
    )


def install_failure(first: Any, paste: Any) -> Cause | None:
    """pip's failed build, or a module not installed, read from *first* (and the *paste* it is in)."""
    return pip_build_failed(first) or module_missing(first, str(paste.text))
