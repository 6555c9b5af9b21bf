"""What the judge knows, as it sees it, compared whole with tests/golden/knowledge.txt.

The generated JSON tables are versioned and reviewed as files; the loaders and the hand-written rows
turn them into what the rules read. This file holds that result: every row of the known-errors
table, every torch message with the pattern it is matched by, the dtype and op limits, the silent
bugs, the release facts per release and architecture, the optimizer paths, the chip peaks, and the
answers of the version helpers over a grid of inputs (a macOS per release floor, each Python, both
architectures, versions older and newer than the table). A changed loader or row shows as a diff to
review; `pytest --update-golden` rewrites the file when the change is meant.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import json
import re
from collections.abc import Iterator
from typing import Any

from mpscheck.knowledge import (
    causes,
    dtype_limits,
    errors,
    messages,
    op_limits,
    ops,
    optim_paths,
    peaks,
    releases,
    silent_bugs,
    sizes,
    versions,
)

VERSIONS = ["1.12.1", "1.13", "2.0", "2.1", "2.1.9", "2.3.0", "2.4", "2.8.0", "2.13.0", "2.15", "2.16.0"]
VERSIONS += ["2.16.0.dev20261101", "2.16.0rc1", "3.0", "", "garbage"]
MACOS = [(11, 7), (12, 0), (12, 3), (12, 7, 6), (13, 0), (13, 5), (14, 0), (14, 4), (15, 1), (26, 0)]
PYTHONS = [None, "3.8", "3.9", "3.10", "3.11", "3.12", "3.13", "3.14"]
ARCHES = ["arm64", "x86_64", None]


def canon(value: Any) -> Any:
    """A value as JSON-able data in one order whatever the hash seed: sets sorted, patterns as text."""
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = {f.name: canon(getattr(value, f.name)) for f in dataclasses.fields(value)}
        for name, attribute in vars(type(value)).items():  # what a row computes on first use (its pattern)
            if isinstance(attribute, functools.cached_property):
                out[name] = canon(getattr(value, name))
        return out
    if isinstance(value, re.Pattern):
        return f"re:{value.pattern}"
    if isinstance(value, (set, frozenset)):
        return sorted((canon(v) for v in value), key=repr)
    if isinstance(value, (list, tuple)):
        return [canon(v) for v in value]
    if isinstance(value, dict):
        return {str(k): canon(v) for k, v in sorted(value.items(), key=lambda kv: repr(kv[0]))}
    if callable(value):
        return f"<{getattr(value, '__name__', type(value).__name__)}>"
    return value


def entry(title: str, value: Any) -> str:
    return f"{title}: {json.dumps(canon(value), sort_keys=True, default=repr)}"


def _safe(call: Any, *args: Any, **kwargs: Any) -> Any:
    try:
        return call(*args, **kwargs)
    except Exception as error:  # the golden records a refusal as well as an answer
        return f"raises {type(error).__name__}: {error}"


def known_errors() -> Iterator[str]:
    yield entry("availability_pattern", errors.availability_pattern())
    for i, row in enumerate(errors.TABLE):
        yield entry(f"errors.TABLE[{i}]", row)
    for i, row in enumerate(causes_rows()):
        yield entry(f"causes[{i}]", row)


def causes_rows() -> list[Any]:
    return [(name, value) for name, value in sorted(vars(causes).items()) if name.isupper()]


def torch_messages() -> Iterator[str]:
    for message in messages.messages():
        pattern = messages._pattern(message)
        yield entry(f"message {message.id}", message)
        if pattern is not None:
            yield entry(
                f"  pattern {message.id}",
                (pattern.segments, pattern.squeezed, pattern.longest, pattern.leading, pattern.trailing),
            )
        # each message read back from its own text, its {} filled with a value
        text = message.format.replace(messages.PLACEHOLDER, "x7")
        found = [(m.id, m.values, m.line, m.cause, m.fixed_in, m.first_seen, m.last_seen) for m in messages.match(text)]
        yield entry(f"  reads {message.id}", found)


def limits() -> Iterator[str]:
    for i, row in enumerate(dtype_limits.ROWS):
        yield entry(f"dtype_limits.ROWS[{i}]", row)
    yield entry("dtype_limits.as_limits", dtype_limits.as_limits())
    for i, limit in enumerate(op_limits.OP_LIMITS):
        yield entry(f"op_limits.OP_LIMITS[{i}]", limit)
    yield entry("dtype_macos_floors", op_limits.dtype_macos_floors())
    for name in ("aten::mm", "aten::bmm", "aten::cumsum", "aten::_fft_r2c", "aten::linalg_solve", "aten::conv3d"):
        for dtypes in (("float32",), ("bfloat16",), ("complex64",), ("int64",), ("float64",)):
            for torch in ((2, 0), (2, 3), (2, 4), (2, 8), (2, 13)):
                found = op_limits.limits_for(name, dtypes, torch)
                yield entry(f"limits_for {name} {dtypes} {torch}", [dataclasses.asdict(x) for x in found])


def release_table() -> Iterator[str]:
    for arch in ("arm64", "x86_64"):
        yield entry(f"known_releases {arch}", releases.known_releases(arch))
        for version in releases.known_releases(arch):
            yield entry(f"release_facts {version} {arch}", releases.release_facts(version, arch))
        for version in VERSIONS:
            yield entry(f"nearest_known {version!r} {arch}", _safe(releases.nearest_known, version, arch))
            yield entry(f"newer_than_table {version!r} {arch}", _safe(releases.newer_than_table, version, arch))
            yield entry(f"macos_floor {version!r} {arch}", _safe(releases.macos_floor, version, arch))
        for category in ("availability", "not_built", "macos_too_old"):
            yield entry(f"texts {category} {arch}", _safe(releases.texts, category, arch))
        yield entry(f"availability_texts {arch}", releases.availability_texts(arch))
    for module, name in (("torch.mps", "empty_cache"), ("torch.backends.mps", "is_macos13_or_newer")):
        yield entry(f"first_release_with_api {module}.{name}", releases.first_release_with_api(module, name))


def version_helpers() -> Iterator[str]:
    for version in VERSIONS:
        yield entry(f"parse_version {version!r}", versions.parse_version(version))
        yield entry(f"releases.parse {version!r}", releases.parse(version))
        yield entry(f"floor_for {version!r}", _safe(versions.floor_for, version))
        yield entry(f"pythons_for {version!r}", _safe(versions.pythons_for, version))
        yield entry(f"numpy_pin {version!r}", _safe(versions.numpy_pin, version))
        yield entry(f"fallback_reader {version!r}", _safe(versions.fallback_reader, version))
    yield entry("last_intel_mac_torch", versions.last_intel_mac_torch())
    for macos in MACOS:
        yield entry(f"pythons_with_mps {macos}", versions.pythons_with_mps(macos))
        for arch in ARCHES:
            for python in PYTHONS:
                yield entry(
                    f"install_advice {macos} {python} {arch}", _safe(versions.install_advice, macos, python, arch)
                )
                yield entry(
                    f"torch_pin_for_macos {macos} {python} {arch}", versions.torch_pin_for_macos(macos, python, arch)
                )


def other_tables() -> Iterator[str]:
    yield entry("silent_bugs", silent_bugs.bugs())
    for release in ("2.0.0", "2.3.0", "2.5.1", "2.8.0", "2.13.0"):
        for macos in (None, (13, 5), (14, 4), (15, 1)):
            yield entry(
                f"silent_bugs.affecting {release} {macos}", [b.id for b in silent_bugs.affecting(release, macos)]
            )
        yield entry(f"optim_paths.facts {release}", optim_paths.facts(release))
    for device in ("mps", "cuda", "cpu"):
        yield entry(f"optim_paths.first_fused_on {device}", optim_paths.first_fused_on(device))
    yield entry("peaks", peaks.load_peaks())
    for name in (
        "Apple M1",
        "Apple M1 Pro",
        "Apple M2 Max",
        "Apple M3",
        "Apple M4 Max",
        "Apple M5",
        "NVIDIA H100 80GB HBM3",
    ):
        for cores in (None, 8, 10, 38, 40):
            match = peaks.match_chip(name, cores)
            yield entry(f"match_chip {name} {cores}", match)
    for text in ("1024.00 MB", "5.05 GB", "2 GiB", "512 bytes", "1.5 KB", "3 TB", "MB", "-1 GB", "9" * 40 + " GB"):
        yield entry(f"size_bytes {text!r}", sizes.size_bytes(text))
    for number in (0, 1023, 1024**3, 5 * 1024**3 + 1, 1024**4):
        yield entry(f"gib {number}", sizes.gib(number))
    for release in ("2.0.0", "2.8.0", "2.13.0"):
        yield entry(f"ops.cpu_always {release}", ops.cpu_always(release))
        yield entry(f"ops.python_mps {release}", ops.python_mps(release))
        for name in ("aten::mm", "aten::_foreach_norm", "aten::linalg_solve", "aten::nonzero", "aten::bogus", "mm.out"):
            yield entry(f"ops.op_kind {name} {release}", ops.op_kind(name, release))
    for name in ("aten::_foreach_norm", "aten::linalg_solve", "aten::mm", "aten::bogus", "aten::upsample_bicubic2d"):
        yield entry(f"ops.first_mps_release {name}", ops.first_mps_release(name))
        yield entry(f"ops.normalize {name}", ops.normalize(name))
        yield entry(f"ops.warning_name {name}", ops.warning_name(name))


def build() -> str:
    sections = (known_errors, torch_messages, limits, release_table, version_helpers, other_tables)
    return "\n".join(line for section in sections for line in section()) + "\n"


def test_what_the_judge_knows_is_the_reviewed_table(golden) -> None:
    golden("knowledge.txt", build())
