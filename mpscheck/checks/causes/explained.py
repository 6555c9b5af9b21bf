"""Which setup cause, when a paste shows it, is the real reason for an error the known-errors table matched: by the
error's cause, and for a few rows by the row itself (a message whose meaning depends on the machine). Kept apart
from checks/causes/errors.py, which judges each error with these, so that each module stays small.
"""

from __future__ import annotations

from mpscheck.knowledge.error_rows import Row

X86 = "x86_64-python"
# A setup cause that, when the paste shows it, is the real reason for these error causes.
EXPLAINED_BY: dict[str, tuple[str, ...]] = {
    "no-metal-device": ("not-macos", "rosetta-python", "intel-mac", "virtual-machine", "macos-too-old"),
    "dtype-needs-macos14": ("rosetta-python", "intel-mac", "macos-too-old"),
    "bf16-needs-newer-torch": ("rosetta-python", "intel-mac"),
    "lightning-processor": ("not-macos", "rosetta-python", X86, "intel-mac"),
    "no-matching-distribution": ("rosetta-python",),
    "torch-not-built-with-mps": ("not-macos", "rosetta-python"),
    "torch-too-old": ("not-macos",),
    "autocast-needs-newer-torch": ("not-macos",),  # accelerate's "requires a GPU" on Windows/Linux: no mps there
    # ComfyUI and other front ends ask for CUDA when torch reports no MPS: below macOS 12.3 that is the macOS.
    "cuda-requested-on-mac": ("macos-too-old",),
}
# The same for one row: the shell's "bad CPU type in executable" on an Intel Mac refuses an arm64-only program (an
# app built for Apple silicon only, voice-changer#496), so the Mac is why; on Apple silicon the row's own answer holds.
EXPLAINED_BY_ROW: dict[str, tuple[str, ...]] = {"bad-cpu-type": ("intel-mac",)}
# A library's check for MPS (torch.backends.mps.is_available()) that crashes on a torch older than 1.12: a newer torch
# answers it, with False off macOS, so the old torch is the cause there too (JaidedAI/EasyOCR#1071, on Windows).
PROBE_ROWS = frozenset({"old-torch-no-backends-mps"})


def deeper_causes(row: Row) -> tuple[str, ...]:
    """The setup causes that explain *row*'s error when the paste shows them: the row's own, else its cause's."""
    return EXPLAINED_BY_ROW.get(row.id) or EXPLAINED_BY.get(row.cause, ())
