"""The classes among the tuning corpus's own misses (issue 17, round 33), each read generally:

- wrong results told in words the readers missed: nothing detected ("the GPU option does not detect any cells",
  cellpose#1034), an empty result ("returned an empty string"), a result that "seems odd" (Time-Series-Library#677),
  correctness named ("silent correctness issues", pytorch#178497). Said with mps on the line, they are wrong results
  on mps; said on a line of their own, they count where the paste names mps elsewhere (its code or words);
- mps switched for the CPU, and then it works ("when I change mps as cpu generating can work well",
  ng-video-lecture#35): the trouble is the mps run's alone, as "forced to CPU it works" (an earlier round's reading);
- text a language model generated on mps that has degenerated, shown with no words: one word glued to itself over and
  over ("is is is isThisThisThis...", pytorch#84169) or '!' between its words on several lines ("Hello, my name is!!
  I'm a! from!", torchchat#471), where the paste asks for mps (code, a command, a log line);
- the CPU used where the user is after mps, mps never asked for ("看到代码里还是选的cpu" under "所以还是不能用mps 加速",
  CosyVoice_for_MacOs#10; "Since PyTorch now support MPS acceleration I wonder how would I enable gpu", EasyOCR#806):
  MPS is a Mac's, so the run on the CPU is one of a Mac that never asked for mps; not where the paste asks for mps
  ("--device mps" and the CPU ran: another cause) nor where it shows another system;
- a tool or helper that looks for CUDA alone ("try_gpu() function can only detect 'cuda', but not 'mps'", d2l-en#2655),
  or no setting for mps to be found ("I could not figure out the solution or setting about mps", fairseq#4704): the
  run asks for no mps and runs on the CPU, on a Mac (shown, or mps named as what the user is after);
- a version (or, after mps or the Mac, no subject at all) said to run on CUDA alone ("Current version only runs on CUDA
  devices. Can it also run on MacOS M-series chips?", generative-models#6; "MPS Support is unavailable only supports
  CUDA", MVDream#38): CUDA asked for by the code, on a Mac (the chips named after macOS, or mps wanted);
- the same output printed under a label naming the CPU and one naming mps, apart ("# torch 2.8.0 mps" above an
  embedding, "# torch 2.8.0 cpu" above the CPU's, sentence-transformers#3507; two loss logs under "with mac CPU" and
  "when using the MPS, same code and data", pytorch#103343): the values differ on mps, never healthy;
- the same said of "the GPU" of a Mac ("still black images outside of CPU mode" under "OS: macOS 12.6.7 (M1)",
  chaiNNer#2138): a Mac's GPU is torch's mps device, where no PC GPU, no CUDA and no Intel Mac is shown.

The texts are lines of the corpus's threads (tests/corpus names each) and the same shapes in other words.
"""

from __future__ import annotations

import pytest

from mpscheck.checks.causes import explain_text
from mpscheck.model import ExitCode
from mpscheck.probes.paste import read
from tests.corpus_cases import CORPUS, load

BUG = "metal-bug-fixed-later"


def facts_of(text: str) -> list[tuple[str, int]]:
    return [(o.fact, o.line) for o in read(text).observations if o.fact.startswith("paste.wrong")]


# ---- wrong results in other words, on mps or apart from it --------------------------------------------------------

APART = [
    "# user: The predicted line seems odd too...",  # Time-Series-Library#677
    "# user: Several reduce ops are affected by silent correctness issues when ran in rapid succession.",  # #178497
    "# user: many of my test cases now returned an empty string",  # EasyOCR#1039
    "# user: the model does not detect any cells",  # cellpose#1034, without its GPU
    "# user: the outputs look really strange",
]


@pytest.mark.parametrize("line", APART)
def test_wrong_results_said_apart_count_where_the_paste_names_mps(line: str) -> None:
    alone = explain_text(line)
    assert alone.cause.id == "not-enough-evidence"  # no device named: nothing says it ran on mps
    with_mps = explain_text("# user: I run this project on my Mac using mps.\n" + line)
    assert with_mps.cause.id == BUG
    assert with_mps.cause.summary == (
        "the paste says the results are wrong, and the run it shows uses mps; no error explains it"
    )
    assert [e.line for e in with_mps.cause.evidence] == [2]
    assert with_mps.exit_code == ExitCode.PROBLEMS


