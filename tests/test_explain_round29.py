"""The classes of input the twenty-ninth out-of-sample round (2026-11-24, speech synthesis, voice and music tools:
coqui TTS, parler-tts, chatterbox and its front ends, Spark-TTS, VoxCPM, F5-TTS, GPT-SoVITS, RVC voice changers,
metavoice) found explain missing, each read generally:

- torch's CUDA checkpoint message cut after its opening (an issue title cut at 80 characters: "... but
  torch.cuda.is_availabl"): torch words "Attempting to deserialize object on a CUDA device" for nothing else, so
  the cut message is the same error;
- the user's words that a tool's default picks the CPU, followed by a question of its own ("auto defaults to CPU on
  Apple Silicon. Any chance we could expose MPS?"): the statement stands, only a question that closes the same
  sentence makes it a guess;
- the CPU said to be still in use with any subject ("selecting auto in the Chatterbox engine still runs on CPU");
- an audio tool's wrong result told in words: silence where sound should be ("the vocals file is silent" with MPS
  enabled, the CPU run fine): wrong results on mps, never a healthy run;
- a bug template's field whose value is Docker ("| **SOFTWARE** | Docker |"): the tool runs in a Linux container,
  even on the Mac the template names;
- the code said, in Chinese, to still choose the CPU ("看到代码里还是选的cpu");
- a known message that a rich console wrapped, padding each line with blanks and indenting the next ("restore
  data" + blanks, blanks + "location of ... (tagged with mps:0)"): joined back as one message;
- only the tail of torch's MPS out-of-memory message, its head cut ("..... disable upper limit for memory
  allocations (may cause system failure)"): out of memory;
- a precision flag set off ("with or without `--bf16 false`") is no request for mixed precision;
- results called noise on a line that names the Mac by its product ("on M3 Max MacBook Pro ... outputs are digital
  noise"): wrong results on the Mac.

The texts are lines of the round's threads (tests/corpus names each) and the same shapes in other words.
"""

from __future__ import annotations

import pytest

from mpscheck.checks.causes import explain_text
from mpscheck.probes.paste.container import TEMPLATE_FIELD
from mpscheck.probes.paste.cpu_words import CPU_ONLY, cpu_said
from mpscheck.probes.paste.normalise import join_split_messages
from mpscheck.probes.paste.precision import FLAG
from mpscheck.probes.paste.wrong_words import STRONG_RESULT

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


SILENT = [
    # tsurumeso/vocal-remover#173
    "# user: I'm running it successfully on the CPU, but when I enable GPU (Mac M1, MPS - validated it detects "
    "torch.backends.mps) the output isn't split.  The mixed file is spit out to the instrumentals while the vocals "
    "file is silent.",
    "# user: with device mps the generated audio is completely silent on my M2",
    "# user: on mps it produces only silence, the cpu version speaks fine",
    "# user: the TTS gives no sound when I pick mps",
]


@pytest.mark.parametrize("line", SILENT)
def test_silence_where_sound_should_be_on_mps_is_a_wrong_result(line: str) -> None:
    diagnosis = explain_text(line)
    assert diagnosis.cause.id == "metal-bug-fixed-later"
    assert diagnosis.exit_code == 1


@pytest.mark.parametrize(
    "line",
    [
        "the silent period at the start is trimmed",  # silence as a feature, no result called silent
        "a file is saved",
        "the output is silently ignored",  # an adverb, not the result
    ],
)
def test_silence_words_not_said_of_a_result_are_not_wrong_results(line: str) -> None:
    assert not STRONG_RESULT.search(line)


DOCKER_FIELDS = [
    "| **SOFTWARE**  | Docker                          |",  # DrewThomasson/ebook2audiobook#178
    "Installation method: Docker",
    "| Environment | docker compose |",
    "**Platform:** Docker Desktop",
]


@pytest.mark.parametrize("line", DOCKER_FIELDS)
def test_a_template_field_whose_value_is_docker_is_a_container(line: str) -> None:
    assert TEMPLATE_FIELD.match(line)


@pytest.mark.parametrize(
    "line",
    [
        "Installation method: Docker, but I also tried a venv on the Mac",  # more than Docker alone
        "| **SOFTWARE**  | Python 3.11 (not Docker) |",
        "Platform: macOS 14.5",
        "I run it in Docker sometimes",  # prose, read elsewhere
    ],
)
def test_a_field_with_more_than_docker_or_no_docker_is_not_a_container(line: str) -> None:
    assert not TEMPLATE_FIELD.match(line)


def test_the_docker_table_on_a_mac_is_linux_never_healthy() -> None:
    paste = "\n".join(
        [
            "| **Category**  | **Details**                      |",
            "|---------------|----------------------------------|",
            "| **HARDWARE**  | MacBook M1 Pro Max              |",
            "| **SOFTWARE**  | Docker                          |",
            "| **TIME**      | Running for 10 minutes  - Only 12% done        |",
        ]
    )
    diagnosis = explain_text(paste)
    assert diagnosis.cause.id == "not-macos"
    assert diagnosis.exit_code == 1


