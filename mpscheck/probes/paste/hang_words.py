"""The user's words that the run hangs (on mps): a hang told, not shown ("It will hang the process, and few attempt to
reproduce the same resulted in system hang", pytorch#144634; "the program gets stuck", pytorch#117210). Read apart from
prose.py's other words (which must stay under 400 lines); what the judge makes of it: checks/causes/unmatched.py.
"""

from __future__ import annotations

from mpscheck.knowledge.needles import gated

# Hang words, each with a literal of its own: never a bare "stuck" ("I'm stuck with this error" is the user, not the
# run), only stuck at or on a step, or forever; never "hangs" of a clothes line, which no paste about torch holds.
HANG_SAID = gated(
    r"(?i)\b(?:hang(?:s|ing)?|hung|deadlock(?:s|ed)?|freez(?:es|ing)|froze(?:n)?"
    r"|(?:gets?|got|is|was) stuck(?: at| on| in| forever)?|stuck forever"
    r"|never (?:returns|finishes|completes|terminates))\b"
)


def hang_told(line: str) -> bool:
    """A hang told on *line*, unless of the CPU alone ("it hangs on the CPU": mps is not named there)."""
    lower = line.lower()
    return bool(HANG_SAID.search(line)) and ("cpu" not in lower or "mps" in lower)
