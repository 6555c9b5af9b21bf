"""NaN or wrong results on mps, the known silent bug of a shown op, and a checkpoint loaded onto mps, judged
exactly (checks/causes/silent.py and the no-error rules of checks/causes/unmatched.py): the ops a paste
calls or names, an open bug (what to avoid, the fix kept) and a fixed one (the upgrade, the others noted),
and the tuning corpus's NaN, wrong-results and torch.load cases.

Bugs are rows of mpscheck/knowledge/silent_bugs.json read through its loader; expected values are written
out or built from the tables with plain code; every field of a Cause is compared.
"""

from __future__ import annotations

from mpscheck.checks.causes import Cause, Evidence, explain_text
from mpscheck.checks.causes.silent import name_known_bug, shown_ops
from mpscheck.knowledge import errors as table
from mpscheck.knowledge import silent_bugs
from mpscheck.model import Remediation
from tests.corpus_cases import CORPUS, load

BUG = "metal-bug-fixed-later"
UPGRADE = "python3 -m pip install --upgrade torch"
ISSUES = "https://github.com/pytorch/pytorch/issues"

# ---- NaN or wrong results, and the known bug of a shown op --------------------------------------------------

ISFINITE = "nonzero_finite_vals = torch.masked_select(tensor_view, torch.isfinite(tensor_view) & tensor_view.ne(0))"


def test_shown_ops_reads_calls_and_aten_names_with_their_first_line() -> None:
    text = "\n".join(["x", ISFINITE, "aten::bmm", "y.bmm_(z)", "aten::isfinite"])
    assert shown_ops(text) == {"aten::isfinite": 2, "aten::bmm": 3}


def test_an_open_bug_of_a_shown_op_keeps_the_fix_and_adds_what_to_avoid() -> None:
    bug = next(b for b in silent_bugs.bugs() if b.id == "mps-isfinite-noncontiguous-slice")
    assert bug.fixed_in is None and bug.affected_from == "2.11.0"
    fix = Remediation("Compare.", (UPGRADE,))
    cause = Cause(BUG, "the results are wrong", fix, (Evidence(1, "wrong"),), ISSUES, ("n",), "wrong-results")
    text = "\n".join(["wrong", ISFINITE])
    named = name_known_bug(cause, text, "2.11.0", None, "python3")
    assert named == Cause(
        BUG,
        f"the results are wrong; torch 2.11.0 has a known silent-correctness bug of isfinite on mps: {bug.id} "
        f"({bug.what}; {bug.issue}), not fixed in a release yet",
        Remediation(
            f"Run isfinite on the CPU when {bug.condition}: no release fixes {bug.id} yet. Compare.", (UPGRADE,)
        ),
        (Evidence(1, "wrong"), Evidence(2, ISFINITE)),
        bug.issue,
        ("n", f"{bug.id} needs: {bug.condition}"),
        "wrong-results",
    )
    bare = Cause(BUG, "s", None, (), ISSUES)
    assert name_known_bug(bare, text, "2.11.0", None, "python3").fix == Remediation(
        f"Run isfinite on the CPU when {bug.condition}: no release fixes {bug.id} yet. ", ()
    )
    assert name_known_bug(cause, text, "2.10.0", None, "python3") is cause  # before the bug
    assert name_known_bug(cause, text, None, None, "python3") is cause  # no torch shown


def test_a_fixed_bug_of_a_shown_op_is_upgraded_past_and_the_others_are_noted() -> None:
    bug = next(b for b in silent_bugs.bugs() if b.id == "mps-embedding-over-2pow31")
    assert bug.fixed_in and bug.fixed_by
    cause = Cause(BUG, "s", Remediation("Compare.", (UPGRADE,)), (), ISSUES)
    text = "\n".join(["aten::embedding", ISFINITE])
    named = name_known_bug(cause, text, "2.12.0", None, "python3")
    isfinite = next(b for b in silent_bugs.bugs() if b.id == "mps-isfinite-noncontiguous-slice")
    assert named == Cause(
        BUG,
        f"s; torch 2.12.0 has a known silent-correctness bug of embedding on mps: {bug.id} ({bug.what}; "
        f"{bug.issue}), fixed in torch {bug.fixed_in}",
        Remediation(
            f"Upgrade torch to {bug.fixed_in} or later, which fixes {bug.id}.",
            (f"python3 -m pip install --upgrade 'torch>={bug.fixed_in}'",),
        ),
        (Evidence(1, "aten::embedding"),),
        bug.issue,
        (
            f"{bug.id} needs: {bug.condition}",
            f"fixed by {bug.fixed_by} ({bug.fixed_why})",
            f"also known for this torch: {isfinite.id} ({isfinite.issue})",
        ),
    )


# ---- NaN, the user's word of wrong results, a checkpoint loaded onto mps (tuning corpus cases) -------------


def corpus(name: str) -> str:
    return load(CORPUS / f"{name}.txt").paste


def numbered(text: str, *numbers: int) -> tuple[Evidence, ...]:
    lines = text.split("\n")
    return tuple(Evidence(n, lines[n - 1]) for n in numbers)


