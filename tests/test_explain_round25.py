"""The classes of input the twenty-fifth out-of-sample round (2026-11-24, reinforcement-learning, tabular,
time-series and probabilistic libraries that run torch on the Mac: torchrl, stable-baselines3, darts, neuralforecast,
sktime, TabPFN, tabnet, gpytorch, autoemulate, etna) found explain missing, each read generally:

- a hosted CI runner told in words: "macos runners" with no "GitHub"/"hosted" before it, and GitHub's own label
  "macos-latest" (every hosted runner is a VM with a paravirtual GPU);
- a CI job said to fail for memory with no numbers shown ("the CI tests on macbook are failing with a memory
  error"): the hosted runner, with the command that tells it from a physical Mac's real out-of-memory.

The texts are lines of the round's threads (tests/corpus names each) and the same shapes in other words.
"""

from __future__ import annotations

import pytest

from mpscheck.checks.causes import explain_text

RUNNER_IN_WORDS = [
    "# user: `mps` does not work on macos runners using the `latest` version, so we need some way to disable "
    "`mps` for estimators that use `torch`",  # sktime#8642
    "# user: MPS fails on the macOS runner, so the tests are skipped there",
    "# user: the torch tests break on macos-latest with mps",
    "# user: The CI fails with MPS out of memory on macos-latest",
]


@pytest.mark.parametrize("words", RUNNER_IN_WORDS)
def test_a_hosted_macos_runner_told_in_words_is_a_virtual_machine(words: str) -> None:
    diagnosis = explain_text(words)
    assert diagnosis.cause.id == "virtual-machine"
    assert diagnosis.exit_code == 1


CI_MEMORY_IN_WORDS = [  # the first: TabPFN#270
    "# user: I see that the CI tests on macbook are failing with a memory error. It makes sense that we're using "
    "more memory if we're not using autocast, but it seems worrying as the test examples are very lightweight.",
    "# user: our CI runs out of memory on the mac job",
    "# user: GitHub Actions: the macOS job dies with OOM in test_fit",
]


@pytest.mark.parametrize("words", CI_MEMORY_IN_WORDS)
def test_a_ci_job_said_to_run_out_of_memory_is_the_hosted_runner_with_the_command_that_tells(words: str) -> None:
    diagnosis = explain_text(words)
    assert diagnosis.cause.id == "virtual-machine"
    assert "kern.hv_vmm_present" in diagnosis.cause.summary  # the one command that tells a VM from a physical Mac
    assert diagnosis.exit_code == 1


@pytest.mark.parametrize(
    "words",
    [
        "# user: our self-hosted macOS runner fails with MPS out of memory",  # self-hosted: a physical Mac
        "# user: training on my M2 Max fails with MPS out of memory",  # no CI
        "# user: the macOS 14 machine fails with MPS out of memory",  # a version, no runner
    ],
)
def test_an_out_of_memory_off_a_hosted_runner_stays_an_out_of_memory(words: str) -> None:
    diagnosis = explain_text(words)
    assert diagnosis.cause.id == "out-of-memory"
    assert diagnosis.cause.variant == "told"


@pytest.mark.parametrize(
    "words",
    [
        "# user: the CI passes; I only want faster tests",  # CI said, no memory failure
        "# user: a memory error on my laptop while loading the CSV",  # a memory error, no CI
    ],
)
def test_ci_or_a_memory_error_alone_is_no_virtual_machine(words: str) -> None:
    assert explain_text(words).cause.id != "virtual-machine"


FLOAT64_IN_WORDS = [
    '# user: On new versions of MacBook this means that `device="mps"`. However, training on mps must occur with '
    "float32. Currently, the library supplies data in float64.",  # etna-team/etna#612
    "# user: MPS only supports float32, but my numpy data is float64",
    "# user: mps needs float32 and the dataframe comes in as double",
]


@pytest.mark.parametrize("words", FLOAT64_IN_WORDS)
def test_float32_said_to_be_what_mps_needs_with_float64_given_is_the_float64_limit(words: str) -> None:
    diagnosis = explain_text(words)
    assert diagnosis.cause.id == "float64-unsupported"
    assert diagnosis.exit_code == 1


