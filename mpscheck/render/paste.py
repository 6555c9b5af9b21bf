"""Render a paste's diagnosis in every format: the root cause first with the paste's own lines as
evidence, the fix commands, then the rest. Markdown is written to be posted as a reply in an issue
thread. Home folders (/Users/name, /home/name) are shown as ``~``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from mpscheck.checks.causes.model import Cause, Diagnosis
from mpscheck.facts import to_dict
from mpscheck.model import Status

KIND = "mpscheck-paste-diagnosis"
SCHEMA_VERSION = 1
SCHEMA_PATH = Path(__file__).resolve().parent.parent / "paste_diagnosis.schema.json"
HOME = re.compile(r"(?:/Users|/home)/[^/\s'\"`]+|[A-Za-z]:\\Users\\[^\\\s'\"`]+")
QUOTED_LINES, QUOTED_CHARS = 8, 300  # evidence shown in text and markdown; JSON keeps every line whole
MARKS = {Status.PASS: "✓", Status.WARN: "!", Status.FAIL: "✗", Status.SKIP: "-", Status.CRASH: "💥"}


def tilde(text: str) -> str:
    return HOME.sub("~", text)


def quoted(cause: Cause) -> list[tuple[int, str]]:
    """The evidence lines to quote: at most QUOTED_LINES, each cut at QUOTED_CHARS."""
    out = []
    for item in cause.evidence[:QUOTED_LINES]:
        line = item.text.strip()
        out.append((item.line, line if len(line) <= QUOTED_CHARS else line[: QUOTED_CHARS - 1] + "…"))
    if len(cause.evidence) > QUOTED_LINES:
        out.append((0, f"… and {len(cause.evidence) - QUOTED_LINES} more lines (see --format json)"))
    return out


def headline(diagnosis: Diagnosis) -> str:
    cause = diagnosis.cause
    if diagnosis.status is not Status.FAIL:
        return f"no problem in the paste ({cause.id})"
    return f"root cause: {cause.id}"


def to_json(diagnosis: Diagnosis) -> dict[str, Any]:
    def cause(c: Cause) -> dict[str, Any]:
        return {
            "id": c.id,
            "summary": tilde(c.summary),
            "evidence": [{"line": e.line, "text": tilde(e.text)} for e in c.evidence],
            "fix": {"summary": tilde(c.fix.summary), "commands": [tilde(x) for x in c.fix.commands]} if c.fix else None,
            "source": c.source,
            "notes": [tilde(n) for n in c.notes],
            "variant": c.variant,
        }

    facts = json.loads(tilde(json.dumps(to_dict(diagnosis.facts))))
    return {
        "kind": KIND,
        "schema_version": SCHEMA_VERSION,
        "exit_code": int(diagnosis.exit_code),
        "kinds": diagnosis.kinds,
        "cause": cause(diagnosis.cause),
        "other_causes": [cause(c) for c in diagnosis.others],
        "findings": [json.loads(tilde(json.dumps(f.to_dict()))) for f in diagnosis.findings],
        "next": diagnosis.next_step,
        "facts": facts,
    }


def text(diagnosis: Diagnosis, verbose: bool = False) -> str:
    cause = diagnosis.cause
    out = [f"mpscheck explain: {headline(diagnosis)}", "", f"  {cause.summary}"]
    if cause.evidence:
        out += ["", "  Evidence (lines of the paste):"]
        out += [f"    {n:>4}: {line}" if n else f"          {line}" for n, line in quoted(cause)]
    out += _fix_lines(cause, "  ")
    out += [f"  Note: {note}" for note in cause.notes]
    if diagnosis.others:
        out += ["", "  Also in the paste:"]
        for other in diagnosis.others:
            out.append(f"    - {other.id}: {other.summary}")
            if verbose:
                out += _fix_lines(other, "      ")
    if diagnosis.findings:
        out += ["", "  The doctor's checks on what the paste shows:"]
        out += [f"    [{MARKS[f.status]}] {f.id}: {f.summary}" for f in diagnosis.findings]
    out += ["", f"  Read: {', '.join(diagnosis.kinds)}"]
    if diagnosis.next_step:
        out.append(f"  The paste does not settle everything: run `{diagnosis.next_step}` on the Mac and paste that.")
    return tilde("\n".join(out)) + "\n"


def _fix_lines(cause: Cause, indent: str) -> list[str]:
    if not cause.fix:
        return []
    return ["", f"{indent}Fix: {cause.fix.summary}"] + [f"{indent}  $ {c}" for c in cause.fix.commands]


def markdown(diagnosis: Diagnosis, verbose: bool = False) -> str:
    cause = diagnosis.cause
    ok = diagnosis.status is not Status.FAIL
    out = [f"**{'No problem found' if ok else 'Root cause'}: `{cause.id}`**: {cause.summary}"]
    if cause.evidence:
        out += ["", "From your paste:", "", "```"] + [line for _, line in quoted(cause)] + ["```"]
    if cause.fix:
        out += ["", f"**Fix**: {cause.fix.summary}"]
        if cause.fix.commands:
            out += ["", "```sh", *cause.fix.commands, "```"]
    out += ["", *(f"Note: {n}" for n in cause.notes)] if cause.notes else []
    if diagnosis.others:
        out += ["", "Also in the paste: " + "; ".join(f"`{o.id}` ({o.summary})" for o in diagnosis.others)]
    if diagnosis.next_step:
        out += ["", f"If this does not settle it, run `{diagnosis.next_step}` on the Mac and paste its output."]
    out += ["", f"<sub>mpscheck explain, from: {', '.join(diagnosis.kinds)}</sub>", ""]
    return tilde("\n".join(out))


def github(diagnosis: Diagnosis, verbose: bool = False) -> str:
    command, plain = github_parts(diagnosis, verbose)
    return command + plain


def github_parts(diagnosis: Diagnosis, verbose: bool = False) -> tuple[str, str]:
    """mpscheck's own workflow command line, and the plain text after it (which stdout defuses)."""
    cause = diagnosis.cause
    level = "notice" if diagnosis.status is not Status.FAIL else "error"
    message = cause.summary + (f" Fix: {cause.fix.summary} " + " ; ".join(cause.fix.commands) if cause.fix else "")
    line = f"::{level} title=mpscheck explain {cause.id}::{_escape_command(tilde(message))}\n"
    return line, text(diagnosis, verbose)


