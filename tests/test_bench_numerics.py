"""bench's answer check (probes/agent/bench_numerics.py): the relative error over a model's many tensors,
on this CPU for real, against the same norm written out plainly in float64."""

from __future__ import annotations

import math

import pytest

torch = pytest.importorskip("torch")


def load_bench():
    from mpscheck.probes.agent import bench_numerics

    return bench_numerics


def plain_error(pairs) -> float:
    """sqrt(sum (got - want)^2 / sum want^2) over every element, in Python floats of float64 values."""
    off = norm = 0.0
    for got, want in pairs:
        if got is None or want is None:
            continue
        for g, w in zip(got.double().reshape(-1).tolist(), want.double().reshape(-1).tolist()):
            off += (g - w) ** 2
            norm += w**2
    return math.sqrt(off / norm) if norm > 0 else math.sqrt(off)


def tensors(seed: int, shapes) -> list:
    gen = torch.Generator().manual_seed(seed)
    return [torch.randn(shape, generator=gen) for shape in shapes]


SHAPES = [(3, 4), (5,), (2, 3, 2), (1,)]


def test_error_over_many_tensors_matches_the_plain_float64_norm() -> None:
    bench = load_bench()
    want = tensors(1, SHAPES)
    got = [w + 1e-3 * n for w, n in zip(want, tensors(2, SHAPES))]
    pairs = list(zip(got, want))
    assert bench._vector_error(torch, pairs) == pytest.approx(plain_error(pairs), rel=1e-9)
    assert bench._vector_error(torch, list(zip(want, want))) == 0.0


def test_a_missing_gradient_on_either_side_is_left_out_not_counted_as_zero() -> None:
    bench = load_bench()
    want = tensors(3, SHAPES)
    got = [w * 1.01 for w in want]
    pairs = [(got[0], want[0]), (None, want[1]), (got[2], None), (got[3], want[3])]
    expected = plain_error([(got[0], want[0]), (got[3], want[3])])
    assert bench._vector_error(torch, pairs) == pytest.approx(expected, rel=1e-9)
    assert bench._vector_error(torch, [(None, want[0])]) == 0.0


def test_a_non_finite_answer_anywhere_is_an_infinite_error() -> None:
    bench = load_bench()
    want = tensors(4, SHAPES)
    for poison in (float("nan"), float("inf")):
        got = [w.clone() for w in want]
        got[2][1, 2, 0] = poison
        assert bench._vector_error(torch, list(zip(got, want))) == math.inf


def test_mixed_precision_sides_compare_in_float64_and_a_zero_reference_gives_the_absolute_error() -> None:
    bench = load_bench()
    want = tensors(5, SHAPES)
    got = [w.to(torch.float16) for w in want]
    pairs = list(zip(got, want))
    assert bench._vector_error(torch, pairs) == pytest.approx(plain_error(pairs), rel=1e-6)
    zeros = [torch.zeros(shape) for shape in SHAPES]
    ones = [torch.ones(shape) for shape in SHAPES]
    assert bench._vector_error(torch, list(zip(ones, zeros))) == pytest.approx(math.sqrt(12 + 5 + 12 + 1))
