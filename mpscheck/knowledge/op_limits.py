"""Known in-kernel limits of MPS that the op coverage table cannot show: an op has a kernel, but not
for this dtype, or not on this macOS. A small hand-written table; every row cites its source.

Releases are torch versions as tuples; ``torch_below`` is exclusive. ``macos_below`` None means the
dtype never works on MPS (status dtype-unsupported); a version means it works from that macOS on
(status macos-gated). ``ops`` None means every op; otherwise base names (``aten::cumsum`` also
matches ``aten::cumsum_`` and ``aten::cumsum.out``).
"""

from __future__ import annotations

from dataclasses import dataclass

Version = tuple[int, ...]


@dataclass(frozen=True)
class OpLimit:
    id: str
    dtypes: frozenset[str] | None  # None: any dtype
    ops: frozenset[str] | None
    torch_from: Version | None
    torch_below: Version | None
    macos_below: Version | None
    what: str
    fix: str
    source: str


_FFT_OPS = frozenset({"aten::_fft_r2c", "aten::_fft_c2r", "aten::_fft_c2c"})

OP_LIMITS: tuple[OpLimit, ...] = (
    OpLimit(
        "float64",
        frozenset({"float64"}),
        None,
        None,
        None,
        None,
        "MPS has no float64: creating or converting a float64 tensor on MPS raises TypeError",
        "cast to float32 before moving to mps (tensor.float(), or dtype=torch.float32)",
        "aten/src/ATen/EmptyTensor.cpp and aten/src/ATen/native/mps/OperationUtils.mm (getMPSDataType): "
        "'Cannot convert a MPS Tensor to float64 dtype as the MPS framework doesn't support float64. "
        "Please use float32 instead.' (the team notes mps-facts.md, section 4)",
    ),
    OpLimit(
        "complex128",
        frozenset({"complex128"}),
        None,
        None,
        None,
        None,
        "MPS has no complex128 (ComplexDouble)",
        "cast to complex64 before moving to mps (tensor.to(torch.complex64))",
        "aten/src/ATen/native/mps/OperationUtils.mm: 'Trying to convert ComplexDouble to the MPS backend but it "
        "does not have support for that dtype.' (the team notes mps-facts.md, section 4)",
    ),
    OpLimit(
        "bfloat16-before-2.3",
        frozenset({"bfloat16"}),
        None,
        None,
        (2, 3),
        None,
        "bfloat16 on MPS arrived in torch 2.3",
        "upgrade to torch>=2.3 (with macOS 14), or cast to float16/float32",
        "PR pytorch/pytorch#119641 '[MPS] Enable bfloat16 support on MacOS 14'; issue pytorch/pytorch#104191",
    ),
    OpLimit(
        "bfloat16-macos14",
        frozenset({"bfloat16"}),
        None,
        (2, 3),
        (2, 9),
        (14, 0),
        "bfloat16 on MPS needs macOS 14 in torch 2.3-2.8",
        "upgrade macOS to 14 or newer, or cast to float16/float32 on older macOS",
        "PR pytorch/pytorch#119641; text 'MPS bfloat16 type is supported on MacOS 14.0 or newer.' in the 2.3-2.8 "
        "macOS wheels (the team notes mps-facts.md, sections 0 and 2.2)",
    ),
    OpLimit(
        "complex-macos14",
        frozenset({"complex64", "complex32"}),
        None,
        (2, 3),
        (2, 9),
        (14, 0),
        "complex dtypes on MPS need macOS 14 in torch 2.3-2.8",
        "upgrade macOS to 14 or newer",
        "PR pytorch/pytorch#115512 (macOS 14 check for complex types); text 'MPS complex types are only supported "
        "on MacOS 14.0 or newer.' (the team notes mps-facts.md, sections 0 and 2.2)",
    ),
    OpLimit(
        "cumsum-macos13",
        None,
        frozenset({"aten::cumsum"}),
        None,
        (2, 9),
        (13, 0),
        "cumsum runs on the CPU before macOS 13 (the MPSGraph cumulative sum is a macOS 13 API)",
        "upgrade macOS to 13.3 or newer",
        "PR pytorch/pytorch#88319 '[MPS] Add native cumsum implementation' ('Fall back to CPU if running on older "
        "MacOS versions')",
    ),
    OpLimit(
        "cumsum-int64-macos13.3",
        frozenset({"int64"}),
        frozenset({"aten::cumsum"}),
        (2, 0),
        (2, 9),
        (13, 3),
        "int64 cumsum on MPS raises before macOS 13.3: 'MPS does not support cumsum op with int64 input. "
        "Support has been added in macOS 13.3'",
        "upgrade macOS to 13.3 or newer, or cumsum in int32",
        "issue pytorch/pytorch#96610 (2023-03, torch 2.0); issue pytorch/pytorch#141786 (2024-11); "
        "kulinseth/pytorch#221",
    ),
    OpLimit(
        "fft-macos14",
        None,
        _FFT_OPS,
        (2, 3),
        (2, 9),
        (14, 0),
        "FFT on MPS uses macOS 14 MPSGraph APIs",
        "upgrade macOS to 14 or newer",
        "PR pytorch/pytorch#119670 (FFT on MPS, 2.3); the team notes mps-facts.md, section 2.2",
    ),
)


def _base(name: str) -> str:
    return name.split(".", 1)[0].rstrip("_")


def _within(version: Version, start: Version | None, below: Version | None) -> bool:
    width = max(len(version), len(start or ()), len(below or ()))

    def pad(v: Version) -> Version:
        return v + (0,) * (width - len(v))

    if start is not None and pad(version) < pad(start):
        return False
    return not (below is not None and pad(version) >= pad(below))


def limits_for(
    name: str,
    dtypes: tuple[str, ...] | frozenset[str],
    torch: Version,
    extra: tuple[OpLimit, ...] | None = None,
) -> list[OpLimit]:
    """The limits that apply to this op with these dtypes in this torch release (any macOS).

    *extra*: rows from the message table (knowledge/dtype_limits.py ``as_limits``; its default rows
    when None), so a generated table of torch's messages feeds the same lookup.
    """
    if extra is None:
        from mpscheck.knowledge.dtype_limits import as_limits

        extra = as_limits()
    found = []
    for limit in OP_LIMITS + extra:
        if limit.ops is not None and _base(name) not in limit.ops:
            continue
        if limit.dtypes is not None and not (set(dtypes) & limit.dtypes):
            continue
        if _within(torch, limit.torch_from, limit.torch_below):
            found.append(limit)
    return found


def dtype_macos_floors() -> dict[str, Version]:
    """dtype -> the macOS below which MPS refuses it in some release (bfloat16, complex: 14.0), read from
    OP_LIMITS above (cited there): the one home of "bfloat16 needs macOS 14" for every rule."""
    floors: dict[str, Version] = {}
    for limit in OP_LIMITS:
        if limit.ops is None and limit.dtypes and limit.macos_below:
            for dtype in limit.dtypes:
                floors[dtype] = limit.macos_below
    return floors


def dtype_macos_floor(dtype: str) -> Version | None:
    return dtype_macos_floors().get(dtype)
