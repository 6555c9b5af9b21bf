"""`conda info` and `conda config --show subdir`: the subdir conda installs from (osx-64 is Intel
packages, run under Rosetta on Apple silicon), the active env, and the virtual packages conda read
from the machine (__osx is the real macOS version, __archspec the CPU family conda sees); and conda's
ResolvePackageNotFound or PackagesNotFoundError list when it names a CUDA package (an environment file or
a command that asks for CUDA).
"""

from __future__ import annotations

import re

from mpscheck.probes.paste.model import Observation, Seen, each_line, observe

KIND = "conda"
INFO = re.compile(r"^\s*(?P<key>platform|active env location|python version|subdir)\s*:\s*(?P<value>\S(?:.*\S)?)\s*$")
SUBDIR = re.compile(r"^(?:osx|linux|win)-(?:64|arm64|aarch64|32)$")
OSX = re.compile(r"__osx=(?P<version>\d+(?:\.\d+)*)")
ARCHSPEC = re.compile(r"__archspec=1=(?P<arch>\w+)")
ENV_SUBDIR = re.compile(r"CONDA_SUBDIR=(?P<value>(?:osx|linux|win)-\w+)")
# conda's refusal of an environment file's specs ("ResolvePackageNotFound:" then "  - cudatoolkit=11.3"), or of a
# command's ("PackagesNotFoundError: The following packages are not available from current channels:" then
# "  - pytorch-cuda=12.1*"): a CUDA package among them means the file or the command asks for CUDA, which no macOS
# channel has (ChatTTS-webui#4, chat-llama-discord-bot#11).
NOT_FOUND = ("ResolvePackageNotFound", "PackagesNotFoundError")
SPEC = re.compile(r"^\s{0,12}-\s{0,4}(?:[\w-]{1,40}::)?(?P<name>[\w.-]{1,60})")
CUDA_PACKAGE = re.compile(r"cudatoolkit|pytorch-cuda|cuda-\w+|cudnn|nccl|nvidia-\w+")
LIST_LENGTH = 40  # the specs conda lists under the line, read at most
# the conda command the user ran ("yes | conda install pytorch==2.2.2 ... pytorch-cuda=12.1 -c pytorch -c nvidia"),
# from "conda" to the end of the line or a closing backtick: its specs are what a not-found error refused
COMMAND = re.compile(r"\bconda (?:install|create) [^`\n]{1,600}")


def parse(lines: list[str]) -> list[Observation]:
    return each_line(KIND, lines, _line) + _cuda_not_found(lines)


def _cuda_not_found(lines: list[str]) -> list[Observation]:
    """A CUDA package in the list under conda's not-found error: the environment file or command asks for CUDA."""
    for number, line in enumerate(lines, start=1):
        if not any(word in line for word in NOT_FOUND):
            continue
        for offset, spec in enumerate(lines[number : number + LIST_LENGTH], start=number + 1):
            if not spec.strip() or spec.strip() == "```":
                continue
            if not (match := SPEC.match(spec)):
                break
            if CUDA_PACKAGE.fullmatch(match["name"]):
                return [observe(KIND, lines, offset, "paste.cuda_asked", True)]
    return []


def _line(seen: Seen, line: str) -> list[Observation]:
    found: list[Observation] = []
    if match := INFO.match(line):
        key, value = match["key"], match["value"]
        if key in ("platform", "subdir") and SUBDIR.match(value):
            found.append(seen("interpreter.conda_subdir", value))
            if value.startswith("osx"):
                found.append(seen("host.system", "Darwin"))
        elif key == "active env location" and value.startswith(("/", "~")):
            found.append(seen("interpreter.conda_prefix", value))
        elif key == "python version" and (version := re.match(r"\A(?:\d+\.\d+(?:\.\d+)?)", value)):
            found.append(seen("interpreter.version", version.group(0)))
    if match := OSX.search(line):
        found += [seen("host.system", "Darwin"), seen("host.macos_version", match["version"])]
    if match := ARCHSPEC.search(line):
        found.append(seen("paste.archspec", match["arch"]))
    if match := ENV_SUBDIR.search(line):
        found.append(seen("paste.conda_subdir_env", match["value"]))
    if "conda " in line and (match := COMMAND.search(line)):
        found.append(seen("paste.conda_command", match.group(0).strip()))
    return found
