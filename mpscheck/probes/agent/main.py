"""Entry point run by path inside the target interpreter: report what it sees, one JSON line per stage.

Stages: ``interpreter`` (arch, Rosetta, platform strings, allowlisted env vars), ``torch`` (import,
MPS/CUDA state), then an optional workload. Each stage writes ``start`` before it runs and ``done``
after, so a hang or an abort inside Metal still leaves the finished stages and names the one that
was running. The folder is loaded as the private package ``_mpscheck_agent``: no sys.path entry is
added, so nothing here can shadow the user's modules, and no bytecode is written.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import sys

PACKAGE = "_mpscheck_agent"
ENV_POLICY_VARIABLE = "MPSCHECK_ENV_POLICY"
# --workload -> (module, its mode, the stage that names the chosen device)
WORKLOADS = {
    "none": None,
    "quick": ("workload", "quick", "device"),  # the doctor's smoke
    "full": ("workload", "full", "device"),  # mpscheck smoke-test
    "bench": ("bench", "full", "bench-device"),  # mpscheck bench
    "bench-quick": ("bench", "quick", "bench-device"),
    "bench-tiny": ("bench", "tiny", "bench-device"),  # the tests' shrunken models
}
# option -> (default, choices)
OPTIONS = {"--workload": ("none", tuple(WORKLOADS)), "--device": ("auto", ("auto", "gpu", "mps", "cuda", "cpu"))}


def load_package():
    """This folder as the package _mpscheck_agent, found by path alone."""
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location(
        PACKAGE, os.path.join(here, "__init__.py"), submodule_search_locations=[here]
    )
    package = importlib.util.module_from_spec(spec)
    sys.modules[PACKAGE] = package
    spec.loader.exec_module(package)
    return package


def part(name):
    return importlib.import_module(PACKAGE + "." + name)


def read_processor_early():
    """platform.processor() starts `uname -p` on Linux and macOS: begun first, in a thread, it runs
    while the rest loads; the interpreter stage joins it and reads the cached answer. (The watchdog
    starts a moment later and ends that process too if mpscheck goes.)"""
    import platform
    import threading

    thread = threading.Thread(target=platform.processor, name="mpscheck-uname", daemon=True)
    thread.start()
    return thread


def parse_args(argv):
    """(workload, device) from ``--workload W --device D`` (or ``--name=value``), each optional.

    Not argparse: its imports (gettext, locale, shutil) cost 5 ms of the target's run, on the doctor's
    critical path when the target has no torch. A wrong argument exits 2 with the usage, as argparse did.
    """
    chosen = {name: default for name, (default, _) in OPTIONS.items()}
    rest = list(argv)
    while rest:
        name, equals, value = rest.pop(0).partition("=")
        if name not in OPTIONS:
            _usage_error("unrecognized argument: " + name)
        if not equals:
            if not rest:
                _usage_error("argument %s: expected one argument" % name)
            value = rest.pop(0)
        choices = OPTIONS[name][1]
        if value not in choices:
            _usage_error("argument %s: invalid choice: %r (choose from %s)" % (name, value, ", ".join(choices)))
        chosen[name] = value
    return chosen["--workload"], chosen["--device"]


def _usage_error(message):
    usage = " ".join("[%s {%s}]" % (name, ",".join(choices)) for name, (_, choices) in OPTIONS.items())
    sys.stderr.write("usage: mpscheck-agent %s\nmpscheck-agent: error: %s\n" % (usage, message))
    sys.exit(2)


def main(argv):
    workload_name, device_name = parse_args(argv)
    # mpscheck's allowlist (prefixes, names, secret markers); without it, no variable is shown.
    env_policy = json.loads(os.environ.pop(ENV_POLICY_VARIABLE, "{}") or "{}")
    fallback_env = os.environ.get("PYTORCH_ENABLE_MPS_FALLBACK")  # as the process started with it
    processor = read_processor_early()
    load_package()
    part("watchdog").start()  # first: a hang anywhere below still ends when mpscheck does
    channel = part("protocol").Channel()
    channel.emit("start", "interpreter")
    channel.emit("done", "interpreter", part("interpreter").interpreter_facts(env_policy, processor))
    channel.emit("start", "torch")
    # Beside the import: torch's CUDA questions then wait less (and the bench's first kernel, with its context).
    bench_on_gpu = workload_name.startswith("bench") and device_name in ("auto", "gpu", "cuda")
    part("cuda_driver").start_in_background(context=bench_on_gpu)
    facts, torch = part("torch_state").torch_facts()
    channel.emit("done", "torch", facts)
    workload = WORKLOADS[workload_name]
    if torch is not None and workload is not None:
        module, mode, stage = workload
        device, reason = part("device").pick_device(device_name, facts)
        channel.emit("done", stage, {"requested": device_name, "device": device, "reason": reason, "mode": mode})
        if device is not None:
            part(module).run(torch, device, mode, channel.emit, fallback_env)
    channel.emit("done", "end", {})
    return 0


if __name__ == "__main__":
    # Older Pythons put this file's folder first on sys.path; it must not shadow anything torch imports.
    _here = os.path.dirname(os.path.abspath(__file__))
    if sys.path and os.path.abspath(sys.path[0] or os.curdir) == _here:
        del sys.path[0]
    sys.dont_write_bytecode = True  # the doctor changes nothing on the user's machine
    code = main(sys.argv[1:])
    # Every record is out (each was flushed) and every workload step synchronised its device: skip
    # the interpreter's teardown, which after `import torch` takes a second or more and says nothing
    # about whether torch can use the GPU. An exception in main() still exits through Python.
    sys.stderr.flush()
    os._exit(code)
