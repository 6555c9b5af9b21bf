"""The causes read from a paste's facts pinned exactly (checks/causes/setup.py and base.py): Rosetta told
apart from an x86_64 Python by the Apple-silicon evidence (proc_translated 1 only), a macOS below the
floor of the torch shown or of the error's own text, no Metal device with and without the macOS, a
torch that works once another is installed, and the Python that no torch (or the version asked for)
has a wheel for.

Expected values are written out or built from the tables with plain code, and every field of a Cause is
compared, so that a changed word, boundary, branch or item fails here.
"""

from __future__ import annotations

from mpscheck.checks.causes import Cause, Evidence, explain_text
from mpscheck.checks.causes.judge import _Judge
from mpscheck.checks.installing import conda_arm64_create
from mpscheck.knowledge import errors as table
from mpscheck.knowledge import releases
from mpscheck.knowledge.causes import CAUSES
from mpscheck.knowledge.versions import PRE_TABLE_FLOOR, last_intel_mac_torch, macos_floor, torch_pin_for_macos
from mpscheck.model import Remediation
from mpscheck.probes.paste import read

SW_VERS = ["ProductName:\t\tmacOS", "ProductVersion:\t\t{}"]
TRANSLATED = "Rosetta (sysctl.proc_translated): {}"  # collect_env's row (the interpreter's own answer)
X86 = "platform.machine() / processor(): x86_64 / i386"
PYTHON = "Python version: {} (main, Jun  6 2024, 18:26:44) [Clang 15.0.0 (clang-1500.3.9.4)] (64-bit runtime)"
OLD_MACOS_SOURCE = (
    "https://github.com/pytorch/pytorch/issues/139425; mpscheck/knowledge/versions.py (MAC_FLOOR_BY_TORCH)"
)


def reader(lines: list[str]) -> _Judge:
    return _Judge(read("\n".join(lines)), [], None)


def row_cause(row_id: str, evidence: tuple[Evidence, ...], python: str = "python3") -> Cause:
    row = table.BY_ID[row_id]
    commands = tuple(table.fill(c, {"python": python}) for c in row.commands)
    return Cause(row.cause, row.summary, Remediation(row.fix, commands), evidence, row.source)


def sw_vers(version: str) -> list[str]:
    return [SW_VERS[0], SW_VERS[1].format(version)]


# ---- Rosetta or an x86_64 Python: only proc_translated 1 is Apple-silicon evidence ---------------------


def test_a_translated_interpreter_alone_is_apple_silicon_evidence() -> None:
    translated = [TRANSLATED.format(1)]
    assert reader(translated).arm64_hardware() == (Evidence(1, translated[0]),)
    assert reader(translated).x86_python() == (Evidence(1, translated[0]),)
    diagnosis = explain_text(translated[0])
    assert (diagnosis.cause.id, diagnosis.cause.evidence) == ("rosetta-python", (Evidence(1, translated[0]),))
    assert diagnosis.others == []


def test_an_untranslated_x86_64_interpreter_names_rosetta_as_most_likely_and_an_intel_mac_next() -> None:
    """An x86_64 Python with nothing on the chip: Rosetta first, saying the paste does not settle it, with the chip's
    sysctl first in the fix; an Intel Mac second; mpscheck doctor as the next step. Both fail: never ready."""
    lines = [TRANSLATED.format(0), X86]
    assert reader(lines).arm64_hardware() == ()
    assert reader(lines).x86_python() == (Evidence(2, X86),)
    diagnosis = explain_text("\n".join(lines))
    rosetta, others = diagnosis.cause, diagnosis.others
    assert (rosetta.id, rosetta.variant, rosetta.evidence) == ("rosetta-python", "chip-not-shown", (Evidence(2, X86),))
    assert rosetta.summary.startswith("most likely x86_64 Python under Rosetta 2 on Apple silicon (")
    assert rosetta.summary.endswith(
        "; the paste does not show the chip: an Intel Mac prints the same, and `sysctl -n machdep.cpu.brand_string` "
        "tells them apart ('Apple M…' means Rosetta)"
    )
    assert rosetta.fix is not None and rosetta.fix.summary.startswith("First tell which Mac this is ('Apple M…' ")
    assert rosetta.fix.commands[0] == "sysctl -n machdep.cpu.brand_string"
    assert rosetta.fix.commands.count("sysctl -n machdep.cpu.brand_string") == 1
    assert [(c.id, c.variant) for c in others] == [("intel-mac", "chip-not-shown")]
    intel = CAUSES["intel-mac"]
    values = {"python": "python3", "last_intel": last_intel_mac_torch()}
    assert others[0].summary == "or, if the chip is Intel, " + table.fill(intel.summary, values)
    assert others[0].evidence == (Evidence(2, X86),)
    assert diagnosis.next_step == "mpscheck doctor --format markdown"  # which Mac it is, the paste cannot say
    assert diagnosis.exit_code == 1


