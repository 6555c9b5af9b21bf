"""The small parts of the paste judge pinned exactly: a Cause's evidence order, evidence of a value with
the command that printed it, the op table's adapter (every spelling, errors as unknown), which doctor
findings a paste keeps, the interpreter quoted into commands, the out-of-memory and virtual-machine
causes, a torch older than MPS, not macOS, the dtypes a paste shows, and the status, exit code, kinds and
next step of a diagnosis.

Expected values are written out or built from the tables (and the one reading of an out-of-memory
message, checks/memory.py) with plain code; every field of a Cause is compared.
"""

from __future__ import annotations

from typing import Any

from mpscheck.checks.causes import Cause, Evidence, explain_text
from mpscheck.checks.causes.findings import relevant_findings
from mpscheck.checks.causes.judge import _Judge, judge
from mpscheck.checks.causes.model import evidence_of
from mpscheck.checks.causes.ops import KnowledgeOps, knowledge_ops, op_names
from mpscheck.checks.causes.silent import known_bugs, shown_dtypes
from mpscheck.checks.memory import read_oom
from mpscheck.knowledge import errors as table
from mpscheck.knowledge.causes import CAUSES
from mpscheck.knowledge.error_rows import INT64_KERNELS_MACOS
from mpscheck.model import ExitCode, Remediation, Requirement, Status
from mpscheck.probes.paste import read
from mpscheck.probes.paste.model import Observation, Paste

SW_VERS = ["ProductName:\t\tmacOS", "ProductVersion:\t\t14.5"]


# ---- the model -------------------------------------------------------------------------------------------


def test_a_causes_evidence_is_in_line_order_each_line_once_the_last_text_kept() -> None:
    cause = Cause("a", "b", None, (Evidence(3, "c"), Evidence(1, "a"), Evidence(3, "x")))
    assert cause.evidence == (Evidence(1, "a"), Evidence(3, "x"))
    assert Cause("a", "b", None).evidence == ()


def test_evidence_of_a_value_names_the_command_that_printed_it_first_seen_wins() -> None:
    printed = Observation("torch.mps_available", True, 3, "True", "repl", 2, ">>> torch.backends.mps.is_available()")
    again = Observation("torch.mps_built", True, 3, "other", "repl")
    plain = Observation("host.system", "Darwin", 1, "ProductName: macOS", "sw_vers")
    assert evidence_of([printed, again, plain]) == (
        Evidence(1, "ProductName: macOS"),
        Evidence(2, ">>> torch.backends.mps.is_available()"),
        Evidence(3, "True"),
    )
    assert evidence_of([]) == ()


# ---- the op table's adapter -----------------------------------------------------------------------------


def test_an_op_is_looked_up_under_every_spelling_in_order() -> None:
    assert op_names("aten::sgn.out") == ["aten::sgn.out", "aten::sgn", "sgn.out", "sgn"]
    assert op_names("aten::sgn") == ["aten::sgn", "sgn"]
    assert op_names("sgn") == ["sgn", "aten::sgn"]


class Module:
    """A stand-in of mpscheck.knowledge.ops: releases, and the kind of each op per release."""

    def __init__(self, kinds: dict[tuple[str, str], str], first: dict[str, str]) -> None:
        self.kinds, self.first = kinds, first

    def known_releases(self) -> list[str]:
        return ["2.0.0", "2.5.0", "2.9.0"]

    def op_kind(self, name: str, release: str) -> str | None:
        return self.kinds.get((name, release))

    def first_mps_release(self, name: str) -> str | None:
        return self.first.get(name)


class Broken:
    def __getattr__(self, name: str) -> Any:
        def fail(*args: object) -> object:
            raise KeyError(name)

        return fail


