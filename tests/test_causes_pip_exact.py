"""pip's and uv's 'no torch for this Python' judged exactly (checks/causes/errors.py no_distribution and
pin_not_published), and a compiled library of the other architecture: an Intel (x86_64) Python told
three ways, no wheel at all (with the uv command redone for 3.12), a pin of a CUDA build or of a release
pip does not list, and the release list that settles none of these.

Lines are pip's and uv's own wordings (pip/_internal/index/package_finder.py, uv's resolver); expected
values are written out or built from the table rows with plain code; every field of a Cause is compared.
"""

from __future__ import annotations

from mpscheck.checks.causes import Cause, Evidence, explain_text
from mpscheck.checks.installing import NATIVE_VENV
from mpscheck.knowledge import errors as table
from mpscheck.knowledge.versions import last_intel_mac_torch
from mpscheck.model import Remediation

ROW = table.BY_ID["no-matching-distribution"]
SATISFIES = "ERROR: Could not find a version that satisfies the requirement {} (from versions: {})"
NO_MATCH = "ERROR: No matching distribution found for {}"
RELAX = (
    "Relax the pin for this machine (requirements file or pyproject): install a torch that has a wheel here, or "
    "use a Python version the pinned release has wheels for."
)


def lines_of(requirement: str, versions: str) -> list[str]:
    return [SATISFIES.format(requirement, versions), NO_MATCH.format(requirement)]


def cause(lines: list[str]) -> Cause:
    return explain_text("\n".join(lines)).cause


def intel(evidence: tuple[Evidence, ...], listed: str | None, *, shown_intel: bool = False) -> Cause:
    """The answer for an x86_64 Python: which Mac decides the fix, so unless the paste shows an Intel
    one, the command that tells which comes first."""
    last = last_intel_mac_torch()
    shown = f" (pip lists versions up to {listed})" if listed else ""
    both = (
        f"On an Intel Mac, install torch {last} (uv: constrain torch for Intel macOS); on Apple silicon, use a "
        "native arm64 Python instead."
    )
    pin, tell = f"python3 -m pip install 'torch<={last}'", "sysctl -n machdep.cpu.brand_string"
    return Cause(
        "no-matching-distribution",
        f"no torch wheel for this x86_64 (Intel) Python: PyTorch stopped publishing macOS x86_64 wheels after {last}"
        + shown,
        Remediation(both, (pin, tell))
        if shown_intel
        else Remediation("The paste does not show which Mac this is: the first command tells. " + both, (tell, pin)),
        evidence,
        ROW.source,
    )


# ---- an Intel Python -------------------------------------------------------------------------------------


def test_versions_ending_at_the_last_intel_release_mean_an_intel_python() -> None:
    last = last_intel_mac_torch()
    lines = lines_of("torch>=2.3", f"2.0.0, 2.1.0, {last}")
    assert cause(lines) == intel((Evidence(1, lines[0]),), last)


def test_an_x86_64_python_or_the_users_word_of_an_intel_mac_mean_an_intel_python() -> None:
    machine = "platform.machine() / processor(): x86_64 / i386"
    lines = [machine, NO_MATCH.format("torch")]
    diagnosis = explain_text("\n".join(lines))
    assert diagnosis.cause == intel((Evidence(1, machine), Evidence(2, lines[1])), None)
    prose = "I have a MacBook Pro with an Intel Core i7"
    said = explain_text("\n".join([prose, NO_MATCH.format("torch")]))
    assert said.cause.id == "no-matching-distribution"
    assert said.cause.summary == intel((), None).summary
    assert said.cause.fix == intel((), None, shown_intel=True).fix  # the user said Intel: the pin first
    brand = "machdep.cpu.brand_string: Intel(R) Core(TM) i7-9750H CPU @ 2.60GHz"
    branded = explain_text("\n".join([brand, machine, NO_MATCH.format("torch")])).cause
    assert (branded.id, branded.fix) == ("no-matching-distribution", intel((), None, shown_intel=True).fix)


# ---- no wheel at all, and a list that settles nothing -------------------------------------------------------


