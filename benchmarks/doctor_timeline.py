"""One mpscheck run's timeline, for finding what stands on the critical path beside `import torch`.

Runs the CLI in this process with the probe's command runner and line reader wrapped, and prints
JSON: seconds since this script started when the target started, when each of the agent's records
arrived, when the target ended, and when mpscheck was done; then, in a separate run of the target
interpreter, how long the agent's torch reads take after the import (torch_state.mps_facts and
cuda_facts: the CUDA one initialises CUDA, which a bare `import torch` does not).

    PYTHONPATH=. python benchmarks/doctor_timeline.py doctor --no-smoke [--python PATH]
"""

from __future__ import annotations

import contextlib
import json
import sys
import time

STARTED = time.perf_counter()
MARKS: list[tuple[str, float]] = []


def mark(what: str) -> None:
    MARKS.append((what, round(time.perf_counter() - STARTED, 3)))


AGENT_PARTS = r"""
import json, sys, time, importlib
sys.path.insert(0, sys.argv[1])
started = time.perf_counter()
import torch
out = {"import_torch_s": time.perf_counter() - started}
spec = importlib.util.spec_from_file_location("torch_state", sys.argv[1] + "/torch_state.py")
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
for name in ("mps_facts", "cuda_facts"):
    started = time.perf_counter()
    getattr(module, name)(torch)
    out[name + "_s"] = time.perf_counter() - started
print(json.dumps({k: round(v, 3) for k, v in out.items()}))
"""


def main() -> int:
    import subprocess

    import mpscheck.probes.process as process
    import mpscheck.probes.target as target

    mark("mpscheck imported")
    original = process.run_command

    def run_command(argv, *args, on_line=None, **kwargs):  # type: ignore[no-untyped-def]
        is_agent = any(str(a).endswith("main.py") for a in argv)

        def seen(line: str) -> None:
            try:
                record = json.loads(line)
                mark(f"agent {record.get('event')} {record.get('stage')}")
            except ValueError:
                pass
            if on_line:
                on_line(line)

        if is_agent:
            mark("target started")
        done = original(argv, *args, on_line=seen if is_agent else on_line, **kwargs)
        if is_agent:
            mark("target ended")
        return done

    target.run_command = run_command  # type: ignore[assignment]
    import mpscheck.probes.gather as gather

    host_facts, warm = gather._host_facts, gather._warm_imports

    def host_then_mark():  # type: ignore[no-untyped-def]
        mark("host probe started")
        try:
            return host_facts()
        finally:
            mark("host probe done")

    def warm_then_mark() -> None:
        warm()
        mark("warm imports done")

    gather._host_facts = host_then_mark  # type: ignore[assignment]
    gather._warm_imports = warm_then_mark  # type: ignore[assignment]
    from mpscheck.cli import cli

    with contextlib.suppress(SystemExit):
        cli.main(args=[*sys.argv[1:], "--format", "json", "--output", "/dev/null"], standalone_mode=False)
    mark("mpscheck done")
    python = next((sys.argv[i + 1] for i, a in enumerate(sys.argv) if a == "--python"), sys.executable)
    agent_dir = str(target.AGENT_PATH.parent)
    parts = subprocess.run([python, "-c", AGENT_PARTS, agent_dir], capture_output=True, text=True, timeout=300)
    result = {"timeline_s": dict(MARKS), "agent_parts": json.loads(parts.stdout) if parts.returncode == 0 else None}
    if parts.returncode != 0:
        result["agent_parts_error"] = parts.stderr[-1000:]
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
