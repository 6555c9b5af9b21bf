"""Meaning-preserving shapes of a paste, each modelled on what a real tool does to copied text (issue 17).

A user's paste reaches explain through a terminal, an e-mail client, GitHub, a chat app, a notebook or a
web page; each of those reshapes the text without changing what it says. Explain must give the same
answer for every shape. Shared by benchmarks/explain_metamorphic.py (every right corpus case under every
shape) and tests/test_explain_metamorphic.py (a fixed, seeded subset run in CI).

``answer(text)`` follows the path of `mpscheck explain -`: a JSON object that is no report is read as
the text it holds (explain_input.as_text), then the paste is judged. Each transformation is a function
of the text alone; a seeded one seeds itself from the text, so every run gives the same shapes.
"""

from __future__ import annotations

import json
import math
import random
import re
from typing import Callable

from mpscheck.checks.causes import Diagnosis, explain_text
from mpscheck.probes.explain_input import as_text, looks_like_report

Transform = Callable[[str], str]


def answer(text: str) -> Diagnosis | None:
    """What `mpscheck explain -` answers for *text*; None when it would read the text as a saved report."""
    if looks_like_report(text):
        return None
    return explain_text(as_text(text))


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _each(text: str, change: Callable[[str], str]) -> str:
    return "\n".join(change(line) for line in _lines(text))


def hard_wrap(width: int) -> Transform:
    """A terminal or an e-mail client that cuts every line at *width* columns, mid-word."""

    def wrap(text: str) -> str:
        out: list[str] = []
        for line in _lines(text):
            out += [line[at : at + width] for at in range(0, len(line), width)] or [""]
        return "\n".join(out)

    return wrap


def soft_wrap(width: int) -> Transform:
    """An e-mail client's plain-text wrap (RFC 3676 format=flowed, Outlook's and Thunderbird's 72 or 76 columns):
    long lines broken at spaces only; a word longer than the width (a path, a URL) and a hyphen stay whole."""

    def wrap(text: str) -> str:
        import textwrap

        return "\n".join(
            textwrap.fill(line, width, break_long_words=False, break_on_hyphens=False) if len(line) > width else line
            for line in _lines(text)
        )

    return wrap


def crlf(text: str) -> str:
    """A Windows editor or an e-mail's MIME text: CR LF line ends."""
    return text.replace("\n", "\r\n")


_LEADING = re.compile(r"\A +")


def cr_cr_lf(text: str) -> str:
    """Text that went through a Windows tool twice (CR CR LF): read, every line end is two, a blank between
    every two lines (what copying from some web pages and Windows apps gives)."""
    return text.replace("\n", "\r\r\n")


def tabs(text: str) -> str:
    """An editor that indents with tabs (4 columns each): leading spaces become tabs, a part tab rounded up."""
    return _each(text, lambda line: _LEADING.sub(lambda m: "\t" * math.ceil(len(m[0]) / 4), line))


def quoted(marks: str) -> Transform:
    """GitHub's or a mail client's quoted reply: *marks* before every line (a blank line keeps its marks)."""
    return lambda text: _each(text, lambda line: (marks + line) if line else marks.rstrip())


def fenced(text: str) -> str:
    """A Markdown code block with a language tag."""
    return "```python\n" + text.strip("\n") + "\n```\n"


def fence_unclosed(text: str) -> str:
    """A Markdown code block whose closing fence was never typed."""
    return "```\n" + text.strip("\n") + "\n"


def chat_fence(text: str) -> str:
    """Slack's or Discord's code block: the fences on the first and the last line of the text itself."""
    return "```" + text.strip("\n") + "```"


def details(text: str) -> str:
    """A GitHub issue template's collapsed log: <details>, a <summary>, then a fenced block."""
    return "<details>\n<summary>Full log</summary>\n\n```\n" + text.strip("\n") + "\n```\n\n</details>\n"


def html_source(text: str) -> str:
    """A web page's source: the text HTML-escaped inside <pre><code>, the tags on its first and last line."""
    return "<pre><code>" + html_escaped(text.strip("\n")) + "</code></pre>\n"


def html_lines(text: str) -> str:
    """An HTML e-mail's or a rich editor's source: a <br> ends every line, the text HTML-escaped."""
    return "<br>\n".join(html_escaped(text).split("\n"))


def bbcode(text: str) -> str:
    """A forum's BBCode block, its tags glued to the text."""
    return "[code]" + text.strip("\n") + "[/code]\n"


def indented(text: str) -> str:
    """An indented Markdown code block: four spaces before every line."""
    return _each(text, lambda line: "    " + line if line else line)


def log_prefix(text: str) -> str:
    """Python logging's default record prefix on every line."""
    return _each(text, lambda line: "2024-05-01 12:00:00,123 INFO " + line)