def test_the_op_table_adapter_reads_each_spelling_and_counts_errors_as_unknown() -> None:
    ops = KnowledgeOps(Module({("sgn", "2.9.0"): "mps", ("aten::sum", "2.5.0"): "sparse-mps"}, {"aten::sgn": "2.5.0"}))
    assert ops.first_mps_release("aten::sgn.out") == "2.5.0"
    assert ops.first_mps_release("aten::cos") is None
    assert ops.knows("aten::sgn.out") is True
    assert ops.knows("aten::sum") is False  # listed only in an older release than the newest
    assert ops.first_sparse_release("aten::sum.dim_IntList") == "2.5.0"
    assert ops.first_sparse_release("aten::sgn") is None
    assert ops.oldest() == "2.0.0"
    broken = KnowledgeOps(Broken())
    assert broken.first_mps_release("aten::sgn") is None
    assert broken.knows("aten::sgn") is False
    assert broken.first_sparse_release("aten::sgn") is None
    assert broken.oldest() is None
    assert isinstance(knowledge_ops(), KnowledgeOps)


# ---- which doctor findings a paste keeps -----------------------------------------------------------------


def test_a_finding_is_kept_only_where_the_paste_shows_every_input_of_its_check() -> None:
    macos = read("\n".join(SW_VERS))
    assert [f.id for f in relevant_findings(macos)] == ["platform", "macos-version"]
    mac_ver = read("platform.mac_ver(): 10.16")
    assert [f.id for f in relevant_findings(mac_ver)] == []  # python-macos-compat needs the macOS too


# ---- the interpreter in commands ---------------------------------------------------------------------------


def test_the_pastes_interpreter_is_quoted_into_commands_else_python3() -> None:
    text = "/Users/a b/python"
    paste = Paste(text, [Observation("interpreter.executable", "/Users/a b/python", 1, text, "t")])
    assert _Judge(paste, [], None).python == "'/Users/a b/python'"
    assert _Judge(Paste(""), [], None).python == "python3"


# ---- out of memory, a virtual machine, a torch older than MPS, not macOS --------------------------------------

OOM = (
    "RuntimeError: MPS backend out of memory (MPS allocated: 5.05 GB, other allocations: 2.29 GB, max allowed: "
    "6.77 GB). Tried to allocate 1024.00 MB on private pool."
)
OOM_ZERO = (
    "RuntimeError: MPS backend out of memory (MPS allocated: 0 bytes, other allocations: 0 bytes, max allowed: "
    "7.93 GB). Tried to allocate 156.00 MB on private pool."
)


def test_out_of_memory_is_said_by_its_numbers_as_the_one_reading_reads_them() -> None:
    paste = read(OOM)
    hit = next(h for h in table.find([OOM]) if h.row.id == "oom")
    reading = read_oom(hit.groups, paste.facts)
    assert judge(paste).cause == Cause(
        "out-of-memory",
        f"MPS ran out of memory: {reading.kind} ({reading.numbers})",
        reading.remedy,
        (Evidence(1, OOM),),
        table.BY_ID["oom"].source,
        variant=reading.variant,
    )


def test_a_refused_allocation_with_nothing_in_use_is_a_virtual_machines_cap() -> None:
    entry = CAUSES["virtual-machine"]
    assert explain_text(OOM_ZERO).cause == Cause(
        "virtual-machine",
        table.fill(entry.summary, {}) + ": the first allocation failed with 0 bytes in use",
        Remediation(entry.fix, tuple(table.fill(c, {"python": "python3"}) for c in entry.commands)),
        (Evidence(1, OOM_ZERO),),
        entry.source,
        variant="vm-cap",
    )


def test_a_torch_older_than_mps_is_the_device_string_row() -> None:
    lines = [*SW_VERS, "PyTorch version: 1.11.0"]
    row = table.BY_ID["old-torch-device-string"]
    fix = Remediation(row.fix, tuple(table.fill(c, {"python": "python3"}) for c in row.commands))
    assert explain_text("\n".join(lines)).cause == Cause(
        "torch-too-old", row.summary, fix, (Evidence(3, lines[2]),), row.source
    )
    assert explain_text("\n".join([*SW_VERS, "PyTorch version: 1.12.0"])).cause.id != "torch-too-old"  # the first


def test_linux_is_not_macos_with_the_system_named() -> None:
    line = "OS: Ubuntu 22.04.4 LTS (x86_64)"
    cause = explain_text(line).cause
    entry = CAUSES["not-macos"]
    assert (cause.id, cause.evidence, cause.source) == ("not-macos", (Evidence(1, line),), entry.source)
    assert cause.summary == table.fill(entry.summary, {"system": "Linux"})