def test_an_x86_64_python_in_a_macos_vm_is_an_x86_64_python_of_unknown_hardware() -> None:
    """A macOS VM runs x86_64 code on Intel runners (macos-13) as often as under Rosetta: no side is taken."""
    lines = ["kern.hv_vmm_present: 1", X86]
    entry = CAUSES["x86_64-python"]
    values = {"python": "python3", "last_intel": last_intel_mac_torch(), "conda_arm64": conda_arm64_create()}
    remedy = Remediation(table.fill(entry.fix, values), tuple(table.fill(c, values) for c in entry.commands))
    diagnosis = explain_text("\n".join(lines))
    assert diagnosis.cause == Cause(
        "x86_64-python", table.fill(entry.summary, values), remedy, (Evidence(2, X86),), entry.source
    )
    assert [c.id for c in diagnosis.others] == ["virtual-machine"]
    assert diagnosis.next_step == "mpscheck doctor --format markdown"


def test_a_settled_rosetta_drops_the_guess_of_which_mac() -> None:
    """A pasted doctor report that says Rosetta settles it: neither the guess nor the Intel Mac is said beside it."""
    report = ["mpscheck doctor · probed /usr/local/bin/python3", "[✗] python-arch         x86_64 Python under Rosetta"]
    lines = [*report, X86]
    diagnosis = explain_text("\n".join(lines))
    assert [(c.id, c.variant) for c in [diagnosis.cause, *diagnosis.others]] == [("rosetta-python", None)]


# ---- macOS below the floor -------------------------------------------------------------------------------


def test_macos_below_the_shown_torchs_floor_with_the_newest_torch_that_runs_there() -> None:
    lines = [*sw_vers("12.6"), "PyTorch version: 2.5.1"]
    floor = ".".join(map(str, macos_floor((2, 5, 1))))
    pin = torch_pin_for_macos((12, 6), None, "arm64")
    assert pin
    diagnosis = explain_text("\n".join(lines))
    assert diagnosis.cause == Cause(
        "macos-too-old",
        f"macOS 12.6 is older than macOS {floor}, which torch 2.5.1 needs for MPS",
        Remediation(
            f"Upgrade macOS, or install the newest torch whose MPS runs on it ({pin}); or run on the CPU.",
            ("softwareupdate --list", f"python3 -m pip install '{pin}'"),
        ),
        (Evidence(2, lines[1]), Evidence(3, lines[2])),
        OLD_MACOS_SOURCE,
    )
    assert diagnosis.others == []
    assert explain_text("\n".join([*sw_vers(floor), lines[2]])).cause.id != "macos-too-old"  # at the floor


def old_macos(macos: str, floor: str, pin: str | None) -> Cause:
    also = f", or install the newest torch whose MPS runs on it ({pin})" if pin else ""
    commands = ("softwareupdate --list", f"python3 -m pip install '{pin}'") if pin else ("softwareupdate --list",)
    return Cause(
        "macos-too-old",
        f"macOS {macos} is older than macOS {floor}, which this torch needs for MPS",
        Remediation(f"Upgrade macOS{also}; or run on the CPU.", commands),
        (Evidence(2, f"ProductVersion:\t\t{macos}"),),
        OLD_MACOS_SOURCE,
    )


def test_without_a_torch_version_the_errors_own_floor_decides_and_12_3_means_13() -> None:
    pin_13_5 = torch_pin_for_macos((13, 5), None, "arm64")
    pin_12_6 = torch_pin_for_macos((12, 6), None, "arm64")
    pre = ".".join(map(str, PRE_TABLE_FLOOR))
    assert reader(sw_vers("13.5")).macos_too_old("14.0") == old_macos("13.5", "14.0", pin_13_5)
    assert reader(sw_vers("14.0")).macos_too_old("14.0") is None  # exactly at the floor
    assert reader(sw_vers("13.5")).macos_too_old("12.3") is None  # 2.5's real floor: 13.0
    assert reader(sw_vers("12.6")).macos_too_old("12.3") == old_macos("12.6", "13.0", pin_12_6)
    assert reader(sw_vers("12.6")).macos_too_old("13.0") == old_macos("12.6", "13.0", pin_12_6)
    assert reader(sw_vers("12.2")).macos_too_old("junk") == old_macos("12.2", pre, None)
    assert reader(sw_vers("12.2")).macos_too_old(None) == old_macos("12.2", pre, None)
    assert reader(sw_vers(pre)).macos_too_old(None) is None
    assert reader(["PyTorch version: 2.5.1"]).macos_too_old("14.0") is None  # no macOS shown: not judged


