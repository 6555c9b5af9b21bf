"""The corpus of real pastes (tests/corpus/*.txt), read and compared with what `mpscheck explain` says.

Shared by tests/test_corpus.py and benchmarks/explain_corpus.py (which prints the share of cases whose
top cause is right). A case file is a header of ``key: value`` lines, a line ``---``, then the paste.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from mpscheck.model import Remediation

CORPUS = Path(__file__).resolve().parent / "corpus"
# A quarter of the corpus, drawn at random before any rule was tuned on it (tests/corpus/heldout/README.md):
# scored, never tuned on, so its score says how explain does on pastes nobody fitted rules to.
HELDOUT = CORPUS / "heldout"


@dataclass(frozen=True)
class Case:
    name: str
    header: dict[str, str]
    paste: str

    @property
    def cause(self) -> str:
        return self.header["cause"]

    @property
    def fix_command(self) -> str | None:
        return self.header.get("fix_command") or None


def load(path: Path) -> Case:
    raw = path.read_text(encoding="utf-8")
    head, _, paste = raw.partition("\n---\n")
    header = {}
    for line in head.splitlines():
        key, sep, value = line.partition(":")
        if sep and re.fullmatch(r"[a-z_]+", key.strip()):
            header[key.strip()] = value.strip()
    return Case(path.name, header, paste)


def cases(folder: Path = CORPUS) -> list[Case]:
    """The cases of *folder*: the tuning corpus by default, HELDOUT for the held-out quarter."""
    return [load(path) for path in sorted(folder.glob("*.txt"))]


# ---- "the fix the tool gives matches the thread's fix" ---------------------------------------------

ASSIGNMENT = re.compile(r"^[A-Z_][A-Z0-9_]*=")


def _tokens(command: str) -> list[str]:
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    out = []
    for word in words:
        if "/" in word and "=" in word:  # data=/Users/x/y/data.yaml -> data=data.yaml
            key, _, value = word.partition("=")
            word = f"{key}={value.rsplit('/', 1)[-1]}"
        out.append({"pip3": "pip", "mamba": "conda", "python3": "python"}.get(word, word))
    return out


def _pip_packages(tokens: list[str]) -> list[str] | None:
    """The packages an install names: pip's, uv pip's, pipx runpip's (APP install ...) or uv add's."""
    if "uv" in tokens and "add" in tokens:
        verb = "add"
    elif ("pip" in tokens or "runpip" in tokens) and "install" in tokens:
        verb = "install"
    else:
        return None
    after = tokens[tokens.index(verb) + 1 :]
    skip_next = {"--index-url", "--extra-index-url", "-i", "-f", "--find-links", "--python", "--upgrade-package"}
    packages, skipping = [], False
    for word in after:
        if skipping:
            skipping = False
        elif word in skip_next:
            skipping = True
        elif not word.startswith("-"):
            packages.append(re.split(r"[<>=!~]", word)[0].lower())
    return packages


def same_command(thread: str, tool: str) -> bool:
    """The thread's command and the tool's do the same thing (same variables, same package, same words)."""
    theirs, ours = _tokens(thread), _tokens(tool)
    if theirs and theirs[0] in ("export", "unset"):
        return theirs[0] == ours[0] if ours else False
    their_packages, our_packages = _pip_packages(theirs), _pip_packages(ours)
    if their_packages is not None:
        assignments = [t for t in theirs if ASSIGNMENT.match(t) and "pip" not in t]
        return bool(our_packages) and their_packages[0] == our_packages[0] and all(a in ours for a in assignments)
    return all(token in ours for token in theirs if token not in ("python", "-m"))


def fix_contains(thread: str, fix: Remediation | None) -> bool:
    """The tool's fix commands do what the thread's fix_command does."""
    if fix is None:
        return False
    theirs = _tokens(thread)
    if theirs and theirs[0] == "export":  # every VAR=value the thread sets, the tool sets too
        wanted = [t for t in theirs[1:] if "=" in t]
        ours = {t for command in fix.commands for t in _tokens(command) if "=" in t}
        return all(w in ours for w in wanted)
    if theirs and theirs[0] == "unset":  # every variable the thread unsets, the tool unsets too
        ours = {t for command in fix.commands if command.startswith("unset ") for t in _tokens(command)[1:]}
        return all(name in ours for name in theirs[1:])
    return any(same_command(thread, command) for command in fix.commands)


def _commands(fix: Remediation | None) -> str:
    return " ".join(fix.commands) if fix else ""


# An upgrade of torch in whichever installer the user's setup takes (checks/installing.py): pip, uv in a venv,
# uv in a project, a pipx app.
UPGRADE_TORCH = re.compile(
    r"(?:\bpip |\brunpip \S+ )install (?:--python \S+ )?--upgrade '?torch\b|\buv add --upgrade-package torch\b"
)

# What a right fix looks like for each cause, when the thread gives no command to compare with.
FIX_SHAPES = {
    "healthy": lambda fix: fix is None,
    "rosetta-python": lambda fix: re.search(r"arm64|/opt/homebrew|Rosetta", _commands(fix) + fix.summary),
    "x86_64-python": lambda fix: "machdep.cpu.brand_string" in _commands(fix),
    "intel-mac": lambda fix: "2.2.2" in _commands(fix) and "Apple silicon" in fix.summary,
    "macos-too-old": lambda fix: "softwareupdate" in _commands(fix),
    "torch-too-old": lambda fix: UPGRADE_TORCH.search(_commands(fix)),
    "torch-not-built-with-mps": lambda fix: re.search(r"pip install .*torch", _commands(fix)),
    "not-macos": lambda fix: "macOS" in fix.summary,
    "no-metal-device": lambda fix: "sandbox" in fix.summary and re.search(r"sw_vers|is_available\(\)", _commands(fix)),
    "virtual-machine": lambda fix: "physical Mac" in fix.summary,
    # the watermark; for one buffer larger than Metal allows (no watermark helps), smaller work: "reduce
    # frames/resolution/batch" in diffusers#5894, where the maintainers call it an out-of-memory
    "out-of-memory": lambda fix: "PYTORCH_MPS_HIGH_WATERMARK_RATIO" in _commands(fix) or "smaller batch" in fix.summary,
    "watermark-invalid": lambda fix: "PYTORCH_MPS_LOW_WATERMARK_RATIO" in _commands(fix),
    # the fallback or an upgrade; for a library's own op, which the fallback does not reach, running it on the CPU
    "op-not-implemented": lambda fix: (
        re.search(r"PYTORCH_ENABLE_MPS_FALLBACK=1|--upgrade", _commands(fix)) or "on the CPU" in fix.summary
    ),
    "op-fallback-warning": lambda fix: "Nothing is broken" in fix.summary,
    "float64-unsupported": lambda fix: "float32" in fix.summary,
    "dtype-needs-macos14": lambda fix: "softwareupdate" in _commands(fix) and "float16" in fix.summary,
    "bf16-needs-newer-torch": lambda fix: "float16" in fix.summary and "torch>=2.3" in _commands(fix),
    "int64-op-needs-newer-macos": lambda fix: "softwareupdate" in _commands(fix),
    "device-mismatch": lambda fix: ".to(" in fix.summary,
    "sparse-unsupported": lambda fix: "CPU" in fix.summary,
    "lightning-processor": lambda fix: re.search(r"platform\.processor|lightning", _commands(fix)),
    "no-matching-distribution": lambda fix: re.search(r"pip install|python@3", _commands(fix)),
    "wrong-arch-wheel": lambda fix: "--force-reinstall" in _commands(fix),
    "metal-bug-fixed-later": lambda fix: UPGRADE_TORCH.search(_commands(fix)),
    "mps-not-requested": lambda fix: "mps" in _commands(fix) + fix.summary,
    "fallback-env-too-late": lambda fix: "export PYTORCH_ENABLE_MPS_FALLBACK=1" in fix.commands,
    "dtype-unsupported": lambda fix: re.search(r"float32|complex64|CPU", fix.summary),
    "mps-size-limit": lambda fix: "CPU" in fix.summary and "--upgrade" in _commands(fix),
    "mps-checkpoint-load": lambda fix: "map_location='cpu'" in fix.summary,
    "cuda-requested-on-mac": lambda fix: "mps" in fix.summary and re.search(r"cuda|CUDA", fix.summary),
    "autocast-needs-newer-torch": lambda fix: re.search(r"--upgrade '?torch>=2\.\d", _commands(fix)),
    "compile-needs-newer-torch": lambda fix: "torch>=2.8" in _commands(fix) and "eager" in fix.summary,
    "torch-mps-module-missing": lambda fix: re.search(r"--upgrade '?torch>=2", _commands(fix)),
    "input-dtype-mismatch": lambda fix: "dtype" in fix.summary,
    "half-on-cpu-fallback": lambda fix: "float32" in fix.summary,
    "half-precision-nan": lambda fix: "float32" in fix.summary,
    "fork-after-mps-init": lambda fix: "spawn" in fix.summary,
    # the engine's CPU device (CTranslate2), or the CUDA-only library turned off (bitsandbytes, xformers)
    "backend-has-no-mps": lambda fix: re.search(r"device='cpu'|\boff\b", fix.summary),
    # one process on mps, or the multi-process job on the CPU (accelerator='cpu', gloo, TORCH_DEVICE=cpu)
    "distributed-on-mps": lambda fix: "one process" in fix.summary and "CPU" in fix.summary,
}


def fix_matches(case: Case, cause_id: str, fix: Remediation | None) -> bool:
    """The thread's fix_command is among the tool's commands; else the fix has its cause's shape."""
    if case.fix_command:
        return fix_contains(case.fix_command, fix)
    shape = FIX_SHAPES.get(cause_id)
    if shape is None or (fix is None and cause_id != "healthy"):
        return False
    return bool(shape(fix))
