"""Everything explain says about every paste of the tuning corpus, compared whole with
tests/golden/explain_corpus.txt.

test_corpus.py holds each case to the thread's cause and fix; this one holds the rest of the answer:
the other causes, each cause's summary, evidence lines, fix, source and variant, the findings, the
facts the readers pulled out and the exit code. A changed reader, table row or ranking rule shows as
a diff of the cases it moves, to review; `pytest --update-golden` rewrites the file when the change
is meant. The held-out quarter is left out: its answers are scored, never read while tuning.
"""

from __future__ import annotations

import difflib
from typing import Any

import pytest

from mpscheck.checks.causes.judge import explain_text
from mpscheck.render.paste import to_json
from tests.conftest import GOLDEN
from tests.corpus_cases import cases

NAME = "explain_corpus.txt"


def flatten(value: Any, path: str = "") -> list[str]:
    """One ``path: value`` line per leaf, leaves that hold nothing (None, "", [], {}) left out."""
    if isinstance(value, dict):
        return [line for key, item in value.items() for line in flatten(item, f"{path}.{key}" if path else key)]
    if isinstance(value, list):
        return [line for i, item in enumerate(value) for line in flatten(item, f"{path}[{i}]")]
    if value is None or value == "":
        return []
    return [f"{path}: {value!r}"]


def blocks() -> dict[str, str]:
    """Each tuning-corpus case's answer, as reviewable lines."""
    return {
        case.name: "\n".join([f"== {case.name}", *flatten(to_json(explain_text(case.paste)))]) + "\n"
        for case in cases()
    }


def _split(text: str) -> dict[str, str]:
    """The stored blocks by case name: a block starts at a line ``== NAME`` (values are one-line reprs)."""
    out: dict[str, list[str]] = {}
    lines: list[str] = []
    for line in text.splitlines(keepends=True):
        if line.startswith("== "):
            lines = out.setdefault(line[3:].rstrip("\n"), [])
        lines.append(line)
    return {name: "".join(lines) for name, lines in out.items()}


def test_every_corpus_answer_is_the_reviewed_one(request: pytest.FixtureRequest) -> None:
    got = blocks()
    path = GOLDEN / NAME
    if request.config.getoption("--update-golden"):
        path.write_text("".join(got.values()))
    stored = _split(path.read_text())
    assert list(got) == list(stored), "the corpus and the golden file list different cases: `pytest --update-golden`"
    for name, text in got.items():
        if text != stored[name]:
            diff = "\n".join(difflib.unified_diff(stored[name].splitlines(), text.splitlines(), lineterm="", n=1))
            pytest.fail(f"explain's answer to {name} changed (`pytest --update-golden` if meant):\n{diff[:4000]}")


def message_blocks() -> str:
    """Explain's answer to each torch MPS message of the generated table alone, its {} filled: the
    class fix, the releases it names and the notes, for messages no corpus paste shows."""
    from mpscheck.knowledge import messages

    lines = []
    for message in messages.messages():
        answer = to_json(explain_text("RuntimeError: " + message.format.replace(messages.PLACEHOLDER, "x7")))
        cause = answer["cause"]
        kept = {key: cause[key] for key in ("id", "summary", "fix", "notes", "variant")}
        lines.append(
            f"{message.id}: {kept!r} exit {answer['exit_code']} others {[c['id'] for c in answer['other_causes']]}"
        )
    return "\n".join(lines) + "\n"


def test_every_torch_message_alone_gets_the_reviewed_answer(golden) -> None:
    golden("explain_messages.txt", message_blocks())


def test_text_with_nothing_to_read_is_answered_unreadable_exactly() -> None:
    answer = to_json(explain_text("qwerty zxcv 12345"))
    assert (answer["kinds"], answer["exit_code"], answer["other_causes"], answer["next"]) == ([], 2, [], None)
    assert answer["cause"] == {
        "id": "unreadable",
        "summary": "nothing in the input could be read",
        "evidence": [],
        "fix": None,
        "source": "",
        "notes": [],
        "variant": None,
    }