# ---- no Metal device -----------------------------------------------------------------------------------

REPL_FALSE = [">>> import torch", ">>> torch.backends.mps.is_available()", "False"]


def test_no_metal_device_without_the_macos_is_the_errors_row_with_its_evidence() -> None:
    evidence = (Evidence(2, REPL_FALSE[1]), Evidence(3, "False"))
    diagnosis = explain_text("\n".join(REPL_FALSE))
    assert diagnosis.cause == row_cause("no-metal-device", evidence)
    assert diagnosis.others == []
    assert diagnosis.next_step == "mpscheck doctor --format markdown"


def test_no_metal_device_on_a_new_enough_macos_is_a_hidden_gpu() -> None:
    lines = [*sw_vers("14.5"), *REPL_FALSE]
    entry = CAUSES["no-metal-device"]
    values = {"python": "python3", "macos": "14.5"}
    remedy = Remediation(entry.fix, tuple(table.fill(c, values) for c in entry.commands))
    evidence = (Evidence(2, lines[1]), Evidence(4, lines[3]), Evidence(5, "False"))
    diagnosis = explain_text("\n".join(lines))
    assert diagnosis.cause == Cause(
        "no-metal-device", table.fill(entry.summary, values), remedy, evidence, entry.source
    )
    assert diagnosis.others == []


# ---- another torch installed later works ---------------------------------------------------------------

ANOTHER = [
    *REPL_FALSE,
    "$ pip install --pre torch torchvision --index-url https://download.pytorch.org/whl/nightly/cpu",
    ">>> import torch",
    ">>> torch.backends.mps.is_available()",
    "True",
]


def test_mps_available_after_another_torch_is_installed_blames_the_first_torch() -> None:
    row = table.BY_ID["not-built"]
    evidence = tuple(Evidence(n, ANOTHER[n - 1]) for n in (2, 3, 4, 6, 7))
    diagnosis = explain_text("\n".join(ANOTHER))
    assert diagnosis.cause == Cause(
        "torch-not-built-with-mps",
        "the same Mac reports MPS available with another torch installed later in the paste, so the first torch is "
        "the problem: " + row.summary,
        Remediation(row.fix, tuple(table.fill(c, {"python": "python3"}) for c in row.commands)),
        evidence,
        row.source,
    )
    assert diagnosis.others == []


def test_without_an_install_between_false_and_true_no_other_torch_is_shown() -> None:
    lines = [line for line in ANOTHER if "pip install" not in line]
    assert reader(lines).another_torch_works() == ()
    evidence = tuple(Evidence(n, lines[n - 1]) for n in (2, 3, 5, 6))
    assert explain_text("\n".join(lines)).cause == row_cause("no-metal-device", evidence)
    assert reader(ANOTHER[3:]).another_torch_works() == ()  # only a True answer
    assert reader(REPL_FALSE).another_torch_works() == ()  # only a False answer
    true_first = [*ANOTHER[4:], ANOTHER[3], *REPL_FALSE[1:]]
    assert reader(true_first).another_torch_works() == ()  # True before False proves nothing
    install_after = [*REPL_FALSE, *ANOTHER[4:], ANOTHER[3]]
    assert reader(install_after).another_torch_works() == ()  # installed after the True answer


# ---- no wheel for this Python ----------------------------------------------------------------------------


def newest_python(version: str) -> str:
    tags = releases.release_facts(version, "arm64").install
    top = max(int(t[3:]) for t in tags if t[3:].isdigit())
    return f"3.{top}"


def first_with_wheel(tag: str) -> str:
    return next(v for v in releases.known_releases("arm64") if tag in releases.release_facts(v, "arm64").install)


def test_a_release_without_a_wheel_for_the_python_names_the_first_that_has_one() -> None:
    lines = ["I cannot install torch 2.0.0", PYTHON.format("3.12.4")]
    first, top = first_with_wheel("cp312"), newest_python("2.0.0")
    row = table.BY_ID["no-matching-distribution"]
    diagnosis = explain_text("\n".join(lines))
    assert diagnosis.cause == Cause(
        "no-matching-distribution",
        f"torch 2.0.0 has no macOS arm64 wheel for Python 3.12.4 (the first release with one is torch {first}): pip "
        "finds no torch to install for this Python",
        Remediation(
            f"Install a torch release that has a wheel for this Python (torch {first} or later), or make the venv "
            f"with a Python torch 2.0.0 has wheels for (up to {top}), native arm64.",
            (f"python3 -m pip install 'torch>={first}'", f"/opt/homebrew/bin/brew install python@{top}"),
        ),
        (Evidence(1, lines[0]), Evidence(2, lines[1])),
        row.source,
    )
    assert top == "3.11"  # cp310 and cp311 outrank cp38 and cp39: sorted by number, not as text


