"""explain gives the same answer when the same paste arrives in another shape (issue 17's metamorphic run).

A fixed, seeded subset of (transformation, corpus case) pairs, small enough for CI: every transformation of
tests/metamorphic.py at least once, the tuning cases explain gets right (cause and fix), and the answer must stay
the thread's. The full run, every right case under every transformation, is benchmarks/explain_metamorphic.py.
"""

from __future__ import annotations

import pytest

from mpscheck.checks.causes import explain_text
from tests.corpus_cases import CORPUS, Case, fix_matches, load
from tests.metamorphic import EXCLUDED, TRANSFORMS, answer

# Drawn by `python benchmarks/explain_metamorphic.py --draw` (seed "issue-17") on 2026-11-24, then kept as it is
# so that the corpus growing does not move it: one pair per transformation, then 9 at random, each a pair
# that kept its answer when drawn.
DRAWN = [
    ("wrap-80", "diffbir-60-cuda-chinese-sentence.txt"),
    ("wrap-120", "comfyui-kwaikolors-20-to-cuda-flat-trace.txt"),
    ("soft-wrap-72", "ultralytics-4695-healthy-banner.txt"),
    ("soft-wrap-100", "mrdbourke-643-placeholder-forward.txt"),
    ("crlf", "rasbt-notes-4-torch-too-old.txt"),
    ("tabs", "transcribe-anything-52-rosetta-uv.txt"),
    ("quote", "onetrainer-169-torch-cu118-on-m2.txt"),
    ("quote-nested", "pytorch-77748-empty-memory-format.txt"),
    ("fence", "invokeai-4017-sdxl-timesteps-float64.txt"),
    ("fence-unclosed", "uv-10262-py313-no-macos-wheel.txt"),
    ("chat-fence", "invokeai-2638-k-dpm-2-a-float64.txt"),
    ("details", "h2ogpt-1362-bf16-title.txt"),
    ("indent-4", "mmsegmentation-2909-placeholder-bare-line.txt"),
    ("log-prefix", "esrgan-134-ndarray-2-32-ventura.txt"),
    ("ci-prefix", "invsr-13-cu121-index-on-m1-pro.txt"),
    ("clock-prefix", "rfdiffusion-5-placeholder-linear.txt"),
    ("prose", "open-webui-8324-sentence-transformers-cpu-only.txt"),
    ("prose-m1", "llamaindex-8743-oom-env-var.txt"),
    ("trailing-blanks", "ultralytics-4695-healthy-banner.txt"),
    ("nbsp", "transcribe-anything-52-rosetta-uv.txt"),
    ("curly-quotes", "peachpy-122-aifeynman-float64-ipython.txt"),
    ("full-width-colon", "pytorch-125254-inductor-device-mps-not-supported.txt"),
    ("repr", "happy-transformer-294-cumsum-out-not-implemented.txt"),
    ("jupyter", "executorch-7772-nightly-x86-anaconda.txt"),
    ("ansi", "clip-interrogator-ext-74-oom-best-mode.txt"),
    ("twice", "onetrainer-169-torch-cu118-on-m2.txt"),
    ("shuffle", "voice-chat-ai-19-cpu-local-version-macos.txt"),
    ("html", "ultralytics-9113-zero-metrics-mps.txt"),
    ("log-prefix+wrap-80", "runner-images-9918-mps-oom-zero.txt"),
    ("wrap-80+quote", "pytorch-77874-load-map-location-mps-jupyter.txt"),
    ("crlf+fence", "accelerate-3718-fp16-requires-gpu-not-mps.txt"),
    ("chat-fence", "mmsegmentation-2909-placeholder-bare-line.txt"),
    ("jupyter", "reranker-4-docker-compose-not-linked.txt"),
    ("fence-unclosed", "whisper-webui-71-torch-python-too-new.txt"),
    ("twice", "chemprop-711-float64-trainer-fit.txt"),
    ("fence-unclosed", "pytorch-90635-cumsum-int-wrong.txt"),
    ("log-prefix", "f5-tts-443-unfold-backward.txt"),
    ("fence-unclosed", "pytorch-130790-placeholder-training-m1-title.txt"),
    ("indent-4", "pytorch-148194-nightly-sdpa-placeholder-assert.txt"),
    ("nbsp", "executorch-7772-nightly-x86-anaconda.txt"),
    (
        "cr-cr-lf",
        "pytorch-83384-m1-nightly-conda-unsatisfiable.txt",
    ),  # the shape added after the draw, its case drawn with seed "issue-17-cr-cr-lf"
    (
        "html-source",
        "textgen-5216-bf16-not-supported.txt",
    ),  # added after the draw, drawn with seed "issue-17-html-source"
    ("html-lines", "basaran-173-model-not-moved.txt"),  # added after the draw, drawn with seed "issue-17-html-lines"
    ("bbcode", "pytorch-106594-sgn-fallback-warning.txt"),  # added after the draw, drawn with seed "issue-17-bbcode"
]
# Pairs whose answer changed before issue 17's metamorphic round fixed its class (benchmarks/explain_metamorphic.py
# listed them): a time alone before every line, one line hard-wrapped at 120 columns, a whole paste printed as a
# Python string, a paste repeated twice (its lines taken for a wrap, its repeated warning for an unknown error), a
# quoted reply of a wrapped paste (one of them answered "healthy" over a sparse error), a line of exactly 100
# columns that is no wrap; then a chat app's code fence glued to the text, and a message soft-wrapped where the
# next word did not fit or where a glued join would match as much (its numbers on the next line); then HTML
# and BBCode markup glued to the text.
FIXED = [
    ("clock-prefix", "comfy-cli-568-rosetta-annotated-probe.txt"),
    ("clock-prefix", "transformers-30071-pipeline-device-repl-healthy.txt"),
    ("wrap-120", "anydoor-58-cuda-m3-pro-prose.txt"),
    ("wrap-120", "iopaint-230-torch-1-10.txt"),
    ("repr", "sd-webui-11633-upsample-nearest-half.txt"),
    ("repr", "whisper-cpp-66-rosetta-terminal-sysctl.txt"),
    ("twice", "tch-rs-777-healthy-python-repl.txt"),
    ("twice", "tomesd-27-fallback-warnings-successful-run.txt"),
    ("wrap-80+quote", "whisper-webui-276-sparse.txt"),
    ("wrap-80+quote", "pytorch-134416-conv1d-channels-quoted.txt"),
    ("html", "tch-rs-777-healthy-python-repl.txt"),
    ("chat-fence", "pytorch-78042-placeholder-buffer-size-nightly.txt"),
    ("chat-fence", "spack-31283-healthy-repl.txt"),
    ("soft-wrap-72", "fooocus-690-freeu-fft-switching-to-cpu.txt"),
    ("soft-wrap-72", "llama-cpp-29176-uv-cpu-index-macos.txt"),
    ("soft-wrap-100", "comfyui-2489-oom-truncated-advice.txt"),
    ("soft-wrap-100", "pytorch-105839-oom-other-processes.txt"),
    ("html-source", "pytorch-78042-placeholder-buffer-size-nightly.txt"),
    ("html-lines", "transformers-30071-pipeline-device-repl-healthy.txt"),
    ("bbcode", "instructlab-1112-gha-metal.txt"),
]