@pytest.mark.parametrize("line", [s.removeprefix("# user: ") + " with device mps" for s in APART])
def test_the_same_words_with_mps_on_their_line_are_wrong_results_on_mps(line: str) -> None:
    assert facts_of(line) == [("paste.wrong_results", 1)]
    assert explain_text(line).cause.id == BUG


NOT_WRONG = [
    "# user: torch does not detect any GPU on my Mac",  # a device not found: setup, not a result
    "# user: it does not detect any mps device",
    "# user: PyTorch does not detect any Apple GPU here",  # words between: still a device
    "# user: pip index versions torch returns an empty list",  # a list: no model's result
    "# user: the results are different each epoch",  # "different" alone is no wrong result apart from mps
    "# user: the loss seems fine, the speed looks odd",  # the speed is no result
    "# user: it returned an empty line when I pressed enter",
]


@pytest.mark.parametrize("line", NOT_WRONG)
def test_devices_not_found_speeds_and_bare_differences_are_no_wrong_results(line: str) -> None:
    assert facts_of(line) == []
    assert explain_text("# user: I set device = 'mps'\n" + line).cause.id != BUG


# ---- wrong results on the GPU of a Mac ------------------------------------------------------------------------------

ON_GPU = [
    # cellpose#1034, two lines of the thread
    "# user: I decided to install Cellpose 3 on my macOS M1, using Anaconda.\n"
    "# user: All models fail to detect cells using the GPU option. When I use Cellpose + track mate, the GPU option "
    "does not detect any cells.",
    # chaiNNer#2138's shape: the Mac in a template's OS line, black images everywhere but the CPU mode
    "- OS: macOS 12.6.7 (M1)\n# user: I re-installed pytorch, but still black images outside of CPU mode.",
    # the same in other words, the Mac in a template's line
    "- OS: macOS 14.2 (M2)\n# user: the GPU gives garbage images, the CPU is fine",
]


@pytest.mark.parametrize("paste", ON_GPU)
def test_wrong_results_on_the_gpu_of_a_mac_are_wrong_results_on_mps(paste: str) -> None:
    assert ("paste.wrong_on_gpu", len(paste.split("\n"))) in facts_of(paste)
    diagnosis = explain_text(paste)
    assert diagnosis.cause.id == BUG
    assert diagnosis.cause.summary == (
        "the paste says the results on the GPU of this Mac are wrong (torch reaches a Mac's GPU through mps), and "
        "shows no error that would explain it"
    )
    assert diagnosis.exit_code == ExitCode.PROBLEMS


@pytest.mark.parametrize(
    "machine",
    [
        "",  # no machine shown: the GPU may be anyone's
        "# user: my Windows PC with an RTX 3090\n",  # a PC's GPU
        "# user: my Intel Mac (Radeon Pro 5500M)\n",  # an Intel Mac: its GPU is AMD's, a cause of its own
        "# user: on my M1 Mac the script asks for CUDA\n",  # CUDA asked for on the Mac: another cause
    ],
)
def test_wrong_results_on_a_gpu_that_is_not_an_apple_silicon_macs_stay_apart(machine: str) -> None:
    paste = machine + "# user: the GPU option gives black images"
    assert explain_text(paste).cause.summary != (
        "the paste says the results on the GPU of this Mac are wrong (torch reaches a Mac's GPU through mps), and "
        "shows no error that would explain it"
    )


def test_a_gpu_at_zero_percent_is_no_wrong_result() -> None:
    """A number of the GPU ("%GPU is zero") is a run on the CPU (kohya_ss#578), not results called wrong."""
    line = "# user: In Activity Monitor, I can see only CPU is used %CPU and %GUP is zero, the GPU shows 0"
    assert facts_of("# user: my M2 Mac\n" + line) == []


# ---- mps switched for the CPU, and then it works ------------------------------------------------------------------

SWITCHED = [
    "# user: but when I change mps as cpu generating can work well but too slow",  # ng-video-lecture#35
    "# user: switching from mps to cpu fixes it",
    "# user: If I change the mps to the cpu, everything works",
]