def test_no_wheel_at_all_for_a_python_redoes_the_uv_command_with_3_12() -> None:
    lines = ["Using Python 3.13.0 environment at: .venv", "$ uv venv -p 3.13.0 .venv", NO_MATCH.format("torch")]
    assert cause(lines) == Cause(
        "no-matching-distribution",
        "pip (or uv) found no torch wheel at all for this Python 3.13.0: torch publishes wheels for a few Python "
        "versions only, and a new Python gets them months later",
        Remediation(
            "Use a Python version torch has wheels for (e.g. 3.12), native arm64, and make the venv with it.",
            ("uv venv -p 3.12 .venv", "/opt/homebrew/bin/brew install python@3.12", NATIVE_VENV),
        ),
        (Evidence(1, lines[0]), Evidence(3, lines[2])),
        ROW.source,
    )
    spelled = ["uv init x --python=3.13", NO_MATCH.format("torch")]
    assert cause(spelled).fix == Remediation(
        "Use a Python version torch has wheels for (e.g. 3.12), native arm64, and make the venv with it.",
        ("uv init x --python=3.12", "/opt/homebrew/bin/brew install python@3.12", NATIVE_VENV),
    )
    bare = [NO_MATCH.format("torch")]
    assert cause(bare) == Cause(
        "no-matching-distribution",
        "pip (or uv) found no torch wheel at all for this Python: torch publishes wheels for a few Python versions "
        "only, and a new Python gets them months later",
        Remediation(
            "Use a Python version torch has wheels for (e.g. 3.12), native arm64, and make the venv with it.",
            ("/opt/homebrew/bin/brew install python@3.12", NATIVE_VENV),
        ),
        (Evidence(1, bare[0]),),
        ROW.source,
    )


def test_uvs_no_wheel_names_the_package_uv_named_and_makes_the_venv_with_uv() -> None:
    """uv's refusal names torchvision (pytorch/pytorch#172993): that is the package said; uv fetches a Python itself."""
    refused = (
        "error: Distribution `torchvision==0.25.0 @ registry+https://pypi.org/simple` can't be installed because it "
        "doesn't have a source distribution or wheel for the current platform"
    )
    assert cause([refused]) == Cause(
        "no-matching-distribution",
        "pip (or uv) found no torchvision wheel at all for this Python: torch publishes wheels for a few Python "
        "versions only, and a new Python gets them months later",
        Remediation(
            "Use a Python version torch has wheels for (e.g. 3.12), native arm64, and make the venv with it.",
            ("uv venv --python 3.12", "/opt/homebrew/bin/brew install python@3.12", NATIVE_VENV),
        ),
        (Evidence(1, refused),),
        ROW.source,
    )
    torch = refused.replace("torchvision==0.25.0", "torch==2.10.0")
    assert cause([torch]).summary.startswith("pip (or uv) found no torch wheel at all")


def test_a_listed_release_range_that_is_not_intels_keeps_the_rows_own_words() -> None:
    # 2.7.0 has a wheel for every Python 2.6.0 had: where the list stops says nothing of the interpreter
    lines = lines_of("torch>=2.9", "2.2.0, 2.5.1, 2.6.0")
    fix = Remediation(ROW.fix, tuple(table.fill(c, {"python": "python3"}) for c in ROW.commands))
    assert cause(lines) == Cause("no-matching-distribution", ROW.summary, fix, (Evidence(1, lines[0]),), ROW.source)


def test_a_listed_release_range_that_stops_where_a_python_was_dropped_names_that_python() -> None:
    """Round 33 (unslothai/unsloth#7306), deliberately changed from the row's own words: a list that stops at 2.8.0,
    where 2.9.0 has no cp39 wheel, is a Python 3.9's; the fix is a newer Python."""
    lines = lines_of("torch>=2.9", "2.2.0, 2.5.1, 2.8.0")
    assert cause(lines) == Cause(
        "no-matching-distribution",
        "pip lists torch only up to 2.8.0 for this Python: torch 2.9.0 and later have no wheel for Python 3.9, so "
        "this interpreter is Python 3.9, too old for the torch asked for",
        Remediation(
            "Make the environment with a newer Python (e.g. 3.12), native arm64: torch after 2.8.0 needs it.",
            ("/opt/homebrew/bin/brew install python@3.12", NATIVE_VENV),
        ),
        (Evidence(1, lines[0]),),
        ROW.source,
    )


# ---- a pin with no wheel here ----------------------------------------------------------------------------


def pinned(summary: str, spec: str, evidence: tuple[Evidence, ...]) -> Cause:
    return Cause(
        "no-matching-distribution",
        summary,
        Remediation(RELAX, (f"python3 -m pip install '{spec}'",)),
        evidence,
        ROW.source,
    )


