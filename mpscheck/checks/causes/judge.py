"""Judge a paste: its errors (matched against the signature table) together with the facts it shows.

Pure: no machine access. The root cause is the deepest one the paste has evidence for: an error that
is a known symptom of a setup problem the paste also shows (a bfloat16 error from an x86_64 Python
under Rosetta) is attributed to that problem; otherwise the error is the cause. Without an error, a
setup problem is the cause; then a CPU run on a Mac (MPS never requested); then a fallback warning
(a performance note); then "healthy" only with positive evidence that MPS works. The doctor's checks
run on the same partial facts, and only the findings whose inputs the paste shows are kept.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from dataclasses import replace

from mpscheck.checks.causes.cpu_switch import fit_cpu_switch
from mpscheck.checks.causes.errors import ErrorRules
from mpscheck.checks.causes.findings import check_cause, check_inputs, relevant_findings
from mpscheck.checks.causes.hang import hang_said
from mpscheck.checks.causes.last_intel import fit_last_intel
from mpscheck.checks.causes.model import Cause, Diagnosis, Evidence, evidence_of
from mpscheck.checks.causes.onnx import onnx_engine
from mpscheck.checks.causes.ops import OpCoverage, knowledge_ops
from mpscheck.checks.causes.setup import CHIP_NOT_SHOWN, SetupRules
from mpscheck.checks.causes.slow import slow_said
from mpscheck.checks.causes.unmatched import UnmatchedRules
from mpscheck.checks.policy import decide_text
from mpscheck.facts import Facts
from mpscheck.knowledge import errors as table
from mpscheck.knowledge.causes import CAUSES
from mpscheck.model import Remediation, Requirement, Status
from mpscheck.probes.paste import read
from mpscheck.probes.paste.degenerate import mps_asked
from mpscheck.probes.paste.model import Observation, Paste
from mpscheck.probes.paste.near import MPS_WORD

HEALTHY, NOT_ENOUGH = "healthy", "not-enough-evidence"
BUG = "metal-bug-fixed-later"
WRONG_VARIANTS = ("wrong-results", "nan")  # checks/causes/unmatched.py: results told wrong, or shown apart
AMBIGUOUS = (NOT_ENOUGH, "x86_64-python", "no-metal-device")  # the paste cannot settle these alone
UNSURE_VARIANTS = ("unrecognised", CHIP_NOT_SHOWN, "retold")  # nor these kinds of a cause: doctor is the next step
DOCTOR_HINT = "mpscheck doctor --format markdown"
# Text about torch on the GPU that shows no fact (a script, a question) is read, and lacks evidence: not "unreadable".
ON_TOPIC = re.compile(r"(?i)\b(?:torch(?:vision|audio|text|tune|ao|rec)?|pytorch|mps)\b")


def explain_text(
    text: str,
    ops: OpCoverage | None = None,
    *,
    require: Requirement = Requirement.MPS,
    strict: bool = False,
    input_line: Callable[[int], int] | None = None,
) -> Diagnosis:
    """The diagnosis of pasted *text*; *input_line* numbers its lines as in the input it was read from (a cut
    input's lines after the skipped middle lie further on)."""
    paste = read(text)
    if input_line is not None:
        paste.input_line = input_line
    return judge(paste, ops, require=require, strict=strict)


def judge(
    paste: Paste, ops: OpCoverage | None = None, *, require: Requirement = Requirement.MPS, strict: bool = False
) -> Diagnosis:
    facts = paste.facts
    hits = seen_hits(facts)
    if not paste.observations and not hits and not ON_TOPIC.search(paste.text):
        unread = Cause("unreadable", "nothing in the input could be read", None)
        return Diagnosis([], unread, exit_code=decide_text(None, require=require, strict=strict), status=None)
    shown = numbered(paste)  # the facts as the report shows them: every line numbered as in the input
    findings = relevant_findings(paste, shown)
    judge_ = _Judge(paste, hits, ops or knowledge_ops(), findings)
    causes = judge_.causes()
    top = causes[0]
    others = [c for c in causes[1:] if c.id != top.id]
    # The fallback warning shows a run on mps; the same retold in the user's words (variant retold) is no such evidence.
    fallback = top.id == "op-fallback-warning" and top.variant != "retold"
    status = Status.PASS if top.id == HEALTHY else Status.WARN if fallback else Status.FAIL
    ok = status is not Status.FAIL
    shows_setup = any(o.fact.split(".")[0] in ("host", "interpreter", "torch") for o in paste.observations)
    unsure = top.id in AMBIGUOUS or top.variant in UNSURE_VARIANTS or (not ok and not shows_setup)
    top, others = fit_installs(top, facts, judge_.python), [fit_installs(c, facts, judge_.python) for c in others]
    top, others = fit_cpu_switch(top, paste), [fit_cpu_switch(c, paste) for c in others]
    top, others = fit_last_intel(top, facts, judge_.python), [fit_last_intel(c, facts, judge_.python) for c in others]
    top, others = _renumbered(top, paste.input_line), [_renumbered(c, paste.input_line) for c in others]
    return Diagnosis(
        kinds=[k for k in paste.kinds if k != "error text"]
        + (["error text"] if hits and "traceback" not in paste.kinds else []),
        cause=top,
        others=others,
        findings=findings,
        facts=shown,
        exit_code=decide_text(status, require=require, strict=strict),
        status=status,
        next_step=DOCTOR_HINT if unsure else None,
    )


def judge_cut(diagnosis: Diagnosis, notice: str, *, require: Requirement, strict: bool) -> Diagnosis:
    """A diagnosis of input that was cut (*notice* says where): the cut is noted in every format, and
    positive evidence no longer confirms MPS, since what was not read may hold the error ("not confirmed")."""
    diagnosis.cause = replace(diagnosis.cause, notes=(*diagnosis.cause.notes, notice))
    if diagnosis.status is Status.PASS:
        diagnosis.status = Status.SKIP
        diagnosis.exit_code = decide_text(Status.SKIP, require=require, strict=strict)
    return diagnosis


def numbered(paste: Paste) -> Facts:
    """The paste's facts, each error's line numbered as in the input (the judge works on the lines as read)."""
    facts = paste.facts
    for seen in facts.errors:
        seen.line = seen.line and paste.input_line(seen.line)
    return facts


def _renumbered(cause: Cause, input_line: Callable[[int], int]) -> Cause:
    return replace(cause, evidence=tuple(Evidence(input_line(e.line), e.text) for e in cause.evidence))


def seen_hits(facts: Facts) -> list[table.Hit]:
    """The rows of the table of known errors that the errors the input showed match, in line order."""
    hits = []
    for seen in facts.errors:
        for hit in table.find([seen.text]):
            hits.append(table.Hit(hit.row, seen.line or 0, seen.text, hit.groups))
    return hits


def _not_superseded(errors: list[table.Hit], warnings: list[table.Hit]) -> list[table.Hit]:
    """The errors less an op's 'not implemented' that the paste later shows falling back to the CPU: the fallback
    was set after it (ComfyUI-DepthAnythingV2#12), so what failed next is the cause, not the op it now runs."""
    falls_back = {(h.groups.get("op"), h.line) for h in warnings if h.row.id == "op-fallback"}
    return [
        h
        for h in errors
        if not (
            h.row.id == "op-not-implemented"
            and any(op == h.groups.get("op") and line > h.line for op, line in falls_back)
        )
    ]


def _wrong_results_over_vm(found: list[Cause]) -> list[Cause]:
    """Wrong results shown or told on a macOS VM (a GitHub runner), with no error: the VM's paravirtual GPU refuses
    allocations and ops, it does not compute wrong numbers; the backend's bug on that macOS does (pytorch#188438, an
    M1 runner on macOS 26; pytorch#192934). The wrong results first, the VM named after them."""
    if not found or found[0].id != "virtual-machine":
        return found
    wrong = next((c for c in found if c.id == BUG and c.variant in WRONG_VARIANTS), None)
    return found if wrong is None else [wrong, *(c for c in found if c is not wrong)]


# ---- the judge: setup rules and error rules, and what comes when there is no error ----------------


class _Judge(SetupRules, ErrorRules, UnmatchedRules):
    def causes(self) -> list[Cause]:
        setup = self.setup_causes()
        by_id = {c.id: c for c in setup}
        errors = [h for h in self.hits if h.row.severity == table.ERROR]
        warnings = [h for h in self.hits if h.row.severity == table.WARNING]
        rank = {row.id: i for i, row in enumerate(table.TABLE)}  # not TABLE.index: it compares whole rows
        ordered = sorted(_not_superseded(errors, warnings), key=lambda h: rank[h.row.id])
        reported = self.doctor_causes()  # a pasted mpscheck report's own verdict comes first, if specific
        found = [c for c in reported if c.id != "doctor-check-failed"]
        judged: set[tuple[str, tuple[tuple[str, str], ...]]] = set()
        for hit in ordered:
            key = (hit.row.id, tuple(sorted(hit.groups.items())))
            if key in judged:  # a log repeats its errors: the first of the same row and values is the cause
                continue
            judged.add(key)
            cause = self.error_cause(hit, by_id)
            if cause.id not in {c.id for c in found}:
                found.append(cause)
        found += [c for c in setup if c.id not in {f.id for f in found}]
        found += [c for c in reported if c.id == "doctor-check-failed"]
        if any(c.id == "rosetta-python" and c.variant != CHIP_NOT_SHOWN for c in found):  # the ambiguity is settled
            found = [c for c in found if c.id != "x86_64-python" and c.variant != CHIP_NOT_SHOWN]
        if not found:
            found += self.failed_checks()
        found += [c for c in self.unmatched_errors() if c.id not in {f.id for f in found}]  # outranks health
        found = _wrong_results_over_vm(found)
        if not found and (asked := self.cuda_asked()):
            found.append(asked)
        if not found and not self.positive() and (onnx := onnx_engine(self.paste)):  # the engine is not torch
            found.append(onnx)
        if not found and (not_requested := self.mps_not_requested()):
            found.append(not_requested)
        if not found and (floor := self.macos_below_newest_floor()):
            found.append(floor)
        for hit in warnings:
            cause = self.error_cause(hit, by_id)
            if cause.id not in {c.id for c in found}:
                found.append(cause)
        if not found:
            health = self.health()
            asked = self.mixed_precision_asked() if health.id != HEALTHY else None  # never over evidence mps works
            found.append(asked or health)
        return found

    # ---- setup causes from the facts ----

    def cuda_asked(self) -> Cause | None:
        """The user says the tool asks for CUDA on a Mac, and the paste shows no error: CUDA requested, in words."""
        said = self.paste.get("paste.cuda_asked")
        if said is None:
            return None
        # a Mac named in the words ("run this code on MAC-M1", co-tracker#9) stands for one where no system is shown
        system = self.facts.host.system
        if system != "Darwin" and (system or (self.paste.get("paste.mac_named") is None and not self.mps_wanted())):
            return None
        row = "nccl-on-mac" if "nccl" in said.text.lower() else "cuda-on-mac"  # init_process_group("nccl") shown
        return self.from_row(row, self.ev("paste.cuda_asked", "host.cpu_brand"))

    def mps_not_requested(self) -> Cause | None:
        used = self.paste.get("paste.device_used")
        if used is None or used.value != "cpu":
            return None
        torch = self.facts.target.torch
        mac = (
            self.facts.host.system == "Darwin"
            or self.value("paste.framework_mps_available")
            or self.value("paste.mac_named")  # "macbook 2025 air": the user's machine is a Mac
            or self.value("paste.mps_available_said")  # "mps.is_available() shows true": MPS exists only on macOS
            or bool(torch and torch.mps_available)  # shown: the GPU is there and the words say the CPU ran it
        )
        if not mac and not self.mps_wanted() and not self.paste.all("interpreter.home"):
            return None
        if self.value("paste.framework_mps_available") is False:  # Lightning itself sees no MPS
            row = table.BY_ID["lightning-mps"]
            summary, remedy = self.fill(row, {})
            return Cause(
                "lightning-processor",
                "Lightning sees no MPS ('GPU available: False'): " + summary,
                remedy,
                self.ev("paste.framework_mps_available"),
                row.source,
            )
        commands: list[str] = []
        command = self.value("paste.yolo_command")
        if isinstance(command, str):
            commands.append(re.sub(r"(?<!\s)\s+device=\S+", "", command).rstrip() + " device=mps")
        if self.value("paste.lightning"):
            commands.append("Trainer(accelerator='mps', devices=1)")
        cause = self.general(
            "mps-not-requested",
            self.ev("paste.device_used", "paste.framework_mps_available", "paste.mps_available_said"),
        )
        assert cause.fix is not None
        return replace(cause, fix=Remediation(cause.fix.summary, (*commands, *cause.fix.commands)))

    def mps_wanted(self) -> bool:
        """mps named as what the user is after and never asked for, no system shown ("所以还是不能用mps 加速", "MPS
        Support is unavailable"): MPS is a Mac's. Where mps was asked for (device=mps), a run on the CPU is not this."""
        return not self.facts.host.system and bool(MPS_WORD.search(self.paste.text)) and not mps_asked(self.paste.text)

    def macos_below_newest_floor(self) -> Cause | None:
        """The user says MPS does not work, the paste shows no torch version and no error, and the doctor's
        macos-version check warns that this macOS is below what current torch needs: the likely cause, said with
        the one command that settles it (the torch version)."""
        warned = next((f for f in self.findings if f.id == "macos-version" and f.status is Status.WARN), None)
        torch = self.facts.target.torch
        if warned is None or warned.fix is None or not self.value("paste.mps_fails_said") or (torch and torch.version):
            return None
        tell = f"{self.python} -c 'import torch; print(torch.__version__)'"
        return Cause(
            "macos-too-old",
            f"the paste says MPS does not work, on a macOS older than current torch needs ({warned.summary}); the "
            "torch version is not shown (the first command prints it)",
            Remediation(warned.fix.summary, (tell, *warned.fix.commands)),
            self.ev("paste.mps_fails_said", "host.macos_version"),
            "docs/checks.md (macos-version); https://github.com/pytorch/pytorch/issues/139425",
        )

    def doctor_causes(self) -> list[Cause]:
        """The failing checks of a pasted mpscheck report, in its order (the doctor's root cause first)."""
        out: list[Cause] = []
        for row in self.paste.all("paste.doctor_failed"):
            check_id = str(row.value)
            hit = next((h for h in self.hits if h.line == row.line), None)
            cause_id = check_cause(check_id) or (hit.row.cause if hit else "doctor-check-failed")
            fix_summary = self.value(f"paste.doctor_fix.{check_id}")
            commands = tuple(str(o.value) for o in self.paste.all(f"paste.doctor_command.{check_id}"))
            general = CAUSES.get(cause_id)
            if fix_summary:
                remedy: Remediation | None = Remediation(str(fix_summary), commands)
            elif general:
                remedy = Remediation(
                    table.fill(general.fix, self.known()), tuple(table.fill(c, self.known()) for c in general.commands)
                )
            else:
                remedy = None
            said = self.value(f"paste.doctor_summary.{check_id}")
            summary = str(said) if said else re.sub(r"^\S+\s+\S+\s+", "", row.text.strip()).strip(" |")
            variant = check_id if cause_id == "doctor-check-failed" else None
            evidence = (Evidence(row.line, row.text),)
            source = general.source if general else (hit.row.source if hit else "docs/checks.md")
            cause = Cause(cause_id, f"mpscheck doctor says: {summary}", remedy, evidence, source, (), variant)
            if cause_id not in {c.id for c in out}:
                out.append(cause)
        return out

    def failed_checks(self) -> list[Cause]:
        """A doctor check that fails on what the paste shows (an invalid PYTORCH_* value, say)."""
        out = []
        inputs = check_inputs()
        for finding in self.findings:
            if finding.status is not Status.FAIL:
                continue
            needs = inputs.get(finding.id, ())
            own = finding.cause or check_cause(finding.id)
            cause_id = own or "doctor-check-failed"
            variant = None if own else finding.id
            out.append(Cause(cause_id, finding.summary, finding.fix, self.ev(*needs), "docs/checks.md", (), variant))
        return out

    def positive(self) -> list[Observation]:
        torch = self.facts.target.torch
        ev: list[Observation] = []
        if torch and torch.mps_available:
            ev += self.paste.all("torch.mps_available")
        if torch and torch.mps_device_name and "Paravirtual" not in torch.mps_device_name:
            ev += self.paste.all("torch.mps_device_name")  # torch.backends.mps.get_name() named a chip
        ev += self.paste.all("paste.mps_tensor")
        ev += [o for o in self.paste.all("paste.device_used") if o.value == "mps"]
        return ev

    def health(self) -> Cause:
        said = self.paste.get("paste.hang_said")
        if said is not None and MPS_WORD.search(self.paste.text):  # a run that hangs is no healthy run
            return hang_said(said, self.python)
        positive = self.positive()
        if positive:
            how = "; ".join(sorted({_describe(o) for o in positive}))
            return self.general(HEALTHY, evidence_of(positive), how=how)
        if (said := self.paste.get("paste.slow_said")) is not None:
            return slow_said(said, self.paste.get("paste.slow_vs_op"), self.python)
        return self.general(NOT_ENOUGH, ())


def _describe(obs: Observation) -> str:
    return {
        "torch.mps_available": "torch.backends.mps.is_available() is True",
        "paste.mps_tensor": "a tensor was created on mps",
        "paste.device_used": "the run used the mps device",
        "torch.mps_device_name": "torch.backends.mps.get_name() names the GPU",
    }.get(obs.fact, obs.fact)


def fit_installs(cause: Cause, facts: Facts, python: str) -> Cause:
    """Install commands for the user's own setup (pip, or uv where the paste shows uv): checks/installing.py."""
    from mpscheck.checks.installing import install_command

    if cause.fix is None:
        return cause
    prefix = f"{python} -m pip install "
    commands = []
    for command in cause.fix.commands:
        if not command.startswith(prefix):
            commands.append(command)
            continue
        words = shlex.split(command[len(prefix) :])
        specs = [w for w in words if not w.startswith("-")]
        upgrade = "--upgrade" in words or "-U" in words
        reinstall = "--force-reinstall" in words
        commands.append(install_command(facts.target.interpreter, python, *specs, upgrade=upgrade, reinstall=reinstall))
    return replace(cause, fix=Remediation(cause.fix.summary, tuple(commands)))
