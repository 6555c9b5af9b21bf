"""The doctor's checks on a paste's facts: which findings to keep (only where the paste shows the
check's inputs), and the cause ids that failing checks and a pasted report's failing rows stand for.
"""

from __future__ import annotations

from mpscheck.model import Finding, Status
from mpscheck.probes.paste.model import Paste

# ---- the doctor's checks on the paste's facts ----------------------------------------------------------

# A check's finding is kept only when the paste shows the facts it judges (others would judge unknowns).
CHECK_INPUTS: dict[str, tuple[str, ...]] = {
    "platform": ("host.system",),
    "chip": ("host.cpu_brand",),
    "virtual-machine": ("host.hypervisor",),
    "python-arch": ("interpreter.machine",),
    "python-macos-compat": ("interpreter.mac_ver", "host.macos_version"),
    "macos-version": ("host.macos_version",),
    "mps-built": ("torch.mps_built",),
    "mps-available": ("torch.mps_available",),
    "mps-fallback-env": ("interpreter.env.PYTORCH_ENABLE_MPS_FALLBACK",),
    "mps-watermark-env": ("interpreter.env.PYTORCH_MPS_HIGH_WATERMARK_RATIO",),
    "error-text": ("error",),
}


# A failing check whose cause has an id of its own; any other failing check is "doctor-check-failed".
FINDING_CAUSES = {"mps-watermark-env": "watermark-invalid"}
# A failing check row of a pasted mpscheck report, and the cause id it stands for.
DOCTOR_CAUSES = {
    "platform": "not-macos",
    "chip": "intel-mac",
    "virtual-machine": "virtual-machine",
    "python-arch": "rosetta-python",
    "macos-version": "macos-too-old",
    "mps-built": "torch-not-built-with-mps",
    "mps-available": "no-metal-device",
    "mps-watermark-env": "watermark-invalid",
}


def relevant_findings(paste: Paste) -> list[Finding]:
    """The doctor's findings on the paste's facts, for the checks whose inputs the paste shows."""
    from mpscheck.checks.diagnose import diagnose

    report = diagnose(paste.facts)
    shown = {o.fact for o in paste.observations}
    keep = []
    for finding in report.findings:
        needs = CHECK_INPUTS.get(finding.id)
        if needs and all(n in shown for n in needs) and finding.status is not Status.SKIP:
            keep.append(finding)
    return keep
