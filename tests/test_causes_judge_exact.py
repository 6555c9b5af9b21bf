"""The paste judge's own paths pinned exactly (checks/causes/judge.py): the unreadable diagnosis, a pasted
mpscheck report's failing rows (its own fix, the table's general fix, none), where a failing check that has
no cause of its own ranks, Lightning's 'GPU available: False', the CPU run never asked for MPS, health,
a cut input and the install commands fitted to the user's setup.

Each expected value is written out or built from the tables with plain code, never by the function
under test, and every field of a Cause is compared, so that a changed word, branch or item fails here.
"""

from __future__ import annotations

import pytest

from mpscheck.checks.causes import Cause, Diagnosis, Evidence, explain_text
from mpscheck.checks.causes.judge import fit_installs, judge, judge_cut
from mpscheck.checks.diagnose import diagnose
from mpscheck.checks.installing import conda_arm64_create, install_command
from mpscheck.facts import Facts
from mpscheck.knowledge import errors as table
from mpscheck.knowledge.causes import CAUSES
from mpscheck.knowledge.versions import last_intel_mac_torch
from mpscheck.model import ExitCode, Remediation, Requirement, Status
from mpscheck.probes.paste import read
from mpscheck.probes.paste.model import Observation, Paste
from tests.corpus_cases import CORPUS, load
from tests.test_paste_reach import FAILING, paste_of

UNREAD = Cause("unreadable", "nothing in the input could be read", None)
PY = "/usr/local/bin/python3"
SW_VERS = ["ProductName:\t\tmacOS", "ProductVersion:\t\t14.5"]


def filled(template: str, **values: str | None) -> str:
    return table.fill(template, values)


def general(cause_id: str, python: str, macos: str | None = None) -> Remediation:
    entry = CAUSES[cause_id]
    last_intel, conda = last_intel_mac_torch(), conda_arm64_create()
    values = {"python": python, "last_intel": last_intel, "macos": macos, "conda_arm64": conda}
    return Remediation(filled(entry.fix, **values), tuple(filled(c, **values) for c in entry.commands))


# ---- unreadable input ----------------------------------------------------------------------------------


def test_unreadable_input_is_a_whole_diagnosis_of_nothing_with_the_usage_exit() -> None:
    for text in ("", "hello\nworld", "   \n\n"):
        for require in (Requirement.MPS, Requirement.NONE):
            for strict in (False, True):
                assert explain_text(text, require=require, strict=strict) == Diagnosis(
                    [], UNREAD, exit_code=ExitCode.USAGE, status=None
                ), (text, require, strict)
    diagnosis = explain_text("hello")
    assert diagnosis.kinds == [] and diagnosis.others == [] and diagnosis.findings == []
    assert diagnosis.facts == Facts() and diagnosis.next_step is None


def test_text_about_torch_with_no_fact_is_read_not_unreadable() -> None:
    for text in ("why is torch slow", "PyTorch on my Mac", "is MPS used?"):
        diagnosis = explain_text(text)
        entry = CAUSES["not-enough-evidence"]
        expected = Cause(entry.id, entry.summary, general(entry.id, "python3"), (), entry.source)
        assert diagnosis.cause == expected, text
        assert (diagnosis.status, diagnosis.exit_code) == (Status.FAIL, ExitCode.PROBLEMS)
        assert diagnosis.next_step == "mpscheck doctor --format markdown"
    assert explain_text("torchlight").cause.id == "unreadable"  # a word that only contains torch
    assert explain_text("torchvision").cause.id == "not-enough-evidence"  # torch's own family is on topic


# ---- a pasted mpscheck report --------------------------------------------------------------------------

REPORT = [
    f"mpscheck doctor · probed {PY}",
    "[✗] python-arch         x86_64 Python under Rosetta",
    "      → Install an arm64 Python",
    "      and recreate the env",
    "          brew install python@3.12",
    "[✓] macos               macOS 14.5",
    "[✗] chip                Intel Mac",
    "[✗] mps-fallback-env    PYTORCH_ENABLE_MPS_FALLBACK='yes' is not read as on",
    "[✗] mps-fallback-env    PYTORCH_ENABLE_MPS_FALLBACK='yes' is not read as on",
]


