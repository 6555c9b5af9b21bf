"""The predictor's rules on a small fixture table in the coverage table's exact format (tests/coverage_fixture.py):
kernel history across releases, CPU-always lists, sparse dispatch, CPU/CUDA-only kernels, dtype and macOS
limits, the CPU/CUDA split, release choice and the one-op look-up.
"""

from __future__ import annotations

import pytest

from mpscheck.knowledge.op_limits import OP_LIMITS, limits_for
from mpscheck.ops.prediction import ReleaseError, choose_macos, choose_release, lookup, predict
from mpscheck.ops.recording import OpUse, Recording
from tests.coverage_fixture import SMALL_TABLE, FixtureTable

TABLE = FixtureTable(SMALL_TABLE)


def _recording(*uses: OpUse) -> Recording:
    return Recording(ops=list(uses), processes=1, torch_version="2.13.0+cpu")


def _status(recording: Recording, release: str, macos: tuple[int, ...] = (14, 0)) -> dict[str, str]:
    return {op.name: op.status for op in predict(recording, TABLE, release, macos).ops}


ROLL = OpUse("aten::roll", 3, ("float32",), ("cpu",))
MM = OpUse("aten::mm", 10, ("float32",), ("cpu",))


def test_an_op_that_gained_its_kernel_is_flagged_only_for_the_older_release() -> None:
    rec = _recording(ROLL, MM)
    older = predict(rec, TABLE, "2.0.0", (14, 0))
    newer = predict(rec, TABLE, "2.1.0", (14, 0))
    roll = next(op for op in older.ops if op.name == "aten::roll")
    assert roll.status == "fallback" and roll.first_release == "2.1.0"
    assert roll.fix is not None and "torch>=2.1.0" in roll.fix and "PYTORCH_ENABLE_MPS_FALLBACK=1" in roll.fix
    assert not older.ready
    assert {op.name: op.status for op in newer.ops} == {"aten::roll": "mps", "aten::mm": "mps"}
    assert newer.ready


def test_problems_come_first_then_by_calls() -> None:
    prediction = predict(_recording(MM, ROLL), TABLE, "2.0.0", (14, 0))
    assert [op.name for op in prediction.ops] == ["aten::roll", "aten::mm"]


def test_the_cpu_always_list_of_the_release_wins_over_a_kernel() -> None:
    svd = OpUse("aten::_linalg_svd", 1, ("float32",), ("cpu",))
    assert _status(_recording(svd), "2.1.0") == {"aten::_linalg_svd": "cpu-always"}
    assert _status(_recording(svd), "2.2.0") == {"aten::_linalg_svd": "mps"}


def test_structured_ops_are_named_and_merged_as_the_warning_names_them() -> None:
    rec = _recording(
        OpUse("aten::add.Tensor", 4, ("float32",), ("cpu",)), OpUse("aten::add_.Tensor", 6, ("int64",), ("cpu",))
    )
    (op,) = predict(rec, TABLE, "2.0.0", (14, 0)).ops
    assert (op.name, op.calls, op.dtypes, op.status) == ("aten::add.out", 10, ("float32", "int64"), "mps")
    assert set(op.recorded_as) == {"aten::add.Tensor", "aten::add_.Tensor"}


def test_a_sparse_constructor_needs_a_sparse_kernel_and_a_dense_call_does_not_get_one() -> None:
    sparse = OpUse("aten::_sparse_coo_tensor_with_dims_and_tensors", 1, ("float32",), ("cpu",), sparse=True)
    assert _status(_recording(sparse), "2.0.0") == {sparse.name: "fallback"}
    assert _status(_recording(sparse), "2.2.0") == {sparse.name: "mps"}
    dense = OpUse(sparse.name, 1, ("float32",), ("cpu",), sparse=False)
    assert _status(_recording(dense), "2.2.0") == {sparse.name: "fallback"}


