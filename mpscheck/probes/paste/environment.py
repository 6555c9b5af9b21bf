"""The PYTORCH_* variables a paste sets: ``export NAME=value``, ``NAME=value python ...``,
``os.environ["NAME"] = "value"``, ``%env NAME=value``, ``[env] NAME=value`` (mpscheck's markdown).

An ``os.environ`` assignment after ``import torch`` in the same paste is recorded too: torch reads
PYTORCH_ENABLE_MPS_FALLBACK when it loads, so setting it later has no effect.
"""

from __future__ import annotations

import re

from mpscheck.probes.paste.model import Observation, observe

KIND = "environment"
NAME = r"(?P<name>PYTORCH_(?:ENABLE_MPS_FALLBACK|MPS_\w+|DEBUG_MPS_\w+))"
SHELL = re.compile(
    r"(?:^|[\s;])(?:export\s+|set\s+|%env\s+|\[env\]\s+|conda env config vars set\s+)?"
    rf"{NAME}=(?P<quote>[\"']?)(?P<value>[\w.+-]*)(?P=quote)"
)
PYTHON = re.compile(rf"os\.environ\[\s*['\"]{NAME}['\"]\s*\]\s*=\s*['\"]?(?P<value>[^'\"\s)]*)")
SETDEFAULT = re.compile(rf"os\.(?:environ\.setdefault|putenv)\(\s*['\"]{NAME}['\"]\s*,\s*['\"](?P<value>[^'\"]*)")
# torch's own advice names a variable without setting it: "Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to ...",
# "you can set the environment variable `PYTORCH_ENABLE_MPS_FALLBACK=1`", with or without backticks, cut or not;
# and a user's question names it unset ("I don't know where to type PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0",
# Fooocus#1271; "how do I set ...", "where should I put ..."): asking where or how is not having set it.
ADVICE = re.compile(
    r"(?i)(?:\buse|\bset the environment variable|\byou can set|\btry setting"
    r"|\b(?:where|how) (?:to|do I|should I|can I|would I|do you|does one) "
    r"(?:type|put|set|add|write|enter|paste|use|define|specify)(?: in)?(?: the (?:env(?:ironment)? )?variable)?"
    r"|\bwhat (?:is|does))\s+`?\Z"
)
IMPORT_TORCH = re.compile(r"^\s*(?:>>>\s*)?(?:import torch\b|from torch\b)")


def parse(lines: list[str]) -> list[Observation]:
    out: list[Observation] = []
    imported_at = None
    for number, line in enumerate(lines, start=1):
        if imported_at is None and IMPORT_TORCH.match(line):
            imported_at = number
        if match := PYTHON.search(line) or SETDEFAULT.search(line):
            out.append(observe(KIND, lines, number, f"interpreter.env.{match['name']}", match["value"]))
            if imported_at is not None:
                out.append(observe(KIND, lines, number, "paste.env_after_import", match["name"]))
        elif line.lstrip().startswith("| "):  # a row of mpscheck's own report table: a judgement, not a setting
            continue
        elif match := SHELL.search(line):
            if _advice(line, match.start("name")):  # torch's own advice inside the error text
                continue
            out.append(observe(KIND, lines, number, f"interpreter.env.{match['name']}", match["value"]))
    return out


def _advice(line: str, start: int) -> bool:
    """The words just before the variable are torch's advice to set it, not a setting."""
    return bool(ADVICE.search(line[max(0, start - 40) : start]))
