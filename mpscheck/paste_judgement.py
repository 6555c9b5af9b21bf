"""Judge a paste: its errors (matched against the signature table) together with the facts it shows.

Pure: no machine access. The root cause is the deepest one the paste has evidence for: an error that
is a known symptom of a setup problem the paste also shows (a bfloat16 error from an x86_64 Python
under Rosetta) is attributed to that problem; otherwise the error is the cause. Without an error, a
setup problem is the cause; then a CPU run on a Mac (MPS never requested); then a fallback warning
(a performance note); then "healthy" only with positive evidence that MPS works. The doctor's checks
run on the same partial facts, and only the findings whose inputs the paste shows are kept.
"""

from __future__ import annotations

import importlib
import re
import shlex
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from mpscheck import signatures as table
from mpscheck.facts import Facts
from mpscheck.model import ExitCode, Finding, Remediation, Status
from mpscheck.paste import read
from mpscheck.paste.model import Observation, Paste
from mpscheck.versions import LAST_INTEL_MAC_TORCH, at_least, macos_floor, parse_version, torch_pin_for_macos

HEALTHY, NOT_ENOUGH = "healthy", "not-enough-evidence"
AMBIGUOUS = (NOT_ENOUGH, "x86_64-python", "no-metal-device")  # the paste cannot settle these alone
DOCTOR_HINT = "mpscheck doctor --format markdown"


@dataclass(frozen=True)
class Evidence:
    line: int
    text: str


@dataclass(frozen=True)
class Cause:
    id: str
    summary: str
    fix: Remediation | None
    evidence: tuple[Evidence, ...] = ()
    source: str = ""
    notes: tuple[str, ...] = ()
    variant: str | None = None  # which kind of this cause: out-of-memory's vm-cap, too-large, other-processes...

    def __post_init__(self) -> None:
        """Evidence in the paste's order, each line once."""
        unique = {e.line: e for e in self.evidence}
        object.__setattr__(self, "evidence", tuple(unique[n] for n in sorted(unique)))


@dataclass
class Diagnosis:
    """A paste's root cause first, then the other causes and the doctor's findings it supports."""

    kinds: list[str]
    cause: Cause
    others: list[Cause] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    facts: Facts = field(default_factory=Facts)
    exit_code: ExitCode = ExitCode.PROBLEMS
    next_step: str | None = None


def explain_text(text: str, ops: OpCoverage | None = None) -> Diagnosis:
    return judge(read(text), ops)


def judge(paste: Paste, ops: OpCoverage | None = None) -> Diagnosis:
    lines = paste.text.split("\n")
    hits = list(table.find(lines))
    if not paste.observations and not hits:
        return Diagnosis([], Cause("unreadable", "nothing in the input could be read", None), exit_code=ExitCode.USAGE)
    facts = paste.facts
    findings = relevant_findings(paste)
    judge_ = _Judge(paste, hits, ops or knowledge_ops(), findings)
    causes = judge_.causes()
    top = causes[0]
    others = [c for c in causes[1:] if c.id != top.id]
    ok = top.id in (HEALTHY, "op-fallback-warning")
    shows_setup = any(o.fact.split(".")[0] in ("host", "interpreter", "torch") for o in paste.observations)
    unsure = top.id in AMBIGUOUS or (not ok and not shows_setup)
    return Diagnosis(
        kinds=paste.kinds + (["error text"] if hits and "traceback" not in paste.kinds else []),
        cause=top,
        others=others,
        findings=findings,
        facts=facts,
        exit_code=ExitCode.READY if ok else ExitCode.PROBLEMS,
        next_step=DOCTOR_HINT if unsure else None,
    )


# ---- the op coverage table (another module; optional until it exists) -------------------------------


class OpCoverage(Protocol):
    """What the judgement asks of the op coverage table (mpscheck.knowledge.ops, or a stand-in in tests)."""

    def first_mps_release(self, op: str) -> str | None:
        """The first torch release with an MPS kernel for *op*; None if none or if the op is unknown."""

    def knows(self, op: str) -> bool:
        """Whether the table lists *op* at all (so None above means 'no kernel in any release')."""

    def first_sparse_release(self, op: str) -> str | None:
        """The first torch release with a SparseMPS kernel for *op*, or None."""

    def oldest(self) -> str | None:
        """The oldest release the table covers: 'since' that release means 'in every release it covers'."""


class KnowledgeOps:
    """mpscheck.knowledge.ops behind OpCoverage; every spelling of the op is tried, errors count as unknown."""

    def __init__(self, module: Any) -> None:
        self.module = module

    def first_mps_release(self, op: str) -> str | None:
        for name in op_names(op):
            try:
                found = self.module.first_mps_release(name)
            except Exception:  # a table problem must not cost the diagnosis
                return None
            if found:
                return str(found)
        return None

    def knows(self, op: str) -> bool:
        try:
            latest = self.module.known_releases()[-1]
            return any(self.module.op_kind(name, latest) is not None for name in op_names(op))
        except Exception:
            return False

    def first_sparse_release(self, op: str) -> str | None:
        try:
            for release in self.module.known_releases():
                if any(self.module.op_kind(name, release) == "sparse-mps" for name in op_names(op)):
                    return str(release)
        except Exception:
            return None
        return None

    def oldest(self) -> str | None:
        try:
            return str(self.module.known_releases()[0])
        except Exception:
            return None