def test_a_cpu_only_kernel_is_judged_as_the_op_mps_sees() -> None:
    flash = OpUse("aten::_scaled_dot_product_flash_attention_for_cpu", 2, ("float32",), ("cpu",))
    (op,) = predict(_recording(flash), TABLE, "2.0.0", (14, 0)).ops
    assert (op.name, op.status) == ("aten::scaled_dot_product_attention", "composite")
    assert op.mapped_from == (flash.name,) and op.sources


def test_the_transformer_fast_path_is_not_taken_on_mps() -> None:
    fast = OpUse("aten::_transformer_encoder_layer_fwd", 1, ("float32",), ("cpu",))
    (op,) = predict(_recording(fast), TABLE, "2.0.0", (14, 0)).ops
    assert op.status == "composite" and "plain Python path" in op.reason


def test_float64_is_unsupported_on_every_release_and_macos() -> None:
    mm64 = OpUse("aten::mm", 1, ("float64",), ("cpu",))
    (op,) = predict(_recording(mm64), TABLE, "2.2.0", (15, 0)).ops
    assert op.status == "dtype-unsupported" and "float32" in (op.fix or "")


def test_int64_cumsum_is_macos_gated_before_13_3() -> None:
    cumsum = OpUse("aten::cumsum", 1, ("int64",), ("cpu",))
    assert _status(_recording(cumsum), "2.1.0", (13, 2)) == {"aten::cumsum": "macos-gated"}
    assert _status(_recording(cumsum), "2.1.0", (13, 3)) == {"aten::cumsum": "mps"}
    assert _status(_recording(OpUse("aten::cumsum", 1, ("float32",), ("cpu",))), "2.1.0", (13, 2)) == {
        "aten::cumsum": "mps"
    }


def test_bfloat16_needs_macos_14_in_2_3_to_2_8_and_is_unsupported_before() -> None:
    assert [limit.id for limit in limits_for("aten::mm", ("bfloat16",), (2, 5, 1))] == ["bfloat16-macos14"]
    assert [limit.id for limit in limits_for("aten::mm", ("bfloat16",), (2, 2, 0))] == ["bfloat16-before-2.3"]
    assert limits_for("aten::mm", ("bfloat16",), (2, 9, 0)) == []


def test_every_limit_cites_a_source() -> None:
    assert all(limit.source and limit.fix for limit in OP_LIMITS)


def test_with_cuda_in_the_run_ops_the_script_kept_on_the_cpu_are_not_judged() -> None:
    data_prep = OpUse("aten::roll", 1, ("float64",), ("cpu",))
    on_gpu = OpUse("aten::mm", 5, ("float32",), ("cuda",))
    prediction = predict(_recording(data_prep, on_gpu), TABLE, "2.0.0", (14, 0))
    assert [op.name for op in prediction.ops] == ["aten::mm"]
    assert [use.name for use in prediction.cpu_side] == ["aten::roll"]
    assert prediction.ready


def test_ops_outside_the_table_are_unknown_and_block_ready() -> None:
    custom = OpUse("torchvision::nms", 1, ("float32",), ("cpu",))
    missing = OpUse("aten::not_in_any_yaml", 1, ("float32",), ("cpu",))
    statuses = _status(_recording(custom, missing, MM), "2.1.0")
    assert statuses == {"torchvision::nms": "unknown", "aten::not_in_any_yaml": "unknown", "aten::mm": "mps"}
    assert not predict(_recording(custom), TABLE, "2.1.0", (14, 0)).ready


def test_an_op_added_after_the_release_is_unknown_there() -> None:
    new = OpUse("aten::new_op", 1, ("float32",), ("cpu",))
    assert _status(_recording(new), "2.1.0") == {"aten::new_op": "unknown"}
    assert _status(_recording(new), "2.2.0") == {"aten::new_op": "mps"}


def test_a_tensorless_op_outside_aten_runs_no_device_kernel() -> None:
    profiler = OpUse("profiler::_record_function_enter_new", 2, (), ("default",), factory=True)
    assert _status(_recording(profiler), "2.1.0") == {profiler.name: "composite"}