@pytest.mark.parametrize("line", SWITCHED)
def test_mps_switched_for_the_cpu_and_then_working_is_trouble_on_mps_alone(line: str) -> None:
    diagnosis = explain_text("# user: the model trains on mps but generation never finishes\n" + line)
    assert diagnosis.cause.id == BUG
    assert diagnosis.cause.summary.startswith("the paste says the trouble goes away on the CPU")
    assert [e.line for e in diagnosis.cause.evidence] == [2]


@pytest.mark.parametrize(
    "line",
    [
        "# user: when I change cpu to mps it works",  # the other way round: mps works
        "# user: I changed mps to cpu and it still fails",  # nothing works
    ],
)
def test_the_cpu_switched_for_mps_or_nothing_working_is_not_that(line: str) -> None:
    assert [o.fact for o in read(line).observations if o.fact == "paste.only_on_mps"] == []


# ---- degenerate generated text from a run asked for mps -----------------------------------------------------------

GLUED = "B: is is is isThisThisThisThisThisThisThisThisThisThis"  # pytorch#84169
BANGS = (
    "<|begin_of_text|>Hello, my name is!! I'm a! from! . I!! !! !!!}\n"  # torchchat#471's shape
    "Hello,! My name is! I'm a! from! .!!!}<|eot_id|>"
)
ASKS = [
    'device = "mps"\nmodel = model.to(device)\n',
    "$ python generate.py llama3 --device mps --dtype fp16\n",
    "Using device=mps\n",
    "x = x.to('mps')\n",
]


@pytest.mark.parametrize("asks", ASKS)
@pytest.mark.parametrize("output", [GLUED, BANGS, "the the the thethethethethethethethe end"])
def test_degenerate_text_from_a_run_asked_for_mps_is_a_wrong_result_on_mps(asks: str, output: str) -> None:
    diagnosis = explain_text(asks + output)
    assert diagnosis.cause.id == BUG
    assert diagnosis.cause.summary.startswith("the text the run on mps generated has degenerated")
    assert diagnosis.exit_code == ExitCode.PROBLEMS


@pytest.mark.parametrize("output", [GLUED, BANGS])
def test_degenerate_text_with_no_request_for_mps_says_nothing_of_mps(output: str) -> None:
    assert explain_text(output).cause.id == "unreadable"  # no word of torch or mps: nothing read
    assert explain_text("import torch\n" + output).cause.id == "not-enough-evidence"
    assert explain_text("device = 'cpu'\n" + output).cause.id != BUG


@pytest.mark.parametrize(
    "output",
    [
        "Help!!! It crashes!!! Please!!!",  # one excited line: someone's words
        "# user: wow!! it works! great! thanks! bye!\n# user: really!! fast! now! yes! ok!",  # the user's words
        "hahahahahahahahahahahahahaha",  # a laugh: a unit of two letters
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        "ThisThisThisThis and more",  # four times: short of six
        "AbcdAbcdAbcdAbcdAbcdAbcdAbcd".upper(),  # capitals throughout: an id or base64, no word
    ],
)
def test_excited_words_laughs_and_short_repeats_are_no_degenerate_text(output: str) -> None:
    cause = explain_text('device = "mps"\n' + output).cause
    # not read as degenerate text; "It crashes" beside mps is a crash told on mps (probes/paste/crash_words.py)
    assert cause.id != BUG or not cause.summary.startswith("the text the run on mps generated has degenerated")


# ---- the CPU used where the user is after mps ------------------------------------------------------------------------

WANTED = [
    "# user: 所以还是不能用mps 加速，只能用cpu 运行吗？\n# user: 看到代码里还是选的cpu",  # CosyVoice_for_MacOs#10
    "# user: Since PyTorch now support MPS acceleration I wonder how would I enable gpu using GPU parameters.",
    "# user: it only uses the CPU, how can I use mps with it?",
]


@pytest.mark.parametrize("paste", WANTED)
def test_the_cpu_used_where_the_user_is_after_mps_is_mps_not_requested(paste: str) -> None:
    diagnosis = explain_text(paste)
    assert diagnosis.cause.id == "mps-not-requested"
    assert diagnosis.exit_code == ExitCode.PROBLEMS