def knowledge_ops() -> OpCoverage | None:
    """The op coverage table when this mpscheck has it (mpscheck/knowledge/ops.py), else None."""
    try:
        module = importlib.import_module("mpscheck.knowledge.ops")
    except ImportError:
        return None
    return KnowledgeOps(module)


def op_names(op: str) -> list[str]:
    """'aten::sgn.out' -> the spellings a table may use: 'aten::sgn.out', 'aten::sgn', 'sgn.out', 'sgn'."""
    bare = op.removeprefix("aten::")
    base = bare.split(".")[0]
    return list(dict.fromkeys([op, f"aten::{base}", bare, base]))


# ---- sizes in torch's out-of-memory message -----------------------------------------------------------

_UNITS = {"bytes": 1, "KB": 1024, "KiB": 1024, "MB": 1024**2, "MiB": 1024**2, "GB": 1024**3, "GiB": 1024**3}
_UNITS |= {"TB": 1024**4, "TiB": 1024**4}


def size_bytes(text: str | None) -> int | None:
    """'17.36 GB' -> bytes (torch's format_size counts in 1024s whatever the label)."""
    match = re.fullmatch(r"\s*([\d.]+)\s*(bytes|[KMGT]i?B)\s*", text or "")
    if not match:
        return None
    try:
        return int(float(match.group(1)) * _UNITS[match.group(2)])
    except ValueError:
        return None


def gib(num: int) -> str:
    return f"{num / 1024**3:.2f} GiB"


# ---- the judge ----------------------------------------------------------------------------------------

# A setup cause that, when the paste shows it, is the real reason for these error causes.
EXPLAINED_BY: dict[str, tuple[str, ...]] = {
    "no-metal-device": ("not-macos", "rosetta-python", "intel-mac", "virtual-machine", "macos-too-old"),
    "dtype-needs-macos14": ("rosetta-python", "intel-mac", "macos-too-old"),
    "bf16-needs-newer-torch": ("rosetta-python", "intel-mac"),
    "lightning-processor": ("rosetta-python", "x86_64-python"),
    "no-matching-distribution": ("rosetta-python",),
    "torch-not-built-with-mps": ("not-macos", "rosetta-python"),
    "torch-too-old": ("not-macos",),
}
SETUP_ORDER = (
    "not-macos",
    "rosetta-python",
    "intel-mac",
    "x86_64-python",
    "virtual-machine",
    "macos-too-old",
    "torch-too-old",
    "torch-not-built-with-mps",
    "no-metal-device",
)
# Ops reached only when the input is on the CPU and the weights on MPS (pytorch/pytorch#86844).
HIGH = "PYTORCH_MPS_HIGH_WATERMARK_RATIO"
CPU_INPUT_OPS = ("aten::_slow_conv2d_forward", "aten::_slow_conv2d_backward", "aten::slow_conv3d_forward")