@pytest.mark.parametrize("line", ["看到代码里还是选的cpu", "默认使用的是CPU", "它仍然用cpu"])
def test_the_cpu_still_chosen_said_in_chinese_is_the_cpu_used(line: str) -> None:
    assert CPU_ONLY.search(line)


def test_the_cpu_still_chosen_in_chinese_on_a_named_mac_is_mps_not_requested() -> None:
    diagnosis = explain_text("# user: 我的 MacBook M2 Pro 跑推理很慢\n看到代码里还是选的cpu")
    assert diagnosis.cause.id == "mps-not-requested"
    assert diagnosis.exit_code == 1


RICH_WRAPPED = [
    "> RuntimeError: don't know how to restore data                ",
    "                    location of torch.storage.UntypedStorage (tagged            ",
    "                    with mps:0) ",
]


def test_a_message_a_rich_console_padded_and_indented_is_joined() -> None:
    joined = join_split_messages(RICH_WRAPPED)
    assert joined[0].endswith("restore data location of torch.storage.UntypedStorage (tagged with mps:0)")
    assert joined[1:] == ["", ""]


def test_the_rich_wrapped_restore_message_is_an_mps_checkpoint() -> None:
    diagnosis = explain_text("\n".join(RICH_WRAPPED))  # voicepaw/so-vits-svc-fork#804
    assert diagnosis.cause.id == "mps-checkpoint-load"
    assert diagnosis.exit_code == 1


def test_short_lines_of_their_own_are_not_joined_across_blanks() -> None:
    lines = ["Epoch 1/3        ", "    loss: 0.5   ", "Epoch 2/3"]
    assert join_split_messages(lines) == lines


OOM_TAIL = [
    # ace-step/ACE-Step-1.5#1336's title
    "[generate_music] Generation failed. Music generation failed: .....disable upper limit for memory allocations "
    "(may cause system failure).",
    "Error: ...disable upper limit for memory allocations (may cause system failure)",
]


@pytest.mark.parametrize("paste", OOM_TAIL)
def test_the_tail_of_the_mps_out_of_memory_message_is_out_of_memory(paste: str) -> None:
    diagnosis = explain_text(paste)
    assert diagnosis.cause.id == "out-of-memory"
    assert diagnosis.exit_code == 1


def test_the_whole_message_keeps_its_numbers_reading() -> None:
    whole = explain_text(
        'RuntimeError: "MPS backend out of memory (MPS allocated: 6.82 GB, other allocations: 750.70 MB, max '
        "allowed: 9.07 GB). Tried to allocate 2.17 GB on private pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to "
        'disable upper limit for memory allocations (may cause system failure)."'
    )
    assert whole.cause.id == "out-of-memory"
    assert whole.cause.variant == "too-large"


@pytest.mark.parametrize(
    ("line", "asked"),
    [
        ("# user: with or without ` --bf16 false` doesn't matter.", False),
        ("python train.py --fp16 False", False),
        ("python train.py --bf16 off --lr 1e-4", False),
        ("python train.py --bf16 --lr 1e-4", True),
        ("python train.py --fp16 True", True),
    ],
)
def test_a_precision_flag_set_off_is_no_request(line: str, asked: bool) -> None:
    assert bool(FLAG.search(line)) is asked


NOISE_ON_A_MAC = [
    # ace-step/ACE-Step#8
    "# user: Having the same experience on M3 Max MacBook Pro. No problem setting up the venv and running the app, "
    "but outputs are digital noise.",
    "# user: on my iMac the results are just noise",
]


@pytest.mark.parametrize("line", NOISE_ON_A_MAC)
def test_results_called_noise_on_a_named_mac_are_wrong_results(line: str) -> None:
    diagnosis = explain_text(line)
    assert diagnosis.cause.id == "metal-bug-fixed-later"
    assert diagnosis.exit_code == 1


@pytest.mark.parametrize(
    "line",
    [
        "# user: on my MacBook the noise scheduler is set to ddim",  # noise as a setting, no result called noise
        "# user: the MacBook fan noise is loud while it runs",
    ],
)
def test_noise_not_said_of_a_result_is_no_wrong_result(line: str) -> None:
    assert explain_text(line).cause.id != "metal-bug-fixed-later"


def test_a_rich_wrapped_message_inside_a_quoted_reply_is_joined_without_the_quote_marks() -> None:
    quoted = ["> " + line for line in RICH_WRAPPED]  # the whole paste quoted again in a reply
    joined = join_split_messages(quoted)
    assert joined[0].endswith("restore data location of torch.storage.UntypedStorage (tagged with mps:0)")
    assert joined[1:] == ["", ""]
    assert explain_text("\n".join(quoted)).cause.id == "mps-checkpoint-load"