@pytest.mark.parametrize(
    "paste",
    [
        # yolov5#8805: mps asked for, the CPU ran: not a run that never asked (the answer there is another cause)
        "# user: I run the code python detect.py - - device mps but in the process i print(device) program use cpu "
        "not use mps.",
        "# user: with device='mps' it only uses the CPU, how can I use mps?",
        "# user: on Ubuntu 22.04 it only uses the CPU, how can I use mps with it?",  # not a Mac
        "# user: it only uses the CPU, how can I use the gpu?",  # mps never named: anyone's GPU
    ],
)
def test_the_cpu_used_after_asking_for_mps_or_off_a_mac_or_with_no_mps_is_not_that(paste: str) -> None:
    assert explain_text(paste).cause.id != "mps-not-requested"


# ---- a helper that looks for CUDA alone, or no setting for mps ------------------------------------------------------

NO_MPS_SETTING = [
    "# user: I found that try_gpu() function can only detect 'cuda', but not 'mps'. Can anyone add this?",
    "# user: I could not figure out the solution or setting about mps. So I need your help.",
    "# user: the get_device helper only checks for cuda and not mps",
    "# user: there is no option for mps in the settings",
    "# user: I can't find a flag to enable mps",
]


@pytest.mark.parametrize("line", NO_MPS_SETTING)
def test_a_helper_for_cuda_alone_or_no_setting_for_mps_is_the_cpu_used(line: str) -> None:
    assert [(o.fact, o.value) for o in read(line).observations if o.fact == "paste.device_used"] == [
        ("paste.device_used", "cpu")
    ]
    assert explain_text(line).cause.id == "mps-not-requested"


@pytest.mark.parametrize(
    "line",
    [
        "# user: it only detects cuda devices",  # mps never set against it
        "# user: I can't find the mps device",  # a device not found: MPS unavailable, not a setting
        "# user: there is no option for cuda",
        "# user: it can only detect mps, but not cuda",
    ],
)
def test_cuda_alone_or_a_missing_device_is_no_missing_setting_for_mps(line: str) -> None:
    assert [o.fact for o in read(line).observations if o.fact == "paste.device_used"] == []


# ---- CUDA alone, on a Mac --------------------------------------------------------------------------------------------

CUDA_ONLY = [
    "# user: feature: MacOS M1/M2 support\n# user: Current version only runs on CUDA devices.",
    "# user: Current version only runs on CUDA devices. Can it also run on MacOS M-series chips?",
    "# user: MPS Support is unavailable only supports CUDA",
    "# user: on my Mac it fails, the release only supports CUDA",
]


@pytest.mark.parametrize("paste", CUDA_ONLY)
def test_a_version_that_runs_on_cuda_alone_on_a_mac_is_cuda_requested(paste: str) -> None:
    diagnosis = explain_text(paste)
    assert diagnosis.cause.id == "cuda-requested-on-mac"
    assert diagnosis.exit_code == ExitCode.PROBLEMS


@pytest.mark.parametrize(
    "paste",
    [
        "# user: Current version only runs on CUDA devices.",  # no Mac, no mps: anyone's machine
        "# user: on Ubuntu 22.04 the release only supports CUDA, I want mps",  # another system
        "# user: it seems only support NVIDIA CUDA + cuBLAS",  # a library's GPU side: not this reading
        "# user: the Mac version runs fine, it is the Linux build that only supports CUDA devices",
    ],
)
def test_cuda_alone_off_a_mac_or_of_a_library_is_not_cuda_requested_on_a_mac(paste: str) -> None:
    assert explain_text(paste).cause.id != "cuda-requested-on-mac"


# ---- the same output under a CPU label and an mps label ----------------------------------------------------------

LABELLED = [
    # sentence-transformers#3507's shape: two torch versions, each printed on mps and on the CPU
    "# torch 2.7.1 mps\n[ 0.39805853  0.5542307   0.28632626 ... -0.13448414]\n"
    "# torch 2.7.1 cpu\n[ 0.3980594   0.554229    0.2863264  ... -0.13448477]\n\n"
    "# torch 2.8.0 mps\n[ 0.0147207   0.32726386 -0.05635672 ... -0.5942852 ]\n"
    "# torch 2.8.0 cpu\n[ 0.3980594   0.554229    0.2863264  ... -0.13448477]",
    # pytorch#103343's shape: a log under each device, the same steps
    "# user: with mac CPU this is the resulting loss log\n994,tensor(13.4385),2.598125166893005\n"
    "# user: when using the MPS, same code and data\n994,tensor(1.4541),0.3743850642442703",
    "on cpu:\ntensor([1.0000, 2.0000, 3.0000])\non mps:\ntensor([0.0000, 0.0000, 3.0000])",
]