# ---- the dtypes a paste shows, and a bug limited to one dtype ------------------------------------------------


def test_the_dtypes_a_paste_shows_with_their_aliases() -> None:
    assert shown_dtypes("x = torch.half; y = torch.float; z = torch.double; torch.bfloat16, torch.int64") == {
        "float16", "float32", "float64", "bfloat16", "int64",
    }  # fmt: skip
    assert shown_dtypes("half float") == set()  # only torch.<dtype> counts


def test_a_bug_of_one_dtype_is_named_only_where_the_paste_runs_in_it() -> None:
    # mps-matmul-allocator-state: float32 only, from torch 2.7.0
    assert [b.id for b, _, _ in known_bugs("aten::mm", "2.8.0", None)] == ["mps-matmul-allocator-state"]
    assert known_bugs("aten::mm torch.float16", "2.8.0", None) == []
    assert [(b.id, op, line) for b, op, line in known_bugs("x\naten::mm torch.float32", "2.8.0", None)] == [
        ("mps-matmul-allocator-state", "aten::mm", 2)
    ]
    assert known_bugs("aten::mm", "2.6.0", None) == []
    assert known_bugs("aten::mm", "not a version", None) == []


# ---- a diagnosis's status, exit code, kinds and next step ----------------------------------------------------


def test_a_fallback_warning_is_a_warning_that_fails_only_when_strict() -> None:
    line = (
        "UserWarning: The operator 'aten::upsample_bicubic2d.out' is not currently supported on the MPS backend "
        "and will fall back to run on the CPU."
    )
    relaxed = explain_text(line)
    assert (relaxed.status, relaxed.exit_code) == (Status.WARN, ExitCode.READY)
    assert explain_text(line, strict=True).exit_code is ExitCode.PROBLEMS
    assert explain_text(line, require=Requirement.NONE, strict=True).exit_code is ExitCode.READY
    assert relaxed.kinds == ["traceback", "error"]  # a traceback's line: not said again as error text
    assert relaxed.next_step is None  # not a failure, though no setup is shown


def test_a_failure_without_setup_facts_points_to_the_doctor() -> None:
    line = "RuntimeError: invalid high watermark ratio 2.5"
    alone = explain_text(line)
    assert (alone.cause.id, alone.next_step) == ("watermark-invalid", "mpscheck doctor --format markdown")
    with_setup = explain_text("\n".join([*SW_VERS, line]))
    assert (with_setup.cause.id, with_setup.next_step) == ("watermark-invalid", None)
    assert with_setup.kinds == ["sw_vers", "traceback", "error"]
    assert explain_text("ERROR: No matching distribution found for torch").kinds == ["error", "error text"]
    assert (with_setup.status, with_setup.exit_code) == (Status.FAIL, ExitCode.PROBLEMS)
    assert explain_text("\n".join([*SW_VERS, line]), require=Requirement.NONE).exit_code is ExitCode.READY


def test_a_paravirtual_device_name_is_not_positive_evidence_but_a_chip_is() -> None:
    named = [">>> torch.backends.mps.get_name()", "'Apple M2 Pro'"]
    healthy = explain_text("\n".join(named))
    assert healthy.cause.id == "healthy"
    assert healthy.cause.summary == table.fill(
        CAUSES["healthy"].summary, {"how": "torch.backends.mps.get_name() names the GPU"}
    )
    assert healthy.cause.evidence == (Evidence(1, named[0]), Evidence(2, named[1]))
    lines = [named[0], "'Apple Paravirtual device'"]
    assert _Judge(read("\n".join(named)), [], None).positive() == read("\n".join(named)).all("torch.mps_device_name")
    assert _Judge(read("\n".join(lines)), [], None).positive() == []
    entry = CAUSES["virtual-machine"]
    values = {"python": "python3"}
    assert explain_text("\n".join(lines)).cause == Cause(
        "virtual-machine",
        table.fill(entry.summary, values),
        Remediation(table.fill(entry.fix, values), tuple(table.fill(c, values) for c in entry.commands)),
        (Evidence(1, lines[0]), Evidence(2, lines[1])),  # the device's name says it: its line is the evidence
        entry.source,
    )


