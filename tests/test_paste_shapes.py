"""Readings that must not depend on the shape a paste reached explain in (issue 17): the metamorphic run
(benchmarks/explain_metamorphic.py) found four answers of "healthy" (or a mere fallback note) for pastes that show
wrong results, once the paste was word-wrapped by an e-mail client, wrapped by a terminal after a log's prefix, or
saved as a notebook's output cell. Each class below is read the same in every shape, and not where it is absent.

Texts are lines of karpathy/llm.c#36 (token 0 generated, "does not happen" on the CPU) and pytorch/pytorch#83015
(a tensor copied to mps printed as float32 denormals), reshaped as tests/metamorphic.py does.
"""

from __future__ import annotations

import json

from mpscheck.checks.causes import explain_text
from mpscheck.probes.explain_input import as_text
from mpscheck.probes.paste import read
from mpscheck.probes.paste.degenerate import LIMIT, degenerate_text
from mpscheck.probes.paste.word_cut import word_wrapped

# llm.c#36 word-wrapped at 71 columns: two lines of exactly the width ("on an" / "does not"), two short of it.
LLMC_WRAPPED = [
    "# user: When running `train_gpt2.py`, I get all 16 output tokens equal",
    'to "!" (token 0).',
    "using device: mps",
    "<|endoftext|>!!!!!!!!!!!!!!!!",
    "# user: I am currently using Python 3.12 and PyTorch 2.2.2 on MPS on an",
    "M1 Pro MacBook running MacOS 14.4.1.",
    "# user: I have tried it with Python 3.9 and 3.11 as well (all on Torch",
    "2.2.2), and all have the same issue.",
    "# user: When downgrading to torch 2.1.X or using the CPU, this does not",
    "happen.",
]


def test_a_word_wrap_with_as_many_words_moved_on_as_lines_at_the_width_is_a_word_wrap() -> None:
    """Ties go to the word wrap when each short line's next word would not have fit after it (a terminal's record end
    rarely looks so); a figure ("2.2.2),") goes on a sentence as a lower-case word does."""
    assert word_wrapped(LLMC_WRAPPED, 71)
    text = read("\n".join(LLMC_WRAPPED)).text
    assert "on an M1 Pro MacBook" in text and "this does not happen." in text


def test_a_record_end_whose_next_word_would_have_fit_or_a_time_stamp_below_is_no_word_moved_on() -> None:
    stamp = "2024-05-01 12:00:00,123 INFO"
    log = [
        f"{stamp} /opt/anaconda3/envs/m1/lib/python3.8/site-packages/torch/_tensor_st",  # cut at 80 by a terminal
        "r.py:103: UserWarning: The operator is not currently supported on the MPS",
        f"{stamp} loading the weights of the model from the cache of the hub",  # a record's end, short of 80
        f"{stamp} done",
    ]
    assert not word_wrapped(log, 80)  # a time stamp is no figure of a sentence
    short = ["x" * 60 + " the", "end of it", "y" * 72]  # "end" would have fit after "the": a record's end
    assert not word_wrapped(short, 72)
    assert word_wrapped(["x" * 60 + " the", "everything of it", "y" * 72], 72)  # "everything" would not have


def test_token_zero_over_and_over_against_a_special_token_is_degenerate_output() -> None:
    for line in ("<|endoftext|>!!!!!!!!!!!!!!!!", "Answer: !!!!!!!!!!!!</s>", "<s>!!!!!!!!!!", "<|eot_id|>!!!!!!!!"):
        found = degenerate_text(f"using device: mps\n{line}")
        assert found is not None and found.value == "!" and found.line == 2, line
    for line in (
        "Wow!!!!!!!!!!!! it works",  # someone's words: no special token
        "<|endoftext|>!!!",  # three
        "# <|endoftext|>!!!!!!!!!!",  # the user's words
        "<|endoftext|> !!!!!!!!!!",  # apart from the token
    ):
        assert degenerate_text(line) is None, line


