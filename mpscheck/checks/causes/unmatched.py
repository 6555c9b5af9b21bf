"""Errors that no hand-written row of the known-errors table matches: looked up in the generated table of torch's
MPS messages (``mpscheck.knowledge.messages``, when this mpscheck has it), which gives the message's class (cause id),
the releases that print it ("fixed by torch >= X" when it disappears), the macOS it names and its source file; else
judged as what they are, an unrecognised error or a crash, which outranks a healthy banner and never passes. The
messages table is reached through ``messages_lookup()`` (None when absent), so tests hand in a stand-in with the same
interface: ``match(text)`` -> matches with ``cause``, ``format``, ``condition``, ``first_seen``, ``last_seen``,
``fixed_in``, ``macos``, ``source``, ``line``, ``text``."""

from __future__ import annotations

import importlib
import re
from typing import Any, Callable

from mpscheck.checks.causes import wrong_said
from mpscheck.checks.causes.compile_device import CompileRules
from mpscheck.checks.causes.half_nan import half_precision
from mpscheck.checks.causes.hang import hang_said
from mpscheck.checks.causes.library import own_frames
from mpscheck.checks.causes.memory import oom_said
from mpscheck.checks.causes.model import Cause, Evidence, evidence_of
from mpscheck.checks.causes.other_engine import other_engine
from mpscheck.checks.causes.pip_build import install_failure
from mpscheck.checks.causes.sigill import illegal_instruction
from mpscheck.knowledge import errors as table
from mpscheck.knowledge.causes import CAUSES
from mpscheck.model import Remediation

BUG = "metal-bug-fixed-later"
ISSUES = "https://github.com/pytorch/pytorch/issues"
NOT_ERRORS = frozenset({"mps-diagnostic-output", "op-fallback-warning"})
CALLER_CLASSES = frozenset({"invalid-argument", "mps-unsupported-feature"})
CLASS_FIX = {
    "mps-unsupported-feature": "Run that call on the CPU (x.cpu(), then back .to('mps')), or upgrade torch: "
    "PYTORCH_ENABLE_MPS_FALLBACK does not help, the op exists on MPS and refuses this input.",
    "op-needs-newer-macos": "Upgrade macOS to the version the message names, or run that op on the CPU.",
    "invalid-argument": "Check what the message names (shapes, ranks, values) where the call is made: it is refused.",
    BUG: "Upgrade torch (and macOS); if it persists on the newest release, report it to PyTorch with the op, the "
    "dtypes and the shapes.",
}
ATEN_OP = re.compile(r"(?<![\w:])(?P<op>aten::\w+(?:\.\w+)?)")
MAP_LOCATION_MPS = re.compile(r"map_location\s*=\s*[\w.(]{0,20}['\"]mps")
UPGRADE = "{python} -m pip install --upgrade torch"
# A frame of torch or its family (torch/, torchvision/, torchaudio/, functorch/): the error may be torch's.
TORCH_FRAME = re.compile(r"(?:^|[/\\])(?:torch|torchvision|torchaudio|functorch|torchgen)[/\\]")
# The int64 a macOS-gated op refused ("... for pre MacOS_14_0. Received dtype: Long", flexeval#145): the int64 class.
INT64_RECEIVED = re.compile(r"\b(?:dtype:? (?:torch\.)?(?:Long|int64)|(?:Long|int64) (?:input|tensors?))\b")
# Words of an error that may well be about the device or torch: then it is not judged as outside torch.
DEVICE_WORD = re.compile(r"(?i)mps|metal|cuda|torch|tensor|device|gpu|float|dtype|mkl|dylib|arm64|x86")


def messages_lookup() -> Callable[[str], list[Any]] | None:
    """``mpscheck.knowledge.messages.match`` when this mpscheck has the generated table, else None."""
    try:
        module = importlib.import_module("mpscheck.knowledge.messages")
    except ImportError:
        return None
    found: Callable[[str], list[Any]] | None = getattr(module, "match", None)
    return found


