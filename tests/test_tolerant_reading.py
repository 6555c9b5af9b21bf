"""Pastes mangled in transit read as the paste itself (issue 17, item 2).

No Mac output is invented here: every case takes the real pastes of tests/corpus and mangles them
the way a terminal, an issue thread or a repr does (hard-wrapped at 80 columns, quoted with "> ",
copied from a repr, annotated with arrows, labels translated), then asserts the same facts and the
same root cause come out.
"""

from __future__ import annotations

import re

import pytest

from mpscheck.checks.causes import explain_text
from mpscheck.facts import to_dict
from mpscheck.probes.paste import read, split
from mpscheck.probes.paste.normalise import join_wrapped, normalise, unrepr
from tests.corpus_cases import CORPUS, load
from tests.test_paste import UNAME_INTEL, UNAME_ROSETTA

PASTES = {path.stem: load(path).paste for path in sorted(CORPUS.glob("*.txt"))}


def wrap(text: str, width: int = 80) -> str:
    """Hard-wrapped as a terminal does: every line cut into pieces of *width* characters."""
    out = []
    for line in text.split("\n"):
        out += [line[i : i + width] for i in range(0, len(line), width)] or [""]
    return "\n".join(out)


def facts_of(text: str) -> dict:
    """The facts read from *text*; of an observed error, what was recognised (its severity and the values
    read from it), not its line number or quoted text, which count and cut the text as given."""
    facts = to_dict(read(text).facts)
    facts["errors"] = sorted(
        (e["severity"], sorted((e.get("values") or {}).items())) for e in facts.get("errors") or []
    )
    return facts


def long_lines(text: str) -> bool:
    return any(len(line) > 80 for line in text.split("\n"))


@pytest.mark.parametrize("name", [n for n, text in PASTES.items() if long_lines(text)])
def test_a_paste_wrapped_at_80_columns_gives_the_same_facts_and_cause(name: str) -> None:
    text = PASTES[name]
    assert facts_of(wrap(text)) == facts_of(text)
    assert explain_text(wrap(text)).cause.id == explain_text(text).cause.id


@pytest.mark.parametrize("name", sorted(PASTES))
def test_a_quoted_reply_gives_the_same_facts(name: str) -> None:
    text = PASTES[name]
    quoted = "\n".join("> " + line for line in text.split("\n"))
    assert facts_of(quoted) == facts_of(text)


ERRORS = [n for n, text in PASTES.items() if re.search(r"^\w*(Error|Exception): ", text, re.M)]


@pytest.mark.parametrize("name", ERRORS)
def test_an_error_copied_from_a_repr_gives_the_same_cause(name: str) -> None:
    text = PASTES[name]
    copied = repr(text)  # one line: \n for the line breaks, \' for quotes when it has both kinds
    assert "\n" not in copied
    assert explain_text(copied).cause.id == explain_text(text).cause.id


def test_a_repr_line_becomes_the_lines_it_held() -> None:
    line = r"RuntimeError('MPS backend out of memory (MPS allocated: 1 GB)\nIt\'s the cap')"
    assert unrepr(line) == ["RuntimeError('MPS backend out of memory (MPS allocated: 1 GB)", "It's the cap')"]
    assert unrepr(r"C:\new\dir") == [r"C:\new\dir"]  # no error words: a Windows path stays as it is


@pytest.mark.parametrize("text", [UNAME_ROSETTA, UNAME_INTEL])
def test_a_uname_line_wrapped_or_split_before_its_machine_reads_the_same(text: str) -> None:
    assert facts_of(wrap(text)) == facts_of(text)
    line = next(x for x in text.split("\n") if "Darwin Kernel" in x)
    cut = line.rindex(" ")
    lines = [line[:cut], line[cut + 1 :]]  # the machine moved to the next line, its space lost
    assert join_wrapped(lines) == [line.rstrip()[:cut] + " " + line[cut + 1 :], ""]
    assert facts_of("\n".join(lines)) == facts_of(line)


