"""The user's words that only the CPU runs the work, in the passive and the reordered forms
(probes/paste/prose.py CPU_ONLY), pinned: each is read as the CPU used, and the near misses are not."""

from __future__ import annotations

import pytest

from mpscheck.probes.paste import read


def cpu_used(line: str) -> bool:
    found = read(line).get("paste.device_used")
    return found is not None and found.value == "cpu"


@pytest.mark.parametrize(
    "line",
    [
        '# user: The flag "-m gpu" does not bring GPU support. Only the CPU is used.',
        "only cpu is being used during training",
        "It uses only the CPU on my M2",
        "the trainer is using only CPU",
    ],
)
def test_the_cpu_alone_said_in_the_passive_or_reordered_is_read(line: str) -> None:
    assert cpu_used(line)


@pytest.mark.parametrize(
    "line",
    [
        "the CPU is used for preprocessing and the GPU for the model",
        "not only the CPU is used but also the GPU",
        "use only cpu-friendly ops",
    ],
)
def test_near_misses_are_not_read(line: str) -> None:
    assert not cpu_used(line)


@pytest.mark.parametrize(
    "line",
    [
        "3. Observe it runs the training on *CPU* instead",  # huggingface/accelerate#692, markdown stars kept
        "the model was running on the `cpu` instead",
        "it ran on CPU instead of MPS",
        "Training keeps running on the CPU, instead",
    ],
)
def test_the_run_said_to_go_to_the_cpu_instead_is_read(line: str) -> None:
    assert cpu_used(line)


@pytest.mark.parametrize(
    "line",
    [
        "You can run it on the CPU instead",  # advice: a bare "run"
        "try to train on cpu instead",
        "it runs the training on CPU and the eval on mps",  # no "instead"
        "while it is running, so use the CPU instead",
    ],
)
def test_advice_to_use_the_cpu_instead_is_not_read(line: str) -> None:
    assert not cpu_used(line)
