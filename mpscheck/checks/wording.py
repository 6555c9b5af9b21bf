"""Small wording helpers the checks share: sizes, counts, the first line of an error."""

from __future__ import annotations


def size(num_bytes: int | None) -> str:
    if num_bytes is None:
        return "unknown"
    value = float(num_bytes)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024:
            break
        value /= 1024
    else:
        unit = "TiB"
    return f"{value:.1f}".removesuffix(".0") + f" {unit}"


def first_line(text: str | None, limit: int = 240) -> str:
    line = (text or "").strip().splitlines()[0] if (text or "").strip() else ""
    return line if len(line) <= limit else line[: limit - 1] + "…"


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