class UnmatchedRules(CompileRules):
    def unmatched_errors(self) -> list[Cause]:
        """One cause for the first error the rows did not explain: its message-table class, or unrecognised."""
        if any(h.row.severity == table.ERROR for h in self.hits):
            return []
        hit_lines = {h.line for h in self.hits}
        hit_texts = {h.text.strip() for h in self.hits}  # a log that repeats a matched line: the repeat is matched

        def explained(line: int, text: str) -> bool:
            return line in hit_lines or text.strip() in hit_texts

        for message in self.messages():
            if not explained(message.line, str(message.text)):
                return [self.from_message(message)]
        lines = [o for o in self.paste.observations if o.fact in ("paste.error_line", "paste.crash_line")]
        lines = [o for o in lines if not explained(o.line, o.text)]
        if not lines:
            return self.nan_results()
        first = lines[0]
        crash = next((o for o in lines if o.fact == "paste.crash_line"), None)
        if crash is None and (loading := self.loading_onto_mps(first)) is not None:
            return [loading]
        if crash is None and (named := self.named_op(first)) is not None:
            return [named]
        if crash is None and (refused := self.precision_refused(first) or self.compile_refused(first)) is not None:
            return [refused]
        return [self.unrecognised(first, crash)]

    def named_op(self, first: Any) -> Cause | None:
        """A NotImplementedError whose message the paste cuts off (a notebook's header line, a template's
        "Operator: `aten::x`"), with an aten op named elsewhere: what torch raises for an op with no MPS kernel."""
        if str(first.value).strip() != "NotImplementedError":
            return None
        for number, line in enumerate(self.paste.text.split("\n"), start=1):
            if "fall back" in line:  # torch's fallback warning names an op that ran on the CPU, not this one
                continue
            if op := ATEN_OP.search(line):
                shown = (Evidence(first.line, first.text), Evidence(number, line))
                return self.from_row("op-not-implemented", shown, {"op": op["op"]})
        return None

    def loading_onto_mps(self, first: Any) -> Cause | None:
        """An error raised inside torch.load (torch/serialization.py) called with map_location on mps: the
        checkpoint cannot be restored onto mps by this torch, whatever the cut-off message said."""
        text = self.paste.text
        where = MAP_LOCATION_MPS.search(text)
        if "/torch/serialization.py" not in text or where is None:
            return None
        number = text.count("\n", 0, where.start()) + 1
        shown = (Evidence(first.line, first.text), Evidence(number, text.split("\n")[number - 1]))
        return self.from_row("mps-checkpoint-load", shown)

    def messages(self) -> list[Any]:
        """The table's matches that are errors (not torch's own log lines, not the fallback warning)."""
        lookup = messages_lookup()
        if lookup is None:
            return []
        try:
            return [m for m in lookup(self.paste.text) if m.cause not in NOT_ERRORS]
        except Exception:  # a table problem must not cost the diagnosis
            return []

    def from_message(self, message: Any) -> Cause:
        """A known torch MPS message: its class, releases and source, with the fix of its cause."""
        if added := self.added_later(message):
            return added
        cause_id, notes = self.message_class(message)
        span = f"torch {message.first_seen}" + (
            f" to {message.last_seen}" if message.last_seen != message.first_seen else ""
        )
        where = f"{message.source}; " if message.source else ""
        summary = f"torch's MPS message “{message.format}” ({where}{message.condition}; printed by {span})"
        commands: list[str] = []
        if message.fixed_in:
            summary += f"; fixed by torch >= {message.fixed_in}"
            commands.append(f"{self.python} -m pip install --upgrade 'torch>={message.fixed_in}'")
        if message.macos:
            summary += f"; needs macOS >= {message.macos}"
            commands.append("softwareupdate --list")
        fix, extra = self.class_fix(cause_id, {"macos_or": str(message.macos)} if message.macos else {})
        commands += [c for c in extra if c not in commands]
        source = str(message.source or "mpscheck/knowledge/torch_messages.json")
        evidence = (Evidence(int(message.line), str(message.text)),)
        remedy = Remediation(fix, tuple(commands))
        return Cause(cause_id, summary, remedy, evidence, source, notes, variant="torch-message")

    def added_later(self, message: Any) -> Cause | None:
        """A refusal of something MPS did not have yet ("Conv3D is not supported on MPS"): the table classes it
        unimplemented and a later torch no longer prints it. The op is not
        implemented in this torch, and upgrading is the fix; PYTORCH_ENABLE_MPS_FALLBACK does not help, since
        the MPS op itself refuses (the fallback only reaches ops with no MPS kernel at all)."""
        if message.condition != "unimplemented" or not message.fixed_in or message.cause != "mps-unsupported-feature":
            return None
        where = f"{message.source}; " if message.source else ""
        span = f"torch {message.first_seen}" + (
            f" to {message.last_seen}" if message.last_seen != message.first_seen else ""
        )
        summary = (
            f"torch's MPS message “{message.format}” ({where}printed by {span}): this torch has no MPS support "
            f"for it; torch >= {message.fixed_in} no longer refuses it"
        )
        remedy = Remediation(
            f"Upgrade torch to {message.fixed_in} or newer; until then run that call on the CPU "
            "(PYTORCH_ENABLE_MPS_FALLBACK does not help: the MPS op itself refuses).",
            (f"{self.python} -m pip install --upgrade 'torch>={message.fixed_in}'",),
        )
        source = str(message.source or "mpscheck/knowledge/torch_messages.json")
        evidence = (Evidence(int(message.line), str(message.text)),)
        return Cause("op-not-implemented", summary, remedy, evidence, source, variant="torch-message")

    def message_class(self, message: Any) -> tuple[str, tuple[str, ...]]:
        """The table's class in the one cause vocabulary. An argument check of MPS code is the caller's only
        where this torch is known to print it still; a message later releases dropped, or one from a torch
        the paste does not date, is first a bug fixed later, with the other reading named."""
        cause_id = str(message.cause or BUG)
        if cause_id == "op-needs-newer-macos" and INT64_RECEIVED.search(str(message.text)):
            cause_id = "int64-op-needs-newer-macos"  # the int64 kind, as the hand-written rows class it
        known = cause_id in CLASS_FIX or cause_id in CAUSES or any(r.cause == cause_id for r in table.TABLE)
        if not known:
            return BUG, ()
        if cause_id not in CALLER_CLASSES or (not message.fixed_in and self.torch_since(message.first_seen)):
            return cause_id, ()
        note = (
            f"the table of torch's messages classes it {cause_id}: if this torch is {message.first_seen} or newer, "
            f"the call passes what the MPS op does not accept (check with: {self.python} -c 'import torch; "
            "print(torch.__version__)')"
        )
        return BUG, (note,) if not message.fixed_in else ()

    def torch_since(self, release: str) -> bool:
        """The paste shows a torch at least *release*."""
        from mpscheck.knowledge.versions import at_least, parse_version

        torch = self.facts.target.torch
        shown, wanted = parse_version(torch.version if torch else None), parse_version(release)
        return bool(shown and wanted and at_least(shown, wanted))

    def class_fix(self, cause_id: str, named: dict[str, str] | None = None) -> tuple[str, tuple[str, ...]]:
        """The fix of a message's class: its first row's, filled with what the message names (its macOS)."""
        row = next((r for r in table.TABLE if r.cause == cause_id), None)
        if row is not None:
            _, remedy = self.fill(row, named or {})
            return remedy.summary, remedy.commands
        general = CAUSES.get(cause_id)
        if general is not None:  # its templates filled as every rule fills them (Reader.known)
            known = self.known()
            return table.fill(general.fix, known), tuple(table.fill(c, known) for c in general.commands)
        return CLASS_FIX.get(cause_id, CLASS_FIX[BUG]), (table.fill(UPGRADE, {"python": self.python}),)

    def unrecognised(self, first: Any, crash: Any) -> Cause:
        """An error or crash that no row and no message of the table knows: never healthy, never guessed."""
        said = str(first.value)
        if crash is None and (outside := self.outside_torch(first) or install_failure(first, self.paste)) is not None:
            return outside
        if crash is not None and (wrong_build := illegal_instruction(crash.text, crash.line, self.python)):
            return wrong_build
        if crash is not None:
            summary = (
                f"the process crashed ({crash.value}) and nothing in the paste says why"
                if crash is first
                else f"an error no known rule recognises (“{said}”), and the process crashed ({crash.value})"
            )
        else:
            summary = f"an error no known rule recognises: “{said}”"
        summary += "; in torch's MPS code such failures are most often backend bugs that a later torch fixed"
        evidence = tuple(Evidence(o.line, o.text) for o in (first, crash) if o is not None)
        remedy = Remediation(
            "Upgrade torch (and macOS) and run it again; if it persists on the newest release, report it to PyTorch "
            "with the op, the dtypes and the shapes.",
            (table.fill(UPGRADE, {"python": self.python}),),
        )
        return Cause(BUG, summary, remedy, evidence, ISSUES, variant="unrecognised")

    def outside_torch(self, first: Any) -> Cause | None:
        """An error whose traceback shows frames and none of torch's, in words that name neither torch nor a
        device: raised by the user's code or a library, not torch's MPS backend, so no torch bug is claimed."""
        frames = own_frames(self.paste, first.line)
        framed = any(TORCH_FRAME.search(str(o.value)) for o in frames)
        if (engine := other_engine(first, frames, framed)) is not None:  # TensorFlow, JAX, MLX: not torch's
            return engine
        if not frames or framed or DEVICE_WORD.search(first.text):
            return None
        where = frames[-1]
        ends = self.paste.input_line(where.line)
        return Cause(
            "not-enough-evidence",
            f"the error (“{first.value}”) is raised outside torch: its traceback, which ends at line {ends} of "
            "the paste, has no frame of torch, and nothing in the paste ties the error to MPS",
            Remediation(
                "Fix that error where its traceback ends; if MPS is in doubt after that, run mpscheck on the Mac "
                "and paste its report.",
                ("mpscheck doctor --format markdown",),
            ),
            (Evidence(first.line, first.text), Evidence(where.line, where.text)),
            "",
            variant="outside-torch",
        )

    def nan_results(self) -> list[Cause]:
        """A tensor on mps printed full of NaN: the run went through, but its results are wrong; not healthy."""
        nan, on_mps = self.paste.get("paste.nan_values"), self.paste.get("paste.mps_tensor")
        differ = self.paste.get("paste.values_differ")  # one result printed from the CPU and mps, apart
        if differ is None and "mps" in self.paste.text.lower():  # or memory read as floats, with mps named
            differ = self.paste.get("paste.garbage_values")
        if differ:
            nan = on_mps = differ
        said = self.paste.get("paste.wrong_results") or self.paste.get("paste.mps_fails_cpu_works") or self.split_said()
        if said is None and "mps" in self.paste.text.lower():
            # mps named: "on the CPU this does not happen", "back to torch 2.4.0 works", "The predicted line seems odd"
            said = (
                self.paste.get("paste.only_on_mps")
                or self.paste.get("paste.older_torch_works")
                or self.paste.get("paste.wrong_apart")
            )
        if said is None:
            said = wrong_said.wrong_on_mac_gpu(self.paste, self.facts) or wrong_said.degenerate(self.paste)
            said = said or wrong_said.nan_cast(self.paste, self.facts)  # numpy's NaN cast of a picture
        if said is not None and (nan is None or on_mps is None):
            return [self.loaded_onto_mps(said) or self.wrong_results(said)]
        if nan is None or on_mps is None:
            if oom := self.paste.get("paste.oom_said"):
                return [oom_said(self, oom)]
            crashed = self.paste.get("paste.crash_said")
            if crashed is None and "mps" in self.paste.text.lower():  # on the chip's line, or a hang; mps named
                crashed = wrong_said.crash_told_apart(self.paste)
            if crashed:
                return [self.crash_said(crashed)]
            return self.told_in_words()
        remedy = Remediation(
            "Compare with the same run on the CPU (device='cpu') to find the op, and upgrade torch (and macOS): "
            "wrong or NaN results on mps are mostly backend bugs fixed in later releases; float32 instead of "
            "float16 rules out an overflow.",
            (table.fill(UPGRADE, {"python": self.python}),),
        )
        summary = {
            "paste.values_differ": "one result printed twice (CPU and mps, or eager and compiled): the values differ",
            "paste.garbage_values": "the paste prints a tensor of float32 denormals (memory read as floats), mps named",
        }.get(differ.fact if differ else "", "the results on mps are NaN (the run finished, so no error names the op)")
        evidence = tuple(dict.fromkeys((Evidence(nan.line, nan.text), Evidence(on_mps.line, on_mps.text))))
        return [self.named_bug(Cause(BUG, summary, remedy, evidence, ISSUES, variant="nan"))]

    def loaded_onto_mps(self, said: Any) -> Cause | None:
        """Values called wrong (all zeros) after torch.load(..., map_location='mps'): restored straight onto mps,
        where loading on the CPU and then moving the model gives them right."""
        where = MAP_LOCATION_MPS.search(self.paste.text)
        if where is None or said.fact != "paste.wrong_results":
            return None
        number = self.paste.text.count("\n", 0, where.start()) + 1
        summary = (
            "the paste loads a checkpoint straight onto mps (map_location='mps') and says its values are wrong: "
            "torch's restore onto mps is the step to avoid"
        )
        remedy = Remediation(
            "Load on the CPU, then move: torch.load(path, map_location='cpu'), load_state_dict, then model.to('mps'); "
            "upgrade torch as well.",
            (table.fill(UPGRADE, {"python": self.python}),),
        )
        evidence = (Evidence(number, self.paste.text.split("\n")[number - 1]), Evidence(said.line, said.text))
        return Cause("mps-checkpoint-load", summary, remedy, evidence, "torch/serialization.py (map_location)")

    def told_in_words(self) -> list[Cause]:
        """A model saved on the Mac that does not load elsewhere, memory that grows on mps, or a run that broke when
        macOS was updated, told with no error shown: tensors tagged mps, or the backend's own bugs (a cache never
        freed, a regression under the new macOS) until shown otherwise."""
        if moved := self.paste.get("paste.checkpoint_elsewhere"):
            summary = (
                "the paste says a model saved on the Mac does not load on another machine, and shows no error: its "
                "tensors are tagged mps, which a torch without MPS cannot restore"
            )
            remedy = Remediation(
                "Load it with map_location='cpu' there (torch.load(path, map_location='cpu')), or move the model to "
                "the CPU before saving it on the Mac.",
                (),
            )
            evidence = (Evidence(moved.line, moved.text),)
            return [Cause("mps-checkpoint-load", summary, remedy, evidence, "torch/serialization.py (map_location)")]
        if grows := self.paste.get("paste.memory_growth"):
            summary = "the paste says memory keeps growing on mps, and shows no error that would explain it"
            advice = (
                "Upgrade torch: MPS leaks of its caches (a graph per input shape, freed blocks kept) were fixed in "
                "later releases; meanwhile call torch.mps.empty_cache() between steps and keep input shapes fixed."
            )
            return [self.told(grows, summary, advice, "memory-growth")]
        if updated := self.paste.get("paste.macos_regression"):
            if self.facts.host.system != "Darwin" and "mps" not in self.paste.text.lower():
                return []
            summary = "the paste says it worked until macOS was updated, and shows no error: a regression of this torch"
            advice = (
                "Upgrade torch (and to the newest macOS point release): MPS regressions under a new macOS are fixed in "
                "later torch releases; compare the step on the CPU meanwhile."
            )
            return [self.told(updated, summary, advice, "macos-regression")]
        return []

    def told(self, said: Any, summary: str, advice: str, variant: str) -> Cause:
        remedy = Remediation(advice, (table.fill(UPGRADE, {"python": self.python}),))
        evidence = (Evidence(said.line, said.text),)
        return self.named_bug(Cause(BUG, summary, remedy, evidence, ISSUES, variant=variant))

    def crash_said(self, said: Any) -> Cause:
        """The paste says the run crashes on mps and shows no error: a backend bug until shown otherwise."""
        if said.fact == "paste.hang_said":  # a hang, with its own advice
            return hang_said(said, self.python)
        remedy = Remediation(
            "Upgrade torch (and macOS) and run it again; if it still crashes, paste what the crash printed (the "
            "terminal's last lines, or the macOS crash report).",
            (table.fill(UPGRADE, {"python": self.python}),),
        )
        summary, evidence = "the paste says the run crashes on mps, and shows no error that would say why", (said,)
        return self.named_bug(Cause(BUG, summary, remedy, evidence_of(evidence), ISSUES, variant="crash-said"))

    def wrong_results(self, said: Any) -> Cause:
        """The paste says the results on mps are wrong (and shows no error): a backend bug until shown otherwise."""
        if half := half_precision(self.paste.text, said):  # a black picture with half precision at work
            return half
        remedy = Remediation(
            "Compare the op on the CPU and on mps to find the first that differs, and upgrade torch (and macOS): "
            "wrong results on mps are mostly backend bugs fixed in later releases (.contiguous() before the op, or "
            "float32, are the usual workarounds meanwhile).",
            (table.fill(UPGRADE, {"python": self.python}),),
        )
        summary = wrong_said.summary(said.fact)
        elsewhere = self.paste.get("paste.works_elsewhere") if said.fact == "paste.fails_on_mac" else None
        evidence = tuple(Evidence(o.line, o.text) for o in (said, elsewhere) if o is not None)
        return self.named_bug(Cause(BUG, summary, remedy, evidence, ISSUES, variant="wrong-results"))

    def split_said(self) -> Any:
        """ "fails ... on mac" and "works with CUDA" on two lines, on a Mac (or with mps named): the failure half."""
        fails, works = self.paste.get("paste.fails_on_mac"), self.paste.get("paste.works_elsewhere")
        mac = self.facts.host.system == "Darwin" or "mps" in self.paste.text.lower()
        return fails if fails is not None and works is not None and mac else None

    def named_bug(self, cause: Cause) -> Cause:
        """The known silent bug of a shown op in the paste's torch, where there is one (checks/causes/silent.py)."""
        from mpscheck.checks.causes.silent import name_known_bug

        torch = self.facts.target.torch
        version = torch.version if torch else None
        return name_known_bug(cause, self.paste.text, version, self.facts.host.macos_version, self.python)
