"""Predictions with the real op coverage table (mpscheck/knowledge/op_coverage.json) on a real recording.

aten::roll gained its MPS kernel in torch 2.1 (pytorch/pytorch#95168; issue #96942 reports it
missing in 2.0): a script that rolls is flagged for 2.0 and not for 2.1.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from mpscheck.ops.prediction import predict
from mpscheck.ops.recording import Recording
from mpscheck.ops.session import record_command

table = pytest.importorskip("mpscheck.knowledge.ops", reason="the op coverage table (feat/knowledge) is not merged")
pytest.importorskip("torch")

SCRIPTS = Path(__file__).parent / "op_scripts"


@pytest.fixture(scope="module")
def roll_recording() -> Recording:
    run = record_command([sys.executable, str(SCRIPTS / "roll_and_svd.py")], dict(os.environ))
    assert run.child.exit_code == 0
    return run.recording


def _by_name(recording: Recording, release: str) -> dict[str, str]:
    return {op.name: op.status for op in predict(recording, table, release, (14, 0)).ops}


def test_roll_is_flagged_for_2_0_only(roll_recording: Recording) -> None:
    old = predict(roll_recording, table, "2.0.0", (14, 0))
    roll = next(op for op in old.ops if op.name == "aten::roll")
    assert roll.status == "fallback" and roll.first_release == "2.1.0"
    assert "torch>=2.1.0" in (roll.fix or "")
    assert _by_name(roll_recording, "2.1.0")["aten::roll"] == "mps"


@pytest.mark.parametrize("script", ["cnn_step.py", "transformer_step.py"])
def test_a_plain_training_step_runs_on_mps_with_the_installed_release(script: str) -> None:
    """Every op of a small CNN or transformer step has an MPS path in torch 2.13 (a Linux recording)."""
    run = record_command([sys.executable, str(SCRIPTS / script)], dict(os.environ))
    prediction = predict(run.recording, table, "2.13.0", (14, 0))
    assert [(op.name, op.status, op.reason) for op in prediction.problems] == []
