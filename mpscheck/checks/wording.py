"""Small wording helpers the checks share: sizes, counts, the first line of an error."""

from __future__ import annotations


def size(num_bytes: int | None) -> str:
    if num_bytes is None:
        return "unknown"
    value, units = float(num_bytes), ("B", "KiB", "MiB", "GiB", "TiB")
    index = 0
    while value >= 1024 and index < len(units) - 1:
        value /= 1024
        index += 1
    return f"{value:.1f}".removesuffix(".0") + f" {units[index]}"


def first_line(text: str | None, limit: int = 240) -> str:
    line = (text or "").strip().splitlines()[0] if (text or "").strip() else ""
    return line if len(line) <= limit else line[: limit - 1] + "…"


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def torch_named(version: str | None) -> str:
    """'torch 2.9.0', or 'torch of unknown version': an unread version is never printed as None."""
    return f"torch {version}" if version else "torch of unknown version"


def newer_than_table(version: str | None) -> str | None:
    """'newer than mpscheck's release table (...)' for a torch released after the table; else None."""
    from mpscheck.knowledge.releases import newer_than_table as newest_known

    newest = newest_known(version)
    if newest is None:
        return None
    return f"newer than mpscheck's release table, which ends at {newest}: facts of {newest} assumed"


def seconds_or_limit(limit: float | None) -> str:
    """'60 s', or 'its time limit' when a saved report does not say which."""
    return f"{limit:g} s" if limit is not None else "its time limit"
