"""Published peak throughput per chip (chip_peaks.json): the limit mpscheck bench compares with.

Each row cites the pages its figures were read from; a figure nobody published is None, so a chip
without one gets no percentage rather than a guessed one.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from mpscheck.knowledge import load_table

DTYPE_FIELDS = {"float32": "fp32_tflops", "float16": "fp16_tflops", "bfloat16": "bf16_tflops"}


@dataclass(frozen=True)
class ChipPeak:
    chip: str
    gpu_cores: int | None  # the configuration the figures are for; None: any
    match: tuple[str, ...]
    fp32_tflops: float | None
    fp16_tflops: float | None
    bf16_tflops: float | None
    memory_bandwidth_gbs: float | None
    sources: tuple[str, ...]
    note: str

    def tflops(self, dtype: str) -> float | None:
        """The dense matmul peak for a dtype name (float32, float16, bfloat16), if published."""
        field = DTYPE_FIELDS.get(dtype)
        value = getattr(self, field) if field else None
        return float(value) if value is not None else None


@functools.lru_cache(maxsize=1)
def load_peaks() -> tuple[ChipPeak, ...]:
    rows = load_table("chip_peaks.json", version=None)["rows"]
    return tuple(
        ChipPeak(
            chip=row["chip"],
            gpu_cores=row.get("gpu_cores"),
            match=tuple(row["match"]),
            fp32_tflops=row.get("fp32_tflops"),
            fp16_tflops=row.get("fp16_tflops"),
            bf16_tflops=row.get("bf16_tflops"),
            memory_bandwidth_gbs=row.get("memory_bandwidth_gbs"),
            sources=tuple(row["sources"]),
            note=row.get("note", ""),
        )
        for row in rows
    )


def match_chip(device_name: str | None, gpu_cores: int | None = None) -> ChipPeak | None:
    """The row for a device name as torch reports it; a row for this exact core count wins.

    A row made for one core count never matches another count, nor an unknown one: the figure
    would belong to a different configuration.
    """
    if not device_name:
        return None
    name = device_name.strip()
    candidates = [p for p in load_peaks() if any(re.search(rx, name, re.IGNORECASE) for rx in p.match)]
    exact = [p for p in candidates if p.gpu_cores is not None and p.gpu_cores == gpu_cores]
    generic = [p for p in candidates if p.gpu_cores is None]
    best = exact or generic
    return best[0] if best else None