def _case(name: str) -> Case:
    return load(CORPUS / name)


@pytest.mark.parametrize(("transform", "name"), DRAWN + FIXED, ids=[f"{t}:{n[:-4]}" for t, n in DRAWN + FIXED])
def test_the_answer_holds_when_the_paste_changes_shape(transform: str, name: str) -> None:
    case = _case(name)
    text = TRANSFORMS[transform](case.paste)
    assert text != case.paste, "the shape must change the paste, or the pair tests nothing"
    diagnosis = answer(text)
    assert diagnosis is not None, "read as a saved report"
    assert diagnosis.cause.id == case.cause, diagnosis.cause.summary
    assert fix_matches(case, diagnosis.cause.id, diagnosis.cause.fix), (case.header.get("fix"), diagnosis.cause.fix)


def test_the_subset_covers_every_transformation_with_right_cases() -> None:
    assert {t for t, _ in DRAWN} == set(TRANSFORMS)
    for transform, name in DRAWN + FIXED:
        assert (name, transform) not in EXCLUDED
        case = _case(name)  # the unchanged paste is answered right too, or the pair says nothing
        diagnosis = explain_text(case.paste)
        assert diagnosis.cause.id == case.cause and fix_matches(case, diagnosis.cause.id, diagnosis.cause.fix)


def test_every_exclusion_names_a_corpus_case_a_transformation_and_a_reason() -> None:
    for (name, transform), reason in EXCLUDED.items():
        assert (CORPUS / name).is_file() and transform in TRANSFORMS and len(reason) > 20


def test_a_notebooks_error_object_and_stream_are_read_as_their_text() -> None:
    """The jupyter shape is what nbformat saves: an error object (ename, evalue, coloured traceback) for a paste
    ending in an exception, else a stream output; both are JSON that no report reader takes."""
    error = TRANSFORMS["jupyter"]("Traceback (most recent call last):\nRuntimeError: MPS backend out of memory")
    assert '"ename": "RuntimeError"' in error and '"output_type": "error"' in error and "\\u001b[0;31m" in error
    stream = TRANSFORMS["jupyter"]("True")
    assert '"output_type": "stream"' in stream and '"True\\n"' in stream


def test_a_matched_warning_repeated_later_in_a_log_is_not_an_unknown_error() -> None:
    """A log that repeats a known line: the repeat is the same known line, not a second, unmatched error."""
    note = (
        "/Users/u/tomesd/merge.py:66: UserWarning: MPS: no support for int64 min/max ops, casting it to int32 "
        "(Triggered internally at /Users/runner/work/pytorch/pytorch/pytorch/aten/src/ATen/native/mps/operations/"
        "Sort.mm:39.)"
    )
    run = note + "\n  rand_idx = idx_buffer.argsort(dim=1)\n100%|####| 24/24 [00:43<00:00,  1.82s/it]\n"
    assert explain_text(run).cause.id == "op-fallback-warning"
    assert explain_text(run + "# user: and again:\n" + run).cause.id == "op-fallback-warning"