def test_a_cuda_build_pinned_is_relaxed_to_its_release_where_pip_lists_it() -> None:
    cuda = "a build for another platform (cu118): no macOS wheel of it exists"
    listed = lines_of("torch==2.3.0+cu118", "2.2.0, 2.2.2, 2.3.0")
    shown = (Evidence(1, listed[0]),)
    expected = pinned(f"torch==2.3.0+cu118 is {cuda}", "torch==2.3.0", shown)
    assert cause(listed) == replace_fix(expected, "python3 -m pip install torch==2.3.0")
    unlisted = lines_of("torch==2.3.0+cu118", "2.1.2, 2.2.1")
    shown = (Evidence(1, unlisted[0]),)
    expected = pinned(f"torch==2.3.0+cu118 is {cuda}", "torch", shown)
    assert cause(unlisted) == replace_fix(expected, "python3 -m pip install torch")
    # a list that stops at 2.2.2, the last macOS x86_64 release, says more than the pin: an x86_64 Python
    intel = lines_of("torch==2.3.0+cu118", "2.2.0, 2.2.2")
    assert cause(intel).summary.startswith("no torch wheel for this x86_64 (Intel) Python")
    alone = [NO_MATCH.format("torch==2.3.0+cu118")]
    expected = pinned(f"torch==2.3.0+cu118 is {cuda}", "torch==2.3.0", (Evidence(1, alone[0]),))
    assert cause(alone) == replace_fix(expected, "python3 -m pip install torch==2.3.0")


def replace_fix(expected: Cause, command: str) -> Cause:
    assert expected.fix is not None
    fix = Remediation(expected.fix.summary, (command,))
    return Cause(expected.id, expected.summary, fix, expected.evidence, expected.source)


def test_a_release_pinned_that_pip_does_not_list_shows_the_last_four_it_does() -> None:
    lines = lines_of("torch==2.1.0", "2.2.0, 2.2.1, 2.2.2, 2.3.0, 2.3.1")
    assert cause(lines) == replace_fix(
        pinned(
            "torch==2.1.0 has no wheel for this Python and platform: pip lists 2.2.1, 2.2.2, 2.3.0, 2.3.1",
            "torch",
            (Evidence(1, lines[0]),),
        ),
        "python3 -m pip install torch",
    )
    listed = lines_of("torch==2.3.0", "2.2.0, 2.2.2, 2.3.0")  # listed: not the pin's fault
    assert cause(listed).summary == ROW.summary


# ---- a library of the other architecture ------------------------------------------------------------------

DYLIB = (
    "OSError: dlopen({}, 0x0006): tried: '{}' (mach-o file, but is an incompatible architecture (have (x86_64), "
    "need (arm64)))"
)


def test_a_library_of_the_other_architecture_names_its_package_or_no_command() -> None:
    row = table.BY_ID["wrong-arch-dylib"]
    path = "/Users/me/venv/lib/python3.11/site-packages/tokenizers/tokenizers.cpython-311-darwin.so"
    line = DYLIB.format(path, path)
    values = {"python": "python3", "have": "x86_64", "need": "arm64", "package": "tokenizers"}
    assert cause([line]) == Cause(
        "wrong-arch-wheel",
        table.fill(row.summary, values),
        Remediation(table.fill(row.fix, values), tuple(table.fill(c, values) for c in row.commands)),
        (Evidence(1, line),),
        row.source,
    )
    # llama-cpp-python compiles on install: CMake is told the architecture the error needs (#724's answer)
    path = "/Users/me/venv/lib/python3.11/site-packages/llama_cpp/lib/libllama.dylib"
    line = DYLIB.format(path, path)
    values["package"] = "llama-cpp-python"
    assert cause([line]) == Cause(
        "wrong-arch-wheel",
        table.fill(row.summary, values),
        Remediation(
            table.fill(row.fix, values) + " It is compiled when installed: tell CMake the architecture.",
            (
                'CMAKE_ARGS="-DCMAKE_OSX_ARCHITECTURES=arm64" python3 -m pip install --force-reinstall --no-cache-dir '
                "llama-cpp-python",
            ),
        ),
        (Evidence(1, line),),
        row.source,
    )
    line = DYLIB.format(path, path).replace("(have (x86_64), need (arm64))", "(have (arm64), need (x86_64))")
    assert cause([line]).fix.commands[0].startswith('CMAKE_ARGS="-DCMAKE_OSX_ARCHITECTURES=x86_64" python3 -m pip')
    elsewhere = "/usr/local/lib/libomp.dylib"
    line = DYLIB.format(elsewhere, elsewhere)
    values["package"] = "the package named in the error"
    assert cause([line]) == Cause(
        "wrong-arch-wheel",
        table.fill(row.summary, values),
        Remediation(table.fill(row.fix, values), ()),
        (Evidence(1, line),),
        row.source,
    )
