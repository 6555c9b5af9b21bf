"""What the user's words that a run on mps goes wrong are taken to say, one summary per reading (the facts of
mpscheck/probes/paste/prose.py, contrast.py and older_torch.py), and when results called wrong on "the GPU" count as
mps: on a Mac, where torch reaches the GPU only through mps, and where the paste shows neither a PC's GPU nor CUDA;
and when degenerate generated text counts: where the paste asks for mps.
Kept apart from unmatched.py, which judges the errors no row explains, so that each stays under 400 lines.
"""

from __future__ import annotations

from mpscheck.facts import Facts
from mpscheck.probes.paste.model import Observation, Paste

SUMMARIES = {
    "paste.wrong_results": "the paste says the results on mps are wrong, and shows no error that would explain it",
    "paste.wrong_apart": "the paste says the results are wrong, and the run it shows uses mps; no error explains it",
    "paste.wrong_on_gpu": "the paste says the results on the GPU of this Mac are wrong (torch reaches a Mac's GPU "
    "through mps), and shows no error that would explain it",
    "paste.gpu_off_works": "the paste says the run goes right only with the GPU of this Mac turned off (torch reaches "
    "a Mac's GPU through mps), and shows no error that would explain it",
    "paste.degenerate_text": "the text the run on mps generated has degenerated (one word glued to itself over and "
    "over, or '!' between its words: what a model gives when its numbers went wrong), and the paste shows no error",
    "paste.mps_fails_cpu_works": "the paste says the run fails on mps where it works on the CPU, and shows no error "
    "that would say why",
    "paste.fails_on_mac": "the paste says the run fails on the Mac and that the same works elsewhere (CUDA, the CPU), "
    "and shows no error that would say why",
    "paste.picture_wrong": "the paste says (or numpy's 'invalid value encountered in cast' shows) that the picture "
    "came out black on this Mac, where torch reaches the GPU through mps: NaN in the image, and no error that would "
    "say why",
    "paste.older_torch_works": "the paste says an older torch works on mps where this one fails (a regression), and "
    "shows no error: a backend bug of the newer torch, fixed in a later release",
}
OTHERWISE = (
    "the paste says the trouble goes away on the CPU (or with another torch), and shows no error: a backend bug of "
    "this torch on mps"
)


def summary(fact: str) -> str:
    return SUMMARIES.get(fact, OTHERWISE)


def wrong_on_mac_gpu(paste: Paste, facts: Facts) -> Observation | None:
    """Results called wrong on "the GPU" of a Mac, or a run right only with the GPU off (no Intel shown, no PC GPU,
    no CUDA asked): torch's GPU is mps; a black picture is the GPU's too."""
    said = paste.get("paste.wrong_on_gpu") or paste.get("paste.gpu_off_works") or paste.get("paste.picture_wrong")
    if said is None or facts.host.system != "Darwin" or facts.host.arm64_hardware is False:
        return None
    if paste.get("paste.pc_gpu") or paste.get("paste.cuda_asked"):
        return None
    return said


def degenerate(paste: Paste) -> Observation | None:
    """Generated text gone wrong (probes/paste/degenerate.py) in a paste that asks for mps: wrong results on mps."""
    from mpscheck.probes.paste.degenerate import degenerate_text, mps_asked

    return degenerate_text(paste.text) if mps_asked(paste.text) else None


def nan_cast(paste: Paste, facts: Facts) -> Observation | None:
    """numpy's "invalid value encountered in cast" (a picture holding NaN cast to bytes: Fooocus's core.py, diffusers'
    image_processor.py) where the run is on mps: the paste names mps, or shows a Mac that is not an Intel one. A
    machine line, read where it stands (the prose reader skips paths and warnings)."""
    from mpscheck.probes.paste.wrong_words import NAN_CAST

    found = NAN_CAST.search(paste.text)
    mac = facts.host.system == "Darwin" and facts.host.arm64_hardware is not False
    if found is None or ("mps" not in paste.text.lower() and not mac):
        return None
    number = paste.text.count("\n", 0, found.start()) + 1
    return Observation("paste.picture_wrong", True, number, paste.text.split("\n")[number - 1], "prose")


def crash_told_apart(paste: Paste) -> Observation | None:
    """A crash or a hang told on a line that does not name mps (beside a Mac's chip, or on no machine at all:
    probes/paste/crash_words.py), for a paste that names mps elsewhere: the crash the paste tells, never healthy."""
    return paste.get("paste.crash_said_mac") or paste.get("paste.hang_said") or paste.get("paste.crash_said_apart")
