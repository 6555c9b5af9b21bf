"""The JSON report, written: the versioned shape fixed by mpscheck/report.schema.json.

``--format json`` prints it; probes/saved_report.py reads it back, so today's checks can judge
facts saved on another Mac.
"""

from __future__ import annotations

import json
from typing import Any

from mpscheck import __version__
from mpscheck.facts import to_dict
from mpscheck.model import REPORT_KIND, SCHEMA_VERSION, Report


def report_to_dict(report: Report) -> dict[str, Any]:
    verdict = report.verdict
    out = {
        "kind": REPORT_KIND,
        "schema_version": SCHEMA_VERSION,
        "mpscheck_version": __version__,
        "command": report.command,
        "require": report.require.value,
        "strict": report.strict,
        "exit_code": int(verdict.exit_code),
        "ready": verdict.ready,
        "headline": verdict.headline,
        "blocking": list(verdict.blocking),
        "not_counted": list(verdict.not_counted),
        "counts": report.counts(),
        "target": {
            "python": report.facts.target.requested,
            "chosen_because": report.facts.target.chosen_because,
        },
        "findings": [{**finding.to_dict(), "mark": report.mark(finding).value} for finding in report.findings],
        "facts": to_dict(report.facts),
    }
    if report.command == "bench":  # the derived figures; the raw ones are in facts.target.bench
        from mpscheck.render.bench import json_summary

        out["bench"] = json_summary(report)
    return out


def render(report: Report, verbose: bool = False) -> str:
    return json.dumps(report_to_dict(report), indent=2, sort_keys=False) + "\n"
