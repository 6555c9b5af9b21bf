"""The causes behind what an input shows, ranked: the rules that name a root cause for a paste (or any
partial facts plus the errors it showed), part of the one judge in checks/. The input is read by the
probes (probes/paste/) into the same Facts the probes produce plus the errors seen (facts.errors); the
doctor's registry runs over those facts (``findings``), every error is matched by the one table of
known errors (knowledge/errors.py, through the rows the checks also use), and policy.decide_text
gives the exit code by the same --require and --strict as every command.

Modules: ``judge`` (the order of causes, and what comes without an error), ``base`` (what every rule
reads), ``setup`` (causes from facts), ``errors`` (error texts), ``memory`` (out-of-memory numbers),
``model`` (Evidence, Cause, Diagnosis), ``ops`` (the op coverage table), ``findings`` (the doctor's
checks on a paste's facts), ``library`` (the installed library a traceback's failing frame is in),
``cpu_switch`` (running on the CPU said in the framework the paste shows).
"""

from __future__ import annotations

from mpscheck.checks.causes.judge import explain_text, judge
from mpscheck.checks.causes.model import Cause, Diagnosis, Evidence

__all__ = ["Cause", "Diagnosis", "Evidence", "explain_text", "judge"]
