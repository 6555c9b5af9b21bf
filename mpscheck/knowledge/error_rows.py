"""The shape of a row of the table of known errors (knowledge/errors.py) and of a hit, and how a row's
templates are filled with what the error named: kept apart so the table itself is only data.

A row holds its pattern's text and compiles it on first use: the doctor loads the table with its
checks while the target runs, and compiling its 57 patterns took 15-20 ms of that (more where imports
are slow), for an answer that needs none of them unless torch printed an error.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property

from mpscheck.knowledge.op_limits import OP_LIMITS

ERROR = "error"
WARNING = "warning"  # a performance note, never a failure on its own
TORCH_ISSUE = "https://github.com/pytorch/pytorch/issues/"


@dataclass(frozen=True)
class Row:
    """One known message: what it looks like, what it means, what to type, and who says so."""

    id: str
    regex: str | Callable[[], str]  # the pattern's text, or what builds it (compiled by `pattern`)
    cause: str  # stable cause id (the corpus vocabulary)
    summary: str  # one line; may use the pattern's named groups
    fix: str  # one imperative sentence
    commands: tuple[str, ...] = ()  # templates with {python}, {op}, ...
    source: str = ""  # issue URL or torch source path
    severity: str = ERROR

    @cached_property
    def pattern(self) -> re.Pattern[str]:
        """The compiled pattern, made on first use (frozen: the cache lives in the instance's dict)."""
        return re.compile(self.regex if isinstance(self.regex, str) else self.regex())


@dataclass(frozen=True)
class Hit:
    """A row found in a text: where, the line itself, and the pattern's named groups."""

    row: Row
    line: int  # 1-based line number of the match's start in the text given
    text: str  # that whole line
    groups: Mapping[str, str] = field(default_factory=dict)


class _Keep(dict[str, str]):
    """format_map that leaves an unknown {placeholder} as it is, so nothing is invented."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def fill(template: str, values: Mapping[str, str | None]) -> str:
    """The template with the values it names; unknown placeholders stay visible."""
    known = _Keep({k: v for k, v in values.items() if v is not None})
    try:
        return template.format_map(known)
    except (ValueError, IndexError, AttributeError):
        return template


# The macOS that brought MPS its int64 kernels (cumsum and the rest), read from its one home, knowledge/op_limits.py's
# cited "cumsum-int64-macos13.3" row: what a message that names no macOS says.
INT64_KERNELS_MACOS = ".".join(
    str(part) for row in OP_LIMITS if row.id == "cumsum-int64-macos13.3" for part in row.macos_below or ()
)


def groups_of(match: re.Match[str]) -> dict[str, str]:
    """Named groups, with the alternatives' numbered twins (op2, package3...) folded into one name."""
    out: dict[str, str] = {}
    for name, value in match.groupdict().items():
        if value is None:
            continue
        out.setdefault(name.rstrip("0123456789"), value)
    if "which" in out:
        out["which_upper"] = out["which"].upper()
    out.setdefault("macos_or", out.get("macos", INT64_KERNELS_MACOS))
    return out
