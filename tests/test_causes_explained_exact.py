"""Which setup cause explains which error (checks/causes/explained.py EXPLAINED_BY), written out here as a
whole matrix: every error cause that a setup cause can explain, against every setup cause a paste can
show, so that an item added to or dropped from the table fails here; and the order of a judgement's
causes where several meet (an error before the setup, Rosetta settling an x86_64 Python, a failing
check only when nothing else is found, a CPU run before a fallback warning).

Error lines are torch's, pip's and Lightning's own wordings as the tuning corpus shows them; setup lines
are the formats the readers take.
"""

from __future__ import annotations

import pytest

from mpscheck.checks.causes import Evidence, explain_text

ERRORS = {
    "no-metal-device": "RuntimeError: The MPS backend is supported on MacOS 14.0+. Current OS version can be queried "
    "using `sw_vers`",
    "dtype-needs-macos14": "RuntimeError: MPS BFloat16 is only supported on MacOS 14 or newer",
    "bf16-needs-newer-torch": "ERROR: BFloat16 is not supported on MPS",
    "lightning-processor": "MisconfigurationException: MPSAccelerator can not run on your system since the "
    "accelerator is not available.",
    "no-matching-distribution": "  Unable to find installation candidates for torch (2.3.1)",
    "torch-not-built-with-mps": "RuntimeError: PyTorch is not linked with support for mps devices",
    # the device string refused: off macOS no torch would take it (the AttributeError of a library's check for MPS
    # is the old torch's anywhere: test_a_check_for_mps_that_crashes_on_an_old_torch_is_the_old_torch_everywhere)
    "torch-too-old": "RuntimeError: Expected one of cpu, cuda, xpu, mkldnn, opengl, opencl, ideep, hip, msnpu, xla, "
    "vulkan device type at start of device string: mps",
    "autocast-needs-newer-torch": "RuntimeError: User specified an unsupported autocast device_type 'mps'",
}
SETUPS = {
    "not-macos": ["OS: Ubuntu 22.04.4 LTS (x86_64)"],
    "rosetta-python": ["Rosetta (sysctl.proc_translated): 1"],
    "intel-mac": ["machdep.cpu.brand_string: Intel(R) Core(TM) i7-9750H CPU @ 2.60GHz"],
    # an x86_64 Python with no word on the chip: Rosetta said as most likely (variant chip-not-shown), an Intel Mac next
    "chip-not-shown": ["platform.machine() / processor(): x86_64 / i386"],
    "virtual-machine": ["kern.hv_vmm_present: 1"],
    "macos-too-old": ["ProductName:\t\tmacOS", "ProductVersion:\t\t12.2"],
}
# error cause -> the setup causes that are its real reason when the paste shows them
EXPLAINED = {
    "no-metal-device": {"not-macos", "rosetta-python", "intel-mac", "virtual-machine", "macos-too-old"},
    "dtype-needs-macos14": {"rosetta-python", "intel-mac", "macos-too-old"},
    "bf16-needs-newer-torch": {"rosetta-python", "intel-mac"},
    # not-macos since issue 17's ninth round: Lightning's MPS refusal on a machine that is not a Mac (cell2location#252)
    "lightning-processor": {"not-macos", "rosetta-python", "chip-not-shown", "intel-mac"},
    "no-matching-distribution": {"rosetta-python"},
    "torch-not-built-with-mps": {"not-macos", "rosetta-python"},
    "torch-too-old": {"not-macos"},
    "autocast-needs-newer-torch": {"not-macos"},
}


SHOWN_AS = {"chip-not-shown": "rosetta-python"}  # a setup whose cause id is another's, told by its variant


def test_each_error_line_alone_is_its_own_cause_and_each_setup_alone_its_own() -> None:
    for cause_id, line in ERRORS.items():
        assert explain_text(line).cause.id == cause_id, line
    for setup, lines in SETUPS.items():
        cause = explain_text("\n".join(lines)).cause
        assert cause.id == SHOWN_AS.get(setup, setup), lines
        assert (cause.variant == "chip-not-shown") == (setup == "chip-not-shown"), lines


@pytest.mark.parametrize("error", sorted(ERRORS))
@pytest.mark.parametrize("setup", sorted(SETUPS))
def test_a_setup_cause_explains_exactly_the_errors_it_is_the_reason_for(error: str, setup: str) -> None:
    lines = [*SETUPS[setup], ERRORS[error]]
    diagnosis = explain_text("\n".join(lines))
    error_line = Evidence(len(lines), lines[-1])
    shown = SHOWN_AS.get(setup, setup)
    if setup in EXPLAINED[error]:
        assert diagnosis.cause.id == shown
        assert error_line in diagnosis.cause.evidence  # the error is shown as a symptom of the setup
        assert shown not in {c.id for c in diagnosis.others}
    else:
        assert diagnosis.cause.id == error
        assert shown in {c.id for c in diagnosis.others}  # the setup problem is still said


# ---- the order of causes where several meet ---------------------------------------------------------------