class _Judge:
    def __init__(
        self, paste: Paste, hits: list[table.Hit], ops: OpCoverage | None, findings: list[Finding] | None = None
    ) -> None:
        self.paste, self.hits, self.ops, self.findings = paste, hits, ops, findings or []
        self.facts = paste.facts
        info = self.facts.target.interpreter
        self.python = shlex.quote(info.executable) if info and info.executable else "python3"

    # evidence helpers
    def ev(self, *facts: str) -> tuple[Evidence, ...]:
        found = [o for name in facts for o in self.paste.all(name)]
        return _evidence(found)

    def value(self, fact: str) -> object:
        return self.paste.value(fact)

    def fill(self, row: table.Row, groups: dict[str, str]) -> tuple[str, Remediation]:
        values = {"python": self.python, **groups}
        commands = tuple(table.fill(c, values) for c in row.commands)
        return table.fill(row.summary, values), Remediation(table.fill(row.fix, values), commands)

    def causes(self) -> list[Cause]:
        setup = self.setup_causes()
        by_id = {c.id: c for c in setup}
        errors = [h for h in self.hits if h.row.severity == table.ERROR]
        warnings = [h for h in self.hits if h.row.severity == table.WARNING]
        ordered = sorted(errors, key=lambda h: table.TABLE.index(h.row))
        reported = self.doctor_causes()  # a pasted mpscheck report's own verdict comes first, if specific
        found = [c for c in reported if c.id != "doctor-check-failed"]
        for hit in ordered:
            cause = self.error_cause(hit, by_id)
            if cause.id not in {c.id for c in found}:
                found.append(cause)
        found += [c for c in setup if c.id not in {f.id for f in found}]
        found += [c for c in reported if c.id == "doctor-check-failed"]
        if "rosetta-python" in {c.id for c in found}:  # the ambiguity is settled
            found = [c for c in found if c.id != "x86_64-python"]
        if not found:
            found += self.failed_checks()
        if not found and (not_requested := self.mps_not_requested()):
            found.append(not_requested)
        for hit in warnings:
            cause = self.error_cause(hit, by_id)
            if cause.id not in {c.id for c in found}:
                found.append(cause)
        if not found:
            found.append(self.health())
        return found

    # ---- setup causes from the facts ----

    def arm64_hardware(self) -> tuple[Evidence, ...]:
        host, info = self.facts.host, self.facts.target.interpreter
        ev: list[Observation] = []
        if info and info.proc_translated == 1:  # only Apple silicon translates
            ev += self.paste.all("interpreter.proc_translated")
        if host.arm64_hardware:
            ev += self.paste.all("host.arm64_hardware")
        if host.cpu_brand and host.cpu_brand.startswith("Apple M"):
            ev += self.paste.all("host.cpu_brand")
        if self.value("paste.shell_machine") == "arm64":
            ev += self.paste.all("paste.shell_machine")
        if self.value("paste.archspec") in ("arm64", "m1", "m2", "m3", "m4"):
            ev += self.paste.all("paste.archspec")
        return _evidence(ev)

    def x86_python(self) -> tuple[Evidence, ...]:
        info = self.facts.target.interpreter
        ev: list[Observation] = []
        if info and info.proc_translated == 1:  # the python itself is translated: Rosetta, certainly
            ev += self.paste.all("interpreter.proc_translated")
        if info and info.machine == "x86_64":
            ev += self.paste.all("interpreter.machine")
        if info and info.processor == "i386":
            ev += self.paste.all("interpreter.processor")
        if info and info.conda_subdir == "osx-64":
            ev += self.paste.all("interpreter.conda_subdir")
        if info and info.binary_archs and not any(a.startswith("arm64") for a in info.binary_archs):
            ev += self.paste.all("interpreter.binary_archs")  # an x86_64-only python runs only translated
        if self.value("paste.shell_translated") == 1 or self.value("paste.x86_cpu_features"):
            ev += self.paste.all("paste.shell_translated") + self.paste.all("paste.x86_cpu_features")
        if self.value("paste.shell_machine") == "x86_64":  # a Rosetta shell on an Apple chip, or an Intel Mac
            ev += self.paste.all("paste.shell_machine")
        return _evidence(ev)

    def setup_causes(self) -> list[Cause]:
        found: dict[str, Cause] = {}
        host, torch = self.facts.host, self.facts.target.torch
        if host.system in ("Linux", "Windows"):
            found["not-macos"] = self.general("not-macos", self.ev("host.system"), system=host.system)
        x86, arm = self.x86_python(), self.arm64_hardware()
        intel = host.arm64_hardware is False or bool(host.cpu_brand and "Intel" in host.cpu_brand)
        if x86 and arm and not intel:
            found["rosetta-python"] = self.rosetta(x86 + arm)
        elif intel and "not-macos" not in found:
            found["intel-mac"] = self.intel_mac()
        elif x86 and "not-macos" not in found:
            found["x86_64-python"] = self.general("x86_64-python", x86)
        if (
            host.hypervisor
            or (host.model or "").startswith("VirtualMac")
            or "Virtual" in (host.cpu_brand or "")
            or (torch and torch.mps_device_name == "Apple Paravirtual device")
        ):
            found["virtual-machine"] = self.virtual_machine(self.ev("host.hypervisor", "host.model", "host.cpu_brand"))
        if (old := self.macos_too_old(None)) is not None:
            found["macos-too-old"] = old
        version = parse_version(torch.version) if torch else None
        if version and not at_least(version, (1, 12)):
            found["torch-too-old"] = self.torch_too_old(self.ev("torch.version"))
        if torch and torch.mps_built is False and "not-macos" not in found:
            found["torch-not-built-with-mps"] = self.from_row("not-built", self.ev("torch.mps_built"))
        if torch and torch.mps_available is False and not found and (other := self.another_torch_works()):
            cause = self.from_row("not-built", other)
            found["torch-not-built-with-mps"] = replace(
                cause,
                summary="the same Mac reports MPS available with another torch installed later in the paste, so the "
                "first torch is the problem: " + cause.summary,
            )
        if torch and torch.mps_built is not False and torch.mps_available is False and not found:
            evidence = self.ev("torch.mps_available", "torch.mps_built", "host.macos_version")
            found["no-metal-device"] = (
                self.hidden_gpu(evidence) if host.macos_version else self.from_row("no-metal-device", evidence)
            )
        return [found[i] for i in SETUP_ORDER if i in found]

    def another_torch_works(self) -> tuple[Evidence, ...]:
        """is_available() False, then a torch installed, then True: the machine is fine, the first torch is not."""
        answers = self.paste.all("torch.mps_available")
        first_false = next((o for o in answers if o.value is False), None)
        later_true = next((o for o in answers if o.value is True and first_false and o.line > first_false.line), None)
        if first_false is None or later_true is None:
            return ()
        between = self.paste.text.split("\n")[first_false.line : later_true.line - 1]
        install = next(
            (first_false.line + 1 + i for i, line in enumerate(between) if re.search(r"pip3? install\b.*torch", line)),
            None,
        )
        if install is None:
            return ()
        lines = self.paste.text.split("\n")
        return (*_evidence([first_false]), Evidence(install, lines[install - 1]), *_evidence([later_true]))

    def rosetta(self, evidence: tuple[Evidence, ...]) -> Cause:
        from mpscheck.checks.interpreter import rosetta_cause
        from mpscheck.checks.registry import Context

        info, ctx = self.facts.target.interpreter, Context(self.facts)
        x86 = info is not None and (
            info.proc_translated == 1
            or info.machine == "x86_64"
            or info.processor == "i386"
            or info.conda_subdir == "osx-64"
            or bool(info.binary_archs and not any(a.startswith("arm64") for a in info.binary_archs))
        )
        if info is not None and (
            info.conda_prefix or info.conda_subdir == "osx-64" or self.value("paste.conda_python")
        ):
            known = replace(info, conda_prefix=info.conda_prefix or "torch", conda_subdir=info.conda_subdir or "osx-64")
            why, remedy = rosetta_cause(ctx, known)
            why = why if info.conda_prefix else "a conda Python with Intel (osx-64) packages"
        elif info is not None and x86 and info.real_executable:
            why, remedy = rosetta_cause(ctx, info)
        elif info is not None and x86:
            _, remedy = rosetta_cause(ctx, info)
            why = "an x86_64 Python build"
        else:
            return self.general(
                "rosetta-python",
                evidence,
                why="the terminal itself runs under Rosetta, so everything started from it is x86_64",
            )
        return replace(self.general("rosetta-python", evidence, why=why), fix=remedy)

    def intel_mac(self) -> Cause:
        return self.general("intel-mac", self.ev("host.cpu_brand", "host.arm64_hardware", "paste.intel_prose"))

    def virtual_machine(self, evidence: tuple[Evidence, ...], detail: str = "") -> Cause:
        cause = self.general("virtual-machine", evidence)
        return replace(cause, summary=cause.summary + detail)

    def general(self, cause_id: str, evidence: tuple[Evidence, ...], **values: str | None) -> Cause:
        """A cause of the table of causes read from facts, its templates filled with what the paste shows."""
        entry = table.CAUSES[cause_id]
        known = {"python": self.python, "last_intel": LAST_INTEL_MAC_TORCH, "macos": self.facts.host.macos_version}
        known |= values
        remedy = (
            Remediation(table.fill(entry.fix, known), tuple(table.fill(c, known) for c in entry.commands))
            if entry.fix
            else None
        )
        return Cause(cause_id, table.fill(entry.summary, known), remedy, evidence, entry.source)

    def macos_too_old(self, floor_text: str | None) -> Cause | None:
        """macOS below what this torch needs: from the torch version when shown, else the error's own floor."""
        macos = parse_version(self.facts.host.macos_version)
        torch = self.facts.target.torch
        version = parse_version(torch.version) if torch else None
        if macos is None:
            return None
        if version:
            floor = macos_floor(version)
        elif floor_text:
            # 2.2-2.5 print "12.3+", but 2.5's real floor is 13.0 (pytorch/pytorch#139425): below 13 is too old.
            floor = (13, 0) if floor_text == "12.3" else tuple(int(p) for p in floor_text.split("."))
        else:
            floor = (12, 3)
        if at_least(macos, floor):
            return None
        pin = torch_pin_for_macos(macos)
        commands = ["softwareupdate --list"] + ([f"{self.python} -m pip install '{pin}'"] if pin else [])
        also = f", or install the newest torch whose MPS runs on it ({pin})" if pin else ""
        return Cause(
            "macos-too-old",
            f"macOS {self.facts.host.macos_version} is older than macOS {'.'.join(map(str, floor))}, which "
            f"{'torch ' + torch.version if torch and torch.version else 'this torch'} needs for MPS",
            Remediation(f"Upgrade macOS{also}; or run on the CPU.", tuple(commands)),
            self.ev("host.macos_version", "torch.version"),
            "https://github.com/pytorch/pytorch/issues/139425; mpscheck/versions.py (MAC_FLOOR_BY_TORCH)",
        )

    def hidden_gpu(self, evidence: tuple[Evidence, ...]) -> Cause:
        """No Metal device although the paste shows a macOS new enough: something hides the GPU."""
        return self.general("no-metal-device", evidence)

    def torch_too_old(self, evidence: tuple[Evidence, ...]) -> Cause:
        return self.from_row("old-torch-device-string", evidence)

    def from_row(self, row_id: str, evidence: tuple[Evidence, ...], groups: dict[str, str] | None = None) -> Cause:
        row = table.BY_ID[row_id]
        summary, remedy = self.fill(row, groups or {})
        return Cause(row.cause, summary, remedy, evidence, row.source)

    # ---- error causes ----

    def error_cause(self, hit: table.Hit, setup: dict[str, Cause]) -> Cause:
        row, evidence = hit.row, (Evidence(hit.line, hit.text),)
        for deeper in EXPLAINED_BY.get(row.cause, ()):
            if deeper in setup:
                cause = setup[deeper]
                return Cause(cause.id, cause.summary, cause.fix, evidence + cause.evidence, cause.source, cause.notes)
        if row.cause == "no-metal-device" and (old := self.macos_too_old(hit.groups.get("floor"))) is not None:
            return Cause(old.id, old.summary, old.fix, evidence + old.evidence, old.source)
        if row.cause == "no-metal-device" and self.facts.host.macos_version:
            return self.hidden_gpu(evidence + self.ev("host.macos_version", "torch.mps_built", "torch.mps_available"))
        if row.id == "oom-zero":
            vm = self.virtual_machine(evidence, ": the first allocation failed with 0 bytes in use")
            return replace(vm, variant="vm-cap")
        if row.id == "oom":
            return self.out_of_memory(hit, evidence)
        if row.id in ("op-not-implemented", "op-fallback") and "op" in hit.groups:
            return self.op_cause(hit, evidence)
        if row.cause == "lightning-processor":
            return self.lightning(hit, evidence)
        if row.id == "sparse":
            return self.sparse(hit, evidence)
        if row.id == "watermark" and hit.groups.get("which") == "low":
            return self.low_watermark(hit, evidence)
        if row.cause == "no-matching-distribution":
            return self.no_distribution(hit, evidence)
        groups = dict(hit.groups)
        if row.id == "wrong-arch-dylib":
            groups["package"] = _package_in(hit.text) or "the package named in the error"
        summary, remedy = self.fill(row, groups)
        if row.id == "wrong-arch-dylib" and not _package_in(hit.text):
            remedy = Remediation(remedy.summary, ())  # no command without the package's name
        variant = "buffer-too-large" if row.id == "buffer-too-large" else None
        return Cause(row.cause, summary, remedy, evidence, row.source, variant=variant)

    def low_watermark(self, hit: table.Hit, evidence: tuple[Evidence, ...]) -> Cause:
        """The low ratio (default 1.4 on unified memory) may not exceed the high one: the high one was lowered."""
        info = self.facts.target.interpreter
        high = (info.env or {}).get(HIGH) if info else None
        low = hit.groups.get("value", "").rstrip(".") or "1.4"
        where = (
            f"{HIGH}={high} is set, and the low watermark ratio ({low}) may not exceed it"
            if high is not None
            else f"the low watermark ratio ({low}, the default on Apple silicon) may not exceed the high one, so "
            f"{HIGH} is set below it somewhere: the shell, a .env file, or the venv's activate script"
        )
        _, remedy = self.fill(hit.row, dict(hit.groups))
        return Cause(
            "watermark-invalid",
            f"torch refuses the first MPS allocation: {where}",
            remedy,
            evidence + self.ev(f"interpreter.env.{HIGH}"),
            hit.row.source,
        )

    def out_of_memory(self, hit: table.Hit, evidence: tuple[Evidence, ...]) -> Cause:
        row = hit.row
        allocated, other = size_bytes(hit.groups.get("allocated")), size_bytes(hit.groups.get("other"))
        cap, requested = size_bytes(hit.groups.get("max")), size_bytes(hit.groups.get("requested"))
        memory = self.facts.host.memory_bytes
        numbers = ", ".join(
            f"{label} {hit.groups[key]}"
            for label, key in (
                ("torch holds", "allocated"),
                ("other allocations", "other"),
                ("cap", "max"),
                ("asked for", "requested"),
            )
            if hit.groups.get(key)
        ) + (f"; this Mac has {gib(memory)}" if memory else "")
        fits = None not in (allocated, other, cap, requested) and allocated + other + requested <= cap  # type: ignore[operator]
        if fits and other == 0:
            vm = self.virtual_machine(
                evidence,
                f": torch was refused {hit.groups['requested']} although it fits under the cap, with no other "
                f"allocations ({numbers})",
            )
            return replace(vm, variant="vm-cap")
        lift = "export PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0"
        set_to = (self.facts.target.interpreter.env or {}).get(HIGH) if self.facts.target.interpreter else None
        unified = bool(self.facts.host.cpu_brand and self.facts.host.cpu_brand.startswith("Apple"))
        if cap is not None and set_to is not None and table.strtod_zero(set_to):
            variant = "watermark-not-applied"
            kind = (
                f"a watermark setting that never reached torch: the paste sets {HIGH}={set_to}, yet the message "
                "still shows a cap ('max allowed'), which torch prints only while the limit is on"
            )
            remedy = Remediation(
                f"Set {HIGH} in the environment before Python starts (not as a function argument, not after "
                "`import torch`); lifting the cap may freeze the system.",
                (lift,),
            )
            evidence = evidence + self.ev(f"interpreter.env.{HIGH}")
        elif cap is None and allocated is not None:
            variant = "watermark-off"
            kind = (
                "the upper limit is already off (PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0: no 'max allowed' in the "
                "message), so the machine itself is out of memory"
            )
            remedy = Remediation("Use less memory per step (smaller batch/model, float16).", ())
        elif memory and unified and cap and cap < 0.9 * memory:
            variant = "watermark-lowered"
            kind = (
                f"a watermark setting: the cap ({gib(cap)}) is well under this Mac's memory ({gib(memory)}), "
                "lower than torch's default (1.7 x the GPU's recommended working set)"
            )
            remedy = Remediation(
                "Unset PYTORCH_MPS_HIGH_WATERMARK_RATIO (or raise it) before Python starts.",
                ("unset PYTORCH_MPS_HIGH_WATERMARK_RATIO", lift),
            )
        elif other is not None and allocated is not None and cap and other > max(allocated, cap * 0.25):
            variant = "other-processes"
            kind = (
                f"memory taken by others: other allocations ({hit.groups['other']}) exceed what torch itself holds "
                "(other processes and apps on the shared GPU memory, or other Metal work in this one)"
            )
            remedy = Remediation(
                "Free the other allocations (quit other GPU apps, unload other models); lifting the cap risks "
                "freezing the system.",
                (lift,),
            )
        else:
            variant = "too-large"
            where = f" with {gib(memory)}" if memory else ""
            kind = f"a model or batch too large for this Mac{where}: torch's own tensors fill the cap"
            remedy = Remediation(
                "Use a smaller model, batch or resolution, or float16; lifting the cap with the variable below lets "
                "macOS swap (slow; may freeze the system).",
                (lift,),
            )
        return Cause(
            "out-of-memory",
            f"MPS ran out of memory: {kind} ({numbers})",
            remedy,
            evidence + self.ev("host.memory_bytes"),
            row.source,
            variant=variant,
        )

    def op_cause(self, hit: table.Hit, evidence: tuple[Evidence, ...]) -> Cause:
        op = hit.groups["op"]
        torch = self.facts.target.torch
        torch_version = parse_version(torch.version) if torch else None
        if hit.row.cause == "op-not-implemented" and op in CPU_INPUT_OPS:
            row = table.BY_ID["device-mismatch"]
            return Cause(
                "device-mismatch",
                f"{op} is reached only when the input is on the CPU and the weights on MPS: " + row.summary,
                Remediation(row.fix, ()),
                evidence,
                "https://github.com/pytorch/pytorch/pull/86844; " + row.source,
            )
        env_late = self.paste.all("paste.env_after_import")
        if hit.row.cause == "op-not-implemented" and env_late:
            return self.general("fallback-env-too-late", evidence + self.ev("paste.env_after_import"), op=op)
        since = self.ops.first_mps_release(op) if self.ops else None
        known_table = bool(self.ops and self.ops.knows(op))
        upgrade = since and (torch_version is None or not at_least(torch_version, parse_version(since) or (0,)))
        if hit.row.cause == "op-fallback-warning":
            note = (
                f"{op} has an MPS kernel since torch {self.since(since)}: upgrading removes the fallback"
                if upgrade
                else "no MPS kernel in any release yet"
                if known_table
                else "whether a newer torch has an MPS kernel for it is not known here"
            )
            summary, remedy = self.fill(hit.row, dict(hit.groups))
            commands = (f"{self.python} -m pip install --upgrade 'torch>={since}'",) if upgrade else remedy.commands
            return Cause(
                "op-fallback-warning",
                f"{summary}; {note}. The fallback copies the op's tensors to the CPU and back at every call",
                Remediation(remedy.summary, commands),
                evidence,
                hit.row.source,
            )
        fallback = "export PYTORCH_ENABLE_MPS_FALLBACK=1"
        if upgrade:
            shown = f" (this is torch {torch.version})" if torch and torch.version else ""
            summary = f"{op} has an MPS kernel since torch {self.since(since)}: upgrade{shown}"
            remedy = Remediation(
                f"Upgrade torch to {since} or later; meanwhile PYTORCH_ENABLE_MPS_FALLBACK=1 (set before Python "
                "starts) runs this op on the CPU.",
                (f"{self.python} -m pip install --upgrade 'torch>={since}'", fallback),
            )
        else:
            state = "no MPS kernel in any release yet" if known_table else "no MPS kernel in this torch"
            summary = f"{op}: {state}, and the CPU fallback is off"
            remedy = Remediation(
                "Set PYTORCH_ENABLE_MPS_FALLBACK=1 before Python starts (os.environ after `import torch` is too late), "
                "or keep this op on the CPU; a newer torch may have the kernel. The fallback copies the op's tensors "
                "to the CPU and back at every call: slower, not wrong.",
                (fallback, f"{self.python} -m pip install --upgrade torch"),
            )
        notes: tuple[str, ...] = ()
        if self.paste.all("interpreter.env.PYTORCH_ENABLE_MPS_FALLBACK"):
            notes = (
                "the paste sets PYTORCH_ENABLE_MPS_FALLBACK, yet the op raised: the variable did not reach this "
                "process when torch loaded (set it in the shell that starts Python, or upgrade torch)",
            )
        return Cause("op-not-implemented", summary, remedy, evidence, hit.row.source, notes)

    def since(self, release: str | None) -> str:
        """'2.6.0', or '2.0.0 (or earlier: the oldest release the table covers)'."""
        if release is None:
            return "a later release"
        if self.ops and release == self.ops.oldest():
            return f"{release} (or earlier: the oldest release the op table covers)"
        return release

    def sparse(self, hit: table.Hit, evidence: tuple[Evidence, ...]) -> Cause:
        summary, remedy = self.fill(hit.row, dict(hit.groups))
        op = hit.groups.get("op", "")
        torch = self.facts.target.torch
        version = parse_version(torch.version) if torch else None
        since = self.ops.first_sparse_release(op) if self.ops and op else None
        if since and (version is None or not at_least(version, parse_version(since) or (0,))):
            summary += f"; torch {self.since(since)} and later have a SparseMPS kernel for it"
            remedy = Remediation(
                remedy.summary + f" Or upgrade torch to {since} or later.",
                (f"{self.python} -m pip install --upgrade 'torch>={since}'",),
            )
        return Cause("sparse-unsupported", summary, remedy, evidence, hit.row.source)

    def lightning(self, hit: table.Hit, evidence: tuple[Evidence, ...]) -> Cause:
        info = self.facts.target.interpreter
        processor = info.processor if info else ""
        summary, remedy = self.fill(hit.row, dict(hit.groups))
        if processor in ("arm", "arm64"):
            summary = (
                f"Lightning says MPS is not available although this Python is native (platform.processor() is "
                f"{processor!r}): older Lightning releases accepted only 'arm'; upgrade Lightning"
            )
            remedy = Remediation(
                "Upgrade Lightning (the check accepts 'arm' and 'arm64' since 1.7.1).",
                (f"{self.python} -m pip install --upgrade lightning pytorch-lightning",),
            )
        return Cause(
            "lightning-processor", summary, remedy, evidence + self.ev("interpreter.processor"), hit.row.source
        )

    def no_distribution(self, hit: table.Hit, evidence: tuple[Evidence, ...]) -> Cause:
        listed = self.value("paste.pip_versions")
        versions = listed if isinstance(listed, list) else []
        info = self.facts.target.interpreter
        python = info.version if info and info.version else None
        summary, remedy = self.fill(hit.row, dict(hit.groups))
        ev = evidence + self.ev("paste.pip_versions", "interpreter.machine", "interpreter.version", "paste.intel_prose")
        if (
            (versions and versions[-1] == LAST_INTEL_MAC_TORCH)
            or (info and info.machine == "x86_64")
            or (self.value("paste.intel_prose"))
        ):
            summary = (
                f"no torch wheel for this x86_64 (Intel) Python: PyTorch stopped publishing macOS x86_64 wheels after "
                f"{LAST_INTEL_MAC_TORCH}" + (f" (pip lists versions up to {versions[-1]})" if versions else "")
            )
            remedy = Remediation(
                f"On an Intel Mac, install torch {LAST_INTEL_MAC_TORCH} (uv: constrain torch for Intel macOS); on "
                "Apple silicon, use a native arm64 Python instead.",
                (
                    f"{self.python} -m pip install 'torch<={LAST_INTEL_MAC_TORCH}'",
                    "sysctl -n machdep.cpu.brand_string",
                ),
            )
        elif not versions:
            summary = (
                "pip (or uv) found no torch wheel at all for this Python"
                + (f" {python}" if python else "")
                + ": torch publishes wheels for a few Python versions only, and a new Python gets them months later"
            )
            uv = self.value("paste.uv_command")
            again = [re.sub(r"(-p|--python)([ =])\d+\.\d+\S*", r"\g<1>\g<2>3.12", uv)] if isinstance(uv, str) else []
            remedy = Remediation(
                "Use a Python version torch has wheels for (e.g. 3.12), native arm64, and make the venv with it.",
                (
                    *again,
                    "/opt/homebrew/bin/brew install python@3.12",
                    "/opt/homebrew/bin/python3.12 -m venv ~/.venvs/torch && ~/.venvs/torch/bin/python -m pip install "
                    "torch",
                ),
            )
        return Cause("no-matching-distribution", summary, remedy, ev, hit.row.source)

    # ---- no error ----

    def mps_not_requested(self) -> Cause | None:
        used = self.paste.get("paste.device_used")
        if used is None or used.value != "cpu":
            return None
        mac = self.facts.host.system == "Darwin" or self.value("paste.framework_mps_available")
        if not mac and not self.paste.all("interpreter.home"):
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
            commands.append(re.sub(r"\s+device=\S+", "", command).rstrip() + " device=mps")
        if self.value("paste.lightning"):
            commands.append("Trainer(accelerator='mps', devices=1)")
        cause = self.general("mps-not-requested", self.ev("paste.device_used", "paste.framework_mps_available"))
        assert cause.fix is not None
        return replace(cause, fix=Remediation(cause.fix.summary, (*commands, *cause.fix.commands)))

    def doctor_causes(self) -> list[Cause]:
        """The failing checks of a pasted mpscheck report, in its order (the doctor's root cause first)."""
        out: list[Cause] = []
        for row in self.paste.all("paste.doctor_failed"):
            check_id = str(row.value)
            hit = next((h for h in self.hits if h.line == row.line), None)
            cause_id = DOCTOR_CAUSES.get(check_id) or (hit.row.cause if hit else "doctor-check-failed")
            fix_summary = self.value(f"paste.doctor_fix.{check_id}")
            commands = tuple(str(o.value) for o in self.paste.all(f"paste.doctor_command.{check_id}"))
            general = table.CAUSES.get(cause_id)
            if fix_summary:
                remedy: Remediation | None = Remediation(str(fix_summary), commands)
            elif general:
                remedy = Remediation(
                    general.fix, tuple(table.fill(c, {"python": self.python}) for c in general.commands)
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
        for finding in self.findings:
            if finding.status is not Status.FAIL:
                continue
            needs = CHECK_INPUTS.get(finding.id, ())
            cause_id = FINDING_CAUSES.get(finding.id, "doctor-check-failed")
            variant = None if finding.id in FINDING_CAUSES else finding.id
            out.append(Cause(cause_id, finding.summary, finding.fix, self.ev(*needs), "docs/checks.md", (), variant))
        return out

    def positive(self) -> list[Observation]:
        torch = self.facts.target.torch
        ev: list[Observation] = []
        if torch and torch.mps_available:
            ev += self.paste.all("torch.mps_available")
        ev += self.paste.all("paste.mps_tensor")
        ev += [o for o in self.paste.all("paste.device_used") if o.value == "mps"]
        return ev

    def strong_health(self) -> bool:
        return bool(self.positive())

    def health(self) -> Cause:
        positive = self.positive()
        if positive:
            how = "; ".join(sorted({_describe(o) for o in positive}))
            return self.general(HEALTHY, _evidence(positive), how=how)
        return self.general(NOT_ENOUGH, ())


def _package_in(line: str) -> str | None:
    """The installed package a library path belongs to: .../site-packages/torch/lib/... -> torch."""
    match = re.search(r"(?:site-packages|python_dependencies)/(?P<package>[A-Za-z0-9_.-]+)/", line)
    if not match:
        return None
    return {"llama_cpp": "llama-cpp-python"}.get(match["package"], match["package"])


def _describe(obs: Observation) -> str:
    return {
        "torch.mps_available": "torch.backends.mps.is_available() is True",
        "paste.mps_tensor": "a tensor was created on mps",
        "paste.device_used": "the run used the mps device",
    }.get(obs.fact, obs.fact)


def _evidence(observations: Iterable[Observation]) -> tuple[Evidence, ...]:
    seen: dict[int, Evidence] = {}
    for obs in observations:
        if obs.command is not None:
            seen.setdefault(obs.command, Evidence(obs.command, obs.command_text))
        seen.setdefault(obs.line, Evidence(obs.line, obs.text))
    return tuple(seen[n] for n in sorted(seen))


# ---- the doctor's checks on the paste's facts ----------------------------------------------------------

# A check's finding is kept only when the paste shows the facts it judges (others would judge unknowns).
CHECK_INPUTS: dict[str, tuple[str, ...]] = {
    "platform": ("host.system",),
    "chip": ("host.cpu_brand",),
    "virtual-machine": ("host.hypervisor",),
    "python-arch": ("interpreter.machine",),
    "python-macos-compat": ("interpreter.mac_ver", "host.macos_version"),
    "macos-version": ("host.macos_version",),
    "mps-built": ("torch.mps_built",),
    "mps-available": ("torch.mps_available",),
    "mps-fallback-env": ("interpreter.env.PYTORCH_ENABLE_MPS_FALLBACK",),
    "mps-watermark-env": ("interpreter.env.PYTORCH_MPS_HIGH_WATERMARK_RATIO",),
}


# A failing check whose cause has an id of its own; any other failing check is "doctor-check-failed".
FINDING_CAUSES = {"mps-watermark-env": "watermark-invalid"}
# A failing check row of a pasted mpscheck report, and the cause id it stands for.
DOCTOR_CAUSES = {
    "platform": "not-macos",
    "chip": "intel-mac",
    "virtual-machine": "virtual-machine",
    "python-arch": "rosetta-python",
    "macos-version": "macos-too-old",
    "mps-built": "torch-not-built-with-mps",
    "mps-available": "no-metal-device",
    "mps-watermark-env": "watermark-invalid",
}


def relevant_findings(paste: Paste) -> list[Finding]:
    """The doctor's findings on the paste's facts, for the checks whose inputs the paste shows."""
    from mpscheck.diagnose import diagnose

    report = diagnose(paste.facts)
    shown = {o.fact for o in paste.observations}
    keep = []
    for finding in report.findings:
        needs = CHECK_INPUTS.get(finding.id)
        if needs and all(n in shown for n in needs) and finding.status is not Status.SKIP:
            keep.append(finding)
    return keep