def test_a_pasted_reports_failing_rows_become_causes_in_its_order_each_once() -> None:
    diagnosis = explain_text("\n".join(REPORT))
    rosetta = Cause(
        "rosetta-python",
        "mpscheck doctor says: x86_64 Python under Rosetta",
        Remediation("Install an arm64 Python and recreate the env", ("brew install python@3.12",)),
        (Evidence(2, REPORT[1]),),
        CAUSES["rosetta-python"].source,
    )
    intel = Cause(
        "intel-mac", "mpscheck doctor says: Intel Mac", general("intel-mac", PY), (Evidence(7, REPORT[6]),),
        CAUSES["intel-mac"].source,
    )  # fmt: skip
    unnamed = Cause(
        "doctor-check-failed",
        "mpscheck doctor says: PYTORCH_ENABLE_MPS_FALLBACK='yes' is not read as on",
        None,
        (Evidence(8, REPORT[7]),),
        "docs/checks.md",
        (),
        "mps-fallback-env",
    )
    assert diagnosis.cause == rosetta
    assert diagnosis.others == [intel, unnamed]
    assert (diagnosis.status, diagnosis.exit_code, diagnosis.next_step) == (Status.FAIL, ExitCode.PROBLEMS, None)


def test_a_report_row_whose_error_the_table_knows_takes_the_rows_cause_and_source() -> None:
    row = "[✗] error-text          RuntimeError: invalid high watermark ratio 2.5"
    diagnosis = explain_text(f"mpscheck doctor · probed {PY}\n{row}")
    source = table.BY_ID["watermark"].source
    summary = "mpscheck doctor says: RuntimeError: invalid high watermark ratio 2.5"
    assert diagnosis.cause == Cause("watermark-invalid", summary, None, (Evidence(2, row),), source)
    assert diagnosis.others == []
    assert diagnosis.kinds == ["mpscheck report", "error", "error text"]


def test_a_report_row_without_its_summary_is_said_from_the_row_text() -> None:
    row = "[✗] mps-fallback-env    PYTORCH_ENABLE_MPS_FALLBACK='yes' is not read as on"
    paste = Paste(row, [Observation("paste.doctor_failed", "mps-fallback-env", 1, row, "mpscheck report")])
    cause = judge(paste).cause
    assert cause == Cause(
        "doctor-check-failed",
        "mpscheck doctor says: PYTORCH_ENABLE_MPS_FALLBACK='yes' is not read as on",
        None,
        (Evidence(1, row),),
        "docs/checks.md",
        (),
        "mps-fallback-env",
    )


def test_a_check_failed_row_ranks_after_the_errors_and_setup_causes_of_the_paste() -> None:
    lines = [*SW_VERS, "RuntimeError: invalid high watermark ratio 2.5", REPORT[7]]
    diagnosis = explain_text("\n".join(lines))
    assert [c.id for c in [diagnosis.cause, *diagnosis.others]] == ["watermark-invalid", "doctor-check-failed"]
    assert diagnosis.others[0].variant == "mps-fallback-env"
    assert diagnosis.others[0].evidence == (Evidence(4, REPORT[7]),)


def test_a_report_row_with_the_tables_cause_gets_its_general_fix_filled() -> None:
    lines = [f"mpscheck doctor · probed {PY}", "[✗] mps-available     MPS is not available"]
    cause = explain_text("\n".join(lines)).cause
    assert cause == Cause(
        "no-metal-device",
        "mpscheck doctor says: MPS is not available",
        general("no-metal-device", PY),
        (Evidence(2, lines[1]),),
        CAUSES["no-metal-device"].source,
    )


# ---- doctor checks failing on the paste's facts --------------------------------------------------------


def test_a_failing_check_on_the_facts_is_a_cause_with_the_checks_own_words() -> None:
    for variable, cause_id, variant in (
        ("PYTORCH_ENABLE_MPS_FALLBACK=yes please", "doctor-check-failed", "mps-fallback-env"),
        ("PYTORCH_MPS_HIGH_WATERMARK_RATIO=5", "watermark-invalid", None),
    ):
        lines = [*SW_VERS, f"export {variable}"]
        paste = read("\n".join(lines))
        check = "mps-fallback-env" if variant else "mps-watermark-env"
        finding = next(f for f in diagnose(paste.facts).findings if f.id == check)
        assert finding.status is Status.FAIL
        diagnosis = judge(paste)
        shown = (Evidence(3, lines[2]),)
        expected = Cause(cause_id, finding.summary, finding.fix, shown, "docs/checks.md", (), variant)
        assert diagnosis.cause == expected
        assert diagnosis.others == []


# ---- a CPU run: Lightning without MPS, MPS never requested -------------------------------------------------


