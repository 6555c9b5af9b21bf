"""What the machine is, told in words: the architecture a shell or a Python reports ("uname -m returns x86_64",
"`platform.machine()` returns `x86_64`", "uname -m 输出x86_64" in Chinese, "uname -m の結果が x86_64" in Japanese): on
Apple silicon only a translated (Rosetta) process reports x86_64, so these words are what `uname -m` or a REPL line
would show (a macOS virtual machine named is read by vm_words.py). A failure said to happen in Colab ("makes this
tutorial fail in Colab with the error", haystack-tutorials#252): the run is on Colab's Linux, not a Mac. Kept apart
from prose.py so that each module stays small; prose.py reads each prose line with ``machine_said``.
"""

from __future__ import annotations

from mpscheck.knowledge.needles import gated

SAYS = r"(?:shows?|says?|returns?|returned|gives?|prints?|reports?|is)"
# The verb in Chinese or Japanese, written against the value ("输出x86_64"): no blank needed on either side.
SAYS_CJK = r"(?:输出|显示|返回|打印|得到|结果[是为]?|の(?:結果|出力)[はが]?|が|は)"
# The value ends where no Latin letter or digit follows: "x86_64什么鬼" has no \b between 4 and 什.
_ARCH = r"[`'\"]*(?P<arch>arm64|x86_64)(?![A-Za-z0-9_])"
UNAME = gated(rf"\buname(?: -m)?(?: {SAYS} | ?{SAYS_CJK} ?){_ARCH}")
# This Python's machine, told with a verb between ("`platform.machine()` returns `x86_64`", anaconda-issues#13174):
# never a comparison in code (`platform.machine() == 'x86_64'` has no verb).
MACHINE = gated(rf"\bplatform\.machine\(\)`?(?: {SAYS}| ?{SAYS_CJK}| ?(?:->|=>|→|:))(?: (?:the )?value)? ?{_ARCH}")

# A run said to fail in (or on) Colab, either order: Colab's Linux is where that Python runs. Never Colab named as where
# the same code works ("running fine on colab", "5 seconds on Colab": the contrast to the Mac).
COLAB_FAILED = gated(
    r"(?i)\bfail(?:s|ed|ing)?\b[^\n.]{0,40}?\b(?:in|on|inside) (?:google )?colab\b"
    r"|\b(?:in|on|inside) (?:google )?colab\b[^\n.]{0,40}?\bfail(?:s|ed|ing)?\b"
)


def machine_said(line: str) -> list[tuple[str, object]]:
    """The facts a line of prose tells of the machine: the shell's machine, this Python's, Colab (a VM: vm_words.py)."""
    found: list[tuple[str, object]] = []
    if match := UNAME.search(line):
        found.append(("paste.shell_machine", match["arch"]))
    if match := MACHINE.search(line):
        found.append(("interpreter.machine", match["arch"]))
    if "mac" not in line.lower() and COLAB_FAILED.search(line):
        found.append(("host.system", "Linux"))
    return found
