"""An error no rule knows, raised where the traceback shows no torch frame, is not called a torch MPS bug."""

from __future__ import annotations

from mpscheck.checks.causes import explain_text

OUTSIDE = """Traceback (most recent call last):
  File "/Users/me/app/run.py", line 3, in <module>
    cfg = load(path)
KeyError: 'model_name'
"""


def test_an_error_with_no_torch_frame_is_raised_outside_torch() -> None:
    cause = explain_text(OUTSIDE).cause
    assert (cause.id, cause.variant) == ("not-enough-evidence", "outside-torch")
    assert "KeyError: 'model_name'" in cause.summary and "line 2 of the paste" in cause.summary
    assert [e.line for e in cause.evidence] == [2, 4]  # the frame where it ends, the error
    assert cause.fix is not None and cause.fix.commands == ("mpscheck doctor --format markdown",)


def test_a_torch_frame_or_device_words_keep_the_torch_reading() -> None:
    torch_frame = OUTSIDE.replace("/Users/me/app/run.py", "/opt/venv/lib/python3.12/site-packages/torch/nn/x.py")
    assert explain_text(torch_frame).cause.id == "metal-bug-fixed-later"
    for words in ("KeyError: 'mps'", "ValueError: bad dtype", "RuntimeError: tensor sizes differ"):
        assert explain_text(OUTSIDE.replace("KeyError: 'model_name'", words)).cause.variant != "outside-torch", words
    no_frame = "KeyError: 'model_name'\n"
    assert explain_text(no_frame).cause.id == "metal-bug-fixed-later"  # nothing shows where it was raised


def test_a_crash_is_never_read_as_outside_torch() -> None:
    crashed = OUTSIDE + "Segmentation fault: 11\n"
    assert explain_text(crashed).cause.variant != "outside-torch"
