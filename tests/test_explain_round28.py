"""The classes of input the twenty-eighth out-of-sample round (2026-11-24, vision model zoos, detection and face
apps: rf-detr, YOLOv5/Ultralytics, Grounded-SAM, clip-interrogator, IP-Adapter, RoMa, FiftyOne, nunif) found explain
missing, each read generally:

- torch's dtype-dispatch message with its closing quote cut at the end of a pasted line ("not implemented for
  'Half"): the CPU's missing Half kernel, as with the quote;
- wrong detector output told in words: a box no detector can return ("boxes with negative width values", only with
  --device mps), and results said not to be right ("the bounding box location is not correct") near mps;
- a crash told in words on a line that names the Mac's chip, not mps ("on a m1 Pro ... then crashes"), where the
  paste names mps elsewhere (an MPS banner): an MPS crash, never the banner's healthy run;
- the model run by onnxruntime, not torch (insightface's "Applied providers: [...]", "--execution-provider coreml"):
  an engine with no MPS backend, whatever torch can do; never from a package list that merely names onnxruntime.

The texts are lines of the round's threads (tests/corpus names each) and the same shapes in other words.
"""

from __future__ import annotations

import pytest

from mpscheck.checks.causes import explain_text
from mpscheck.probes.paste import prose
from mpscheck.probes.paste.wrong_words import STRONG_RESULT, WRONG_WORDS

HALF_QUOTE_CUT = [
    'RuntimeError: "LayerNormKernelImpl" not implemented for \'Half',  # Parskatt/RoMa#26, the line's end
    'RuntimeError: "LayerNormKernelImpl" not implemented for \'Half\n```',
    'RuntimeError: "addmm_impl_cpu_" not implemented for \'Half  \n# user: on my M1 with device cpu',
]


@pytest.mark.parametrize("paste", HALF_QUOTE_CUT)
def test_the_half_message_with_its_closing_quote_cut_is_half_on_the_cpu(paste: str) -> None:
    diagnosis = explain_text(paste)
    assert diagnosis.cause.id == "half-on-cpu-fallback"
    assert diagnosis.exit_code == 1


def test_the_half_message_names_the_op_with_or_without_its_closing_quote() -> None:
    cut = explain_text('RuntimeError: "LayerNormKernelImpl" not implemented for \'Half')
    whole = explain_text("RuntimeError: \"LayerNormKernelImpl\" not implemented for 'Half'")
    assert "LayerNormKernelImpl" in cut.cause.summary
    assert cut.cause.summary == whole.cause.summary


@pytest.mark.parametrize(
    "paste",
    [
        "RuntimeError: \"LayerNormKernelImpl\" not implemented for 'HalfTensor'",  # another word, not the dtype
        "RuntimeError: \"LayerNormKernelImpl\" not implemented for 'Halfway'",
    ],
)
def test_a_longer_word_after_half_is_not_the_half_dtype(paste: str) -> None:
    assert explain_text(paste).cause.id != "half-on-cpu-fallback"


WRONG_BOXES = [
    # yolov5#12654: the mps 90 characters after the words
    "# user: I have a few images where the resulting .json file includes one or more boxes with negative width values "
    "(not negative x or y values, which seem normal and are discussed in other issues, but negative width values), but "
    "I have only observed this behavior when running on M1 hardware (with --device mps).",
    # ultralytics#1090
    "# user: for the same detection model, and same code, using cpu gives correct results, however, when using mps "
    "for detection, the bounding box location is not correct.",
    "# user: with device=mps the masks are not accurate, on the CPU they are fine",
    "# user: on mps some detections come out with a negative-height box",
]


@pytest.mark.parametrize("words", WRONG_BOXES)
def test_wrong_boxes_said_near_mps_are_wrong_results(words: str) -> None:
    assert [o.value for o in prose.parse([words]) if o.fact == "paste.wrong_results"] == [True]
    diagnosis = explain_text(words)
    assert diagnosis.cause.id == "metal-bug-fixed-later"
    assert diagnosis.exit_code == 1


@pytest.mark.parametrize(
    "words",
    [
        "# user: mps is not correctly installed on this machine, I think",  # "correctly": a setup, not a result
        "# user: with mps the boxes have negative x or y values, which seem normal",  # no width, height or area
        "# user: my answer above is not correct, sorry",  # no mps near
    ],
)
def test_words_that_are_no_wrong_result_on_mps_are_not_read_as_one(words: str) -> None:
    assert not [o for o in prose.parse([words]) if o.fact == "paste.wrong_results"]


def test_the_new_words_match_exactly_what_they_name() -> None:
    assert STRONG_RESULT.search("negative width").group(0) == "negative width"  # type: ignore[union-attr]
    assert STRONG_RESULT.search("negative-heights").group(0) == "negative-heights"  # type: ignore[union-attr]
    assert STRONG_RESULT.search("negative widthwise") is None
    assert WRONG_WORDS.search("the boxes are not correct.").group(0) == "are not correct"  # type: ignore[union-attr]
    assert WRONG_WORDS.search("it was n't accurate") is None
    assert WRONG_WORDS.search("it wasn't accurate").group(0) == "wasn't accurate"  # type: ignore[union-attr]
    assert WRONG_WORDS.search("is not correct-ish") is None


