"""Gathering: the host probes run beside the target, and the slow GPU read never delays the doctor
by more than its grace (decision logic with doubles; the real probes run in test_target_probe)."""

from __future__ import annotations

import time

import pytest

import mpscheck.probes.gather as gathering
from mpscheck.facts import HostFacts, TargetFacts, TorchFacts
from mpscheck.probes.target import TargetChoice


@pytest.fixture
def on_a_mac(monkeypatch):
    monkeypatch.setattr(gathering.platform, "system", lambda: "Darwin")
    monkeypatch.setattr(gathering, "probe_host", lambda **kwargs: HostFacts(system="Darwin"))
    monkeypatch.setattr(gathering, "read_toolchain", lambda: HostFacts(clang_version="Apple clang version 15.0.0"))

    def target(core_count):
        torch = TorchFacts(installed=True, version="2.9.0", mps_core_count=core_count)
        monkeypatch.setattr(gathering, "probe_target", lambda *a, **k: TargetFacts(torch=torch))

    return target


def gather():
    started = time.perf_counter()
    facts = gathering.collect_facts(TargetChoice("/x/python", "--python"), workload="none", device="gpu", timeout=5)
    return facts, time.perf_counter() - started


def test_gpu_read_that_answers_is_merged(on_a_mac, monkeypatch) -> None:
    on_a_mac(None)
    monkeypatch.setattr(gathering, "read_gpu", lambda: ("Apple M1 Pro", 16, None))
    facts, _ = gather()
    assert (facts.host.gpu_name, facts.host.gpu_cores) == ("Apple M1 Pro", 16)
    assert facts.target.requested == "/x/python" and facts.target.chosen_because == "--python"


def test_slow_gpu_read_costs_at_most_the_grace(on_a_mac, monkeypatch) -> None:
    on_a_mac(None)
    monkeypatch.setattr(gathering, "GPU_GRACE_SECONDS", 0.3)
    monkeypatch.setattr(gathering, "read_gpu", lambda: time.sleep(5) or ("late", 1, None))
    facts, seconds = gather()
    assert seconds < 2
    assert facts.host.gpu_cores is None and "did not answer" in facts.host.errors["gpu_cores"]


def test_no_wait_when_torch_counted_the_cores(on_a_mac, monkeypatch) -> None:
    on_a_mac(40)
    monkeypatch.setattr(gathering, "GPU_GRACE_SECONDS", 3.0)
    monkeypatch.setattr(gathering, "read_gpu", lambda: time.sleep(5) or ("late", 1, None))
    _, seconds = gather()
    assert seconds < 1.5


def test_a_failing_host_probe_becomes_an_error_not_a_crash(monkeypatch) -> None:
    def broken(**kwargs):
        raise OSError("sysctl exploded")

    monkeypatch.setattr(gathering, "probe_host", broken)
    monkeypatch.setattr(gathering, "probe_target", lambda *a, **k: TargetFacts())
    facts, _ = gather()
    assert "host probe failed: sysctl exploded" in facts.host.errors["host"]


def test_the_toolchain_versions_join_the_host_facts(on_a_mac) -> None:
    on_a_mac(8)
    facts, _ = gather()
    assert facts.host.clang_version == "Apple clang version 15.0.0" and "toolchain" not in facts.host.errors


def test_a_quick_target_does_not_wait_for_clang_and_cmake(on_a_mac, monkeypatch) -> None:
    """Their versions are for bug reports only: a target without torch answers in 0.2 s."""

    def slow() -> HostFacts:
        time.sleep(3)
        return HostFacts(clang_version="clang version 18")

    on_a_mac(8)
    monkeypatch.setattr(gathering, "read_toolchain", slow)
    facts, took = gather()
    assert took < 1.5
    assert facts.host.clang_version is None
    assert facts.host.errors["toolchain"] == "clang and cmake versions not read: the target answered first"


def test_the_host_probes_begin_once_the_target_has_started(monkeypatch) -> None:
    """Their imports must not delay the target's start: the one process whose time is the doctor's."""
    order: list[str] = []
    monkeypatch.setattr(gathering, "_host_facts", lambda: order.append("host") or HostFacts())
    monkeypatch.setattr(gathering, "read_toolchain", lambda: order.append("toolchain") or HostFacts())

    def target(*args, on_start, **kwargs):
        time.sleep(0.2)  # a worker that did not wait would run now
        order.append("target started")
        on_start()
        time.sleep(0.2)
        return TargetFacts()

    monkeypatch.setattr(gathering, "probe_target", target)
    gather()
    assert order[0] == "target started" and sorted(order[1:]) == ["host", "toolchain"]


def test_run_command_says_when_the_program_has_started() -> None:
    from mpscheck.probes.process import run_command
    from tests.conftest import PYTHON

    calls: list[str] = []
    done = run_command([PYTHON, "-c", "print('hi')"], timeout=30, on_start=lambda: calls.append("started"))
    assert calls == ["started"] and done.stdout.strip() == "hi"
    failed = run_command(["/nonexistent/python"], timeout=30, on_start=lambda: calls.append("failed to start"))
    assert failed.start_error and calls == ["started", "failed to start"]
