"""The classes of input the seventeenth out-of-sample round (2026-11-24: science, medical imaging, 3D, RL, tabular
and probabilistic libraries: nnU-Net, TotalSegmentator, PyG, PyTorch3D, segment-anything, captum, AutoGluon,
torchmetrics, detectron2, ...) found explain missing, each read generally: an out-of-memory message cut before
"Tried to allocate" (its cap was dropped, and then read as a limit already off); an out-of-memory message with
little of the cap in use from a run said to be in CI (a hosted runner's paravirtual GPU); the user's words that the
Mac's CPU was used instead of the GPU, with an owner's name and a verb between.

The texts are lines of the round's threads (tests/corpus names each).
"""

from __future__ import annotations

from mpscheck.checks.causes import explain_text
from mpscheck.checks.memory import held_little
from mpscheck.knowledge import errors as table

# autogluon/autogluon#4544, the pytest line, cut by the stored copy before "allocate"
CUT = (
    "E       RuntimeError: MPS backend out of memory (MPS allocated: 528.00 MB, other allocations: 1.20 MB, max "
    "allowed: 7.93 GB). Tried to a"
)


def test_a_cut_out_of_memory_message_still_reads_its_cap_and_says_nothing_of_the_limit() -> None:
    hit = next(h for h in table.find([CUT]) if h.row.id == "oom")
    assert (hit.groups["allocated"], hit.groups["other"], hit.groups["max"]) == ("528.00 MB", "1.20 MB", "7.93 GB")
    assert "requested" not in hit.groups
    diagnosis = explain_text(CUT)
    assert (diagnosis.cause.id, diagnosis.cause.variant) == ("out-of-memory", "too-large")
    assert "already off" not in diagnosis.cause.summary
    assert "cut from the paste" in diagnosis.cause.summary and "cap 7.93 GB" in diagnosis.cause.summary
    # cut before the cap as well: nothing is said of the limit either
    diagnosis = explain_text("RuntimeError: MPS backend out of memory (MPS allocated: 3.10 GB, other allocations: 1.00")
    assert diagnosis.cause.id == "out-of-memory" and diagnosis.cause.variant != "watermark-off"
    # a whole message with no cap still says the limit is off (tests/test_paste.py pins the kinds)
    whole = "MPS backend out of memory (MPS allocated: 30.10 GB, other allocations: 1.00 GB). Tried to allocate 2.00 GB"
    assert explain_text(whole).cause.variant == "watermark-off"


def test_held_little_is_under_half_the_cap_and_needs_every_number() -> None:
    def groups(allocated: str, other: str, cap: str | None) -> dict[str, str]:
        return {"allocated": allocated, "other": other} | ({"max": cap} if cap else {})

    assert held_little(groups("528.00 MB", "1.20 MB", "7.93 GB"))
    assert held_little(groups("1.99 GB", "0 bytes", "4.00 GB"))
    assert not held_little(groups("2.00 GB", "0 bytes", "4.00 GB"))  # half is not under half
    assert not held_little(groups("1.00 GB", "1.00 GB", "4.00 GB"))  # the other allocations count
    assert not held_little(groups("528.00 MB", "1.20 MB", None))


def test_an_out_of_memory_with_little_in_use_in_a_run_said_to_be_ci_is_the_hosted_runner() -> None:
    prose = "# user: Run platform tests on AutoGluon CI"
    diagnosis = explain_text(f"{prose}\n{CUT}")
    assert (diagnosis.cause.id, diagnosis.cause.variant) == ("virtual-machine", "vm-cap")
    assert diagnosis.cause.fix is not None and "physical Mac" in diagnosis.cause.fix.summary
    assert "sysctl -n kern.hv_vmm_present" in diagnosis.cause.summary  # what tells a VM from a physical CI Mac
    assert [e.line for e in diagnosis.cause.evidence] == [1, 2]
    # the same said of a GitHub-hosted runner, and of a whole message with the request
    whole = CUT.replace("Tried to a", "Tried to allocate 64.00 MB on private pool.")
    assert explain_text(f"# user: it fails on the GitHub-hosted macos runner\n{whole}").cause.id == "virtual-machine"
    # no CI said, a self-hosted one, or the cap nearly filled: memory, not a VM
    assert explain_text(CUT).cause.id == "out-of-memory"
    assert explain_text(f"# user: on our self-hosted CI Mac mini\n{CUT}").cause.id == "out-of-memory"
    full = CUT.replace("528.00 MB", "7.50 GB")
    assert explain_text(f"{prose}\n{full}").cause.id == "out-of-memory"


def test_the_macs_cpu_used_instead_of_mps_is_mps_not_requested_but_an_idle_gpu_is_not() -> None:
    text = (  # wasserth/TotalSegmentator#250
        "# user: I'm running TotalSegmentator on my M3Max chip (16-core CPU 40-core GPU) Macbook Pro and it's taking "
        "over 600 seconds. Is it possible that the latest version of totalsegmentator just uses the Macbook's CPU "
        'instead of calling the Macbook\'s "MPS" when using pytorch?'
    )
    diagnosis = explain_text(text)
    assert diagnosis.cause.id == "mps-not-requested"
    assert diagnosis.cause.fix is not None and "mps" in diagnosis.cause.fix.summary
    # a GPU seen idle is said of runs that asked for mps too (llama-mps#2 swapped): no device is read from it
    assert explain_text("# user: GPU usage 0% at M2 Max MacBook Pro").cause.id != "mps-not-requested"


def test_a_result_called_strange_or_weird_near_mps_is_a_wrong_result() -> None:
    text = (  # facebookresearch/segment-anything#458
        "# user: Hi, I was doing some tests with CT images and while using the vit_h model on mps in my macbook pro it "
        "gives me the following strange result.\n"
        "# user: On the same macbook I tested on cpu and it gave a very different and more meaningful result, the same "
        "result that I had on my desktop with cuda.\n"
    )
    assert explain_text(text).cause.id == "metal-bug-fixed-later"
    assert explain_text("# user: weird outputs from the model on mps on my M2 MacBook").cause.id == (
        "metal-bug-fixed-later"
    )
    # a strange error, or a strange result far from mps, is no wrong result
    assert explain_text("# user: a strange error when I start it on my M2 MacBook").cause.id != "metal-bug-fixed-later"


def test_a_hand_written_os_row_under_another_label_is_read_by_its_value() -> None:
    from mpscheck.probes.paste import read

    # facebookresearch/pytorch3d#1983's "OS: macOS 15.3.2(Apple Silicon) M1 pro", its label translated
    assert read("Betriebssystem: macOS 15.3.2(Apple Silicon) M1 pro").facts.host.macos_version == "15.3.2"
    assert read("Betriebssystem: macOS 15.3.2 (Apple silicon)").facts.host.macos_version == "15.3.2"
    assert read("Betriebssystem: macOS 14 is great").facts.host.macos_version is None  # prose, not a value
