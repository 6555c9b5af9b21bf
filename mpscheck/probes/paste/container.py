"""Output of Docker (``docker build``, ``docker compose up``, ``docker run``): the Python that printed the
rest ran in a Linux container, even on a Mac, and a container has no Metal device.

Read from what Docker itself prints, never from prose that mentions it: Compose's ``Attaching to NAME``
and ``Container NAME  Created``, BuildKit's ``#7 [stage 3/7] RUN ...`` and ``Dockerfile:80`` excerpt,
the legacy builder's ``Step 3/7 : RUN ...``, and a shell line running ``docker build|run|compose`` (also set in
backticks on a line of its own, as a command the user ran). Also a bug template's field whose whole value is
Docker ("| **SOFTWARE** | Docker |", "Installation method: Docker"): the form's answer to where the tool runs.
"""

from __future__ import annotations

import re

from mpscheck.probes.paste.model import Observation, Seen, each_line

KIND = "container"
DOCKER = re.compile(
    r"^\s*(?:Attaching to [\w.-]+"
    r"|[✔✓]? ?Container [\w.-]+ +(?:Created|Started|Running|Recreated)\b"
    r"|#\d+ \[[\w .\/-]*\d+/\d+\] (?:RUN|FROM|COPY)\b"
    r"|Dockerfile:\d+\s*$"
    r"|Step \d+/\d+ : (?:RUN|FROM|COPY)\b"
    r"|(?:\$ |% |# |`{1,3})?(?:sudo )?docker(?: |-)(?:build|run|compose|exec)\b)"
)

# A bug template's field (a "Label: value" line or a markdown table row, bold or not) whose value is Docker alone.
TEMPLATE_FIELD = re.compile(
    # bounded blanks only: a run of spaces can split one way, so the anchored match stays linear on hostile lines
    r"(?i)^[ \t]{0,8}\|?[ \t]{0,8}(?:\*\*)?(?:software|environment|platform|install(?:ation)?(?: method| type)?"
    r"|deployment|runtime|setup|running (?:in|via|with))(?:\*\*)?[ \t]{0,40}[:|][ \t]{0,8}(?:\*\*)?[ \t]{0,8}"
    r"(?:docker|podman)(?: desktop| compose)?(?:\*\*)?[ \t]{0,80}(?:\||$)"
)


def parse(lines: list[str]) -> list[Observation]:
    return each_line(KIND, lines, _line)


def _line(seen: Seen, line: str) -> list[Observation]:
    if DOCKER.match(line) or TEMPLATE_FIELD.match(line):
        return [seen("paste.container", True), seen("host.system", "Linux")]
    return []
