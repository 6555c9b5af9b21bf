"""Gather all facts for one run: the host probe runs while the target interpreter imports torch.

The doctor's wall time should approach `import torch` alone, so nothing here waits on anything
it does not need to.
"""

from __future__ import annotations

import datetime
import os
import threading
from typing import Mapping

from mpscheck import __version__
from mpscheck.facts import Facts, HostFacts
from mpscheck.probes.host import probe_host
from mpscheck.probes.target import TargetChoice, probe_target


def collect_facts(
    choice: TargetChoice,
    *,
    workload: str,
    device: str,
    timeout: float,
    environ: Mapping[str, str] | None = None,
) -> Facts:
    host: list[HostFacts] = []
    errors: list[BaseException] = []

    def read_host() -> None:
        try:
            host.append(probe_host())
            # Import what judges and prints the facts now, while the target is still importing torch.
            import mpscheck.diagnose
            import mpscheck.render.json_report  # noqa: F401
        except Exception as exc:  # a host fact we cannot read must not cost the whole report
            errors.append(exc)

    worker = threading.Thread(target=read_host, name="mpscheck-host-probe", daemon=True)
    worker.start()
    target = probe_target(
        choice.path,
        workload=workload,
        device=device,
        timeout=timeout,
        environ=os.environ if environ is None else environ,
    )
    worker.join(timeout=30)
    target.requested = choice.path
    target.chosen_because = choice.why
    host_facts = host[0] if host else HostFacts(errors={"host": f"host probe failed: {errors or 'timed out'}"})
    return Facts(
        mpscheck_version=__version__,
        collected_at=datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        host=host_facts,
        target=target,
    )