# A crash told in words on a line naming the Mac's chip, with mps named elsewhere in the paste (yolov5#9613: "Trying to
# train a yolov5 model on a m1 Pro, seems to run for until end of first epoch, then crashes:" above a banner ending
# "MPS"): never healthy, whatever the banner says.
BANNER = "YOLOv5 🚀 v6.2-175-g1460e57 Python-3.8.13 torch-1.13.0.dev20220926 MPS"
CRASH_ON_THE_CHIP = [
    "# user: Trying to train a yolov5 model on a m1 Pro, seems to run for until end of first epoch, then crashes:",
    "# user: on my M2 Max the training crashed after two epochs",
    "# user: it keeps crashing on the Apple M3 Pro when I start predicting",
]


@pytest.mark.parametrize("words", CRASH_ON_THE_CHIP)
def test_a_crash_said_on_the_chips_line_with_an_mps_banner_is_never_healthy(words: str) -> None:
    diagnosis = explain_text(f"{words}\n{BANNER}")
    assert diagnosis.cause.id == "metal-bug-fixed-later"
    assert diagnosis.cause.variant == "crash-said"
    assert diagnosis.exit_code == 1


@pytest.mark.parametrize("words", CRASH_ON_THE_CHIP)
def test_the_chips_line_that_says_crash_is_read_as_such(words: str) -> None:
    facts = [o.fact for o in prose.parse([words])]
    assert "paste.crash_said_mac" in facts
    assert "paste.crash_said" not in facts


def test_a_crash_on_the_chip_without_mps_anywhere_is_not_read_as_an_mps_crash() -> None:
    diagnosis = explain_text("# user: on my M2 Max the game crashed after two levels")
    assert diagnosis.cause.variant != "crash-said"


@pytest.mark.parametrize(
    "words",
    [
        "# user: on my M2 Max the training ran fine",  # no crash word
        "# user: the crash reporter opened on my Mac",  # "crash" not as the run's verb, and no chip
    ],
)
def test_lines_with_no_crash_of_the_run_on_the_chip_are_not_read_as_one(words: str) -> None:
    assert "paste.crash_said_mac" not in [o.fact for o in prose.parse([words])]


# The model run by onnxruntime, not torch (Deep-Live-Cam#1144, #1289; face-swap apps): onnxruntime has no MPS backend.
ONNX_RUNS = [
    "Applied providers: ['CoreMLExecutionProvider', 'CPUExecutionProvider'], with options: {'CPUExecutionProvider': "
    "{}, 'CoreMLExecutionProvider': {}}\ninswapper-shape: [1, 3, 128, 128]\n# user: i run this in M3 Macbook ,it's "
    "only 0.1 FPS,what can i do ?",
    "# user: When running `python3.10 run.py --execution-provider coreml` on my M3 macOS machine with "
    "`onnxruntime-silicon` installed, CPU usage is extremely high.",
    "Processing:  64%| | 7348/11560 [2:28:43<1:11:13,  1.01s/frame, execution_providers=['coreml', 'cpu'], execut\n"
    "# user: the face enhancer is much slower than the swapper on my Mac mini M2",
]


@pytest.mark.parametrize("paste", ONNX_RUNS)
def test_a_model_run_by_onnxruntime_is_an_engine_without_mps(paste: str) -> None:
    diagnosis = explain_text(paste)
    assert diagnosis.cause.id == "backend-has-no-mps"
    assert diagnosis.cause.variant == "onnxruntime"
    assert diagnosis.cause.fix is not None and "onnxruntime" in diagnosis.cause.fix.commands[0]
    assert diagnosis.exit_code == 1


def test_an_onnxruntime_package_in_a_list_is_not_the_engine() -> None:
    paste = "onnxruntime==1.16.3\ntorch==2.1.0\n# user: on my M2 Max it only uses the CPU"
    assert explain_text(paste).cause.id == "mps-not-requested"


def test_a_torch_error_outranks_the_onnxruntime_lines() -> None:
    paste = (
        "Applied providers: ['CoreMLExecutionProvider', 'CPUExecutionProvider'], with options: {}\n"
        "RuntimeError: Placeholder storage has not been allocated on MPS device!"
    )
    assert explain_text(paste).cause.id == "device-mismatch"


def test_torch_shown_running_on_mps_beside_onnxruntime_is_not_read_as_the_engine_without_mps() -> None:
    paste = (
        "Applied providers: ['CoreMLExecutionProvider', 'CPUExecutionProvider'], with options: {}\n"
        ">>> torch.ones(2, device='mps')\ntensor([1., 1.], device='mps:0')"
    )
    assert explain_text(paste).cause.id != "backend-has-no-mps"


def test_the_onnxruntime_lines_match_exactly_what_they_name() -> None:
    from mpscheck.probes.paste.onnx_engine import ONNX_ENGINE

    for line in (
        "Applied providers: ['CPUExecutionProvider']",
        "providers:  ['CoreMLExecutionProvider']",
        "python run.py --execution-provider coreml",
        "facefusion run --execution-providers 'coreml'",
        "1.01s/frame, execution_providers=['coreml', 'cpu']",
    ):
        assert ONNX_ENGINE.search(line), line
    for line in (
        "onnxruntime==1.16.3",
        "pip install onnxruntime-silicon",
        "CoreMLExecutionProviders",
        "--execution-provider cuda",
        "execution_providers=['cuda']",
    ):
        assert not ONNX_ENGINE.search(line), line
