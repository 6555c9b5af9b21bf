"""The classes of input the twenty-ninth out-of-sample round (2026-11-24, speech synthesis, voice and music tools:
coqui TTS, parler-tts, chatterbox and its front ends, Spark-TTS, VoxCPM, F5-TTS, GPT-SoVITS, RVC voice changers,
metavoice) found explain missing, each read generally:

- torch's CUDA checkpoint message cut after its opening (an issue title cut at 80 characters: "... but
  torch.cuda.is_availabl"): torch words "Attempting to deserialize object on a CUDA device" for nothing else, so
  the cut message is the same error;
- the user's words that a tool's default picks the CPU, followed by a question of its own ("auto defaults to CPU on
  Apple Silicon. Any chance we could expose MPS?"): the statement stands, only a question that closes the same
  sentence makes it a guess;
- the CPU said to be still in use with any subject ("selecting auto in the Chatterbox engine still runs on CPU").

The texts are lines of the round's threads (tests/corpus names each) and the same shapes in other words.
"""

from __future__ import annotations

import pytest

from mpscheck.checks.causes import explain_text
from mpscheck.probes.paste.cpu_words import CPU_ONLY, cpu_said

CUT_CHECKPOINT = [
    "mac Attempting to deserialize object on a CUDA device but torch.cuda.is_availabl",  # GPT-SoVITS#1296's title
    "Attempting to deserialize object on a CUDA device but torch.cuda.is_avail",
    "RuntimeError: Attempting to deserialize object on a CUDA device",
]


@pytest.mark.parametrize("paste", CUT_CHECKPOINT)
def test_the_cuda_checkpoint_message_cut_after_its_opening_is_a_cuda_checkpoint(paste: str) -> None:
    diagnosis = explain_text(paste)
    assert diagnosis.cause.id == "cuda-requested-on-mac"
    assert diagnosis.exit_code == 1
    assert diagnosis.cause.fix is not None
    assert "map_location" in diagnosis.cause.fix.summary


def test_the_whole_checkpoint_message_reads_as_the_cut_one() -> None:
    whole = explain_text(
        "RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. "
        "If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to "
        "map your storages to the CPU."
    )
    cut = explain_text("RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_availabl")
    assert whole.cause.id == cut.cause.id == "cuda-requested-on-mac"
    assert whole.cause.summary == cut.cause.summary


@pytest.mark.parametrize(
    "paste",
    [
        # torch words the other backends' message with their own name: not a CUDA checkpoint
        "RuntimeError: Attempting to deserialize object on a HPU device but torch.hpu.is_available() is False.",
        "Attempting to deserialize object on a CUDAish device",  # another word, not CUDA
    ],
)
def test_another_backend_or_word_is_not_the_cuda_checkpoint(paste: str) -> None:
    assert explain_text(paste).cause.id != "cuda-requested-on-mac"


DEFAULT_THEN_QUESTION = [
    # TTS-Audio-Suite#160: the statement, then a question of its own
    "# user: They audio engines only provide Auto, CPU and CUDA as the device, but auto defaults to CPU on Apple "
    "Silicon. Any chance we could expose MPS?",
    "# user: whisper defaults to cpu on my M2 Mac! How do I get it on the GPU?",
]


@pytest.mark.parametrize("line", DEFAULT_THEN_QUESTION)
def test_a_default_to_the_cpu_followed_by_another_sentences_question_is_said(line: str) -> None:
    assert cpu_said(line)
    diagnosis = explain_text(line)
    assert diagnosis.cause.id == "mps-not-requested"
    assert diagnosis.exit_code == 1


@pytest.mark.parametrize(
    "line",
    [
        "# user: does it default to CPU on Apple Silicon?",  # the sentence itself is the question
        "# user: auto defaults to CPU on Apple Silicon, or does it pick mps when it can?",
        "# user: auto defaults to cpu? Any chance we could expose MPS?",
    ],
)
def test_a_default_asked_in_its_own_sentence_is_not_said(line: str) -> None:
    assert not cpu_said(line)


STILL_ON_CPU = [
    "# user: Running the 4.14.5 and selecting auto in the Chatterbox engine still runs on CPU (M4 Max, 128GB GPU)",
    "# user: even with --device mps the training still running on the cpu",
    "# user: I passed mps to the G and D models, it still trains on CPU",
]


@pytest.mark.parametrize("line", STILL_ON_CPU)
def test_the_cpu_said_still_in_use_with_any_subject_is_the_cpu_used(line: str) -> None:
    assert CPU_ONLY.search(line)


@pytest.mark.parametrize(
    "line",
    [
        "# user: it still runs on cpu-only machines too",  # a kind of machine, not what ran
        "# user: the model still runs on CPU build of torch",
        "# user: it still runs on cpus from 2015",
    ],
)
def test_still_on_a_cpu_build_or_machine_is_not_the_cpu_used(line: str) -> None:
    assert not CPU_ONLY.search(line)


def test_the_tts_suite_paste_is_mps_not_requested_never_healthy() -> None:
    paste = "\n".join(
        [
            DEFAULT_THEN_QUESTION[0],
            STILL_ON_CPU[0],
            "🌍 Loading ChatterBox Official 23-Lang model for German on auto",
            "🌍 Loading ChatterBox Official 23-Lang model for German on cpu",
        ]
    )
    diagnosis = explain_text(paste)
    assert diagnosis.cause.id == "mps-not-requested"
    assert diagnosis.exit_code != 0