REPORT_ARCH = [
    "mpscheck doctor · probed /usr/local/bin/python3",
    "[✗] python-arch         x86_64 Python under Rosetta",
]


def test_a_reports_rosetta_settles_an_x86_64_python_of_unknown_hardware() -> None:
    lines = [*REPORT_ARCH, "platform.machine() / processor(): x86_64 / i386"]
    diagnosis = explain_text("\n".join(lines))
    assert [c.id for c in [diagnosis.cause, *diagnosis.others]] == ["rosetta-python"]


def test_a_failing_check_on_the_facts_is_said_only_when_nothing_else_is_found() -> None:
    env = "export PYTORCH_ENABLE_MPS_FALLBACK=yes please"
    alone = explain_text("\n".join(["ProductName:\t\tmacOS", "ProductVersion:\t\t14.5", env]))
    assert alone.cause.id == "doctor-check-failed"
    error = "RuntimeError: invalid high watermark ratio 2.5"
    both = explain_text("\n".join(["ProductName:\t\tmacOS", "ProductVersion:\t\t14.5", env, error]))
    assert [c.id for c in [both.cause, *both.others]] == ["watermark-invalid"]


def test_a_cpu_run_comes_before_a_fallback_warning_and_an_error_before_both() -> None:
    warning = (
        "UserWarning: The operator 'aten::upsample_bicubic2d.out' is not currently supported on the MPS backend "
        "and will fall back to run on the CPU."
    )
    unused = "GPU available: True (mps), used: False"
    diagnosis = explain_text("\n".join([warning, unused]))
    assert [c.id for c in [diagnosis.cause, *diagnosis.others]] == ["mps-not-requested", "op-fallback-warning"]
    error = "RuntimeError: invalid high watermark ratio 2.5"
    diagnosis = explain_text("\n".join([warning, unused, error]))
    assert [c.id for c in [diagnosis.cause, *diagnosis.others]] == ["watermark-invalid", "op-fallback-warning"]


def test_errors_are_ranked_by_the_table_not_by_their_place_in_the_paste() -> None:
    watermark = "RuntimeError: invalid high watermark ratio 2.5"
    not_linked = "RuntimeError: PyTorch is not linked with support for mps devices"
    first = explain_text("\n".join([watermark, not_linked]))
    second = explain_text("\n".join([not_linked, watermark]))
    order = [c.id for c in [first.cause, *first.others]]
    assert order == [c.id for c in [second.cause, *second.others]]
    assert sorted(order) == ["torch-not-built-with-mps", "watermark-invalid"]


def test_a_known_error_leaves_an_unknown_one_unsaid_and_a_warning_is_said_once() -> None:
    watermark = "RuntimeError: invalid high watermark ratio 2.5"
    odd = "RuntimeError: something went wrong in the kernel"
    diagnosis = explain_text("\n".join([odd, watermark]))
    assert [c.id for c in [diagnosis.cause, *diagnosis.others]] == ["watermark-invalid"]
    warning = (
        "UserWarning: The operator '{}' is not currently supported on the MPS backend and will fall back to run on "
        "the CPU."
    )
    lines = [warning.format("aten::upsample_bicubic2d.out"), warning.format("aten::_linalg_solve_ex.result")]
    twice = explain_text("\n".join(lines))
    assert [c.id for c in [twice.cause, *twice.others]] == ["op-fallback-warning"]
    assert twice.cause.evidence == (Evidence(1, lines[0]),)  # the first op's


def test_off_macos_an_x86_64_python_or_an_nvidia_gpu_adds_nothing() -> None:
    linux = "OS: Ubuntu 22.04.4 LTS (x86_64)"
    both = explain_text("\n".join([linux, "platform.machine() / processor(): x86_64 / i386"]))
    assert [c.id for c in [both.cause, *both.others]] == ["not-macos"]
    mac = explain_text("\n".join(["ProductName:\t\tmacOS", "ProductVersion:\t\t14.5", "eGPU: NVIDIA RTX 3090"]))
    assert "not-macos" not in [c.id for c in [mac.cause, *mac.others]]


def test_a_failure_shown_with_torch_or_interpreter_facts_needs_no_doctor_run() -> None:
    built = explain_text("\n".join([">>> torch.backends.mps.is_built()", "False"]))
    assert (built.cause.id, built.next_step) == ("torch-not-built-with-mps", None)
    env = explain_text("export PYTORCH_ENABLE_MPS_FALLBACK=yes please")
    assert (env.cause.id, env.next_step) == ("doctor-check-failed", None)


def test_a_check_for_mps_that_crashes_on_an_old_torch_is_the_old_torch_everywhere() -> None:
    line = "AttributeError: module 'torch.backends' has no attribute 'mps'"
    for setup in SETUPS.values():
        diagnosis = explain_text("\n".join([*setup, line]))
        assert diagnosis.cause.id == "torch-too-old", setup
        assert Evidence(len(setup) + 1, line) in diagnosis.cause.evidence
