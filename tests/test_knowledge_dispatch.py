"""The op coverage table against the dispatch table torch itself reports (real torch, CPU build).

torch._C._dispatch_dump(op) lists the kernels registered per dispatch key, alias keys included
("CompositeImplicitAutograd[alias]: registered at ..."). Linux builds register no MPS kernels, but the
composite ones are the same on every platform, so the table's composite kinds for the installed
release must agree with them.
"""

from __future__ import annotations

import pytest

from mpscheck.knowledge import ops

pytestmark = pytest.mark.usefixtures("real_torch")


def installed_release() -> str:
    import torch

    release = torch.__version__.split("+", 1)[0]
    if release not in ops.known_releases():
        pytest.skip(f"torch {torch.__version__} is not a release in the table")
    return release


def registrations(name: str) -> set[str] | None:
    """The dispatch keys with a kernel for this op in the installed torch; None if torch lacks the op."""
    import torch

    try:
        dump = torch._C._dispatch_dump(name)
    except RuntimeError:
        return None
    if not dump.strip():
        return None  # not registered at all: e.g. most autogen out= variants of a composite-implicit op
    keys = set()
    for line in dump.splitlines():
        head = line.split(":", 1)[0]
        if " registered at " in line and " " not in head and head != "debug":
            keys.add(head.replace("[alias]", ""))
    return keys


def test_composite_implicit_ops_agree_with_torchs_dispatch_table() -> None:
    release = installed_release()
    names = sorted(n for n in ops.table()["ops"] if ops.op_kind(n, release) not in (None, "absent"))
    sample = names[:: max(1, len(names) // 400)]
    assert len(sample) >= 50
    checked = 0
    for name in sample:
        keys = registrations(name)
        if keys is None:
            continue  # an op torch does not register (13 autogen variants of composite-implicit ops in 2.13.0)
        checked += 1
        kind = ops.op_kind(name, release)
        if kind == "composite-implicit":
            assert "CompositeImplicitAutograd" in keys, (name, sorted(keys))
        elif "CompositeImplicitAutograd" in keys:
            assert kind == "mps", (name, kind)  # an MPS kernel beside a composite one wins on MPS
        if kind == "composite-explicit":
            assert keys & {"CompositeExplicitAutograd", "CompositeExplicitAutogradNonFunctional"}, (name, sorted(keys))
    assert checked >= 50


def test_a_known_mps_op_and_its_cpu_kernel() -> None:
    release = installed_release()
    assert ops.op_kind("aten::add.out", release) == "mps"
    keys = registrations("aten::add.out")
    assert keys is not None and "CPU" in keys and "MPS" not in keys  # Linux: no MPS kernel compiled in
