"""The predictor's exact outputs, field by field (issue 16 item 7: the mutation run's survivors in
ops/prediction.py): every status branch of ``judge`` with its whole OpPrediction, how rows merge and
sort, the silent-bug rows, the fix texts, ``first_working_release`` per kind, the foreach note and
every line of ``lookup``. Expected values come from the fixture below, the cited tables
(backend_kernels.py, op_limits.py, silent_bugs.json, optim_paths.json) read with plain code, and the
wording the README's ops section shows; never from the functions under test.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import mpscheck.knowledge.optim_paths as optim_paths
from mpscheck.knowledge.op_limits import OP_LIMITS
from mpscheck.ops.backend_kernels import BACKEND_KERNELS
from mpscheck.ops.prediction import (
    CPU_RULE,
    CUDA_RULE,
    OpPrediction,
    ReleaseError,
    _short,
    first_working_release,
    judge,
    lookup,
    predict,
)
from mpscheck.ops.recording import OpUse, Recording
from tests.coverage_fixture import FixtureTable

KNOWLEDGE = Path(__file__).resolve().parent.parent / "mpscheck" / "knowledge"
FALLBACK_FIX = "or set PYTORCH_ENABLE_MPS_FALLBACK=1 to run it on the CPU"
NONE_YET_FIX = (
    "set PYTORCH_ENABLE_MPS_FALLBACK=1 to run it on the CPU (none yet: no later release in the table runs it on MPS)"
)
CPU_COPIES = "nothing to set: it works, at the cost of copies to and from the CPU"

DATA: dict[str, Any] = {
    "format": 1,
    "releases": ["2.0.0", "2.1.0", "2.1.1", "2.2.0", "2.5.0"],
    "ops": {
        "aten::roll": {"history": [["2.0.0", "none"], ["2.1.0", "mps"]]},
        "aten::late": {"history": [["2.0.0", "none"], ["2.1.1", "mps"]]},
        "aten::later": {"history": [["2.2.0", "mps"]]},
        "aten::never": {"history": [["2.0.0", "none"]]},
        "aten::comp": {
            "history": [["2.0.0", "none"], ["2.2.0", "composite-explicit"], ["2.5.0", "composite-implicit"]]
        },
        "aten::comp_i": {"history": [["2.0.0", "none"], ["2.1.0", "composite-implicit"]]},
        "aten::sp": {"history": [["2.0.0", "none"], ["2.1.0", "mps"], ["2.2.0", "sparse-mps"]]},
        "aten::cpuall": {"history": [["2.0.0", "none"], ["2.1.0", "mps"]]},
        "aten::pyreg": {"history": [["2.0.0", "none"]]},
        "aten::mm": {"history": [["2.0.0", "mps"]]},
        "aten::convolution": {"history": [["2.0.0", "mps"]]},
        "aten::add.Tensor": {"history": [["2.0.0", "mps"]], "delegate": "aten::add.out"},
        "aten::add_.Tensor": {"history": [["2.0.0", "mps"]], "delegate": "aten::add.out"},
        "aten::add.out": {"history": [["2.0.0", "mps"]]},
        "aten::_linalg_svd": {"history": [["2.0.0", "mps"]]},
        "aten::linalg_svd": {"history": [["2.0.0", "composite-implicit"]]},
        "aten::svd_alias": {"history": [["2.0.0", "none"]], "delegate": "aten::_linalg_svd"},
        "aten::upsample_nearest3d": {"history": [["2.0.0", "mps"]], "delegate": "aten::upsample_nearest3d.out"},
        "aten::py_absent": {"history": [["2.2.0", "mps"]]},
        "aten::_foreach_norm.Scalar": {"history": [["2.0.0", "none"], ["2.5.0", "composite-implicit"]]},
    },
    "cpu_always": {
        "history": [
            ["2.0.0", ["aten::linalg_svd", "aten::upsample_nearest3d.vec"]],
            ["2.1.0", ["aten::cpuall", "aten::linalg_svd"]],
            ["2.2.0", []],
        ],
        "source": "fixture",
    },
    # aten::pyonly is in no release's ops and aten::py_absent not yet in 2.1.x: a registration alone is no path.
    "python_mps": {"history": [["2.1.0", ["aten::pyreg", "aten::pyonly", "aten::py_absent"]]], "source": "fixture"},
    "sources": {},
}
TABLE = FixtureTable(DATA)


def _use(name: str, *dtypes: str, calls: int = 1, **kw: Any) -> OpUse:
    return OpUse(name, calls, dtypes or ("float32",), kw.pop("devices", ("cpu",)), **kw)


def _op(name: str, status: str, reason: str, **kw: Any) -> OpPrediction:
    """The OpPrediction of one plain call (1 call, float32) unless *kw* says otherwise."""
    kw.setdefault("recorded_as", (name,))
    return OpPrediction(name, kw.pop("calls", 1), kw.pop("dtypes", ("float32",)), status, reason, **kw)


def _limit(limit_id: str) -> Any:
    return next(limit for limit in OP_LIMITS if limit.id == limit_id)


def _kernel_fix(first: str) -> str:
    return f"upgrade: pip install 'torch>={first}' (runs on MPS from {first}); {FALLBACK_FIX}"


# --- judge: one whole OpPrediction per branch -------------------------------------------------------------


@pytest.mark.parametrize(
    ("use", "release", "expected"),
    [
        (_use("aten::mm"), "2.1.0", _op("aten::mm", "mps", "MPS kernel in torch 2.1.0", first_release="2.0.0")),
        (
            _use("aten::add_.Tensor"),
            "2.0.0",
            _op("aten::add.out", "mps", "MPS kernel in torch 2.0.0", first_release="2.0.0",
                recorded_as=("aten::add_.Tensor",)),
        ),
        (
            _use("aten::comp_i"),
            "2.1.0",
            _op("aten::comp_i", "composite", "composite-implicit: decomposes into other ops on MPS"),
        ),
        (
            _use("aten::comp"),
            "2.2.0",
            _op("aten::comp", "composite", "composite-explicit: decomposes into other ops on MPS"),
        ),
        (
            _use("aten::roll"),
            "2.0.0",
            _op(
                "aten::roll", "fallback", "no MPS kernel in torch 2.0.0", first_release="2.1.0",
                fix=_kernel_fix("2.1.0"),
            ),
        ),
        (  # a fallback is not also judged by the dtype limits
            _use("aten::roll", "float64"),
            "2.0.0",
            _op(
                "aten::roll", "fallback", "no MPS kernel in torch 2.0.0", dtypes=("float64",), first_release="2.1.0",
                fix=_kernel_fix("2.1.0"),
            ),
        ),
        (
            _use("aten::never"),
            "2.2.0",
            _op("aten::never", "fallback", "no MPS kernel in torch 2.2.0", fix=NONE_YET_FIX),
        ),
        (
            _use("aten::sp", sparse=True),
            "2.2.0",
            _op("aten::sp", "mps", "SparseMPS kernel in torch 2.2.0", first_release="2.1.0"),
        ),
        (
            _use("aten::sp", sparse=True),
            "2.1.0",
            _op(
                "aten::sp", "unknown",
                "called with a sparse tensor; the table records a dense MPS kernel and cannot say for SparseMPS",
                first_release="2.1.0",
            ),
        ),
        (
            _use("aten::sp"),
            "2.2.0",
            _op(
                "aten::sp", "fallback", "only a SparseMPS kernel, and this call is dense in torch 2.2.0",
                first_release="2.1.0", fix=NONE_YET_FIX,
            ),
        ),
        (
            _use("aten::sp", sparse=True),
            "2.0.0",
            _op(
                "aten::sp", "fallback", "no MPS kernel in torch 2.0.0", first_release="2.1.0",
                fix=_kernel_fix("2.2.0"),
            ),
        ),
        (
            _use("aten::cpuall"),
            "2.1.1",
            _op(
                "aten::cpuall", "cpu-always",
                "torch 2.1.1 always runs it on the CPU on MPS (MPSFallback.mm), warning once",
                first_release="2.1.0", fix=CPU_COPIES,
            ),
        ),
        (
            _use("aten::_linalg_svd"),
            "2.0.0",
            _op(
                "aten::linalg_svd", "cpu-always",
                "reached through aten::linalg_svd, which torch 2.0.0 runs whole on the CPU on MPS (MPSFallback.mm)",
                first_release="2.0.0", fix=CPU_COPIES, recorded_as=("aten::_linalg_svd",),
                mapped_from=("aten::_linalg_svd",),
            ),
        ),
        (  # only the op itself leads to the composite, not its warning name
            _use("aten::upsample_nearest3d"),
            "2.0.0",
            _op(
                "aten::upsample_nearest3d.vec", "cpu-always",
                "reached through aten::upsample_nearest3d.vec, which torch 2.0.0 runs whole on the CPU on MPS "
                "(MPSFallback.mm)",
                first_release="2.0.0", fix=CPU_COPIES, recorded_as=("aten::upsample_nearest3d",),
                mapped_from=("aten::upsample_nearest3d",),
            ),
        ),
        (  # only its warning name leads to the composite; it has no kernel, so the direct call would fall back
            _use("aten::svd_alias"),
            "2.0.0",
            _op(
                "aten::linalg_svd", "cpu-always",
                "reached through aten::linalg_svd, which torch 2.0.0 runs whole on the CPU on MPS (MPSFallback.mm)"
                "; a call that reaches aten::_linalg_svd directly (e.g. torch.linalg.svdvals) has none",
                fix=CPU_COPIES, recorded_as=("aten::svd_alias",), mapped_from=("aten::svd_alias",),
            ),
        ),
        (
            _use("aten::pyreg"),
            "2.1.0",
            _op("aten::pyreg", "mps", "registered for MPS from Python in torch 2.1.0"),
        ),
        (  # the Python registration is for the dense MPS key only
            _use("aten::pyreg", sparse=True),
            "2.1.0",
            _op("aten::pyreg", "fallback", "no MPS kernel in torch 2.1.0", fix=NONE_YET_FIX),
        ),
        (
            _use("aten::later"),
            "2.0.0",
            _op(
                "aten::later", "unknown", "does not exist in torch 2.0.0: the script would reach other ops there",
                first_release="2.2.0",
            ),
        ),
        (
            _use("aten::nowhere"),
            "2.1.0",
            _op(
                "aten::nowhere", "unknown",
                "not in torch's native_functions.yaml (the coverage table) for any release it knows",
            ),
        ),
        (
            _use("torchvision::nms"),
            "2.1.0",
            _op(
                "torchvision::nms", "unknown",
                "not an aten op: the coverage table (aten only) cannot say; try it on a Mac",
            ),
        ),
        (
            _use("profiler::_record_function_enter_new", factory=True),
            "2.1.0",
            _op("profiler::_record_function_enter_new", "composite", "takes no tensor: runs no device kernel"),
        ),
    ],
)  # fmt: skip
def test_judge_returns_the_whole_prediction(use: OpUse, release: str, expected: OpPrediction) -> None:
    assert judge(use, TABLE, release, (14, 0)) == expected


def test_a_kernel_without_an_mps_path_of_its_own_is_judged_whole_from_the_mapping() -> None:
    name = "aten::_transformer_encoder_layer_fwd"
    row = BACKEND_KERNELS[name]
    assert row.mps_op is None
    expected = OpPrediction(name, 3, ("float16",), "composite", row.why, None, None, (name,), (name,), (row.source,))
    assert judge(_use(name, "float16", calls=3), TABLE, "2.1.0", (14, 0)) == expected


def test_a_cpu_only_kernel_is_judged_as_the_op_mps_sees_with_its_mapping() -> None:
    name = "aten::mkldnn_convolution"
    row = BACKEND_KERNELS[name]
    expected = _op(
        "aten::convolution", "mps", "MPS kernel in torch 2.1.0", first_release="2.0.0", recorded_as=(name,),
        mapped_from=(name,), sources=(row.source,),
    )  # fmt: skip
    assert judge(_use(name), TABLE, "2.1.0", (14, 0)) == expected


@pytest.mark.parametrize(
    ("use", "release", "macos", "status", "limit_ids", "reason_tail"),
    [
        (_use("aten::mm", "float64"), "2.2.0", (15, 0), "dtype-unsupported", ["float64"], ""),
        (_use("aten::comp_i", "float64"), "2.1.0", (15, 0), "dtype-unsupported", ["float64"], ""),
        (_use("aten::mm", "bfloat16"), "2.5.0", (13, 0), "macos-gated", ["bfloat16-macos14"], " (your macOS: 13.0)"),
        (_use("aten::mm", "bfloat16"), "2.2.0", (15, 0), "dtype-unsupported", ["bfloat16-before-2.3"], ""),
        # The Python registration path is judged by the limits of its release and macOS too.
        (_use("aten::pyreg", "bfloat16"), "2.5.0", (13, 0), "macos-gated", ["bfloat16-macos14"], " (your macOS: 13.0)"),
        (_use("aten::pyreg", "bfloat16"), "2.2.0", (13, 0), "dtype-unsupported", ["bfloat16-before-2.3"], ""),
        # Two rows of one status: the first of the table wins, and both are cited.
        (_use("aten::mm", "float64", "complex128"), "2.5.0", (15, 0), "dtype-unsupported", ["float64", "complex128"],
         ""),
        (_use("aten::mm", "int64"), "2.9.0", (13, 2), "macos-gated", [], ""),
    ],
)  # fmt: skip
def test_dtype_and_macos_limits_set_status_reason_fix_and_sources(
    use: OpUse, release: str, macos: tuple[int, ...], status: str, limit_ids: list[str], reason_tail: str
) -> None:
    op = judge(use, TABLE, release, macos)
    if not limit_ids:  # nothing limits it: the kernel's own status stands
        assert (op.status, op.fix, op.sources) == ("mps", None, ())
        return
    first = _limit(limit_ids[0])
    assert (op.status, op.reason, op.fix) == (status, first.what + reason_tail, first.fix)
    assert op.sources == tuple(_limit(i).source for i in limit_ids)


def test_a_refused_dtype_outranks_a_macos_gate_listed_before_it() -> None:
    """bfloat16-macos14 (macOS-gated) comes before torch's 'mm for non-float inputs' row (refused, from the
    message table) in the rows limits_for returns: the refusal is the status, and both rows are cited, the
    refusal first."""
    from mpscheck.knowledge.dtype_limits import as_limits

    (refused,) = [row for row in as_limits() if row.id.startswith("message:MPS device does not support mm ")
                  and "int64" in (row.dtypes or ())]  # fmt: skip
    op = judge(_use("aten::mm", "bfloat16", "int64"), TABLE, "2.5.0", (13, 0))
    assert (op.status, op.reason, op.fix) == ("dtype-unsupported", refused.what, refused.fix)
    assert op.sources == (refused.source, _limit("bfloat16-macos14").source)


def test_a_macos_gate_is_lifted_from_its_macos_on() -> None:
    op = judge(_use("aten::mm", "bfloat16"), TABLE, "2.5.0", (14, 0))
    assert (op.status, op.reason, op.fix, op.sources) == ("mps", "MPS kernel in torch 2.5.0", None, ())


# --- first_working_release ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "sparse", "after", "expected"),
    [
        ("aten::roll", False, "2.0.0", "2.1.0"),
        ("aten::roll", False, "2.1.0", "2.1.1"),  # strictly after
        ("aten::late", False, "2.0.0", "2.1.1"),
        ("aten::comp_i", False, "2.0.0", "2.1.0"),  # composite-implicit works
        ("aten::comp", False, "2.0.0", "2.2.0"),  # composite-explicit works
        ("aten::sp", True, "2.0.0", "2.2.0"),  # a sparse call needs the SparseMPS kernel
        ("aten::sp", False, "2.0.0", "2.1.0"),
        ("aten::sp", False, "2.1.0", "2.1.1"),
        ("aten::sp", False, "2.1.1", None),  # from 2.2.0 only SparseMPS
        ("aten::cpuall", False, "2.0.0", "2.2.0"),  # on the CPU-always list in 2.1.x
        ("aten::later", False, "2.0.0", "2.2.0"),  # absent before
        ("aten::pyreg", False, "2.0.0", "2.1.0"),  # registered from Python
        ("aten::pyreg", True, "2.0.0", None),  # not for a sparse call
        ("aten::pyonly", False, "2.0.0", None),  # registered, but not an op of the table
        ("aten::py_absent", False, "2.0.0", "2.2.0"),  # registered, but absent before 2.2
        ("aten::never", False, "2.0.0", None),
        ("aten::nowhere", False, "2.0.0", None),
        ("aten::roll", False, "2.5.0", None),
    ],
)
def test_first_working_release(target: str, sparse: bool, after: str, expected: str | None) -> None:
    assert first_working_release(TABLE, target, sparse, after) == expected


# --- predict: the loop, merging, order, CPU side -----------------------------------------------------------


def _predict(*uses: OpUse, release: str = "2.0.0", macos: tuple[int, ...] = (14, 0)) -> Any:
    return predict(Recording(ops=list(uses), processes=1), TABLE, release, macos)


def test_rows_of_one_status_merge_into_the_first_seen() -> None:
    first = _use("aten::add.Tensor", calls=4)
    second = _use("aten::add_.Tensor", "int64", calls=6, first_site="train.py:9")
    prediction = _predict(first, second)
    expected = _op(
        "aten::add.out", "mps", "MPS kernel in torch 2.0.0", calls=10, dtypes=("float32", "int64"),
        recorded_as=("aten::add.Tensor", "aten::add_.Tensor"), first_site="train.py:9", first_release="2.0.0",
    )  # fmt: skip
    assert prediction.ops == [expected]


def test_the_worse_row_wins_a_merge_and_the_first_site_seen_stays() -> None:
    first = _use("aten::add.Tensor", calls=2, first_site="a.py:1")
    second = _use("aten::add_.Tensor", "float64", calls=3, first_site="b.py:2")
    (op,) = _predict(first, second).ops
    f64 = _limit("float64")
    expected = _op(
        "aten::add.out", "dtype-unsupported", f64.what, calls=5, dtypes=("float32", "float64"), fix=f64.fix,
        recorded_as=("aten::add_.Tensor", "aten::add.Tensor"), sources=(f64.source,), first_site="a.py:1",
        first_release="2.0.0",
    )  # fmt: skip
    assert op == expected


def test_merging_keeps_each_mapping_and_source_once() -> None:
    mkl, cudnn = "aten::mkldnn_convolution", "aten::cudnn_convolution"
    (op,) = _predict(_use(mkl), _use(cudnn), _use(mkl)).ops
    assert op.mapped_from == (mkl, cudnn) and op.recorded_as == (mkl, cudnn)
    assert op.sources == (BACKEND_KERNELS[mkl].source,) and op.calls == 3


def test_same_status_sorts_by_calls_then_name() -> None:
    uses = [_use("aten::mm", calls=2), _use("aten::convolution", calls=7), _use("aten::add.out", calls=2)]
    assert [(op.name, op.calls) for op in _predict(*uses).ops] == [
        ("aten::convolution", 7),
        ("aten::add.out", 2),
        ("aten::mm", 2),
    ]


def test_statuses_sort_worst_first() -> None:
    uses = [
        _use("aten::mm", calls=9),
        _use("aten::comp_i", calls=9),
        _use("aten::nowhere", calls=1),
        _use("aten::cumsum", "int64"),
        _use("aten::_linalg_svd"),
        _use("aten::roll", calls=1),
        _use("aten::convolution", "float64", calls=1),
    ]
    prediction = _predict(*uses, release="2.1.0", macos=(13, 0))
    assert [(op.name, op.status) for op in prediction.ops] == [
        ("aten::convolution", "dtype-unsupported"),
        ("aten::linalg_svd", "cpu-always"),
        ("aten::cumsum", "unknown"),
        ("aten::nowhere", "unknown"),
        ("aten::comp_i", "composite"),
        ("aten::mm", "mps"),
        ("aten::roll", "mps"),
    ]
    assert prediction.counts() == {
        "mps": 2,
        "composite": 1,
        "fallback": 0,
        "cpu-always": 1,
        "dtype-unsupported": 1,
        "macos-gated": 0,
        "unknown": 2,
    }
    assert [op.name for op in prediction.problems] == [
        "aten::convolution",
        "aten::linalg_svd",
        "aten::cumsum",
        "aten::nowhere",
    ]
    assert not prediction.ready


def test_every_op_after_a_cpu_side_or_dropped_one_is_still_judged() -> None:
    loader = _use("aten::roll", side="data-loading")
    bookkeeping = _use("aten::_cudnn_init_dropout_state")
    prediction = _predict(loader, bookkeeping, _use("aten::mm"), bookkeeping)
    assert [op.name for op in prediction.ops] == ["aten::mm"]
    assert prediction.cpu_side == [loader]
    assert prediction.dropped == ["aten::_cudnn_init_dropout_state", "aten::_cudnn_init_dropout_state"]
    assert prediction.cpu_side_rule == CPU_RULE
    assert prediction.ready


def test_on_cuda_the_cpu_calls_stay_aside_and_the_rule_says_so() -> None:
    on_cpu = _use("aten::roll")
    prediction = _predict(on_cpu, _use("aten::mm", devices=("cuda:0",)), _use("aten::add.out", devices=("cuda:0",)))
    assert [op.name for op in prediction.ops] == ["aten::add.out", "aten::mm"]
    assert prediction.cpu_side == [on_cpu]
    assert prediction.cpu_side_rule == CUDA_RULE
    assert prediction.dropped == [] and prediction.path_notes == [] and prediction.silent_bugs == []


def test_the_first_site_is_the_recordings() -> None:
    (op,) = _predict(_use("aten::mm", first_site="x.py:3")).ops
    assert op.to_dict() == {
        "name": "aten::mm",
        "calls": 1,
        "dtypes": ["float32"],
        "status": "mps",
        "first_release": "2.0.0",
        "reason": "MPS kernel in torch 2.0.0",
        "fix": None,
        "recorded_as": ["aten::mm"],
        "mapped_from": [],
        "sources": [],
        "first_site": "x.py:3",
    }


# --- the known silent bugs the ops meet, read from silent_bugs.json with plain code ------------------------


def _bug_row(bug_id: str, ops: list[str]) -> dict[str, Any]:
    raw = next(row for row in json.loads((KNOWLEDGE / "silent_bugs.json").read_text())["bugs"] if row["id"] == bug_id)
    fixed_in = raw.get("fixed_in")
    return {
        "id": bug_id,
        "ops": sorted(ops),
        "what": raw["what"],
        "when": raw.get("condition"),
        "issue": raw["issue"],
        "fixed_in": fixed_in,
        "fixed_by": raw.get("fixed_by"),
        "fix": f"upgrade to torch>={fixed_in}" if fixed_in else "none yet: " + raw.get("fixed_why", ""),
    }


def test_ops_that_meet_one_bug_share_its_row() -> None:
    uses = [_use("aten::bitwise_or.Tensor", "int32"), _use("aten::bitwise_and.Tensor", "int32")]
    prediction = _predict(*uses, release="2.6.0", macos=(15, 0))
    expected = _bug_row("mps-bitwise-noncontiguous-output", ["aten::bitwise_or.Tensor", "aten::bitwise_and.Tensor"])
    assert expected["fix"] == "upgrade to torch>=2.7.0"  # the fixture reads a row with a fix
    assert prediction.silent_bugs == [expected]
    assert _predict(*uses, release="2.6.0", macos=(14, 0)).silent_bugs == []  # needs macOS 15


def test_an_op_meeting_a_seen_bug_still_adds_the_next_bug() -> None:
    prediction = _predict(_use("aten::mm"), _use("aten::bmm"), release="2.7.0")
    expected = [
        _bug_row("mps-matmul-allocator-state", ["aten::mm", "aten::bmm"]),
        _bug_row("mps-bmm-over-2pow32", ["aten::bmm"]),
    ]
    assert expected[0]["fix"].startswith("none yet: ") and expected[0]["fixed_in"] is None
    assert prediction.silent_bugs == expected


# --- the foreach note on a fallback ------------------------------------------------------------------------


def _helpers_note(release: str, helpers: list[str]) -> str:
    return (
        f"; on MPS, torch {release}'s clip_grad_norm_/clip_grad_value_ with foreach unset take the per-tensor path "
        f"instead (its foreach devices: {', '.join(sorted(helpers))}), so only foreach=True reaches it"
    )


def test_a_foreach_op_recorded_on_the_cpu_says_clip_grad_norm_takes_it_only_there() -> None:
    raw = json.loads((KNOWLEDGE / "optim_paths.json").read_text())["releases"]["2.2.0"]
    op = judge(_use("aten::_foreach_norm.Scalar"), TABLE, "2.2.0", (14, 0))
    reason = "no MPS kernel in torch 2.2.0" + _helpers_note("2.2.0", raw["helpers"])
    source = f"{raw['wheel']}: {raw['helpers_source']}"
    expected = _op("aten::_foreach_norm.Scalar", "fallback", reason, fix=_kernel_fix("2.5.0"), sources=(source,))
    assert op == expected


def test_no_foreach_note_when_the_release_was_not_read() -> None:
    op = judge(_use("aten::_foreach_norm.Scalar"), TABLE, "2.3.5", (14, 0))
    assert (op.reason, op.sources) == ("no MPS kernel in torch 2.3.5", ())


@pytest.mark.parametrize(
    ("helpers", "devices", "noted"),
    [
        (["cpu", "cuda"], ("cpu",), True),
        (["cpu", "cuda", "mps"], ("cpu",), False),  # MPS takes the same path: nothing to say
        (["cuda"], ("cpu",), False),  # not the path the recording took
        (["cpu", "cuda"], ("cpu", "cuda"), True),
        (None, ("cpu",), False),  # not read
    ],
)
def test_the_foreach_note_follows_the_helpers_of_the_release(
    monkeypatch: pytest.MonkeyPatch, helpers: list[str] | None, devices: tuple[str, ...], noted: bool
) -> None:
    row: dict[str, Any] = {"wheel": "w.whl", "helpers_source": "h.py"}
    if helpers is not None:
        row["helpers"] = helpers
    monkeypatch.setattr(optim_paths, "table", lambda: {"releases": {"2.2.0": row}})
    op = judge(_use("aten::_foreach_norm.Scalar", devices=devices), TABLE, "2.2.0", (14, 0))
    note = _helpers_note("2.2.0", helpers or []) if noted else ""
    assert op.reason == "no MPS kernel in torch 2.2.0" + note
    assert op.sources == (("w.whl: h.py",) if noted else ())


# --- lookup: every line ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "lines"),
    [
        ("roll", ["aten::roll: MPS kernel since 2.1", "  2.0.0: none", "  2.1.0: mps"]),
        ("aten::late", ["aten::late: MPS kernel since 2.1.1", "  2.0.0: none", "  2.1.1: mps"]),
        ("later", ["aten::later: MPS kernel since 2.2", "  2.0.0: absent", "  2.2.0: mps"]),
        (
            "comp",
            [
                "aten::comp: no kernel of its own in 2.5.0: it decomposes into other ops (composite-implicit)",
                "  2.0.0: none",
                "  2.2.0: composite-explicit",
                "  2.5.0: composite-implicit",
            ],
        ),
        ("never", ["aten::never: no MPS kernel in any release up to 2.5.0", "  2.0.0: none"]),
        (
            "aten::add.Tensor",
            [
                "aten::add.Tensor: MPS kernel since 2.0 (torch's fallback warning names it aten::add.out)",
                "  2.0.0: mps",
            ],
        ),
        (
            "cpuall",
            ["aten::cpuall: MPS kernel since 2.1", "  2.0.0: none", "  2.1.0: cpu-always", "  2.2.0: mps"],
        ),
        (
            "pyreg",
            [
                "aten::pyreg: no MPS kernel in any release up to 2.5.0",
                "  2.0.0: none",
                "  2.1.0: mps (registered from Python)",
            ],
        ),
        (
            "mkldnn_convolution",
            [
                "aten::mkldnn_convolution: a CPU/CUDA-only kernel; on MPS the op is aten::convolution "
                f"({BACKEND_KERNELS['aten::mkldnn_convolution'].why})",
                "aten::convolution: MPS kernel since 2.0",
                "  2.0.0: mps",
            ],
        ),
    ],
)
def test_lookup_lines(name: str, lines: list[str]) -> None:
    assert lookup(name, TABLE) == lines


@pytest.mark.parametrize("name", ["nothing_like_this", "aten::_transformer_encoder_layer_fwd"])
def test_lookup_of_an_op_the_table_lacks_names_the_table_span(name: str) -> None:
    with pytest.raises(ReleaseError) as raised:
        lookup(name, TABLE)
    assert str(raised.value) == f"{name}: not in the op coverage table (torch 2.0.0 to 2.5.0)"


@pytest.mark.parametrize(
    ("release", "shown"),
    [("2.1.0", "2.1"), ("2.10.0", "2.10"), ("2.1.1", "2.1.1"), ("2.1", "2.1"), ("3", "3"), ("2.1.0.1", "2.1.0.1")],
)
def test_short_release(release: str, shown: str) -> None:
    assert _short(release) == shown


# --- the rest of predict's and judge's inputs --------------------------------------------------------------


def test_the_prediction_keeps_its_release_macos_and_why() -> None:
    recording = Recording(ops=[_use("aten::mm")], processes=1)
    default = predict(recording, TABLE, "2.1.0", (13, 5))
    assert (default.release, default.macos, default.macos_why) == ("2.1.0", (13, 5), "--macos")
    why = "the oldest macOS torch 2.1.1 supports"
    chosen = predict(recording, TABLE, "2.1.1", (15, 0), why)
    assert (chosen.release, chosen.macos, chosen.macos_why) == ("2.1.1", (15, 0), why)


def test_a_recording_of_another_torch_gets_the_path_notes() -> None:
    from mpscheck.ops.release_choice import python_path_notes

    recording = Recording(ops=[_use("aten::mm")], processes=1, torch_version="2.0.0")
    notes = predict(recording, TABLE, "2.2.0", (14, 0)).path_notes
    assert notes == python_path_notes(TABLE, "2.0.0", "2.2.0")
    assert notes[0].startswith("Recorded with torch 2.0.0's Python code; torch 2.2.0's Python may take other paths")
    assert predict(recording, TABLE, "2.0.0", (14, 0)).path_notes == []


def test_an_optimizers_foreach_op_recorded_on_cuda_is_judged_by_its_devices() -> None:
    from mpscheck.ops.backend_kernels import mps_side

    name = "aten::_foreach_add_.List"
    row = mps_side(name, ("cuda:0",))
    assert row is not None and row.mps_op is None
    op = judge(_use(name, devices=("cuda:0",)), TABLE, "2.1.0", (14, 0))
    assert op == OpPrediction(name, 1, ("float32",), "composite", row.why, None, None, (name,), (name,), (row.source,))


def test_the_default_table_is_the_generated_one() -> None:
    from mpscheck.knowledge import ops as generated
    from mpscheck.ops.prediction import default_table

    assert default_table() is generated


def test_an_op_of_a_release_the_table_lacks_keeps_its_recorded_name() -> None:
    from mpscheck.knowledge import ops as generated

    assert generated.warning_name("aten::add.Tensor") == "aten::add.out"  # the name a known release would get
    op = judge(_use("aten::add.Tensor"), generated, "9.9.9", (14, 0))
    assert (op.name, op.status) == ("aten::add.Tensor", "unknown")
    assert op.reason == "not in torch's native_functions.yaml (the coverage table) for any release it knows"


class _NoKindBeforeFirst(FixtureTable):
    """As mpscheck/knowledge/ops.py reads a history: no kind at all before its first entry."""

    def op_kind(self, name: str, release: str) -> str | None:
        kind = super().op_kind(name, release)
        return None if kind == "absent" else kind


def test_lookup_lists_no_line_for_releases_before_the_first_kind() -> None:
    assert lookup("later", _NoKindBeforeFirst(DATA)) == ["aten::later: MPS kernel since 2.2", "  2.2.0: mps"]