def test_nan_on_mps_and_the_users_word_of_wrong_results_are_said_exactly() -> None:
    nan = corpus("diffusers-11229-sdxl-slicing-nan")
    at = [n for n, line in enumerate(nan.split("\n"), 1) if line.lstrip().startswith("tensor([[[[nan")]
    on_mps = [n for n, line in enumerate(nan.split("\n"), 1) if "device='mps:0'" in line]
    assert explain_text(nan).cause == Cause(
        BUG,
        "the results on mps are NaN (the run finished, so no error names the op)",
        Remediation(
            "Compare with the same run on the CPU (device='cpu') to find the op, and upgrade torch (and macOS): "
            "wrong or NaN results on mps are mostly backend bugs fixed in later releases; float32 instead of "
            "float16 rules out an overflow.",
            # the paste's frames are in the venv /Volumes/SSD2TB/AI/Diffusers: its own Python takes the install
            ("/Volumes/SSD2TB/AI/Diffusers/bin/python -m pip install --upgrade torch",),
        ),
        numbered(nan, at[0], on_mps[0]),
        ISSUES,
        (),
        "nan",
    )
    wrong = corpus("pytorch-118115-addcdiv-noncontiguous")
    said = [n for n, line in enumerate(wrong.split("\n"), 1) if "NOT same" in line]
    expected = Cause(
        BUG,
        "the paste says the results on mps are wrong, and shows no error that would explain it",
        Remediation(
            "Compare the op on the CPU and on mps to find the first that differs, and upgrade torch (and macOS): "
            "wrong results on mps are mostly backend bugs fixed in later releases (.contiguous() before the op, or "
            "float32, are the usual workarounds meanwhile).",
            (UPGRADE,),
        ),
        numbered(wrong, said[0]),
        ISSUES,
        (),
        "wrong-results",
    )
    assert explain_text(wrong).cause == expected
    nan_on_cpu = "tensor([[nan, nan, nan]])"  # NaN with no tensor on mps: the user's word decides
    both = wrong + nan_on_cpu + "\n"
    assert explain_text(both).cause == expected


def test_an_error_inside_torch_load_with_map_location_mps_is_the_checkpoint_row() -> None:
    text = corpus("pytorch-77874-load-map-location-mps-jupyter")
    row = table.BY_ID["mps-checkpoint-load"]
    first_error = next(n for n, line in enumerate(text.split("\n"), 1) if line.startswith("RuntimeError"))
    where = next(n for n, line in enumerate(text.split("\n"), 1) if "map_location=" in line)
    fix = Remediation(row.fix, tuple(table.fill(c, {"python": "python3"}) for c in row.commands))
    assert explain_text(text).cause == Cause(
        "mps-checkpoint-load", row.summary, fix, numbered(text, where, first_error), row.source
    )
    without_load = text.replace("/torch/serialization.py", "/torch/other.py")
    assert explain_text(without_load).cause.id != "mps-checkpoint-load"


def test_wrong_results_apart_from_mps_and_on_a_macs_gpu_are_said_exactly() -> None:
    """Issue 17: a result called wrong on a line of its own where mps is named elsewhere, and one called wrong on the
    GPU of a Mac (checks/causes/wrong_said.py); each with its own words and the line that says it."""
    remedy = Remediation(
        "Compare the op on the CPU and on mps to find the first that differs, and upgrade torch (and macOS): "
        "wrong results on mps are mostly backend bugs fixed in later releases (.contiguous() before the op, or "
        "float32, are the usual workarounds meanwhile).",
        (UPGRADE,),
    )
    apart = "# user: I run it using mps.\n# user: The predicted line seems odd too..."
    assert explain_text(apart).cause == Cause(
        BUG,
        "the paste says the results are wrong, and the run it shows uses mps; no error explains it",
        remedy,
        numbered(apart, 2),
        ISSUES,
        (),
        "wrong-results",
    )
    gpu = "# user: my macOS M1 machine\n# user: the GPU option does not detect any cells"
    assert explain_text(gpu).cause == Cause(
        BUG,
        "the paste says the results on the GPU of this Mac are wrong (torch reaches a Mac's GPU through mps), and "
        "shows no error that would explain it",
        remedy,
        numbered(gpu, 2),
        ISSUES,
        (),
        "wrong-results",
    )
    assert explain_text(gpu.replace("M1", "Intel")).cause.id != BUG  # an Intel Mac's GPU: not this reading
    assert explain_text(gpu.replace("macOS M1 machine", "Linux box")).cause.id != BUG


def test_degenerate_text_of_a_run_asked_for_mps_is_said_exactly() -> None:
    """Issue 17: generated text glued to itself in a paste that asks for mps (pytorch#84169's shape), with the line."""
    text = 'device= "mps"\nB: is is is isThisThisThisThisThisThisThis'
    assert explain_text(text).cause == Cause(
        BUG,
        "the text the run on mps generated has degenerated (one word glued to itself over and over, or '!' between "
        "its words: what a model gives when its numbers went wrong), and the paste shows no error",
        Remediation(
            "Compare the op on the CPU and on mps to find the first that differs, and upgrade torch (and macOS): "
            "wrong results on mps are mostly backend bugs fixed in later releases (.contiguous() before the op, or "
            "float32, are the usual workarounds meanwhile).",
            (UPGRADE,),
        ),
        numbered(text, 2),
        ISSUES,
        (),
        "wrong-results",
    )
    # the user's word of wrong results comes first, the generated text second
    said = text + "\n# user: the output is gibberish on mps"
    assert explain_text(said).cause.evidence == numbered(said, 3)
