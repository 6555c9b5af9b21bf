"""Gather all facts for one run: the host probes run while the target interpreter imports torch.

The doctor's wall time should approach `import torch` alone, so nothing here waits on anything it
does not need: the slow GPU read (system_profiler) gets a short grace once the target is done, and
is not waited for at all when torch already reported the GPU's core count.
"""

from __future__ import annotations

import datetime
import os
import platform
import threading
from typing import TYPE_CHECKING, Callable, Mapping, TypeVar

from mpscheck import __version__
from mpscheck.probes.host import add_gpu, probe_host, read_gpu, read_toolchain
from mpscheck.probes.target import TargetChoice, probe_target

if TYPE_CHECKING:  # the facts' classes (7 ms of dataclasses here) load once the target has started
    from mpscheck.facts import Facts, HostFacts

GPU_GRACE_SECONDS = 2.0
# The host and toolchain threads begin once the target has started: their work (psutil's import,
# starting clang and cmake) would otherwise share the GIL with the main thread while it prepares the
# target's start, delaying the one process whose time is the doctor's time (0.1 s on the H100
# machine). The warm imports wait for it too: begun at once, they took half the GIL from the main
# thread while it prepared the start; begun at the start, they run while the target does, which
# takes longer than they do whenever the target can import torch.
TARGET_START_WAIT_SECONDS = 2.0
# clang and cmake versions are for bug reports only (collect_env lists them): once the target has
# answered they get no more than this, so a quick target (no torch) is not kept waiting for them.
TOOLCHAIN_GRACE_SECONDS = 0.05
_T = TypeVar("_T")


class _Background(threading.Thread):
    """Runs a probe in a thread and keeps its result or its exception."""

    def __init__(self, name: str, work: Callable[[], _T]) -> None:
        super().__init__(name=name, daemon=True)
        self._work = work
        self.result: object = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.result = self._work()
        except Exception as exc:  # a host fact we cannot read must not cost the whole report
            self.error = exc


def _after(started: threading.Event, work: Callable[[], _T]) -> Callable[[], _T]:
    """*work*, once the target has started (or after TARGET_START_WAIT_SECONDS, whichever is first)."""

    def waiting() -> _T:
        started.wait(TARGET_START_WAIT_SECONDS)
        return work()

    return waiting


def _host_facts() -> HostFacts:
    return probe_host(gpu=False, toolchain=False)


def _warm_imports() -> None:
    """Import what judges and prints the facts now, while the target is still importing torch.

    Nobody waits for this: when the target is quicker (no torch), the main thread imports what it
    needs itself, and Python's import lock hands it a module this thread is halfway through.
    """
    import mpscheck.checks.diagnose
    import mpscheck.knowledge.releases  # the policy's note on a torch newer than the table reads it
    import mpscheck.render.json_report  # noqa: F401


def collect_facts(
    choice: TargetChoice,
    *,
    workload: str,
    device: str,
    timeout: float,
    environ: Mapping[str, str] | None = None,
) -> Facts:
    started = threading.Event()
    host_worker = _Background("mpscheck-host-probe", _after(started, _host_facts))
    gpu_worker = _Background("mpscheck-gpu-probe", _after(started, read_gpu)) if platform.system() == "Darwin" else None
    warm_worker = _Background("mpscheck-warm-imports", _after(started, _warm_imports))  # nobody waits for it
    tool_worker = _Background("mpscheck-toolchain", _after(started, read_toolchain))
    for worker in (host_worker, gpu_worker, warm_worker, tool_worker):
        if worker:
            worker.start()
    try:
        target = probe_target(
            choice.path,
            workload=workload,
            device=device,
            timeout=timeout,
            environ=os.environ if environ is None else environ,
            on_start=started.set,
        )
    finally:
        started.set()
    from mpscheck.facts import Facts, HostFacts

    host_worker.join(timeout=30)
    host = host_worker.result if isinstance(host_worker.result, HostFacts) else None
    if host is None:
        why = host_worker.error or "timed out"
        host = HostFacts(errors={"host": f"host probe failed: {why}"})
    tool_worker.join(timeout=TOOLCHAIN_GRACE_SECONDS)
    if isinstance(tool_worker.result, HostFacts):
        host.clang_version, host.cmake_version = tool_worker.result.clang_version, tool_worker.result.cmake_version
    else:
        host.errors["toolchain"] = "clang and cmake versions not read: the target answered first"
    if gpu_worker:
        torch_counted = bool(target.torch and target.torch.mps_core_count)
        gpu_worker.join(timeout=0 if torch_counted else GPU_GRACE_SECONDS)
        if isinstance(gpu_worker.result, tuple):
            add_gpu(host, gpu_worker.result)
        else:
            host.errors["gpu_cores"] = "system_profiler did not answer while torch was probed"
    target.requested = choice.path
    target.chosen_because = choice.why
    return Facts(
        mpscheck_version=__version__,
        collected_at=datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        host=host,
        target=target,
    )