def test_since_says_a_later_release_or_marks_the_oldest_release_of_the_table() -> None:
    ops = KnowledgeOps(Module({}, {}))
    reader = _Judge(Paste(""), [], ops)
    assert reader.since(None) == "a later release"
    assert reader.since("2.0.0") == "2.0.0 (or earlier: the oldest release the op table covers)"
    assert reader.since("2.5.0") == "2.5.0"
    assert _Judge(Paste(""), [], None).since("2.0.0") == "2.0.0"


def test_positive_evidence_is_what_shows_the_gpu_working_alone() -> None:
    assert _Judge(read("GPU available: True (mps), used: True"), [], None).positive() != []
    assert _Judge(read("\n".join(SW_VERS)), [], None).positive() == []


def test_a_row_is_filled_with_the_interpreter_and_the_int64_macos_unless_its_match_names_one() -> None:
    row = table.BY_ID["int64-no-support"]
    assert "{macos_or}" in row.fix and "{python}" in row.commands[1]
    reader = _Judge(Paste(""), [], None)
    values = {"python": "python3", "macos_or": INT64_KERNELS_MACOS}
    expected = Remediation(table.fill(row.fix, values), tuple(table.fill(c, values) for c in row.commands))
    assert reader.fill(row, {}) == (table.fill(row.summary, values), expected)
    named = {"python": "python3", "macos_or": "14.0"}
    assert reader.fill(row, {"macos_or": "14.0"})[1].summary == table.fill(row.fix, named)


def test_a_watermark_set_that_never_reached_torch_and_the_macs_memory_are_shown() -> None:
    lines = ["export PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0", "hw.memsize: 17179869184", OOM]
    paste = read("\n".join(lines))
    hit = next(h for h in table.find([OOM]) if h.row.id == "oom")
    reading = read_oom(hit.groups, paste.facts)
    assert reading.variant == "watermark-not-applied"
    assert judge(paste).cause == Cause(
        "out-of-memory",
        f"MPS ran out of memory: {reading.kind} ({reading.numbers})",
        reading.remedy,
        (Evidence(1, lines[0]), Evidence(2, lines[1]), Evidence(3, OOM)),
        table.BY_ID["oom"].source,
        variant="watermark-not-applied",
    )
    plain = read("\n".join(lines[1:]))
    reading = read_oom(hit.groups, plain.facts)
    assert judge(plain).cause == Cause(
        "out-of-memory",
        f"MPS ran out of memory: {reading.kind} ({reading.numbers})",
        reading.remedy,
        (Evidence(1, lines[1]), Evidence(2, OOM)),
        table.BY_ID["oom"].source,
        variant=reading.variant,
    )


def test_a_bug_from_a_macos_on_is_named_from_that_macos_or_an_unknown_one() -> None:
    # mps-bitwise-noncontiguous-output: macOS 15 or newer, fixed in torch 2.7.0
    found = [(b.id, op, line) for b, op, line in known_bugs("x.bitwise_and(y)", "2.6.0", "15.0")]
    assert found == [("mps-bitwise-noncontiguous-output", "aten::bitwise_and", 1)]
    assert [(b.id, op, line) for b, op, line in known_bugs("x.bitwise_and(y)", "2.6.0", None)] == found
    assert known_bugs("x.bitwise_and(y)", "2.6.0", "14.6") == []
    assert known_bugs("x.bitwise_and(y)", "2.7.0", "15.0") == []


def test_each_bug_names_the_first_of_its_ops_by_name_and_the_line_that_shows_it() -> None:
    found = [(b.id, op, line) for b, op, line in known_bugs("aten::mm\nx.isfinite(y)\naten::bmm", "2.12.0", None)]
    assert found == [
        ("mps-matmul-allocator-state", "aten::bmm", 3),
        ("mps-bmm-over-2pow32", "aten::bmm", 3),
        ("mps-isfinite-noncontiguous-slice", "aten::isfinite", 2),
    ]


def test_without_the_op_table_the_judgement_has_no_op_coverage(monkeypatch) -> None:
    from mpscheck.checks.causes import ops as coverage

    def missing(name: str) -> object:
        raise ImportError(name)

    monkeypatch.setattr(coverage.importlib, "import_module", missing)
    assert knowledge_ops() is None