@pytest.mark.parametrize("paste", LABELLED)
def test_the_same_output_under_a_cpu_and_an_mps_label_apart_is_a_wrong_result(paste: str) -> None:
    diagnosis = explain_text(paste)
    assert diagnosis.cause.id == BUG
    assert diagnosis.cause.summary == "one result printed twice (CPU and mps, or eager and compiled): the values differ"
    assert diagnosis.exit_code == ExitCode.PROBLEMS


@pytest.mark.parametrize(
    "paste",
    [
        "# mps\n0.39805853  0.5542307\n# cpu\n0.3980594   0.554229",  # the same values, rounded apart
        "mps:\n12.3s 4.1s\ncpu:\n3.2s 1.0s",  # timings, with their units
        "mps time per step\n0.31 0.29\ncpu time per step\n0.93 0.95",  # timings under their labels
        "# mps\n0.31 0.29\n# cpu\n0.93 0.29",  # one number apart of two: not enough
        "# torch 2.7.1 cpu\n[ 0.39  0.55  0.28]\n# torch 2.8.0 mps\n[ 0.01  0.32 -0.05]\n# torch 2.8.0 cpu\n"
        "[ 0.01  0.32 -0.05]",  # of several blocks, only labels that differ in the device alone are compared
        "# mps\n1 2 3\n# cpu\n1 2",  # not as many numbers
    ],
)
def test_close_values_timings_and_unpaired_blocks_are_no_difference(paste: str) -> None:
    assert explain_text(paste).cause.summary != (
        "one result printed twice (CPU and mps, or eager and compiled): the values differ"
    )


# ---- the corpus's cases of this class -------------------------------------------------------------------------------

MOVED = [
    "pytorch-103343-transformer-loss-differs-nightly.txt",
    "sentence-transformers-3507-embeddings-differ-torch-2-8-mps.txt",
    "cellpose-1034-gpu-detects-no-cells-m1.txt",
    "chainner-2138-black-output-m1-monterey.txt",
    "pytorch-178497-reductions-silent-rapid-succession.txt",
    "time-series-library-677-results-mismatch-mps.txt",
    "ng-video-lecture-35-mps-generate-never-ends.txt",
    "pytorch-84169-causallm-gibberish.txt",
    "torchchat-471-mps-garbled-exclamation-llama3-fp16.txt",
]


@pytest.mark.parametrize(
    "name",
    [
        "cosyvoice-for-macos-10-code-picks-cpu-chinese.txt",
        "easyocr-806-enable-gpu-m1-device-arg.txt",
        "d2l-2655-try-gpu-cuda-only-macos.txt",
        "fairseq-4704-how-to-use-m1-gpu-bart.txt",
    ],
)
def test_the_corpus_cases_of_the_cpu_used_where_mps_is_wanted(name: str) -> None:
    case = load(CORPUS / name)
    assert case.cause == "mps-not-requested"
    assert explain_text(case.paste).cause.id == "mps-not-requested"


@pytest.mark.parametrize(
    "name", ["generative-models-6-only-runs-on-cuda-m-series.txt", "mvdream-38-only-supports-cuda-apple.txt"]
)
def test_the_corpus_cases_of_cuda_alone_on_a_mac(name: str) -> None:
    case = load(CORPUS / name)
    assert case.cause == "cuda-requested-on-mac"
    assert explain_text(case.paste).cause.id == "cuda-requested-on-mac"


@pytest.mark.parametrize("name", MOVED)
def test_the_corpus_cases_of_these_classes_are_wrong_results_on_mps(name: str) -> None:
    case = load(CORPUS / name)
    assert case.cause == BUG
    diagnosis = explain_text(case.paste)
    assert diagnosis.cause.id == BUG
    assert diagnosis.cause.variant in ("wrong-results", "nan")  # nan: the variant of values shown apart
