"""Rows of the known-errors table (joined into ``LIBRARY``, knowledge/library_rows.py) for a front end's own check
that a picture came out NaN: AUTOMATIC1111's (and Forge's) ``NansException: A tensor with all NaNs was produced in
Unet`` (or ``in VAE``, which --no-half covers too). On a Mac that is half precision (float16) overflowing on mps,
which the threads fix by running the step in float32 (``--no-half``, ``--upcast-sampling``), as the message itself
says. The pattern is a literal opening and one bounded word: linear on any line.
"""

from __future__ import annotations

from mpscheck.knowledge.error_rows import Row

_SOURCE = (
    "AUTOMATIC1111/stable-diffusion-webui modules/devices.py (test_for_nans: NansException); "
    "https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/8555 (--no-half on Apple silicon)"
)

HALF: tuple[Row, ...] = (
    Row(
        "nans-in-half",
        r"A tensor with all NaNs was produced in (?P<part>\w{1,20})",
        "half-precision-nan",
        "the web UI's NaN check: the {part} produced only NaN, what half precision (float16) overflowing gives on mps",
        "Run the model in float32: start the web UI with --no-half (or tick 'Upcast cross attention layer to float32' "
        "in Settings > Stable Diffusion, with --upcast-sampling); if float32 still gives NaN, upgrade torch (a backend "
        "bug).",
        ("./webui.sh --no-half",),
        _SOURCE,
    ),
)