def ci_prefix(text: str) -> str:
    """A GitHub Actions log downloaded raw: an ISO time stamp with 7 decimals and a Z on every line."""
    return _each(text, lambda line: "2024-05-01T12:00:00.1234567Z " + line)


def clock_prefix(text: str) -> str:
    """A CI log's or a chat export's time stamp on every line."""
    return _each(text, lambda line: "[12:00:00] " + line)


def prose(text: str) -> str:
    """A sentence the user writes before the paste and a question after it; the words name no machine or
    version, so they add no fact (a sentence such as "on my M1" would: it is a fact the paste may lack)."""
    return "Hi, I get this when I run my script:\n\n" + text.strip("\n") + "\n\nAny idea what is wrong?\n"


def prose_naming_the_chip(text: str) -> str:
    """The issue's own example of a user's words: "on my M1" names a chip, a fact the paste may not show, so
    this shape changes the meaning of a paste whose cause is what the chip is (EXCLUDED says which)."""
    return "Hi, I get this when I run my script on my M1:\n\n" + text.strip("\n") + "\n\nAny idea?\n"


def then(*steps: Transform) -> Transform:
    """Several tools one after the other (a log line wrapped by the terminal that shows it, then quoted)."""

    def chained(text: str) -> str:
        for step in steps:
            text = step(text)
        return text

    return chained


def trailing_blanks(text: str) -> str:
    """An editor or a terminal selection that pads lines with spaces."""
    return _each(text, lambda line: line + "   ")


def nbsp(text: str) -> str:
    """A web page or a chat app that copies spaces as non-breaking spaces."""
    return text.replace(" ", "\u00a0")


_OPENS = re.compile(r"(?:(?<=\A)|(?<=[\s(\[{=]))([\"'])")


def curly_quotes(text: str) -> str:
    """A word processor's or a chat app's smart quotes: an opening quote after a blank or a bracket."""
    text = _OPENS.sub(lambda m: "\u201c" if m[1] == '"' else "\u2018", text)
    return text.replace('"', "\u201d").replace("'", "\u2019")


def full_width_colons(text: str) -> str:
    """An East Asian input method: a full-width colon (no space after) where ASCII has ": "."""
    return text.replace(": ", "\uff1a")


def python_repr(text: str) -> str:
    """The text printed as a Python string's repr: one line, quotes and line breaks escaped."""
    return repr(text)


_EXCEPTION = re.compile(r"\A\s*([A-Za-z_][\w.]{0,80}(?:Error|Exception|Warning))\s?: ?(.*)\Z")
_RED, _GREEN, _RESET = "\x1b[0;31m", "\x1b[0;32m", "\x1b[0m"


def _coloured(line: str) -> str:
    """A line as IPython colours it: the exception's name in red, a frame's location in green."""
    exception = _EXCEPTION.match(line)
    if exception:
        return line.replace(exception[1], _RED + exception[1] + _RESET, 1)
    return _GREEN + line + _RESET if line.strip() else line


def jupyter(text: str) -> str:
    """The output as a notebook saves it: an error object (ename, evalue, coloured traceback lines) when it
    ends in an exception, else a stream output (the lines, each with its line end)."""
    lines = _lines(text.strip("\n"))
    raised = [m for m in map(_EXCEPTION.match, lines) if m]
    if raised:
        ename, evalue = raised[-1][1], raised[-1][2]
        cell: dict[str, object] = {"ename": ename, "evalue": evalue, "output_type": "error"}
        cell["traceback"] = [_coloured(line) for line in lines]
    else:
        cell = {"name": "stderr", "output_type": "stream", "text": [line + "\n" for line in lines]}
    return json.dumps(cell, indent=1)


def ansi(text: str) -> str:
    """A coloured terminal copied with its colour codes (bold red, then a 256-colour code, then reset)."""
    return _each(text, lambda line: "\x1b[1;31m\x1b[38;5;196m" + line + "\x1b[0m" if line else line)


def twice(text: str) -> str:
    """The same log pasted twice."""
    return text.strip("\n") + "\n" + text.strip("\n") + "\n"


# Lines whose order carries no meaning: collect_env's package list, pip freeze.
_LISTED = re.compile(r"\A(?:\[(?:pip3?|conda)\] \S|[A-Za-z0-9][\w.-]{0,80}==\S)")
_VERSIONS = re.compile(r"(\(from versions: )([^)\n]{1,4000})(\))")


