"""The answer checks' CPU side made ahead in a thread (probes/agent/ahead.py): same answers, bounded, joined."""

from __future__ import annotations

import threading
import time

from tests.test_bench_updates import load


def test_items_come_in_order_and_at_most_two_are_held_at_once() -> None:
    ahead_module = load("ahead")
    made: list[str] = []
    lock = threading.Lock()

    def work(key: str):
        def make() -> str:
            with lock:
                made.append(key)
            return key.upper()

        return make

    ahead = ahead_module.Ahead([(k, work(k)) for k in ("a", "b", "c")], 2)
    deadline = time.monotonic() + 5
    while len(made) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.1)
    assert made == ["a", "b"]  # "c" waits until one is released
    assert ahead.take("a") == "A"
    ahead.release()
    assert ahead.take("b") == "B" and ahead.take("c") == "C"
    ahead.release()
    ahead.release()
    ahead.join()
    assert made == ["a", "b", "c"]


def test_an_exception_is_raised_by_take_and_join_stops_the_rest() -> None:
    ahead_module = load("ahead")
    started: list[str] = []

    def fail() -> None:
        started.append("bad")
        raise RuntimeError("torch's own words")

    def never() -> None:
        started.append("never")

    ahead = ahead_module.Ahead([("bad", fail), ("later", never)], 1)
    try:
        ahead.take("bad")
        raise AssertionError("take() must raise")
    except RuntimeError as exc:
        assert str(exc) == "torch's own words"
    ahead.join()
    assert started == ["bad"] and not ahead._thread.is_alive()


def test_a_model_checked_with_its_cpu_side_made_ahead_gets_the_same_answer(real_torch) -> None:
    """Through the device path ("cpu:0" is not the string "cpu"): identical results either way."""
    import torch

    bench = load("bench")
    plan = bench.PLANS["tiny"]
    ahead = load("ahead").Ahead([("vgg16", lambda: bench.reference_side(torch, "vgg16", plan))])
    with_ahead = bench.numerics(torch, "cpu:0", "vgg16", plan, ahead)
    ahead.join()
    alone = bench.numerics(torch, "cpu:0", "vgg16", plan)
    assert with_ahead["status"] == "ok" and with_ahead == alone
