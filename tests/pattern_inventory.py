"""Every regular expression of the mpscheck package, and hostile lines to time them on.

The patterns are found three ways, so a new one cannot slip past the linearity test: compiled
patterns reachable from module globals, class attributes and table rows (tuples, lists, dicts,
dataclass instances, and what a row compiles on first use: its cached properties); string
literals passed to ``re.<function>(...)`` in the source; and every pattern the ``re`` module
compiles while ``explain`` reads the whole corpus (the dynamic ones, such as the REPL reader's
expression shapes joined with a tail).
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import importlib
import pkgutil
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import mpscheck

ROOT = Path(mpscheck.__file__).parent
_RE_DIR = str(Path(re.__file__).parent)
_RE_FUNCTIONS = {"compile", "search", "match", "fullmatch", "sub", "subn", "split", "findall", "finditer"}


def module_names() -> list[str]:
    names = ["mpscheck"]
    for info in pkgutil.walk_packages([str(ROOT)], prefix="mpscheck."):
        names.append(info.name)
    return sorted(names)


def _walk(value: Any, found: dict[str, re.Pattern[str]], where: str, seen: set[int], depth: int = 0) -> None:
    if depth > 6 or id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, re.Pattern):
        if isinstance(value.pattern, str):
            found.setdefault(f"{value.pattern!r}/{value.flags}", value)
        return
    if isinstance(value, (str, bytes, int, float, bool)) or value is None:
        return
    if isinstance(value, dict):
        for item in value.values():
            _walk(item, found, where, seen, depth + 1)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            _walk(item, found, where, seen, depth + 1)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            _walk(getattr(value, field.name, None), found, where, seen, depth + 1)
        for name, attribute in vars(type(value)).items():  # a row's pattern, compiled on first use
            if isinstance(attribute, functools.cached_property):
                _walk(getattr(value, name, None), found, where, seen, depth + 1)


def module_patterns() -> dict[str, re.Pattern[str]]:
    """Compiled patterns in every module's globals, its classes' attributes, and its tables' rows."""
    found: dict[str, re.Pattern[str]] = {}
    seen: set[int] = set()
    for name in module_names():
        module = importlib.import_module(name)
        for attribute, value in vars(module).items():
            if isinstance(value, type) and value.__module__ == name:
                for item in vars(value).values():
                    _walk(item, found, f"{name}.{attribute}", seen)
            elif not isinstance(value, type) and not callable(value):
                _walk(value, found, f"{name}.{attribute}", seen)
    return found


def literal_patterns() -> dict[str, re.Pattern[str]]:
    """String literals given straight to a function of ``re`` anywhere in the package's source."""
    found: dict[str, re.Pattern[str]] = {}
    for path in ROOT.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args):
                continue
            owner = node.func.value
            if not (isinstance(owner, ast.Name) and owner.id == "re" and node.func.attr in _RE_FUNCTIONS):
                continue
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.setdefault(f"{first.value!r}/0", re.compile(first.value))
    return found


@contextmanager
def recording_compiles() -> Iterator[dict[str, re.Pattern[str]]]:
    """Every str pattern ``re`` compiles inside the block (its cache is bypassed by wrapping _compile)."""
    found: dict[str, re.Pattern[str]] = {}
    original = re._compile  # type: ignore[attr-defined]

    def spy(pattern: Any, flags: Any) -> Any:
        compiled = original(pattern, flags)
        caller = sys._getframe(1)
        while caller is not None and caller.f_code.co_filename.startswith(_RE_DIR):
            caller = caller.f_back
        # Only mpscheck's own patterns: pathlib's glob and other library internals are not ours to fix.
        mine = caller is not None and caller.f_code.co_filename.startswith(str(ROOT))
        if mine and isinstance(compiled.pattern, str):
            found.setdefault(f"{compiled.pattern!r}/{compiled.flags}", compiled)
        return compiled

    re._compile = spy  # type: ignore[attr-defined]
    try:
        yield found
    finally:
        re._compile = original  # type: ignore[attr-defined]


def literals_of(pattern: re.Pattern[str]) -> list[str]:
    """The runs of literal characters in *pattern*, in order (its own words: the likeliest near-misses)."""
    from re import _parser as parser  # type: ignore[attr-defined]

    runs: list[str] = []

    def visit(items: Any) -> None:
        current = ""
        for op, arg in items:
            name = str(op)
            if name == "LITERAL":
                current += chr(arg)
                continue
            if current:
                runs.append(current)
                current = ""
            if name == "SUBPATTERN":
                visit(arg[-1])
            elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
                visit(arg[2])
            elif name == "BRANCH":
                visit(arg[1][0])
            elif name == "IN":
                chars = [chr(a) for o, a in arg if str(o) == "LITERAL"]
                if chars:
                    runs.append(chars[0])
        if current:
            runs.append(current)

    with suppress(Exception):  # an odd pattern still gets the generic lines
        visit(parser.parse(pattern.pattern, pattern.flags))
    return list(dict.fromkeys(r for r in runs if r))[:10]


GENERIC_UNITS = (
    "_",
    "/",
    " ",
    "0",
    "9.",
    "a",
    "A",
    "'",
    '"',
    "(",
    "[",
    "{",
    "a ",
    "a_",
    "1.",
    "x/",
    ":",
    "-",
    "=",
    ".",
    "\t",
    "a:",
    "a=",
    "/a",
    "0 ",
    "@",
    "a@",
    "\\",
    "`",
    "\x1b[",
    "%",
    "a/",
    "1,",
)
TAILS = (" ", "a", "0", "_", "/", ".", "'", "a ", " a", "0.", "\t")


def hostile_lines(pattern: re.Pattern[str], size: int) -> Iterator[tuple[str, str]]:
    """(label, line) pairs of about *size* characters built to make a backtracking matcher work hard:
    long runs of one character, nested brackets, the pattern's own words repeated, and the pattern's
    leading words followed by a long run that almost continues them (then a character that ends it)."""
    for unit in GENERIC_UNITS:
        yield f"run of {unit!r}", unit * (size // len(unit))
    yield "nested brackets", "(" * (size // 2) + ")" * (size // 2)
    yield "nested square", "[" * (size // 2) + "]" * (size // 2)
    words = literals_of(pattern)
    for word in words:
        yield f"repeated {word!r}", word * max(1, size // len(word))
        yield f"{word!r} and spaces", (word + " ") * max(1, size // (len(word) + 1))
        for k in range(1, min(len(word), 3) + 1):
            yield f"prefix {word[:k]!r} repeated", word[:k] * (size // k)
    for k in range(1, len(words) + 1):
        for glue in ("", " "):
            head = glue.join(words[:k])
            for tail in TAILS:
                body = tail * ((size - len(head)) // len(tail))
                yield f"{head[:30]!r} then {tail!r}", head + body + "\x00"
            for later in words[k : k + 2]:
                yield f"{head[:30]!r} then {later!r} repeated", head + later * max(1, (size - len(head)) // len(later))