def test_annotated_values_read_like_a_repl() -> None:
    def printed_value(lines: list[str]) -> str | None:
        """The value a REPL printed on the line after `platform.machine()`, if that is how the paste shows it."""
        at = next((i for i, line in enumerate(lines) if "platform.machine()" in line and "→" not in line), None)
        after = lines[at + 1].strip() if at is not None and at + 1 < len(lines) else ""
        return after.strip("'") if re.fullmatch(r"'?\w+'?", after) else None

    name = next(n for n, t in PASTES.items() if printed_value(split(t)))
    value = printed_value(split(PASTES[name]))
    annotated = f"platform.machine() → {value!r}"
    assert read(annotated).facts.target.interpreter.machine == read(PASTES[name]).facts.target.interpreter.machine


def test_normalising_keeps_a_map_to_the_original_lines() -> None:
    result = normalise(["first", r"ValueError: a\nb", "last"])
    assert result.lines == ["first", "ValueError: a", "b", "last"]
    assert result.origin == [1, 2, 2, 3]


# a report whose OS line is whole (pytorch-126919's stored copy ends inside it, "OS: macOS 14.4.1 (": no value to
# read by once its label is translated)
COLLECT_ENV = [
    n for n, text in PASTES.items() if re.search(r"^OS: macOS", text, re.M) and not re.search(r"^OS: .*\($", text, re.M)
]
TRANSLATED = {  # collect_env's labels in other languages; the values are the real paste's
    "OS": "Betriebssystem",
    "Python version": "Versión de Python",
    "Python platform": "Plateforme Python",
    "Chip": "Étiquette de puce",
    "CPU": "Processore",
}


@pytest.mark.parametrize("name", COLLECT_ENV)
def test_collect_env_with_translated_labels_reads_by_the_values(name: str) -> None:
    text = PASTES[name]
    translated = text
    for label, other in TRANSLATED.items():
        translated = re.sub(rf"^{re.escape(label)}:", f"{other}:", translated, flags=re.M)
    assert translated != text
    original, read_back = read(text).facts, read(translated).facts
    assert read_back.host.macos_version == original.host.macos_version
    assert read_back.host.system == original.host.system
    if original.target.interpreter and original.target.interpreter.version:
        assert read_back.target.interpreter is not None
        assert read_back.target.interpreter.version == original.target.interpreter.version
    if original.target.interpreter and original.target.interpreter.mac_ver:
        assert read_back.target.interpreter.mac_ver == original.target.interpreter.mac_ver  # type: ignore[union-attr]


from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

PIECES = [*"ab _/\\'\"()→>:=nt\t0123456789", "\\n", "Error", "Darwin ", "arm64", "(e.g.,", "`macosx_14_0_arm64`"]
MANGLED = st.lists(st.lists(st.sampled_from(PIECES), max_size=40).map("".join), max_size=30)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(MANGLED)
def test_normalising_any_lines_is_total_and_keeps_its_map(lines: list[str]) -> None:
    result = normalise(lines)
    assert len(result.origin) == len(result.lines)
    assert all(1 <= n <= len(lines) for n in result.origin)
    assert result.origin == sorted(result.origin)
    assert len(join_wrapped(lines)) == len(lines)  # joining keeps the numbering


def test_the_wrap_width_is_read_from_the_paste_as_pasted() -> None:
    """A soft-wrapped message joined first is a line longer than the terminal's: the width the rest of the paste was
    cut at is still read from the lines as they were pasted (pytorch-86152 wrapped at 80 columns)."""
    from mpscheck.probes.paste.normalise import join_wrapped

    pasted = ["a" * 79 + "b", "cd", "x" * 80, "y"]
    soft_joined = ["a" * 79 + "b", "cd", "x" * 80 + " y and more words", ""]
    assert join_wrapped(soft_joined)[0] == "a" * 79 + "b"  # the longest line hides the width
    assert join_wrapped(soft_joined, pasted)[0] == "a" * 79 + "bcd"