def test_nothing_recorded_is_not_ready() -> None:
    assert not predict(_recording(), TABLE, "2.1.0", (14, 0)).ready


def test_release_choice() -> None:
    # The why now names the table row (issue 19 item 6; it was the bare "--torch").
    assert choose_release(TABLE, "2.1", None) == ("2.1.0", "--torch 2.1: table row 2.1.0")
    assert choose_release(TABLE, None, "2.1.0+cpu")[0] == "2.1.0"
    release, why = choose_release(TABLE, None, "2.13.0+cpu")
    assert release == "2.2.0" and "the op coverage table lacks 2.13.0" in why
    with pytest.raises(ReleaseError, match="not in the op coverage table"):
        choose_release(TABLE, "1.9", None)
    with pytest.raises(ReleaseError, match="not a torch version"):
        choose_release(TABLE, "latest", None)


@pytest.mark.parametrize(
    ("requested", "row", "said"),
    [
        # A pre-release is not its release (knowledge.releases.nearest_known, as the doctor reads it).
        ("2.15.0.dev20260801", "2.15.0", "a pre-release, read as 2.15.0 by the release rules; table row 2.15.0"),
        ("2.13.0+cpu", "2.13.0", "table row 2.13.0"),  # a local version is its release
        ("2.2.3", "2.2.2", "not a release in the table, read as 2.2.2 by the release rules; table row 2.2.2"),
        ("9.9", "2.15.0", "not a release in the table, read as 2.15.0 by the release rules; table row 2.15.0"),
    ],
)
def test_torch_is_read_as_the_release_rules_read_it(requested: str, row: str, said: str) -> None:
    from mpscheck.knowledge import ops as real_table
    from mpscheck.knowledge.releases import nearest_known

    assert choose_release(real_table, requested, None) == (row, f"--torch {requested}: {said}")
    found = nearest_known(requested)
    assert found is not None and found[0].version == row  # the same reading as the release rules


def test_macos_choice_defaults_to_the_oldest_the_release_supports() -> None:
    assert choose_macos(None, "2.6.0")[0] == (13, 0)
    assert choose_macos("14.5", "2.6.0") == ((14, 5), "--macos")
    with pytest.raises(ReleaseError):
        choose_macos("sonoma", "2.6.0")


def test_lookup_across_releases() -> None:
    assert lookup("roll", TABLE) == ["aten::roll: MPS kernel since 2.1", "  2.0.0: none", "  2.1.0: mps"]
    assert lookup("aten::_linalg_svd", TABLE)[1:] == ["  2.0.0: cpu-always", "  2.2.0: mps"]
    assert "fallback warning names it aten::add.out" in lookup("aten::add.Tensor", TABLE)[0]
    with pytest.raises(ReleaseError):
        lookup("aten::nothing_like_this", TABLE)


def test_an_op_registered_for_mps_from_python_runs_on_mps() -> None:
    norm = OpUse("aten::native_group_norm", 2, ("float32",), ("cpu",))
    assert _status(_recording(norm), "2.0.0") == {"aten::native_group_norm": "fallback"}
    (op,) = predict(_recording(norm), TABLE, "2.1.0", (14, 0)).ops
    assert op.status == "mps" and "from Python" in op.reason


def test_the_decomposition_of_a_cpu_always_composite_is_cpu_always() -> None:
    """linalg_svd is CompositeImplicit and MPSFallback.mm registers it: a Linux recording sees _linalg_svd."""
    data = {**SMALL_TABLE, "cpu_always": {"history": [["2.0.0", ["aten::linalg_svd"]], ["2.2.0", []]]}}
    table = FixtureTable(data)
    svd = OpUse("aten::_linalg_svd", 1, ("float32",), ("cpu",))
    (op,) = predict(_recording(svd), table, "2.1.0", (14, 0)).ops
    assert op.status == "cpu-always" and "reached through aten::linalg_svd" in op.reason
    assert op.name == "aten::linalg_svd" and op.recorded_as == ("aten::_linalg_svd",)
    assert predict(_recording(svd), table, "2.2.0", (14, 0)).ops[0].status == "mps"


