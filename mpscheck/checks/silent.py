"""How many known silent-correctness bugs of MPS the installed torch has on this macOS, and the cure.

A silent bug gives wrong results without an error, so no smoke test finds it; the cited table
(knowledge/silent_bugs.json) does. Only a warning, never a failure: readiness rests on the checks in
policy.py, and most rows need a shape or layout this check cannot see. An unknown torch or macOS
version is said to be unknown (a skip), never "0 known".
"""

from __future__ import annotations

from mpscheck.checks.registry import Context, Outcome, check, fix, passed, skipped, warned
from mpscheck.checks.wording import newer_than_table, plural
from mpscheck.knowledge.silent_bugs import SilentBug, affecting
from mpscheck.knowledge.versions import at_least, parse_version


def op_names(bug: SilentBug) -> str:
    return ", ".join(sorted(op.removeprefix("aten::") for op in bug.ops))


def avoid(bug: SilentBug) -> str:
    """What to keep off MPS until the bug is fixed: its ops, dtypes and the condition it needs."""
    dtypes = f" on {', '.join(sorted(bug.dtypes))}" if bug.dtypes else ""
    when = f" when {bug.condition}" if bug.condition else ""
    return f"{op_names(bug)}{dtypes}{when}"


def fixing_release(bugs: list[SilentBug]) -> str | None:
    """The first release that fixes every fixable one of *bugs* (the newest of their fixing releases)."""
    fixed = [bug.fixed_in for bug in bugs if bug.fixed_in]
    return max(fixed, key=lambda v: parse_version(v) or ()) if fixed else None


def _newest_here(ctx: Context) -> str | None:
    """The newest torch with MPS this Python installs on this macOS (None where that is not known)."""
    from mpscheck.knowledge import releases

    python = ctx.interpreter.version if ctx.interpreter else None
    if not python or not ctx.host.macos_version:
        return None
    return releases.newest_with_mps(python, ctx.host.macos_version)


@check("silent-bugs", "Known silent bugs", where="macos", needs=("torch-import", "mps-available"))
def silent_bugs(ctx: Context) -> Outcome:
    version = ctx.torch.version if ctx.torch else None
    if parse_version(version) is None:
        return skipped("unknown: the installed torch's version was not read, so its known silent bugs are unknown")
    macos = parse_version(ctx.host.macos_version)
    if macos is None:
        return skipped(f"unknown: the macOS version was not read, so torch {version}'s known silent bugs here are too")
    assert version is not None
    here = f"torch {version} on macOS {ctx.host.macos_version}"
    bugs = affecting(version, macos)
    if not bugs:
        return passed(f"{here}: 0 known silent-correctness bugs on MPS (knowledge/silent_bugs.json)")
    listed = "; ".join(f"{bug.id} ({op_names(bug)})" for bug in bugs)
    details = tuple(f"{bug.id}: {bug.what}; {bug.issue}" for bug in bugs)
    if newer := newer_than_table(version):  # a bug no release has fixed is assumed still there
        details += (f"torch {version} is {newer}; bugs without a fixing release are counted as still present",)
    summary = f"{here} has {plural(len(bugs), 'known silent-correctness bug')} on MPS: {listed}"
    open_bugs = [bug for bug in bugs if not bug.fixed_in]
    avoiding = "; ".join(avoid(bug) for bug in open_bugs)
    until = f" Not fixed in any release yet, keep off MPS: {avoiding}." if avoiding else ""
    # No release fixes any of them: nothing to change in this install, so no warning on every Mac; what to
    # keep off MPS is said, and `mpscheck ops` names the ops of a script that a known bug hits.
    return _upgrade(ctx, bugs, summary, details, until) or passed(
        f"{summary}; none is fixed in a release yet, so no upgrade helps: keep off MPS {avoiding}",
        *details,
        f"mpscheck ops -- {ctx.python} your_script.py names the ops of a script that a known bug hits",
    )


def _upgrade(ctx: Context, bugs: list[SilentBug], summary: str, details: tuple[str, ...], until: str) -> Outcome | None:
    """The upgrade to the release that fixes them, where one exists (None: no release fixes any)."""
    release = fixing_release(bugs)
    if release is None:
        return None
    macos = ctx.host.macos_version
    fixed = [bug.id for bug in bugs if bug.fixed_in]
    newest = _newest_here(ctx)
    if newest is not None and not at_least(parse_version(newest) or (), parse_version(release) or ()):
        return warned(
            f"{summary}; fixed in torch {release}, which has no MPS on macOS {macos} with this Python "
            f"(newest here: torch {newest})",
            fix(f"Upgrade macOS for torch {release} ({', '.join(fixed)}).{until}", "softwareupdate --list"),
            *details,
        )
    left = len(bugs) - len(fixed)
    rest = f" ({', '.join(fixed)}; the other {plural(left, 'bug')} in no release yet)" if left else ""
    return warned(
        f"{summary}; fixed in torch {release}{rest}",
        fix(
            f"Upgrade torch to {release} or later ({', '.join(fixed)}).{until}",
            ctx.install(f"torch>={release}", upgrade=True),
        ),
        *details,
    )
