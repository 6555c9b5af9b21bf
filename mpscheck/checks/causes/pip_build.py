"""pip failing to build a package from its source, with no row that knows the package: an install failure, not an
error of torch's MPS backend (round 40: Langchain-Chatchat#3771, where only the title names xformers).

Read as an unrecognised MPS error it gave "upgrade torch", which a failed build of another package never needs. The
paste shows pip's own words ("error: subprocess-exited-with-error", "Getting requirements to build wheel did not run
successfully", "Failed building wheel for X"); which package failed and why is in its build output, so the answer
says so, claims no MPS bug and names the package when pip does. A CUDA-only package (xformers, flash-attn) has a row
of its own (knowledge/cuda_only_rows.py) that outranks this.
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