def test_a_python_no_release_has_a_wheel_for_falls_back_to_3_12() -> None:
    lines = ["I cannot install torch", PYTHON.format("3.7.9")]
    row = table.BY_ID["no-matching-distribution"]
    assert explain_text("\n".join(lines)).cause == Cause(
        "no-matching-distribution",
        "no torch release has a macOS arm64 wheel for Python 3.7.9: pip finds no torch to install for this Python",
        Remediation(
            "Install a torch release that has a wheel for this Python, or make the venv with a Python torch has "
            "wheels for (up to 3.12), native arm64.",
            ("/opt/homebrew/bin/brew install python@3.12",),
        ),
        (Evidence(1, lines[0]), Evidence(2, lines[1])),
        row.source,
    )


def test_a_python_some_release_has_a_wheel_for_is_no_wheel_cause() -> None:
    for lines in (
        ["I cannot install torch", PYTHON.format("3.9.4")],  # torch 2.0.0 has cp39
        ["I cannot install torch 2.0.0", PYTHON.format("3.9.4")],  # and so does the release asked for
        ["I cannot install torch 2.0.0"],  # no Python shown
        [PYTHON.format("3.12.4")],  # no failed install said
        ["I cannot install torch 2.0.0", PYTHON.format("3.12.4"), "PyTorch version: 2.5.1"],  # a torch installed
    ):
        assert reader(lines).no_wheel_for_python() is None, lines


def test_setup_causes_are_said_most_basic_first_whatever_their_place_in_the_paste() -> None:
    lines = [
        ">>> torch.backends.mps.is_built()",
        "False",
        "PyTorch version: 1.11.0",
        *sw_vers("12.2"),
        "kern.hv_vmm_present: 1",
        "platform.machine() / processor(): x86_64 / i386",
    ]
    diagnosis = explain_text("\n".join(lines))
    assert [c.id for c in [diagnosis.cause, *diagnosis.others]] == [
        "x86_64-python",
        "virtual-machine",
        "macos-too-old",
        "torch-too-old",
        "torch-not-built-with-mps",
    ]


def test_cuda_asked_in_words_needs_a_mac_shown_or_named_and_no_other_system() -> None:
    """CUDA asked for in words is a Mac's cause where the system is Darwin or, with none shown, a Mac is named in
    the words (co-tracker#9's 'MAC-M1'); a Linux system shown, or no Mac at all, gives no cause."""
    words = "It seems cuda is hardcorded somewhere."
    named = reader([f"How can I run this code on MAC-M1 or cpu? {words}"]).cuda_asked()
    assert named is not None
    assert (named.id, named.evidence) == (
        "cuda-requested-on-mac",
        (Evidence(line=1, text=f"How can I run this code on MAC-M1 or cpu? {words}"),),
    )
    darwin = reader(["# user: my M2 MacBook Air", words]).cuda_asked()
    assert darwin is not None and darwin.id == "cuda-requested-on-mac"
    assert reader([words]).cuda_asked() is None
    assert reader(["Linux box 6.5.0-generic x86_64 GNU/Linux", f"my old Mac, now: {words}"]).cuda_asked() is None


def test_cuda_asked_with_mps_wanted_and_no_system_is_a_macs_round33() -> None:
    """mps named as what the user is after, never asked for, with no system shown ("MPS Support is unavailable only
    supports CUDA", MVDream#38): a Mac's CUDA request; not where mps was asked for, nor where a system is shown."""
    words = "# user: MPS Support is unavailable only supports CUDA"
    wanted = reader([words]).cuda_asked()
    assert wanted is not None
    assert (wanted.id, wanted.evidence) == ("cuda-requested-on-mac", (Evidence(line=1, text=words),))
    assert reader(["device = 'mps'", words]).cuda_asked() is None  # mps asked for: not "wanted"
    assert reader(["Linux box 6.5.0-generic x86_64 GNU/Linux", words]).cuda_asked() is None
    assert reader(["# user: the code asks for cuda"]).cuda_asked() is None  # no Mac, no mps


def test_an_install_on_the_line_just_before_the_true_answer_counts() -> None:
    """`pip install ... && python -c "...is_available()"`: the install is on the line right above the answer."""
    both = '$ pip install -U torch && python -c "import torch; print(torch.backends.mps.is_available())"'
    shown = reader([*REPL_FALSE, both, "True"]).another_torch_works()
    assert [e.line for e in shown] == [2, 3, 4, 4, 5] and shown[2] == Evidence(4, both)
