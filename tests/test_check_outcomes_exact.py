"""Check outcomes pinned whole where the mutation run found a returned field nobody compared
(checks/bench.py, errors.py, system.py): the bench summary's chip name and core count from each of
their sources, a step that raised an out-of-memory error read by its numbers (the VM cap and the
other readings, with the device named), and CUDA claimed where the host shows no NVIDIA driver.

Expected values are written out (summaries, fixes, commands) or taken from the generated tables with
plain code; every field of an Outcome or a summary is compared.
"""

from __future__ import annotations

from dataclasses import replace

from mpscheck.checks import REGISTRY, Context
from mpscheck.checks.bench import BenchSummary, bench_summary, summarise
from mpscheck.checks.errors import raised_outcome
from mpscheck.facts import SmokeStep
from mpscheck.knowledge.peaks import match_chip
from mpscheck.model import Remediation, Status
from tests import recorded as rec
from tests.scenarios import CUDA_SMOKE, H100, _linux
from tests.test_bench import H100_NAME, bench_facts, observed
from tests.test_bench_judgements import on_a_mac, on_mps
from tests.test_host_contradiction import CUDA
from tests.test_paste import OOM

VM = (
    "cannot allocate on {device} ('MPS allocated: 0 bytes'): a paravirtual GPU in a macOS VM, such as a hosted CI "
    "runner, where is_available() is True and nothing works"
)
VM_FIX = Remediation(
    "Run MPS work on a physical Mac (a self-hosted runner in CI); in a hosted macOS VM, test on the CPU.",
    ("mpscheck doctor --require none",),
)


# ---- the bench summary: rows, peak, chip and cores -------------------------------------------------------


def test_the_bench_summary_carries_the_benchs_own_chip_name_and_core_count() -> None:
    found = on_a_mac(on_mps("Apple M3 Max", 40), rec.SYSCTL_M3_MAX, None)
    summary = bench_summary(found)
    assert summary == BenchSummary(tuple(summarise(found)), match_chip("Apple M3 Max", 40), "Apple M3 Max", 40)
    assert (summary.chip, summary.cores) == ("Apple M3 Max", 40)
    assert summary.peak is not None and summary.peak.chip == "Apple M3 Max"


def test_the_bench_summary_takes_the_chip_from_torch_then_the_host() -> None:
    by_torch = on_a_mac(on_mps(), {"hw.optional.arm64": "1"}, None, torch_name="Apple M4", torch_cores=10)
    assert (bench_summary(by_torch).chip, bench_summary(by_torch).cores) == ("Apple M4", 10)
    by_host = on_a_mac(on_mps(), rec.SYSCTL_M3_MAX, rec.DISPLAYS_M3_MAX)
    assert (bench_summary(by_host).chip, bench_summary(by_host).cores) == ("Apple M3 Max", 40)
    unknown = on_a_mac(on_mps(), {"hw.optional.arm64": "1"}, None, torch=False)
    assert bench_summary(unknown) == BenchSummary(tuple(summarise(unknown)), None, None, None)


def test_a_cuda_bench_summary_names_the_device_and_no_core_count() -> None:
    bench = observed()  # the CUDA bench's own device name (tests/test_bench.py)
    bench.core_count = 132  # a core count is not read for CUDA chips
    found = bench_facts(bench)
    summary = bench_summary(found)
    assert (summary.chip, summary.cores) == (H100_NAME, None)
    assert summary.peak == match_chip(H100_NAME, None) and summary.peak is not None


# ---- a step that raised an out-of-memory error -----------------------------------------------------------


def raised(error: str) -> SmokeStep:
    return SmokeStep(name="matmul", outcome="raised", error=error, error_type="RuntimeError")


def test_an_oom_under_the_cap_with_nothing_else_allocated_is_the_vm_on_the_device_named() -> None:
    error = OOM.format(a="1.02 GB", o="0 bytes", m="15.87 GB", r="256 bytes")
    outcome = raised_outcome(Context(facts=bench_facts(None)), raised(error), "mps")
    assert outcome.status is Status.FAIL
    assert outcome.summary == (
        "the matmul step "
        + VM.format(device="mps")
        + " (torch was refused 256 bytes although it fits under the cap, with no other allocations (torch holds "
        "1.02 GB, other allocations 0 bytes, cap 15.87 GB, asked for 256 bytes; this Mac has 128.00 GiB))"
    )
    assert outcome.details == (f"RuntimeError: {error}",)
    assert outcome.fix == VM_FIX
    assert outcome.blocked_by is None
    other = raised_outcome(Context(facts=bench_facts(None)), raised(error), "mps:1")
    assert other.summary.startswith("the matmul step " + VM.format(device="mps:1") + " (")


def test_an_oom_with_zero_bytes_allocated_is_the_vm_rows_own_words() -> None:
    error = OOM.format(a="0 bytes", o="0 bytes", m="7.93 GB", r="256 bytes")
    outcome = raised_outcome(Context(facts=bench_facts(None)), raised(error), "mps")
    assert (outcome.status, outcome.summary) == (Status.FAIL, "the matmul step " + VM.format(device="mps"))
    assert (outcome.details, outcome.fix) == ((f"RuntimeError: {error}",), VM_FIX)


# ---- CUDA claimed where the host shows no NVIDIA driver --------------------------------------------------


def test_cuda_claimed_without_a_driver_on_the_host_fails_with_the_command_that_shows_the_driver() -> None:
    facts = _linux(replace(CUDA, cuda_devices=[H100]), CUDA_SMOKE)
    facts.host.nvidia_driver_seen = False
    outcome = REGISTRY["cuda"].run(Context(facts=facts))
    assert outcome.status is Status.FAIL
    assert outcome.summary == (
        "the target reports CUDA 13.0: 1 device: NVIDIA H100 80GB HBM3 (79.6 GiB), but this host shows no NVIDIA "
        "driver (no /proc/driver/nvidia, no nvidia-smi on PATH, no libcuda): the two disagree, so CUDA is not "
        "counted as working"
    )
    assert outcome.fix == Remediation(
        "Check that the driver is loaded here and that --python runs on this machine.", ("nvidia-smi",)
    )
    assert outcome.details == ()