def _escape_command(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def junit(diagnosis: Diagnosis, verbose: bool = False) -> str:
    from xml.sax.saxutils import escape, quoteattr  # here: it imports urllib (26 ms) that no other format needs

    cause = diagnosis.cause
    failed = diagnosis.status is Status.FAIL
    skipped = diagnosis.status is Status.SKIP  # not confirmed (e.g. a cut input): said, and not a pass
    tag = "failure" if failed else "skipped" if skipped else None
    body = (
        f"<{tag} message={quoteattr(tilde(cause.summary))} type={quoteattr(cause.id)}>"
        f"{escape(text(diagnosis, verbose))}</{tag}>"
        if tag
        else ""
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<testsuite name="mpscheck explain" tests="1" failures="{int(failed)}" errors="0" skipped="{int(skipped)}">\n'
        f'  <testcase classname="mpscheck.explain" name={quoteattr(cause.id)}>{body}</testcase>\n'
        "</testsuite>\n"
    )


def render(diagnosis: Diagnosis, fmt: str, verbose: bool = False) -> str:
    if fmt == "json":
        return json.dumps(to_json(diagnosis), indent=2) + "\n"
    renderers = {"text": text, "markdown": markdown, "github": github, "junit": junit}
    if fmt not in renderers:
        raise ValueError(f"unknown format {fmt!r}")
    return renderers[fmt](diagnosis, verbose)
