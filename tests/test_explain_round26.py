"""The classes of input the twenty-sixth out-of-sample round (2026-11-24, image and video generation: training tools
and video models: kohya_ss, CogVideo, LTX-Video, Fooocus, flux, diffusers training, ComfyUI video nodes) found
explain missing, each read generally:

- transformers' own warning for a pipeline() made with no device while an accelerator is there ("Hardware
  accelerator e.g. GPU is available in the environment, but no `device` argument is passed to the `Pipeline`
  object. Model will be on CPU."), printed by every tool that builds one (flux's NSFW classifier, a notebook's
  sentiment pipeline, a server's model): that pipeline runs on the CPU although MPS is there, so mps was never asked
  for; some transformers print "Model will be on CPU." on a line of its own.

The texts are lines of the round's threads (tests/corpus names each) and the same shape in other settings.
"""

from __future__ import annotations

import pytest

from mpscheck.checks.causes import explain_text
from mpscheck.knowledge.errors import first

WARNING = (
    "Hardware accelerator e.g. GPU is available in the environment, but no `device` argument is passed to the "
    "`Pipeline` object. Model will be on CPU."
)
SPLIT = (
    "Hardware accelerator e.g. GPU is available in the environment, but no `device` argument is passed to the "
    "`Pipeline` object.\nModel will be on CPU."
)


@pytest.mark.parametrize(
    "paste",
    [
        WARNING,  # flux#48's title
        f"❯ python -m flux --name flux-dev --loop --device mps\n{WARNING}\n❯ git rev-parse HEAD",  # flux#19
        SPLIT,  # transformers versions that break the line before "Model will be on CPU."
        f"    {WARNING}\n    \n\n\n```python\nexample_result = data['output'].values\n```",  # a notebook's output cell
        "INFO:     Started reloader process [47783] using WatchFiles\n"
        f"{WARNING}\nINFO:     Started server process [47787]",  # a uvicorn server's log on a Mac
    ],
)
def test_a_transformers_pipeline_built_with_no_device_is_mps_not_requested(paste: str) -> None:
    diagnosis = explain_text(paste)
    assert diagnosis.cause.id == "mps-not-requested"
    assert diagnosis.cause.fix is not None
    assert "device='mps'" in diagnosis.cause.fix.summary
    assert diagnosis.cause.evidence and "`Pipeline` object" in diagnosis.cause.evidence[0].text
    assert diagnosis.exit_code == 1


def test_the_pipeline_warning_is_a_warning_a_real_error_outranks() -> None:
    oom = (
        "RuntimeError: MPS backend out of memory (MPS allocated: 8.76 GB, other allocations: 289.91 MB, max allowed: "
        "9.07 GB). Tried to allocate 84.38 MB on private pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable "
        "upper limit for memory allocations (may cause system failure)."
    )
    assert explain_text(f"{WARNING}\n{oom}").cause.id == "out-of-memory"
    assert explain_text(f"{oom}\n{WARNING}").cause.id == "out-of-memory"


def test_the_pipeline_warning_on_linux_is_not_a_mac_question() -> None:
    paste = f"Python platform: Linux-5.15.0-x86_64-with-glibc2.35\nIs CUDA available: True\n{SPLIT}"
    assert explain_text(paste).cause.id == "not-macos"


@pytest.mark.parametrize(
    "paste",
    [
        # the same words about other objects, or the user's own code that passes a device, say nothing
        "pipe = pipeline('sentiment-analysis', device='mps')",
        "# user: no device argument is passed to my model, is that why it is slow?",
    ],
)
def test_other_device_words_are_not_the_pipeline_warning(paste: str) -> None:
    assert "transformers pipeline" not in explain_text(paste).cause.summary


# --- a shell line that fills the wrap width, then a warning's header (Fooocus#1176 wrapped at 80 columns) -------

SHELL_80 = "[~/d/Fooocus] : PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 python entry_with_update.py"
WARNING_HEADER = "/Users/pantuza/dev/Fooocus/modules/anisotropic.py:132: UserWarning: The operator"
CUT_IN_A_WORD = " 'aten::std_mean.correction' is not currently supported on the MPS backend and w"


def test_a_warning_header_from_a_root_folder_starts_a_record_after_a_line_of_the_wrap_width() -> None:
    from mpscheck.probes.paste.normalise import join_wrapped

    assert len(SHELL_80) == len(WARNING_HEADER) == len(CUT_IN_A_WORD) == 80
    lines = [SHELL_80, WARNING_HEADER, CUT_IN_A_WORD, "ill fall back to run on the CPU."]
    assert join_wrapped(lines) == [
        SHELL_80,
        WARNING_HEADER + CUT_IN_A_WORD + "ill fall back to run on the CPU.",
        "",
        "",
    ]


def test_a_long_path_cut_just_before_its_own_slash_is_still_joined() -> None:
    from mpscheck.probes.paste.normalise import join_wrapped

    # kohya_ss#883 wrapped at 80: the cut falls before "/bitsandbytes", a package folder, not a root one
    first = "/Users/aniketsharma/Documents/taining/kohya_ss/venv/lib/python3.10/site-packages"
    second = "/bitsandbytes/cextension.py:33: UserWarning: The installed version of bitsandbyt"
    last = "es was compiled without GPU support."
    assert len(first) == len(second) == 80
    assert join_wrapped([first, second, last, "x" * 80]) == [first + second + last, "", "", "x" * 80]


def test_the_wrapped_fooocus_paste_keeps_its_home_folder() -> None:
    from mpscheck.probes.paste import read

    text = (
        f"{SHELL_80}\n{WARNING_HEADER}{CUT_IN_A_WORD}ill fall back to run on the CPU. (Triggered internally at /Users/r"
    )
    wrapped = "\n".join(line[i : i + 80] for line in text.split("\n") for i in range(0, len(line), 80))
    assert read(wrapped).facts.target.interpreter.home == "/Users/pantuza"


# The known-errors rows read torch's message as users quote it in their words (merged with round 26)


@pytest.mark.parametrize(
    "line",
    [
        "If you run the example workflow you will get a 'torch not compiled with cuda' error on macOS/OSX.",
        "AssertionError: Torch not compiled with CUDA enabled",
    ],
)
def test_cuda_not_compiled_is_read_in_any_case_and_cut(line: str) -> None:
    hit = first(line)
    assert hit is not None and hit.row.id == "cuda-on-mac"


def test_automatic1111s_own_caught_cuda_probe_is_still_no_error() -> None:
    assert first("Warning: caught exception 'Torch not compiled with CUDA enabled', memory monitor disabled") is None


@pytest.mark.parametrize(
    "line",
    [
        "run new node on M1 Max [OSX] get error [unsupported autocast device_type 'mps']",  # ComfyUI-LTXVideo#90
        "RuntimeError: User specified an unsupported autocast device_type 'mps'",
    ],
)
def test_the_autocast_refusal_is_read_without_its_opening_words(line: str) -> None:
    hit = first(line)
    assert hit is not None and hit.row.cause == "autocast-needs-newer-torch"