def shuffled(text: str) -> str:
    """Blocks whose order cannot matter, shuffled: runs of package-list lines, and the versions of pip's
    "from versions:" list. The seed is the text, so every run shuffles alike."""
    rng = random.Random(text)
    lines = _lines(text)
    out: list[str] = []
    run: list[str] = []
    for line in [*lines, None]:
        if line is not None and _LISTED.match(line):
            run.append(line)
            continue
        rng.shuffle(run)
        out += run
        run = []
        if line is not None:
            out.append(line)

    def versions(m: re.Match[str]) -> str:
        items = m[2].split(", ")
        rng.shuffle(items)
        return m[1] + ", ".join(items) + m[3]

    return _VERSIONS.sub(versions, "\n".join(out))


def html_escaped(text: str) -> str:
    """The text as an HTML page's source holds it (GitHub writes &#39; for an apostrophe)."""
    for plain, entity in (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ('"', "&quot;"), ("'", "&#39;")):
        text = text.replace(plain, entity)
    return text


TRANSFORMS: dict[str, Transform] = {
    "wrap-80": hard_wrap(80),
    "wrap-120": hard_wrap(120),
    "soft-wrap-72": soft_wrap(72),
    "soft-wrap-100": soft_wrap(100),
    "crlf": crlf,
    "cr-cr-lf": cr_cr_lf,
    "tabs": tabs,
    "quote": quoted("> "),
    "quote-nested": quoted("> > "),
    "fence": fenced,
    "fence-unclosed": fence_unclosed,
    "chat-fence": chat_fence,
    "details": details,
    "indent-4": indented,
    "log-prefix": log_prefix,
    "ci-prefix": ci_prefix,
    "clock-prefix": clock_prefix,
    "prose": prose,
    "prose-m1": prose_naming_the_chip,
    "trailing-blanks": trailing_blanks,
    "nbsp": nbsp,
    "curly-quotes": curly_quotes,
    "full-width-colon": full_width_colons,
    "repr": python_repr,
    "jupyter": jupyter,
    "ansi": ansi,
    "twice": twice,
    "shuffle": shuffled,
    "html": html_escaped,
    "html-source": html_source,
    "html-lines": html_lines,
    "bbcode": bbcode,
    # two tools in a row: a log's prefix, then the terminal's wrap (the prefix only on a record's first piece);
    # a terminal's wrap, then a quoted reply; a notebook's output copied from its page (HTML-escaped JSON)
    "log-prefix+wrap-80": then(log_prefix, hard_wrap(80)),
    "wrap-80+quote": then(hard_wrap(80), quoted("> ")),
    "crlf+fence": then(crlf, fenced),
}

# (case file, transformation) pairs whose shape changes what the paste says, each with the reason. Only the
# issue's own sentence "on my M1" changes meaning, and only where the cause is which machine runs the Python:
# it contradicts a paste that shows an Intel Mac or a PC, and it completes an x86_64 Python with the Apple chip
# it runs on (then Rosetta is the deeper cause, rightly).
_INTEL = "the paste shows an Intel Mac; the added words say an M1, which contradicts it"
_X86 = "the paste shows an x86_64 Python and no chip; the added M1 makes it Rosetta on Apple silicon (rightly)"
_PC = "the paste shows a machine that is not a Mac; the added words say the script runs on an M1"
EXCLUDED: dict[tuple[str, str], str] = {
    ("cellpose-1468-intel-imac-bf16.txt", "prose-m1"): _INTEL,
    ("invokeai-5165-amd-5700xt-grey-images.txt", "prose-m1"): _INTEL + " (an i7 with an AMD 5700 XT)",
    ("lightning-15861-intel-amd-misconfig.txt", "prose-m1"): _INTEL + " (an AMD Radeon Pro 5700 XT)",
    ("lightning-17667-intel-macbook-env-report.txt", "prose-m1"): _INTEL,
    ("pytorch-141864-intel-amd-bf16.txt", "prose-m1"): _INTEL + " (a Xeon Mac Pro)",
    ("uv-8746-intel-imac-torch-260-tag.txt", "prose-m1"): _INTEL,
    ("whisper-dictation-9-fp16-warning-intel.txt", "prose-m1"): _INTEL,
    ("pytorch-137281-pip-x86-2-4-console.txt", "prose-m1"): _X86,
    ("pytorch-149260-pyenv-x86-2-2-2.txt", "prose-m1"): _X86,
    ("diffusers-1847-accelerate-config-mps-choice-rtx.txt", "prose-m1"): _PC + " (a PC with an RTX 2060)",
    ("pytorch-96881-ubuntu-nvidia-mps.txt", "prose-m1"): _PC + " (Ubuntu 20.04 with an NVIDIA GPU)",
    # The user's first line says Ubuntu in a VM on the M1; the added sentence, read first, says the script runs on
    # the M1 itself (the reader keeps the first statement of where Python runs).
    ("pytorch-120557-ubuntu-vm-on-m1.txt", "prose-m1"): _PC + " (Ubuntu in a VMware guest, said after it)",
}
