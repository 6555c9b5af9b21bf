"""The user's words that an older torch works where this one fails: "forced install PyTorch 2.4 instead of 2.5 and
this workaround fixed the issue" (pytorch#143123), "Reverting back to 2.4.0 works", "MPS Regression ... (after
pytorch2.4.1)" (pytorch#141471). With mps named in the paste and no error shown, a regression of the newer torch on
mps: a backend bug fixed in a later release (the judge weighs it, checks/causes/unmatched.py).

Read apart from prose.py (which must stay under 400 lines). Each pattern starts at a literal word and reaches over a
bounded run of characters: linear on any line.
"""

from __future__ import annotations

from mpscheck.knowledge.needles import gated

_VERSION = r"\d\.\d{1,2}(?:\.\d{1,2})?\b"
_TORCH = r"(?:py)?torch ?(?:==|v)?"
_GOOD = r"(?:works?|worked|working|fixe[sd]|solve[sd]|resolved|runs? fine|is fine)"
OLDER_TORCH_WORKS = gated(
    # "downgrading to torch 2.4 works", "Reverting back to 2.4.0 works", "rolled back to pytorch 2.3.1, fixed it"
    # (only torch's version: not "downgraded to Python 3.10" or "went back to macOS 14.5")
    rf"(?i)\b(?:downgrad\w{{0,4}}|revert\w{{0,4}}|roll\w{{0,4}} back|went back|go(?:ing)? back"
    rf"|forc\w{{0,3}}(?= \S{{1,8}} back))"  # "Forcing torch back to 2.7.1 also worked" (TransformerLens#1062)
    rf"(?: (?:py)?torch)?(?: back| down)?(?: to)? (?:{_TORCH})?{_VERSION}[^\n]{{0,60}}?\b{_GOOD}\b"
    # "forced install PyTorch 2.4 instead of 2.5 and this workaround fixed the issue"
    rf"|\b{_TORCH}{_VERSION}[^\n]{{0,12}}?\binstead of (?:{_TORCH})?{_VERSION}[^\n]{{0,60}}?\b{_GOOD}\b"
    # "works fine on torch 2.7.1 but in 2.8.0 ... it goes haywire" (TransformerLens#1062): one release works, the
    # other not
    rf"|\b{_GOOD}(?: fine| well)? (?:on|with|in|under) {_TORCH}{_VERSION},? but (?:(?:on|with|in|under) )?"
    rf"(?:{_TORCH})?{_VERSION}"
    # "MPS Regression when rendering LTXVideo (after pytorch2.4.1)", "a regression in torch 2.5 on mps"
    rf"|\bregression\b[^\n]{{0,60}}?\b(?:after|since|in|from) {_TORCH}{_VERSION}"
    # "By using pytorch 2.4.1,  It works again!" (city96/ComfyUI-GGUF#107): one named release makes it work again, so
    # the trouble is the other release's (torch named: never "using Python 3.10 it works again")
    rf"|\b(?:using|installing|with|on) (?:py)?torch ?(?:==|v)?{_VERSION},?\s{{1,3}}(?:it |everything |all )?"
    rf"(?:works?|worked|runs?|ran) (?:fine |well )?again\b"
)
