"""Tracebacks and warnings: the exception lines (``RuntimeError: ...``), and what the file paths in
the frames show: the Python version (``lib/python3.10``), torch's location, a conda env, the user's
home folder (shown as ``~`` in every report), and Windows or Linux paths.

The error texts themselves are matched against the signature table by the judgement.
"""

from __future__ import annotations

import re

from mpscheck.probes.paste.model import Observation, Seen, each_line

KIND = "traceback"
# A warning's path also after a tqdm progress bar that the warning interrupted ("  0%|     | 0/1 [00:00<?, ?it/s]/opt/
# .../functional.py:4038: UserWarning: ..."), as the same path reads when the terminal wraps the bar away, and
# when a word wrap leaves "path.py:NNN:" alone on its line.
FRAME = re.compile(
    r'^\s*File "(?P<path>[^"]+)", line \d+|^(?:\s*\d{1,3}%\|[^|\n]{0,300}\|[^\]\n]{0,120}\])?'
    r"(?P<wpath>/\S+\.py):\d+:(?: \w*Warning|\s*$)"  # or its header alone: a wrap put the category below
)
EXECUTABLE = re.compile(r"^\s*(?P<path>/\S+/bin/python[\d.]*)\s*$")
EXCEPTION = re.compile(
    r"^\s*(?:[\w.]+\.)?(?P<type>[A-Z]\w*(?:Error|Exception|Warning|Interrupt))(?::\s*(?P<message>.*))?$"
)
ABORT = re.compile(r"(?:libc\+\+abi: terminating|zsh: abort|Abort trap: 6|Segmentation fault|illegal hardware)")
SITE = re.compile(r"/lib/python(?P<version>\d\.\d+)/site-packages/")
TORCH_DIR = re.compile(r"^(?P<dir>.*/site-packages/torch)/")
HOME = re.compile(r"^(?P<home>/Users/[^/]+)/")
CONDA = re.compile(r"^(?P<prefix>.*/(?:mini|ana)conda3?|.*/miniforge3|.*/mambaforge)(?:/envs/(?P<env>[^/]+))?/")
WINDOWS = re.compile(r"^[A-Za-z]:\\")
# <env>/lib/pythonX.Y/site-packages: a venv's or conda env's own packages, whose interpreter is <env>/bin/python
# (the path every install for it should use). Not a shared Python's prefix (system, Homebrew, python.org's
# framework, MacPorts, Nix, pip's --user site ~/.local), where bin/python may not exist; no whitespace or quote,
# so the path pastes as one word.
ENV_SITE = re.compile(r"^(?P<env>/[^\s\"'$`\\]+?)/lib/python\d\.\d+/site-packages/")
SHARED_PREFIX = re.compile(
    r"^/(?:usr|opt/homebrew|opt/local|Library|System|Applications|nix)(?:/|$)|\.framework/|/\.local$"
)
ANY_HOME = re.compile(r"(?<![\w.])(?P<home>/Users/(?!runner/|Shared/)[^/\s'\"]+)/")


def parse(lines: list[str]) -> list[Observation]:
    return each_line(KIND, lines, _line)


def _line(seen: Seen, line: str) -> list[Observation]:
    if match := FRAME.match(line):
        return _frame(seen, match["path"] or match["wpath"])
    if match := EXECUTABLE.match(line):
        return [seen("interpreter.executable", match["path"])]
    if match := EXCEPTION.match(line):
        return [seen("paste.exception", match["type"])]
    if ABORT.search(line):
        return [seen("paste.abort", True)]
    if (match := ANY_HOME.search(line)) and "Triggered internally at" not in line:
        return [seen("interpreter.home", match["home"]), seen("host.system", "Darwin")]
    return []


def _frame(seen: Seen, path: str) -> list[Observation]:
    found = [seen("paste.frame", path)]
    if WINDOWS.match(path):
        return [*found, seen("host.system", "Windows")]
    if path.startswith(("/home/", "/usr/lib/python3/dist-packages", "/content/")):
        found.append(seen("host.system", "Linux"))
    if match := SITE.search(path):
        found.append(seen("interpreter.version", match["version"]))
    if match := TORCH_DIR.match(path):
        found.append(seen("torch.location", match["dir"]))
    if (match := ENV_SITE.match(path)) and not SHARED_PREFIX.search(match["env"]):
        found.append(seen("interpreter.executable", match["env"] + "/bin/python"))
    if match := HOME.match(path):
        found += [seen("interpreter.home", match["home"]), seen("host.system", "Darwin")]
    if (match := CONDA.match(path)) and match["env"]:
        found.append(seen("interpreter.conda_prefix", f"{match['prefix']}/envs/{match['env']}"))
    elif match:
        found.append(seen("interpreter.conda_prefix", match["prefix"]))
    return found
