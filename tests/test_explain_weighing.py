"""explain weighs what a paste shows (issue 17, items 2 and 3): an error line anywhere is read; a crash or
an error no rule knows outranks a healthy banner; positive evidence (get_name(), a model on mps) makes a
paste healthy when nothing contradicts it; an error no hand-written row matches is looked up in the
generated table of torch's MPS messages. Built from tuning-corpus text (tests/corpus), never held-out text.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

import pytest

from mpscheck.checks.causes import explain_text, unmatched
from mpscheck.knowledge import error_texts
from mpscheck.model import ExitCode
from mpscheck.probes.paste import error_line, prose, read, wrong_words
from mpscheck.probes.paste.near import Near
from tests.corpus_cases import CORPUS, load


def corpus(name: str) -> str:
    return load(CORPUS / name).paste


HEALTHY_BANNER = corpus("nixpkgs-351778-healthy-mps-tensor.txt")


@pytest.mark.parametrize(
    ("line", "fact"),
    [
        ("stderr: RuntimeError: User specified an unsupported autocast device_type 'mps'", "paste.error_line"),
        (
            "RuntimeError Placeholder buffer size is not large enough to contain the Tensor storage of size",
            "paste.error_line",
        ),
        ("Mac M3，运行报错：AssertionError: Torch not compiled with CUDA enabled", "paste.error_line"),
        ("RuntimeError                              Traceback (most recent call last)", "paste.error_line"),
        ("Error: tensors must be 2-D", "paste.error_line"),
        ("ERROR: No matching distribution found for torch==2.1.2+cu118", "paste.error_line"),
        ("fatal error: 'torch/extension.h' file not found", "paste.error_line"),
        ("zsh: abort      python3 -c", "paste.crash_line"),
        ("*** Terminating app due to uncaught exception 'NSRangeException', reason:", "paste.crash_line"),
        ("zsh: segmentation fault  python train.py", "paste.crash_line"),
        ("/x/transcribe.py:114: UserWarning: FP16 is not supported on CPU; using FP32 instead", "paste.warning_line"),
    ],
)
def test_an_error_line_is_read_wherever_it_stands(line: str, fact: str) -> None:
    assert [o.fact for o in read(line).observations if o.kind == error_line.KIND] == [fact]


def test_code_that_names_an_error_is_not_an_error_line() -> None:
    text = '    raise ValueError(f"bad {x}")\n    except RuntimeError:\n# [...]'
    assert not [o for o in read(text).observations if o.kind == error_line.KIND]


def test_a_paste_that_shows_an_unknown_error_is_never_unreadable() -> None:
    diagnosis = explain_text(corpus("fastbook-538-view-size-mps.txt"))  # a RuntimeError line and a prose line
    assert diagnosis.exit_code is ExitCode.PROBLEMS
    assert diagnosis.cause.id == "metal-bug-fixed-later" and diagnosis.cause.variant == "unrecognised"
    assert "view size is not compatible" in diagnosis.cause.summary and diagnosis.next_step


@pytest.mark.parametrize("death", ["Segmentation fault: 11", "zsh: bus error  python run.py", "Abort trap: 6"])
def test_a_crash_after_a_healthy_banner_is_not_healthy(death: str) -> None:
    assert explain_text(HEALTHY_BANNER).cause.id == "healthy"
    diagnosis = explain_text(HEALTHY_BANNER + "\n" + death + "\n")
    assert diagnosis.exit_code is ExitCode.PROBLEMS and diagnosis.cause.id != "healthy"
    assert "crashed" in diagnosis.cause.summary


def test_an_unknown_runtime_error_after_a_healthy_banner_is_not_healthy() -> None:
    diagnosis = explain_text(HEALTHY_BANNER + "\nRuntimeError: view size is not compatible with input tensor's size\n")
    assert diagnosis.exit_code is ExitCode.PROBLEMS and diagnosis.cause.variant == "unrecognised"


def test_get_name_naming_a_chip_is_positive_evidence() -> None:
    paste = ">>> import torch\n>>> torch.backends.mps.get_name()\n'Apple M2 Max'\n"
    diagnosis = explain_text(paste)
    assert diagnosis.cause.id == "healthy" and diagnosis.exit_code is ExitCode.READY
    assert "get_name()" in diagnosis.cause.summary


def test_a_paravirtual_device_name_is_not_positive_evidence() -> None:
    paste = ">>> torch.backends.mps.get_name()\n'Apple Paravirtual device'\n"
    assert explain_text(paste).cause.id != "healthy"


def test_a_model_reporting_mps_is_positive_but_torch_device_is_not() -> None:
    shown = corpus("transformers-30071-pipeline-device-repl-healthy.txt")
    assert explain_text(shown).cause.id == "healthy"
    built = "In [1]: torch.device('mps')\nOut[1]: device(type='mps')\n"
    assert explain_text(built).cause.id != "healthy"


def test_a_loaded_checkpoint_failing_inside_torch_load_onto_mps() -> None:
    diagnosis = explain_text(corpus("pytorch-77874-load-map-location-mps-jupyter.txt"))  # the message is cut off
    assert diagnosis.cause.id == "mps-checkpoint-load" and "map_location='cpu'" in diagnosis.cause.fix.summary


def test_torchs_own_default_watermark_refused_is_a_torch_bug() -> None:
    assert explain_text("RuntimeError: invalid high watermark ratio 1.7").cause.id == "metal-bug-fixed-later"
    set_by_user = "export PYTORCH_MPS_HIGH_WATERMARK_RATIO=1.7\nRuntimeError: invalid high watermark ratio 1.7"
    assert explain_text(set_by_user).cause.id == "watermark-invalid"


def test_a_pin_with_no_wheel_here_is_relaxed() -> None:
    cuda = explain_text(corpus("onetrainer-169-torch-cu118-on-m2.txt")).cause
    assert "cu118" in cuda.summary and any(c.endswith("torch==2.1.2") for c in cuda.fix.commands)
    missing = explain_text(corpus("otvision-141-torch-1-10-2-py310-m1.txt")).cause
    assert "1.11.0" in missing.summary and any(c.endswith("install torch") for c in missing.fix.commands)


def test_complex_conversion_is_an_unsupported_dtype_not_a_macos_floor() -> None:
    text = "TypeError: Trying to convert ComplexFloat to the MPS backend but it does not have support for that dtype."
    cause = explain_text(text).cause
    assert cause.id == "dtype-unsupported" and "ComplexFloat" in cause.summary


def test_a_radeon_mac_is_an_intel_mac_for_lightning() -> None:
    assert explain_text(corpus("lightning-15861-intel-amd-misconfig.txt")).cause.id == "intel-mac"


@pytest.mark.parametrize(
    ("text", "cause"),
    [
        ("TypeError: can't convert mps:0 device type tensor to numpy. Use Tensor.cpu() to copy", "device-mismatch"),
        ("RuntimeError: MPS: no support for int64 min/max ops, please cast it to int32", "int64-op-needs-newer-macos"),
        (
            "UserWarning: User provided device_type of 'cuda', but CUDA is not available. Disabling",
            "cuda-requested-on-mac",
        ),
        ("Insufficient Memory (00000008:kIOGPUCommandBufferCallbackErrorOutOfMemory)", "out-of-memory"),
        (
            "RuntimeError: Attempting to deserialize object on CUDA device 0 but torch.cuda.device_count() is 0.",
            "cuda-requested-on-mac",
        ),
        ("RuntimeError: Input type (float) and bias type (c10::Half) should be the same", "input-dtype-mismatch"),
        ("RuntimeError: MPS device does not support linear for non-float inputs", "input-dtype-mismatch"),
        (
            "objc[81]: +[MPSGraphObject initialize] may have been in progress in another thread when fork() was called",
            "fork-after-mps-init",
        ),
        ("ValueError: unsupported device mps", "backend-has-no-mps"),
        ("AttributeError: module 'torch._C' has no attribute '_mps_emptyCache'", "torch-mps-module-missing"),
        ("AttributeError: module 'torch.mps' has no attribute 'current_allocated_memory'", "torch-mps-module-missing"),
        (
            "NotImplementedError: Could not run 'torchvision::nms' with arguments from the 'MPS' backend.",
            "op-not-implemented",
        ),
        ("The installed version of bitsandbytes was compiled without GPU support.", "backend-has-no-mps"),
        ("Error: Cannot install in Homebrew on ARM processor in Intel default prefix (/usr/local)!", "rosetta-python"),
        ("UserWarning: FP16 is not supported on CPU; using FP32 instead", "mps-not-requested"),
        ("  - nothing provides __cuda needed by pytorch-2.1.0-cuda118py310", "no-matching-distribution"),
        ("# user: on my MacBook M1\nDevice set to use cpu", "mps-not-requested"),
        ("RuntimeError: \"LayerNormKernelImpl\" not implemented for 'Half'", "half-on-cpu-fallback"),
    ],
)
def test_torchs_and_the_tools_own_wordings_reach_their_cause(text: str, cause: str) -> None:
    assert explain_text(text).cause.id == cause


def test_a_larger_runner_label_is_a_github_hosted_vm() -> None:
    diagnosis = explain_text(corpus("pytorch-125197-macos-14-xlarge-runner.txt"))
    assert diagnosis.cause.id == "virtual-machine"


def test_a_line_naming_an_intel_mac_and_an_apple_chip_says_neither() -> None:
    facts = read("# user: same problem on an Intel iMac, the env was built on an M1 MacBook").facts
    assert facts.host.cpu_brand is None and facts.host.arm64_hardware is None


def test_nan_results_on_mps_are_not_healthy() -> None:
    diagnosis = explain_text(corpus("diffusers-11229-sdxl-slicing-nan.txt"))
    assert diagnosis.cause.variant == "nan" and diagnosis.exit_code is ExitCode.PROBLEMS
    plain = "tensor([[nan, nan, nan]])\n"  # NaN on the CPU: nothing about mps
    assert explain_text(plain).cause.id != "metal-bug-fixed-later"


def test_the_users_word_that_mps_results_are_wrong_outranks_a_tensor_on_mps() -> None:
    shown = "tensor([1, 2, 3, 4], device='mps:0')\n"
    assert explain_text(shown).cause.id == "healthy"
    said = "# user: cumsum is broken on MPS for int16\n" + shown
    assert explain_text(said).cause.variant == "wrong-results"


def test_a_pc_with_an_nvidia_rtx_is_not_a_mac() -> None:
    cause = explain_text(corpus("diffusers-1847-accelerate-config-mps-choice-rtx.txt")).cause
    assert cause.id == "not-macos" and "NVIDIA" in cause.summary
    assert explain_text("# user: my MacBook M2 is slower than my RTX 3090 at torch").cause.id != "not-macos"


# ---- the generated table of torch's MPS messages (mpscheck.knowledge.messages, feat/torch-messages) ----


@dataclass(frozen=True)
class StandIn:
    """One match as mpscheck.knowledge.messages.match returns it (the fields the judgement reads)."""

    cause: str
    format: str
    condition: str
    first_seen: str
    last_seen: str
    fixed_in: str | None
    macos: str | None
    source: str | None
    line: int
    text: str


def test_an_error_no_row_knows_gets_the_message_tables_class_releases_and_source(monkeypatch) -> None:
    # a stand-in message no row knows (round 46's int64-op row now reads "MPS does not support min/max ops ...")
    line = "RuntimeError: MPS has no int64 path for the min/max reduction yet"
    found = StandIn(
        "int64-op-needs-newer-macos", "MPS has no int64 path for the min/max reduction yet", "dtype",
        "2.0.0", "2.2.2", "2.3.0", "13.3", "aten/src/ATen/native/mps/operations/ReduceOps.mm", 2, line,
    )  # fmt: skip
    monkeypatch.setattr(unmatched, "messages_lookup", lambda: lambda text: [found] if line in text else [])
    cause = explain_text("# user: on an M1\n" + line).cause
    assert cause.id == "int64-op-needs-newer-macos" and cause.variant == "torch-message"
    assert "fixed by torch >= 2.3.0" in cause.summary and "2.0.0 to 2.2.2" in cause.summary
    assert "needs macOS >= 13.3" in cause.summary and cause.source.endswith("ReduceOps.mm")
    assert "operations/ReduceOps.mm; dtype" in cause.summary  # the source location is said, not only kept
    assert any("'torch>=2.3.0'" in c for c in cause.fix.commands)


def test_a_message_of_an_unknown_class_is_still_said_with_its_source(monkeypatch) -> None:
    line = "RuntimeError: something new"
    found = StandIn("some-new-class", "something new", "other", "2.14.0", "2.14.0", None, None, "a/b.mm", 1, line)
    monkeypatch.setattr(unmatched, "messages_lookup", lambda: lambda text: [found])
    cause = explain_text(line).cause
    assert cause.id == "metal-bug-fixed-later" and "torch 2.14.0" in cause.summary and cause.source == "a/b.mm"


def test_a_hand_written_row_outranks_the_message_table(monkeypatch) -> None:
    line = "RuntimeError: Output channels > 65536 not supported at the MPS device"
    found = StandIn("metal-bug-fixed-later", line, "size-limit", "2.0.0", "2.5.1", "2.6.0", None, None, 1, line)
    monkeypatch.setattr(unmatched, "messages_lookup", lambda: lambda text: [found])
    assert explain_text(line).cause.id == "mps-size-limit"


def test_an_argument_check_of_the_real_table_is_the_callers_only_where_the_torch_is_dated() -> None:
    if unmatched.messages_lookup() is None:
        pytest.skip("this mpscheck has no torch message table")
    undated = explain_text(corpus("transformers-20415-gpt2-tensors-2d-torch-1-12.txt")).cause
    assert undated.id == "metal-bug-fixed-later" and undated.variant == "torch-message"
    assert "invalid-argument" in undated.notes[0] and undated.source.endswith("LinearAlgebra.mm")
    dated = explain_text(">>> torch.__version__\n'2.5.1'\nRuntimeError: tensors must be 2-D\n").cause
    assert dated.id == "invalid-argument"


def test_without_the_message_table_the_lookup_is_none_or_its_match() -> None:
    lookup = unmatched.messages_lookup()
    assert lookup is None or callable(lookup)


# ---- linear time ----------------------------------------------------------------------------------


def _patterns() -> list[re.Pattern[str] | Near]:
    found = [row.pattern for row in (*error_texts.EARLY, *error_texts.MORE_EARLY, *error_texts.LATE)]
    modules = (error_line, unmatched)
    found += [v for m in modules for v in vars(m).values() if isinstance(v, re.Pattern)]
    from mpscheck.probes.paste import repl

    found += [
        repl.DEVICE_OUT,
        repl.NAN_ROW,
        repl.MPS_TENSOR,
        repl.SHORT_LABEL,
        wrong_words.WRONG_RESULTS,
        *wrong_words.WRONG_NEAR,
        wrong_words.MAC_RESULTS_BAD,
        wrong_words.MAC_RESULTS_DIFFER,
        prose.MPS_FAILS_SAID,
        wrong_words.WRONG_PICTURE,
        prose.MEMORY_GROWTH,
        prose.NOT_A_MAC,
        prose.NO_MPS_BUILD,
        prose.PC_GPU,
        prose.RUNNER_LABEL,
    ]
    return found


HOSTILE = [
    "a" * 100_000,
    " " * 100_000,
    "RuntimeError: " * 7_000,
    "x:" * 50_000,
    "(" * 100_000,
    "mps" * 33_000,
    "Error" * 20_000 + ":",
    "torch-" * 16_000 + ".wh",
    "building for macOS-arm64 " * 4_000,
    "'" + "A" * 99_999,
    "wrong " * 16_000,
    "mps " * 25_000,
    "macos-14-" * 11_000,
]


def _label(pattern: re.Pattern[str] | Near) -> str:
    return (pattern.words if isinstance(pattern, Near) else pattern).pattern[:40]


@pytest.mark.parametrize("pattern", _patterns(), ids=_label)
def test_every_new_pattern_is_linear_on_hostile_lines(pattern: re.Pattern[str] | Near) -> None:
    for line in HOSTILE:
        # timed again when slow: a backtracking pattern is slow on every try, one timing under load is not
        seconds = _seconds(pattern, line)
        if seconds >= 0.5:
            seconds = min(seconds, _seconds(pattern, line), _seconds(pattern, line))
        assert seconds < 0.5, (_label(pattern), line[:30])


def _seconds(pattern: re.Pattern[str] | Near, line: str) -> float:
    start = time.perf_counter()
    pattern.search(line)
    return time.perf_counter() - start


def test_the_whole_text_search_finds_what_a_search_per_line_finds() -> None:
    """errors.find searches each row in the whole text: exact only while no row's pattern is anchored."""
    from mpscheck.knowledge.errors import TABLE, find
    from tests.corpus_cases import cases

    assert not [r.id for r in TABLE if re.search(r"(?<!\[)\^|\$|\\[AZ]", r.pattern.pattern) or r.pattern.flags & re.M]
    for case in cases():
        lines = case.paste.split("\n")
        naive = [(n, row.id) for n, line in enumerate(lines, 1) for row in TABLE if row.pattern.search(line)]
        assert [(hit.line, hit.row.id) for hit in find(lines)] == naive, case.name


def test_a_log_repeating_an_error_is_judged_once_per_row_and_values() -> None:
    line = "RuntimeError: MPS backend out of memory (MPS allocated: 1.00 GB, other allocations: 2.00 GB, max allowed: "
    line += "18.13 GB). Tried to allocate 20.00 GB on private pool."
    once, often = explain_text(line), explain_text("\n".join([line] * 5000))
    assert once.cause.id == often.cause.id == "out-of-memory" and once.cause.summary == often.cause.summary


def test_slow_conv3d_names_both_causes_and_the_line_that_tells_them_apart() -> None:
    text = (
        "NotImplementedError: The operator 'aten::slow_conv3d_forward' is not currently implemented for the MPS "
        "device. If you want this op to be added in priority during the prototype phase of this feature"
    )
    cause = explain_text(text).cause
    assert cause.id == "device-mismatch" and "32-bit indexing" in cause.summary
    assert "mps-size-limit" in cause.notes[0] and "x.numel()" in cause.fix.commands[0]
