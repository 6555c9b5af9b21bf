"""The classes of input the eighth out-of-sample round (2026-11-24, GitHub issue threads) found explain missing, each
read generally: torch's fallback warning cut after its first clause; a pickle saved on mps loaded where torch has no
MPS ("Storage device not recognized: mps"); an installer's verbose log skipping torch's own arm64 wheel.

The texts are lines of the round's threads (tests/corpus names each).
"""

from __future__ import annotations

from mpscheck.checks.causes import explain_text


def test_the_fallback_warning_cut_after_its_first_clause_is_still_the_warning() -> None:
    title = "The operator 'aten::nonzero' is not currently supported on the MPS backend"  # ultralytics/yolov5#8508
    diagnosis = explain_text(title)
    assert diagnosis.cause.id == "op-fallback-warning"
    assert diagnosis.cause.fix is not None and "Nothing is broken" in diagnosis.cause.fix.summary
    # torch's error for a missing kernel is another message, still the failure it was
    error = "NotImplementedError: The operator 'aten::nonzero' is not currently implemented for the MPS device."
    assert explain_text(error).cause.id == "op-not-implemented"


def test_a_pickle_saved_on_mps_and_loaded_without_mps_is_a_checkpoint_load_fixed_by_map_location() -> None:
    line = "RuntimeError: torch.UntypedStorage(): Storage device not recognized: mps"  # sentence-transformers#3229
    diagnosis = explain_text(line)
    assert diagnosis.cause.id == "mps-checkpoint-load"
    assert diagnosis.cause.fix is not None and "map_location='cpu'" in diagnosis.cause.fix.summary
    # another device's storage is not this cause
    assert explain_text("RuntimeError: Storage device not recognized: xla").cause.id != "mps-checkpoint-load"


def test_an_installer_skipping_torchs_arm64_wheel_asks_which_python_this_is() -> None:
    skipped = " as this is not supported by the current environment"
    poetry = "Skipping wheel torch-2.3.0-cp311-none-macosx_11_0_arm64.whl" + skipped  # python-poetry/poetry#9442
    pip = "Skipping link: none of the wheel's tags match: cp311-none-macosx_11_0_arm64: https://files.example/torch.whl"
    for text in (poetry, pip):
        diagnosis = explain_text(text)
        assert diagnosis.cause.id == "no-matching-distribution"
        assert "arm64" in diagnosis.cause.summary and "Python version" in diagnosis.cause.summary
        assert diagnosis.cause.fix is not None
        assert "platform.machine()" in diagnosis.cause.fix.commands[0]
    # skipping another platform's wheel is what every install logs: no cause of its own
    linux = "Skipping wheel torch-2.3.0-cp311-cp311-manylinux1_x86_64.whl" + skipped
    assert explain_text(linux).cause.id != "no-matching-distribution"