def test_llmc_36_read_in_every_shape_is_a_wrong_result_never_healthy() -> None:
    diagnosis = explain_text("\n".join(LLMC_WRAPPED))
    assert diagnosis.cause.id == "metal-bug-fixed-later"
    only_tokens = "python3 train_gpt2.py\nusing device: mps\niteration 9, loss: 0.37\n<|endoftext|>!!!!!!!!!!!!!!!!"
    assert explain_text(only_tokens).cause.id == "metal-bug-fixed-later"  # the output alone says it


def test_degenerate_text_at_the_end_of_a_long_log_is_read_with_its_own_line_number() -> None:
    head = "step 1 of the run on device mps\n" * (2 * LIMIT // 30)
    found = degenerate_text(head + "the thethethethethethe\nend")
    assert found is not None and found.value == "the"
    assert found.line == head.count("\n") + 1 and found.text == "the thethethethethethe"
    assert degenerate_text(head + "a plain line\nend") is None
    middle = "x\n" * LIMIT + "the thethethethethethe\n" + "y\n" * LIMIT  # between the parts read: said in the docs
    assert degenerate_text(middle) is None


def test_a_notebooks_lines_that_carry_their_own_breaks_are_one_text() -> None:
    cell = {"name": "stderr", "output_type": "stream", "text": ["numpy 1.22.3\n", "pytorch 1.12.1\n"]}
    assert as_text(json.dumps(cell)) == "stderr\nstream\nnumpy 1.22.3\npytorch 1.12.1"
    error = {"ename": "RuntimeError", "evalue": "boom", "traceback": ["Traceback", "RuntimeError: boom"]}
    assert as_text(json.dumps(error)) == "RuntimeError\nboom\nTraceback\nRuntimeError: boom"  # one string a line


GARBAGE_ROWS = [
    "tensor([[ 1.1755e-38,  0.0000e+00,  2.8026e-45,  0.0000e+00,  7.0242e-38,",
    "          0.0000e+00,  0.0000e+00,  0.0000e+00,  7.1746e-43,  2.9427e-44,",
]
WARNING = (
    "UserWarning: The operator 'aten::bitwise_and.Tensor_out' is not currently supported on the MPS backend and will "
    "fall back to run on the CPU."
)


def test_a_tensor_of_denormals_is_garbage_after_a_log_prefix_over_rows_moved_to_the_margin_and_in_a_notebook() -> None:
    prefix = "2024-05-01 12:00:00,123 INFO "
    shapes = {
        "as printed": GARBAGE_ROWS,
        "log prefix": [prefix + row for row in GARBAGE_ROWS],
        "wrapped to the margin": [GARBAGE_ROWS[0][:60], GARBAGE_ROWS[0][60:].strip(), GARBAGE_ROWS[1]],
        "blank between rows": [GARBAGE_ROWS[0], "", GARBAGE_ROWS[1]],
        "Out[3]": ["Out[3]: " + GARBAGE_ROWS[0], GARBAGE_ROWS[1]],
    }
    for shape, rows in shapes.items():
        paste = "\n".join([WARNING, *rows])
        seen = read(paste).get("paste.garbage_values")
        assert seen is not None and seen.line == 2, shape
        assert explain_text(paste).cause.id == "metal-bug-fixed-later", shape
    notebook = {"output_type": "stream", "text": [WARNING + "\n", *(row + "\n" for row in GARBAGE_ROWS)]}
    assert explain_text(as_text(json.dumps(notebook))).cause.id == "metal-bug-fixed-later"


def test_denormals_in_code_or_rows_broken_by_other_lines_are_no_printed_tensor() -> None:
    for start in ("x = tensor([", "y = torch.tensor([", "print(tensor([", ">>> tensor(["):
        rows = [start + GARBAGE_ROWS[0].removeprefix("tensor(["), GARBAGE_ROWS[1]]
        assert read("\n".join(rows)).get("paste.garbage_values") is None, start
    first = GARBAGE_ROWS[0].removesuffix("  7.0242e-38,")  # shorter than the row below: no wrap to undo
    broken = [first, "Then the user's words.", GARBAGE_ROWS[1]]
    assert len(first) < len(GARBAGE_ROWS[1])
    assert read("\n".join(broken)).get("paste.garbage_values") is None