def test_an_optimizers_foreach_ops_recorded_on_cuda_are_not_what_mps_runs() -> None:
    """torch.optim takes the foreach path by default on cuda only (no release lists mps): on MPS the same
    optimizer loops with per-tensor ops, so a CUDA recording's _foreach_ ops are no MPS problem, while a
    CPU recording's (foreach=True forced by the script) still are judged as recorded."""
    from mpscheck.ops.backend_kernels import mps_side

    assert mps_side("aten::_foreach_add_.List", ("cuda:0",)) is not None
    assert mps_side("aten::_foreach_add_.List", ("cuda:0",)).mps_op is None
    assert mps_side("aten::_foreach_add_.List", ("cpu",)) is None
    assert mps_side("aten::_foreach_add_.List", ()) is None


def test_the_fix_names_the_first_release_with_a_composite_path_not_only_a_kernel() -> None:
    """Issue 19 item 2: _foreach_norm.Scalar has no kernel but is composite from 2.4 (real table)."""
    from mpscheck.knowledge import ops as real_table

    norm = OpUse("aten::_foreach_norm.Scalar", 1, ("float32",), ("cpu",))
    judged = predict(_recording(norm), real_table, "2.2.0", (14, 0)).ops[0]
    assert judged.status == "fallback"
    assert judged.fix is not None and "pip install 'torch>=2.4.0'" in judged.fix and "none yet" not in judged.fix
    # clip_grad_norm_ takes this path on the CPU, not on MPS (read from the 2.2.0 wheel).
    assert "clip_grad_norm_" in judged.reason and any("_foreach_utils.py" in s for s in judged.sources)
    assert predict(_recording(norm), real_table, "2.4.0", (14, 0)).ops[0].status == "composite"


def test_none_yet_only_when_no_later_release_runs_it() -> None:
    roll = OpUse("aten::roll", 1, ("float32",), ("cpu",))
    assert "torch>=2.1.0" in (predict(_recording(roll), TABLE, "2.0.0", (14, 0)).ops[0].fix or "")
    never = OpUse("aten::never_on_mps", 1, ("float32",), ("cpu",))
    ops = {**SMALL_TABLE["ops"], "aten::never_on_mps": {"history": [["2.0.0", "none"]]}}
    table = FixtureTable({**SMALL_TABLE, "ops": ops})
    assert "none yet" in (predict(_recording(never), table, "2.0.0", (14, 0)).ops[0].fix or "")


def test_a_prediction_for_another_release_says_python_paths_may_differ() -> None:
    from mpscheck.knowledge import ops as real_table

    mm = OpUse("aten::mm", 1, ("float32",), ("cpu",))
    recording = _recording(mm)
    recording.torch_version = "2.13.0+cpu"
    notes = predict(recording, real_table, "2.2.0", (14, 0)).path_notes
    assert notes and "Recorded with torch 2.13.0+cpu's Python code" in notes[0]
    # From the wheels: fused=True accepts mps from 2.5, so 2.2 and 2.13 differ there.
    assert any("fused=True" in note and "torch-2.2.0" in note for note in notes)
    assert predict(recording, real_table, "2.13.0", (14, 0)).path_notes == []


def test_dropout_recorded_on_cuda_is_judged_as_the_composite_path_mps_takes() -> None:
    """Found on the H100: mnist records native_dropout on CUDA; MPS never takes that fused path."""
    from mpscheck.knowledge import ops as real_table

    fused = OpUse("aten::native_dropout", 8, ("float32",), ("cuda",))
    backward = OpUse("aten::native_dropout_backward", 8, ("float32",), ("cuda",))
    prediction = predict(_recording(fused, backward), real_table, "2.0.0", (14, 0))
    statuses = {op.name: (op.status, op.mapped_from) for op in prediction.ops}
    assert statuses["aten::bernoulli_.float"] == ("mps", ("aten::native_dropout",))
    assert statuses["aten::native_dropout_backward"][0] == "composite"
    assert prediction.ready
