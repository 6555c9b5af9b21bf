"""Mixed precision asked for on a Mac where the paste shows no other cause: fp16 (or bf16) amp on mps needs a torch
and an accelerate that have it, and before them transformers' Trainer and accelerate refuse it or fail in ways the
paste often does not show (an error in a screenshot, a traceback cut before its message).

fp16 amp on mps needs torch 2.8 (its GradScaler for mps) and an accelerate with huggingface/accelerate#3373; torch's
autocast on mps came with 2.5 (float16) and 2.6 (bfloat16): the table's accelerate-fp16-mps row says so and gives
the fix (mixed precision off on mps, or upgrade), which this rule reuses. Where the paste shows torch 2.8 or newer,
the rule says nothing: mixed precision may then work, and another cause is to be found.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from mpscheck.checks.causes.base import Reader
from mpscheck.checks.causes.model import Cause, Evidence
from mpscheck.knowledge.versions import at_least, parse_version
from mpscheck.model import Remediation

AMP_ON_MPS = (2, 8)  # torch's GradScaler("mps"): what accelerate#3373 waits for (the accelerate-fp16-mps row)
ROW = "accelerate-fp16-mps"
# Building the Trainer or the Accelerator, where transformers and accelerate check the mixed precision asked for.
BUILT_HERE = re.compile(
    r"\b(?:Trainer|Accelerator|TrainingArguments|SFTTrainer|Seq2SeqTrainer)(?:\.__init__|\.__post_init__)?\("
)


class PrecisionRules(Reader):
    def mac_or_mps_shown(self) -> bool:
        """A Mac or mps in the paste, and no other system (on Linux or Windows another rule answers)."""
        system = self.facts.host.system
        if system in ("Linux", "Windows"):
            return False
        return system == "Darwin" or bool(self.value("paste.mac_named")) or "mps" in self.paste.text.lower()

    def torch_has_amp_on_mps(self) -> bool:
        torch = self.facts.target.torch
        version = parse_version(torch.version if torch else None)
        return version is not None and at_least(version, AMP_ON_MPS)

    def mixed_precision_asked(self) -> Cause | None:
        """Mixed precision asked for on a Mac with a torch older than 2.8 (or one the paste does not show)."""
        asked = self.paste.get("paste.mixed_precision")
        if asked is None or not self.mac_or_mps_shown() or self.torch_has_amp_on_mps():
            return None
        return self.precision_cause(asked, ())

    def precision_refused(self, first: Any) -> Cause | None:
        """An error no rule knows, in a paste that asks for mixed precision on a Mac, where the error's own words name
        it (transformers' "FP16 Mixed precision training with AMP or APEX (`--fp16`) ... can only be used on CUDA or
        NPU devices") or the paste builds the Trainer or the Accelerator (a notebook prints the call below the error's
        header): the refusal of mixed precision on mps, whatever its cut-off message said."""
        asked = self.paste.get("paste.mixed_precision")
        if asked is None or self.facts.host.system in ("Linux", "Windows") or self.torch_has_amp_on_mps():
            return None
        said = next((o for o in self.paste.all("paste.mixed_precision") if o.line == first.line), None)
        if said is not None:  # the refusal itself, on any Mac (no other system shown: this is a Mac's tool)
            return self.precision_cause(said, (Evidence(first.line, first.text),))
        if not self.mac_or_mps_shown():
            return None
        lines = self.paste.text.split("\n")
        built = next((n for n, line in enumerate(lines, start=1) if BUILT_HERE.search(line)), None)
        if built is None:
            return None
        return self.precision_cause(asked, (Evidence(first.line, first.text), Evidence(built, lines[built - 1])))

    def precision_cause(self, asked: Any, shown: tuple[Evidence, ...]) -> Cause:
        cause = self.from_row(ROW, (Evidence(asked.line, asked.text), *shown))
        torch = self.facts.target.torch
        which = f"torch {torch.version}" if torch and torch.version else "a torch the paste does not show"
        refused = "; the error raised while the Trainer (or Accelerator) was built is most likely that refusal"
        summary = (
            f"the paste asks for {asked.value} mixed precision on a Mac with {which}: {asked.value} amp on mps needs "
            "torch 2.8 and an accelerate with huggingface/accelerate#3373, and before them transformers' Trainer "
            "and accelerate refuse it ('fp16 mixed precision requires a GPU (not 'mps')')" + (refused if shown else "")
        )
        fix = cause.fix or Remediation("", ())
        commands = fix.commands
        if not (torch and torch.version):  # the version settles it: the first command prints it
            commands = (f"{self.python} -c 'import torch; print(torch.__version__)'", *commands)
        return replace(cause, summary=summary, fix=Remediation(fix.summary, commands))
