"""Judgement of a paste: its errors matched against the signature table and judged with the facts it
shows, into a root cause with its evidence and fix (``judge``, ``explain_text``).

Modules: ``judge`` (the order of causes, and what comes without an error), ``base`` (what every rule
reads), ``setup`` (causes from facts), ``errors`` (error texts), ``memory`` (out-of-memory numbers),
``model`` (Evidence, Cause, Diagnosis), ``ops`` (the op coverage table), ``sizes`` (torch's printed
sizes), ``findings`` (the doctor's checks on a paste's facts).
"""

from __future__ import annotations

from mpscheck.judgement.judge import explain_text, judge
from mpscheck.judgement.model import Cause, Diagnosis, Evidence

__all__ = ["Cause", "Diagnosis", "Evidence", "explain_text", "judge"]