def test_lightning_seeing_no_mps_on_a_mac_is_the_lightning_processor_cause() -> None:
    lines = [*SW_VERS, "GPU available: False, used: False"]
    row = table.BY_ID["lightning-mps"]
    diagnosis = explain_text("\n".join(lines))
    assert diagnosis.cause == Cause(
        "lightning-processor",
        "Lightning sees no MPS ('GPU available: False'): " + row.summary,
        Remediation(row.fix, tuple(filled(c, python="python3") for c in row.commands)),
        (Evidence(3, lines[2]),),
        row.source,
    )
    assert diagnosis.others == []
    assert (diagnosis.status, diagnosis.next_step) == (Status.FAIL, None)


def test_lightning_with_mps_unused_is_told_to_ask_the_trainer_for_it() -> None:
    lines = [*SW_VERS, "GPU available: True (mps), used: False"]
    entry = CAUSES["mps-not-requested"]
    cause = explain_text("\n".join(lines)).cause
    assert cause == Cause(
        "mps-not-requested",
        entry.summary,
        Remediation(
            entry.fix,
            ("Trainer(accelerator='mps', devices=1)", *(filled(c, python="python3") for c in entry.commands)),
        ),
        (Evidence(3, lines[2]),),
        entry.source,
    )


def test_a_yolo_run_on_the_cpu_gets_its_own_command_with_device_mps() -> None:
    text = load(CORPUS / "ultralytics-2599-cli-device-none.txt").paste
    command = next(line for line in text.split("\n") if line.startswith("$ yolo "))[2:]
    banner_at, banner = next((n, line) for n, line in enumerate(text.split("\n"), 1) if "torch-2.0.1 CPU" in line)
    entry = CAUSES["mps-not-requested"]
    cause = explain_text(text).cause
    assert cause == Cause(
        "mps-not-requested",
        entry.summary,
        Remediation(entry.fix, (command + " device=mps", *(filled(c, python="python3") for c in entry.commands))),
        (Evidence(banner_at, banner),),
        entry.source,
    )
    named = text.replace(command, command + " device=cpu")
    assert explain_text(named).cause.fix == cause.fix  # the device asked for is replaced, not added twice


def test_a_cpu_run_off_a_mac_is_not_said_to_be_mps_not_requested() -> None:
    assert explain_text("GPU available: False, used: False").cause.id == "not-enough-evidence"
    assert explain_text("GPU available: True (mps), used: False").cause.id == "mps-not-requested"  # mps: a Mac


def test_the_cpu_used_where_mps_is_wanted_and_never_asked_for_is_mps_not_requested_exactly() -> None:
    """Round 33: mps named (the device the user is after) with the CPU said to run: a Mac's run that never asked for
    mps, with every field; not where mps was asked for, nor where the paste shows another system."""
    text = "# user: it only uses the CPU\n# user: how can I use mps?"
    entry = CAUSES["mps-not-requested"]
    assert explain_text(text).cause == Cause(
        "mps-not-requested",
        entry.summary,
        Remediation(entry.fix, tuple(filled(c, python="python3") for c in entry.commands)),
        (Evidence(1, "# user: it only uses the CPU"), Evidence(2, "# user: how can I use mps?")),  # both say the CPU
        entry.source,
    )
    assert explain_text("# user: it only uses the CPU").cause.id == "not-enough-evidence"  # mps never named
    assert explain_text(text + "\ndevice: mps").cause.id != "mps-not-requested"  # asked for, and the CPU ran
    assert explain_text("Ubuntu 22.04\n" + text).cause.id != "mps-not-requested"  # another system shown


# ---- health --------------------------------------------------------------------------------------------


def test_health_names_every_kind_of_positive_evidence_sorted_and_its_lines() -> None:
    lines = [
        *SW_VERS,
        ">>> torch.backends.mps.is_available()",
        "True",
        "GPU available: True (mps), used: True",
    ]
    diagnosis = explain_text("\n".join(lines))
    how = "the run used the mps device; torch.backends.mps.is_available() is True"
    assert diagnosis.cause == Cause(
        "healthy",
        filled(CAUSES["healthy"].summary, how=how),
        None,
        (Evidence(3, lines[2]), Evidence(4, lines[3]), Evidence(5, lines[4])),
        "",
    )
    assert (diagnosis.status, diagnosis.exit_code, diagnosis.next_step) == (Status.PASS, ExitCode.READY, None)


# ---- a cut input, and install commands fitted to the setup ---------------------------------------------


