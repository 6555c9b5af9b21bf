"""Output of Docker (``docker build``, ``docker compose up``, ``docker run``): the Python that printed the
rest ran in a Linux container, even on a Mac, and a container has no Metal device.

Read from what Docker itself prints, never from prose that mentions it: Compose's ``Attaching to NAME``
and ``Container NAME  Created``, BuildKit's ``#7 [stage 3/7] RUN ...`` and ``Dockerfile:80`` excerpt,
the legacy builder's ``Step 3/7 : RUN ...``, and a shell line running ``docker build|run|compose`` (also set in
backticks on a line of its own, as a command the user ran).
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


def parse(lines: list[str]) -> list[Observation]:
    return each_line(KIND, lines, _line)


def _line(seen: Seen, line: str) -> list[Observation]:
    if DOCKER.match(line):
        return [seen("paste.container", True), seen("host.system", "Linux")]
    return []
