"""Mixed precision a paste asks for: ``TrainingArguments(fp16=True)``, ``Accelerator(mixed_precision="fp16")``,
``accelerate launch --mixed_precision="fp16"``, an accelerate config's ``mixed_precision: fp16``, a script's
``--fp16``, or the user's words ("Can MPS use FP16 when training?"), also where a library turned it on ("despite
[...] an fp16 argument that I set to False, [...] `Accelerator(**args)` seemed to set it to true").

Recorded as ``paste.mixed_precision`` with the dtype asked for (fp16 or bf16); whether that is a problem is
the judge's (checks/causes/precision.py: fp16 amp on mps needs a torch and an accelerate that have it). A
comparison (``mixed_precision == "fp16"``) or ``fp16=False`` asks for nothing. Every pattern is a literal
prefix and a bounded alternation: linear on any line.
"""

from __future__ import annotations

from mpscheck.knowledge.needles import gated
from mpscheck.probes.paste.model import Observation, Seen, each_line

KIND = "mixed precision"
# TrainingArguments(fp16=True), a YAML or CLI "fp16: true" / "--fp16 True", and the bare flag "--bf16"
FLAG = gated(
    r"(?<![\w-])(?:--)?(?P<dtype>fp16|bf16)(?:\s?[=:]\s?|\s)(?i:true)\b"
    # the bare flag, never one set off ("with or without `--bf16 false` doesn't matter", ace-step/ACE-Step#8)
    r"|(?<![\w-])--(?P<dtype2>fp16|bf16)\b(?![\w=-]| (?i:false|0|no|off)\b)"
)
# mixed_precision="fp16" as a keyword, a CLI flag (--mixed_precision fp16), or an accelerate config line
SETTING = gated(r"\bmixed_precision(?:\s?=\s?|:\s?|\s)[\"']?(?P<dtype>fp16|bf16)\b")
# the user's words: fp16, bf16 or mixed precision with training on one line ("Can MPS use FP16 when training?")
SAID = gated(
    r"(?i)\b(?P<dtype>fp16|bf16|mixed[- ]precision)\b[^\n]{0,40}?\btrain"
    r"|\btrain\w*\b[^\n]{0,40}?\b(?P<dtype2>fp16|bf16)\b"
)
# the user's words that mixed precision was on, by them or by a library's default ("fp16 was enabled", "bf16 is on by
# default", "[the fp16 argument ...] seemed to set it to true", sentence-transformers#2699): never "fp16 is not
# enabled" nor "set to false"
ON_SAID = gated(
    r"(?i)\b(?P<dtype>fp16|bf16|mixed[- ]precision)\b(?: (?:is|was|gets|got|being|seems|seemed to be))? "
    r"(?:enabled|turned on|switched on|(?:on|true) by default)\b"
    r"|\b(?P<dtype2>fp16|bf16|mixed[- ]precision)\b[^\n]{0,100}?\bset (?:it|them) to true\b"
)


def parse(lines: list[str]) -> list[Observation]:
    return each_line(KIND, lines, _line)


def _line(seen: Seen, line: str) -> list[Observation]:
    match = SETTING.search(line) or FLAG.search(line) or SAID.search(line) or ON_SAID.search(line)
    if match is None:
        return []
    dtype = (match["dtype"] or match["dtype2"]).lower()
    return [seen("paste.mixed_precision", "fp16" if dtype.startswith("mixed") else dtype)]