def test_a_cut_input_notes_the_cut_and_turns_a_pass_into_not_confirmed() -> None:
    healthy = explain_text("GPU available: True (mps), used: True")
    assert healthy.status is Status.PASS
    cut = judge_cut(healthy, "cut at 10 characters", require=Requirement.MPS, strict=False)
    assert cut.cause.notes == ("cut at 10 characters",)
    assert (cut.status, cut.exit_code) == (Status.SKIP, ExitCode.PROBLEMS)
    again = explain_text("GPU available: True (mps), used: True")
    relaxed = judge_cut(again, "x", require=Requirement.NONE, strict=False)
    assert (relaxed.status, relaxed.exit_code) == (Status.SKIP, ExitCode.READY)
    failing = explain_text("GPU available: False, used: False")
    before = failing.exit_code
    cut = judge_cut(failing, "cut", require=Requirement.MPS, strict=False)
    assert (cut.status, cut.exit_code, cut.cause.notes) == (Status.FAIL, before, ("cut",))


def test_install_commands_are_rewritten_for_the_setup_and_others_kept() -> None:
    fix = Remediation(
        "s",
        (
            "python3 -m pip install --upgrade 'torch>=2.6.0'",
            "sw_vers",
            "python3 -m pip install --force-reinstall --no-cache-dir torch",
            "python3 -m pip install -U numpy",
        ),
    )
    cause = Cause("x", "y", fix, (Evidence(1, "a"),), "src", ("n",), "v")
    fitted = fit_installs(cause, Facts(), "python3")
    assert fitted == Cause(
        "x",
        "y",
        Remediation(
            "s",
            (
                install_command(None, "python3", "torch>=2.6.0", upgrade=True, reinstall=False),
                "sw_vers",
                install_command(None, "python3", "torch", upgrade=False, reinstall=True),
                install_command(None, "python3", "numpy", upgrade=True, reinstall=False),
            ),
        ),
        (Evidence(1, "a"),),
        "src",
        ("n",),
        "v",
    )
    bare = Cause("x", "y", None)
    assert fit_installs(bare, Facts(), "python3") is bare


def test_a_check_that_only_warns_on_the_facts_is_a_finding_not_a_cause() -> None:
    paste = paste_of(FAILING["python-macos-compat"])
    diagnosis = judge(paste)
    assert [(f.id, f.status) for f in diagnosis.findings if f.id == "python-macos-compat"] == [
        ("python-macos-compat", Status.WARN)
    ]
    assert diagnosis.cause.id == "not-enough-evidence"
    assert diagnosis.others == []


@pytest.mark.parametrize(
    ("check", "cause_id"),
    [
        ("platform", "not-macos"),
        ("chip", "intel-mac"),
        ("virtual-machine", "virtual-machine"),
        ("python-arch", "rosetta-python"),
        ("macos-version", "macos-too-old"),
        ("mps-built", "torch-not-built-with-mps"),
        ("mps-available", "no-metal-device"),
        ("mps-watermark-env", "watermark-invalid"),
        ("python-macos-compat", "doctor-check-failed"),
        ("mps-fallback-env", "doctor-check-failed"),
        ("torch-import", "doctor-check-failed"),
    ],
)
def test_each_failing_row_of_a_pasted_report_stands_for_its_cause(check: str, cause_id: str) -> None:
    row = f"[✗] {check:<20}the check's own words"
    cause = explain_text(f"mpscheck doctor · probed {PY}\n{row}").cause
    variant = check if cause_id == "doctor-check-failed" else None
    assert (cause.id, cause.summary, cause.evidence, cause.variant) == (
        cause_id, "mpscheck doctor says: the check's own words", (Evidence(2, row),), variant
    )  # fmt: skip


def test_a_tensor_on_mps_is_positive_evidence_said_as_such() -> None:
    line = "tensor([1, 2, 3, 4], device='mps:0')"
    diagnosis = explain_text(line)
    how = "a tensor was created on mps"
    assert diagnosis.cause == Cause(
        "healthy", filled(CAUSES["healthy"].summary, how=how), None, (Evidence(1, line),), ""
    )
    assert (diagnosis.status, diagnosis.exit_code) == (Status.PASS, ExitCode.READY)


def test_every_kind_of_positive_evidence_adds_to_the_others() -> None:
    lines = [
        ">>> torch.backends.mps.is_available()",
        "True",
        ">>> torch.backends.mps.get_name()",
        "'Apple M2 Pro'",
        "tensor([1, 2, 3, 4], device='mps:0')",
        "GPU available: True (mps), used: True",
    ]
    how = (
        "a tensor was created on mps; the run used the mps device; torch.backends.mps.get_name() names the GPU; "
        "torch.backends.mps.is_available() is True"
    )
    assert explain_text("\n".join(lines)).cause == Cause(
        "healthy",
        filled(CAUSES["healthy"].summary, how=how),
        None,
        tuple(Evidence(n, line) for n, line in enumerate(lines, 1)),
        "",
    )