@pytest.mark.parametrize(
    "words",
    [
        "# user: on mps I must use float32 because bfloat16 fails",  # float32 needed, but no float64 given
        "# user: mps requires float32 weights; the checkpoint is float16",
        "# user: the data is float64 and I train on the CPU; float32 only on mps",  # float32 before mps: not read
    ],
)
def test_float32_needed_without_float64_given_is_not_the_float64_limit(words: str) -> None:
    assert explain_text(words).cause.id != "float64-unsupported"


def test_float64_said_before_the_float32_that_mps_only_supports_is_the_float64_limit() -> None:
    words = (
        "# user: This is more of a pytorch and stable-baselines3 issue. The latter does not officially support MPS as "
        "a GPU device, as the tensors are set up using the float64 data type, while pytorch only supports float32 for "
        "MPS."  # TUDelft-CNS-ATM/bluesky-gym#7
    )
    assert explain_text(words).cause.id == "float64-unsupported"
    assert explain_text("# user: float64 is the default; I need float32 for speed on mps").cause.id != (
        "float64-unsupported"  # another sentence, and a need, not what mps supports
    )


RESULTS_OF_LOWER_QUALITY_ON_THE_MAC = [
    "# user: However, the forecasts generated by the M1 mac are of a much lower quality. The question is 'why?'.",
    "# user: the predictions on my Mac are of far worse quality than on the Linux box",
]


@pytest.mark.parametrize("words", RESULTS_OF_LOWER_QUALITY_ON_THE_MAC)
def test_results_said_to_be_of_lower_quality_with_the_mac_named_between_are_wrong_results(words: str) -> None:
    diagnosis = explain_text(words)  # gluonts#3020: the Mac named between the results and their judgement
    assert diagnosis.cause.id == "metal-bug-fixed-later"
    assert diagnosis.exit_code == 1


def test_a_lower_quality_that_a_verb_leads_to_is_no_wrong_result() -> None:
    words = (  # RVC-Boss/GPT-SoVITS#2612 quotes a README: no result of this run is judged
        '# user: I know "The models trained with GPUs on Macs result in significantly lower quality compared to '
        'those trained on other devices"'
    )
    assert explain_text(words).cause.id != "metal-bug-fixed-later"


FALLBACK_RETOLD = [
    "# user: While this test passes (proving the math is stable on M1/M2 chips), it surfaces a PyTorch-level "
    "fallback warning indicating that aten::_cholesky_solve_helper is missing from the Metal backend, causing a silent "
    "CPU fallback.",  # cornellius-gp/gpytorch#2748
    "# user: aten::linalg_svd is not supported on the MPS backend and falls back to the CPU, which is slow",
]


@pytest.mark.parametrize("words", FALLBACK_RETOLD)
def test_torchs_fallback_warning_retold_with_its_op_is_the_fallback_note(words: str) -> None:
    diagnosis = explain_text(words)
    assert diagnosis.cause.id == "op-fallback-warning"
    assert "aten::" in diagnosis.cause.summary  # the op named
    # the user's words are no evidence that mps ran: never "ready" (exit 0) on them, unlike torch's own warning line
    assert (diagnosis.cause.variant, diagnosis.exit_code) == ("retold", 1)
    assert diagnosis.next_step == "mpscheck doctor --format markdown"


def test_torchs_own_fallback_warning_line_stays_a_note() -> None:
    line = (
        "UserWarning: The operator 'aten::linalg_svd' is not currently supported on the MPS backend and will fall back "
        "to run on the CPU. This may have performance implications."
    )
    diagnosis = explain_text(line)
    assert (diagnosis.cause.id, diagnosis.cause.variant, diagnosis.exit_code) == ("op-fallback-warning", None, 0)


@pytest.mark.parametrize(
    "words",
    [
        "# user: aten::linalg_cholesky_ex is not supported on the MPS backend, so I set the fallback",  # no CPU run
        "# user: the MPS backend falls back to the CPU for some ops",  # no op named
    ],
)
def test_a_fallback_without_its_op_or_its_cpu_run_is_not_the_fallback_note(words: str) -> None:
    assert explain_text(words).cause.id != "op-fallback-warning"
