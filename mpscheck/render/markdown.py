"""A Markdown report for pasting into a GitHub issue: verdict, a table of checks, the fixes, and the
facts in a collapsed block that covers what `python -m torch.utils.collect_env` prints on a Mac.
Paths under the home directory are shown as ~.
"""

from __future__ import annotations

from mpscheck.facts import Facts
from mpscheck.model import Mark, Report
from mpscheck.render.text import NOT_COUNTED, header

ICONS = {
    Mark.PASS: "✅",
    Mark.WARN: "⚠️",
    Mark.FAIL: "❌",
    Mark.SKIP: "➖",
    Mark.CRASH: "💥",
    Mark.NOT_COUNTED: "·",
}


def home_to_tilde(text: str, facts: Facts) -> str:
    home = facts.target.interpreter.home if facts.target.interpreter else None
    if home and home not in ("/", "") and len(home) > 1:
        text = text.replace(home.rstrip("/") + "/", "~/").replace(home.rstrip("/"), "~")
    return text


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def environment_block(facts: Facts) -> str:
    """collect_env's fields (as far as they matter on a Mac), then mpscheck's own facts."""
    host, info, torch = facts.host, facts.target.interpreter, facts.target.torch
    os_line = f"macOS {host.macos_version} ({host.machine})" if host.macos_version else f"{host.system} {host.release}"
    cuda_devices = ", ".join(d.name for d in torch.cuda_devices) if torch else ""
    rows = [
        ("PyTorch version", torch.version if torch else None),
        ("Is debug build", torch.debug_build if torch else None),
        ("CUDA used to build PyTorch", (torch.cuda_built or "None") if torch else None),
        ("OS", os_line),
        ("Clang version", host.clang_version),
        ("CMake version", host.cmake_version),
        ("Python version", f"{info.version} ({info.implementation})" if info else None),
        ("Python platform", info.platform if info else None),
        ("Is CUDA available", torch.cuda_available if torch else None),
        ("GPU models and configuration", cuda_devices or None),
        ("CPU", host.cpu_brand),
        ("Is MPS built", torch.mps_built if torch else None),
        ("Is MPS available", torch.mps_available if torch else None),
        ("MPS device", torch.mps_device_name if torch else None),
        ("GPU cores", host.gpu_cores or (torch.mps_core_count if torch else None)),
        ("Memory", f"{host.memory_bytes} bytes" if host.memory_bytes else None),
        ("Model", host.model),
        ("Virtual machine", host.hypervisor),
        ("Rosetta (sysctl.proc_translated)", info.proc_translated if info else None),
        ("platform.machine() / processor()", f"{info.machine} / {info.processor}" if info else None),
        ("platform.mac_ver()", info.mac_ver if info else None),
        ("Interpreter", info.executable if info else facts.target.requested),
        ("conda env / subdir", f"{info.conda_prefix} / {info.conda_subdir}" if info and info.conda_prefix else None),
    ]
    lines = [f"{label}: {'Could not collect' if value is None else value}" for label, value in rows]
    if info:
        lines.append("Versions of relevant libraries:")
        lines += [f"[pip3] {name}=={version}" for name, version in sorted((info.packages or {}).items()) if version]
        lines += [f"[env] {name}={value}" for name, value in sorted((info.env or {}).items())]
    return "\n".join(lines)


def render(report: Report, verbose: bool = False) -> str:
    facts = report.facts
    out = [f"## {header(report)}", "", f"**{report.verdict.headline}**", ""]
    if report.command == "bench":
        from mpscheck.render.bench import markdown_row

        out += [markdown_row(report), ""]
    out += ["| | Check | Result |", "|---|---|---|"]
    for finding in report.findings:
        mark = report.mark(finding)
        said = f" {NOT_COUNTED.format(report.require.value)}" if mark is Mark.NOT_COUNTED else ""
        out.append(f"| {ICONS[mark]} | `{finding.id}` | {_cell(finding.summary + said)} |")
    fixes = report.fixes()
    if fixes:
        out += ["", "### How to fix"]
        for finding in fixes:
            advice = report.advice(finding)
            assert advice is not None
            out += ["", f"**{finding.id}**: {advice.summary}"]
            if advice.commands:
                out += ["", "```sh", *advice.commands, "```"]
    out += [
        "",
        "<details><summary>Environment (collect_env fields and mpscheck facts)</summary>",
        "",
        "```",
        environment_block(facts),
        "```",
        "",
        "</details>",
        "",
    ]
    return home_to_tilde("\n".join(out), facts)
