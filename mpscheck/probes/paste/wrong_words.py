"""The user's words that the results on mps are wrong (NaN, zeros, black images, noise, "messed up" results on a
Mac): read apart from prose.py's other words (which must stay under 400 lines), in linear time like them (near.py).
"""

from __future__ import annotations

import re

from mpscheck.probes.paste.near import Near

# The user's words that the results on mps are wrong: the run "works", but nothing may call it healthy.
# Also the shapes wrong results take in words: NaN, all zeros, "reports 0", black images, pure noise.
_WRONG = (
    r"(?:wrong|incorrect|different|broken|gibberish|garbage|garbled|messed[- ]up|not (?:the )?same|nan|(?:all )?zeros"
    r"|(?:reports?|outputs?|returns?|gives?|shows?) (?:all )?0|black (?:images?|outputs?|pictures?|frames?)"
    r"|(?:pure|just|only) noise|corrupt(?:ed|s|ion)?|inconsistent"
    # a result set against another ("MPS result does not match CPU result", pytorch#154171)
    r"|(?:does|did|do)(?:n't| not) match"
    # an all-zero result and a darker one ("my depth returns a zero matrix", DepthAnything/Depth-Anything-V2#265;
    # "dark texture output of MPS backend", Stability-AI/stable-fast-3d#37)
    r"|(?:all[- ])?zeros? (?:matrix|matrices|tensors?|arrays?|maps?|masks?|outputs?)"
    r"|dark(?:er)? (?:textures?|images?|outputs?|results?|pictures?|frames?|colou?rs?)"
    # what a detector's wrong results look like: nothing found ("there is no detections", "finds zero masks")
    r"|(?:no|zero) (?:detections?|boxes|masks|objects|predictions)"
    # results called worse or poor, never a speed ("worse results", "the result ... is significantly worse",
    # "causes poor results")
    r"|(?:worse|poor|bad) (?:results?|outputs?|quality|accuracy|predictions?|images?|loss)"
    r"|results? [^\n]{0,40}?\bworse"
    # a language model's answers off the point ("using MPS on macOS would say something irrelevant",
    # lm-sys/FastChat#637; "irrelevant answers", "meaningless output")
    r"|(?:says?|said|saying|answers?|replies|responds?|outputs?|gives?|generates?) (?:something |only )?"
    r"(?:irrelevant|unrelated|meaningless)"
    r"|(?:irrelevant|unrelated|meaningless) (?:answers?|replies|responses?|outputs?|text)"
    # results said not to be right ("using mps for detection, the bounding box location is not correct",
    # ultralytics#1090): a result's state, never "not correctly installed" (no word after "correct")
    r"|(?:is|are|was|were)(?:n't| not) (?:correct|accurate)(?![ -]?\w))"
)


# ... or results called wrong on a line about the Mac rather than mps ("Torch 2.8.0 appears to have an issue for Mac
# users that are causing the results to be all kinds of messed up"): only words that say the results are wrong.
_RESULTS = r"(?:results?|outputs?|images?|embeddings?|predictions?|transcriptions?)"
_BAD = r"(?:wrong|incorrect|messed[- ]up|garbage|gibberish|broken|nonsense|garbled)"
# ... further from mps, only such a word said of a result ("when using device=mps, the segmentation appears to
# remove the bounding boxes, showing only the incorrect segmentation masks"), not of a claim ("... is incorrect").
_OUTPUTS = (
    r"(?:results?|outputs?|images?|masks?|boxes|predictions?|detections?|embeddings?|values|numbers|weights|tokens"
    r"|text|audio|sounds?|speech|voices?|segmentations?|transcriptions?)"
)
# "the following strange result" (segment-anything#458), "weird outputs": the user's own word for a result gone wrong
_STRONG = (
    rf"(?:wrong|incorrect|corrupt(?:ed)?|garbage|gibberish|garbled|nonsense|strange|weird|meaningless)"
    rf"(?: [\w-]{{1,20}}){{0,2}}? {_OUTPUTS}"
    # a box no detector can return: "boxes with negative width values ... only ... with --device mps" (yolov5#12654)
    r"|negative[- ](?:widths?|heights?|areas?)"
)
STRONG_RESULT = re.compile(rf"(?i)\b(?:{_STRONG})\b")
WRONG_WORDS = re.compile(rf"(?i)\b{_WRONG}\b")
WRONG_NEAR = (Near(WRONG_WORDS), Near(STRONG_RESULT, 120))
WRONG_RESULTS = re.compile(
    # "the result by the MPS backend is significantly worse": mps between the result and its judgement
    r"(?i)(?<![a-z])results?\b[^\n]{0,40}?(?<![a-z])mps\b[^\n]{0,40}?\bworse\b"
)
MAC_OR_MACOS = re.compile(r"(?i)\b(?:mac|macs|macos|apple silicon)\b")
RESULTS_BAD = re.compile(rf"(?i)\b(?:{_RESULTS}\b[^\n]{{0,30}}?\b{_BAD}|{_BAD} {_RESULTS})\b")
MAC_RESULTS_BAD = Near(RESULTS_BAD, 80, MAC_OR_MACOS, len("apple silicon"))
# results said to differ on the Mac or its chip ("on M2 it works (and it is quite fast) but the results are
# different", alpaca-lora#444): the results themselves called different, not a speed or a setup
MAC_OR_CHIP = re.compile(r"(?i)\b(?:mac|macs|macos|apple silicon|m[1-5])\b")
RESULTS_DIFFER = re.compile(
    rf"(?i)\b{_RESULTS} (?:are|were|is|was) (?:\w{{1,12}} )?(?:different|not (?:the )?same|inconsistent)\b"
)
MAC_RESULTS_DIFFER = Near(RESULTS_DIFFER, 80, MAC_OR_CHIP, len("apple silicon"))
# ... and the image words said near mps ("I just get noise if I try and use the hardware accelerated MPS device",
# GLPDepth#45; "Visual artefacts ... when device is set to 'mps'", ai-forever/Real-ESRGAN#13): a pattern of its own, so
# that each stays fast on hostile lines (tests/test_explain_weighing.py).
# A longer reach than WRONG_RESULTS' (few words, so it stays fast): "using the MPS backend does not work at all and
# only produces images that appear to be white noise" (kuprel/min-dalle#102), "random snow".
PICTURE_WORDS = re.compile(r"(?i)\b(?:noise|snow|arte?facts?|distorted|corrupted)\b")
WRONG_PICTURE = Near(PICTURE_WORDS, 100)
WRONG_SAID = (*WRONG_NEAR, MAC_RESULTS_BAD, MAC_RESULTS_DIFFER, WRONG_PICTURE)
