"""The agent starts the CUDA driver beside `import torch` where one is installed, and does nothing elsewhere."""

from __future__ import annotations

import ctypes

import pytest

from mpscheck.probes.agent import cuda_driver


class _Driver:
    def __init__(self) -> None:
        self.calls: list[object] = []

    def cuInit(self, flags: int) -> int:
        self.calls.append(flags)
        return 0

    def cuDeviceGet(self, device: object, ordinal: int) -> int:
        self.calls.append(("device", ordinal))
        return 0

    def cuDevicePrimaryCtxRetain(self, context: object, device: object) -> int:
        self.calls.append("retain")
        return 0


def test_cuinit_runs_in_a_thread_where_the_driver_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    driver = _Driver()
    monkeypatch.setattr(cuda_driver.sys, "platform", "linux")
    monkeypatch.setattr(ctypes, "CDLL", lambda name: driver if name == "libcuda.so.1" else None)
    thread = cuda_driver.start_in_background()
    assert thread is not None and thread.daemon
    thread.join(timeout=10)
    assert driver.calls == [0]


def test_nothing_without_a_driver_or_off_linux(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str) -> None:
        raise OSError(f"{name}: cannot open shared object file")

    monkeypatch.setattr(ctypes, "CDLL", missing)
    monkeypatch.setattr(cuda_driver.sys, "platform", "linux")
    assert cuda_driver.start_in_background() is None
    monkeypatch.setattr(cuda_driver.sys, "platform", "darwin")
    assert cuda_driver.start_in_background() is None


def test_for_the_bench_the_thread_also_retains_the_primary_context(monkeypatch: pytest.MonkeyPatch) -> None:
    driver = _Driver()
    monkeypatch.setattr(cuda_driver.sys, "platform", "linux")
    monkeypatch.setattr(ctypes, "CDLL", lambda name: driver if name == "libcuda.so.1" else None)
    thread = cuda_driver.start_in_background(context=True)
    assert thread is not None
    thread.join(timeout=10)
    assert driver.calls == [0, ("device", 0), "retain"]


def test_no_context_is_retained_when_the_driver_does_not_start(monkeypatch: pytest.MonkeyPatch) -> None:
    driver = _Driver()
    driver.cuInit = lambda flags: 100  # type: ignore[method-assign]  # CUDA_ERROR_NO_DEVICE
    monkeypatch.setattr(cuda_driver.sys, "platform", "linux")
    monkeypatch.setattr(ctypes, "CDLL", lambda name: driver if name == "libcuda.so.1" else None)
    thread = cuda_driver.start_in_background(context=True)
    assert thread is not None
    thread.join(timeout=10)
    assert driver.calls == []
