"""Every real paste of tests/corpus: the top cause is the thread's cause, and the fix is the thread's fix.

Cases the engine gets wrong are strict expected failures with the reason, counted as wrong in the
README's share (recompute it with `python benchmarks/explain_corpus.py`).
"""

from __future__ import annotations

import pytest

from mpscheck.checks.causes import explain_text
from tests.corpus_cases import Case, cases, fix_matches

# file name -> why the engine's answer differs from the thread's (strict: a fix turns them into failures).
WRONG_CAUSE = {
    "comfyui-2420-placeholder-fixed-by-macos.txt": "the paste shows only the 'Placeholder storage' message, which "
    "means mixed devices; the thread (UNSURE) credits a macOS update",
    "lightning-13946-platform-check-repl.txt": "the paste shows only a native platform string, no Lightning error",
    "metaflow-1077-x86-python.txt": "an x86_64 Python with no word on the chip: the engine will not guess Rosetta "
    "over an Intel Mac (says x86_64-python)",
    "vllm-metal-379-uv-x86-python.txt": "uv's x86_64 platform tag with no word on the chip: says x86_64-python",
    "pytorch-93148-py311-no-wheel.txt": "pip's failure is only described in prose, its error is not in the paste",
    "ultralytics-3967-macos-12-6.txt": "prose only: macOS 12.6.8 with an unknown torch is not judged too old",
}
WRONG_FIX = {
    "chatglm3-237-use-mps-device.txt": "the thread's fix is the app's own flag (--use_mps_device 1)",
    "fastbook-671-macos-12-7.txt": "the thread's fix is fastai code (dataloaders(device='cpu'))",
    "llama-cpp-python-847-x86-dylib-arm-conda.txt": "the wrong-arch library is llama-cpp-python's, rebuilt with "
    "CMAKE_ARGS; the paste does not name the library, so the tool reinstalls torch",
}


def _params() -> list[object]:
    out = []
    for case in cases():
        reason = WRONG_CAUSE.get(case.name) or WRONG_FIX.get(case.name)
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        out.append(pytest.param(case, id=case.name.removesuffix(".txt"), marks=marks))
    return out


@pytest.mark.parametrize("case", _params())
def test_top_cause_and_fix_are_the_threads(case: Case) -> None:
    diagnosis = explain_text(case.paste)
    assert diagnosis.cause.id == case.cause, diagnosis.cause.summary
    assert fix_matches(case, diagnosis.cause.id, diagnosis.cause.fix), (case.header.get("fix"), diagnosis.cause.fix)


def test_every_case_names_its_source_and_cause() -> None:
    for case in cases():
        assert case.header.get("source", "").startswith("https://"), case.name
        assert case.cause and case.paste.strip(), case.name


def test_the_expected_failures_are_still_corpus_files() -> None:
    names = {case.name for case in cases()}
    assert set(WRONG_CAUSE) | set(WRONG_FIX) <= names


# The corpus writes an out-of-memory case's kind in its notes as "sub-cause: <words>".
SUB_CAUSES = {
    "model too large": "too-large",
    "other processes": "other-processes",
    "watermark setting": "watermark-not-applied",
}


def _oom_kinds() -> list[object]:
    out = []
    for case in cases():
        words = case.header.get("notes", "").partition("sub-cause")[2].lstrip(": ")
        expected = next((variant for phrase, variant in SUB_CAUSES.items() if words.startswith(phrase)), None)
        if case.cause == "out-of-memory" and expected:
            out.append(pytest.param(case, expected, id=case.name.removesuffix(".txt")))
    return out


@pytest.mark.parametrize(("case", "expected"), _oom_kinds())
def test_out_of_memory_kind_is_the_threads(case: Case, expected: str) -> None:
    """Too large, memory taken by others, a watermark setting: told apart by the message's numbers."""
    assert explain_text(case.paste).cause.variant == expected
