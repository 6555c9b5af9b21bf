#!/usr/bin/env python3
"""Maintainer script: read the opening words of every message torch's C++ core can print from torch's
released macOS wheels, and write mpscheck/knowledge/torch_openings.json.

Run by hand (never in CI, never at run time), after tools/build_knowledge.py, with the standard library:

    python tools/build_openings.py --cache ~/.cache/torch-wheels

The releases are those of mpscheck/knowledge/torch_releases.json (2.0.0 to the newest, arm64), each
downloaded with tools/build_knowledge.py's `download` into --cache. From each wheel, the printable
strings of torch/lib/libtorch_cpu.dylib and torch/lib/libc10.dylib, and the messages torch's Python
modules raise or warn (torch/**/*.py but torch/testing/, read with ast as build_messages.py does): every
string that can open a printed message (it starts with a letter, is words rather than code, a symbol or
a path, by build_messages.py's `is_piece`, and has five words before any value, the first not one that
only continues a sentence) gives its first five words, lowercased (mpscheck/knowledge/torch_openings.py's
`opening_key`). The table is their union over
the releases, sorted, with no timestamps: two runs on the same wheels write identical bytes.

Why only openings: explain needs to know that a bare line a user quoted is torch's message (issue 17),
not which message; the MPS messages, with their releases and causes, are torch_messages.json's.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import sys
import zipfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import build_knowledge as bk
import build_messages as bm

from mpscheck.knowledge.torch_openings import WORD, WORDS, opening_key

OUT = Path(__file__).resolve().parent.parent / "mpscheck" / "knowledge" / "torch_openings.json"
LIBS = ("torch/lib/libtorch_cpu.dylib", "torch/lib/libc10.dylib")
PY_ROOT = "torch/"
PY_SKIP = ("torch/testing/", "torch/include/", "torch/share/")  # test helpers and C headers: not what a run prints
FORMAT = 1
READER_VERSION = 2  # bump when wheel_openings' output changes, so cached readings are redone
MIN_LETTERS = 0.7  # share of letters and spaces in a string that is prose, not a table or an encoding
URL_WORDS = frozenset({"http", "https", "www", "ftp"})
# Metal shader bitcode's metadata strings, compiled into the library beside the messages.
NOT_MESSAGE = re.compile(r"air-alias-scope|TBAA|omnipotent char")


def openings(strings: Iterable[str]) -> set[str]:
    """The opening keys of the strings that can start a printed message."""
    found: set[str] = set()
    for text in strings:
        if not text[:1].isalpha() or not text.isascii() or not bm.is_piece(text) or NOT_MESSAGE.search(text):
            continue
        if sum(c.isalpha() or c == " " for c in text) < MIN_LETTERS * len(text):
            continue
        if len(WORD.findall(text)) < WORDS:
            continue
        key = opening_key(text)
        if key is not None:
            found.add(key)
    return found


def python_openings(source: str) -> set[str]:
    """The opening keys of the messages a torch Python module raises or warns (build_messages.py's
    python_messages), from their literal start: a message that starts with a value opens with no words."""
    try:
        formats = bm.python_messages(source)
    except (SyntaxError, ValueError):
        return set()
    return openings(fmt.split("{}", 1)[0] for fmt in formats)


def wheel_openings(path: Path) -> list[str]:
    """The sorted opening keys of one wheel's libraries, memoised in <cache>/facts/."""
    memo = path.parent / "facts" / f"{path.name}.openings.v{READER_VERSION}.json"
    if memo.exists():
        cached: list[str] = json.loads(memo.read_text(encoding="utf-8"))
        return cached
    found: set[str] = set()
    with zipfile.ZipFile(path) as wheel:
        names = set(wheel.namelist())
        for lib in LIBS:
            if lib in names:
                found |= openings(bk.printable_strings(wheel.read(lib)))
        for name in sorted(names):
            if name.startswith(PY_ROOT) and name.endswith(".py") and not name.startswith(PY_SKIP):
                found |= python_openings(wheel.read(name).decode("utf-8", "replace"))
    keys = sorted(found)
    memo.parent.mkdir(exist_ok=True)
    memo.write_text(json.dumps(keys), encoding="utf-8")
    return keys


def is_wanted(key: str) -> bool:
    """Not a link: torch prints URLs inside messages ("... https://github.com/pytorch/pytorch/issues"), and a user
    pastes the same links on their own, which are no error."""
    return key.split(" ", 1)[0] not in URL_WORDS


def openings_table(per_release: dict[str, Sequence[str]]) -> dict[str, Any]:
    releases = sorted(per_release, key=bk.version_key)
    union = sorted({key for keys in per_release.values() for key in keys if is_wanted(key)})
    return {"format": FORMAT, "words": WORDS, "libraries": list(LIBS), "releases": releases, "openings": union}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--cache", type=Path, required=True, help="wheel cache directory, outside the repository")
    parser.add_argument("--out", type=Path, default=OUT, help="the JSON file to write")
    parser.add_argument("--jobs", type=int, default=2, help="wheels read in parallel")
    args = parser.parse_args(argv)
    args.cache.mkdir(parents=True, exist_ok=True)
    wanted = bm.known_releases()
    wheels = {version: bk.download(version, args.cache, platform, bm.PYTHON) for version, platform in wanted}
    with concurrent.futures.ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = {version: pool.submit(wheel_openings, wheel) for version, wheel in wheels.items()}
        per_release = {version: future.result() for version, future in futures.items()}
    args.out.write_text(bk.dump(openings_table(per_release)), encoding="utf-8")
    print(f"wrote {args.out} ({len(per_release)} wheels)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PIP_DISABLE_PIP_VERSION_CHECK", "1")
    sys.exit(main())
