"""How a paste's observations become Facts, compared whole (probes/paste/model.py): the first observation of
a fact wins, a program's output outranks the user's prose, torch counts as installed only when a torch
fact was seen, packages and variables are kept as text, each distinct error line once with its severity
and values, and a Paste's lookups (get, value, all, kinds) over observations that grow.

Observations are made with ``observe`` on lines of tests/corpus/*.txt style pastes written here; the
expected Facts are built field by field, not by calling to_facts.
"""

from __future__ import annotations

from mpscheck.facts import Facts, HostFacts, InterpreterFacts, ProbeRun, SeenError, TargetFacts, TorchFacts
from mpscheck.probes.paste.model import Paste, each_line, observe, to_facts

LINES = [
    "I'm on an M2 Max with macOS 14.5",  # prose
    "OS: macOS 14.4.1 (arm64)",  # collect_env
    "PyTorch version: 2.3.0",
    "[pip3] numpy==1.26.4",
    "export PYTORCH_ENABLE_MPS_FALLBACK=1",
    "RuntimeError: MPS backend out of memory",
    "RuntimeError: MPS backend out of memory",  # the same text again
    "UserWarning: The operator 'aten::sgn.out' is not currently supported on the MPS backend",
]


def test_to_facts_whole() -> None:
    observations = [
        observe("prose", LINES, 1, "host.macos_version", "14.5"),
        observe("prose", LINES, 1, "host.cpu_brand", "Apple M2 Max"),
        observe("collect_env", LINES, 2, "host.system", "Darwin"),
        observe("collect_env", LINES, 2, "host.macos_version", "14.4.1"),
        observe("collect_env", LINES, 2, "host.macos_version", "14.4"),  # a later one: the first wins
        observe("collect_env", LINES, 2, "interpreter.machine", "arm64"),
        observe("collect_env", LINES, 3, "torch.version", "2.3.0"),
        observe("collect_env", LINES, 4, "interpreter.packages.numpy", "1.26.4"),
        observe("collect_env", LINES, 4, "interpreter.packages.numpy", "2.0.0"),
        observe("environment", LINES, 5, "interpreter.env.PYTORCH_ENABLE_MPS_FALLBACK", 1),  # kept as text
        observe("errors", LINES, 6, "error", {"severity": "error", "values": {"allocated": 5}}),
        observe("errors", LINES, 7, "error", {"severity": "error"}),
        observe("errors", LINES, 8, "error", {"severity": "warning", "values": {"op": "aten::sgn.out"}}),
        observe("repl", LINES, 8, "paste.device_used", "mps"),  # a paste fact: not a field of the facts
    ]
    expected = Facts(
        host=HostFacts(system="Darwin", macos_version="14.4.1", cpu_brand="Apple M2 Max"),
        target=TargetFacts(
            run=ProbeRun(message="read from a paste, not probed"),
            interpreter=InterpreterFacts(
                machine="arm64", packages={"numpy": "1.26.4"}, env={"PYTORCH_ENABLE_MPS_FALLBACK": "1"}
            ),
            torch=TorchFacts(installed=True, version="2.3.0"),
        ),
        errors=[
            SeenError(LINES[5], 6, "error", {"allocated": "5"}),
            SeenError(LINES[7], 8, "warning", {"op": "aten::sgn.out"}),
        ],
    )
    assert to_facts(observations) == expected


def test_nothing_observed_leaves_the_interpreter_and_torch_unknown() -> None:
    assert to_facts([]) == Facts(target=TargetFacts(run=ProbeRun(message="read from a paste, not probed")))
    only_env = to_facts([observe("environment", LINES, 5, "interpreter.env.PYTORCH_ENABLE_MPS_FALLBACK", "1")])
    assert only_env.target.interpreter == InterpreterFacts(env={"PYTORCH_ENABLE_MPS_FALLBACK": "1"})
    assert only_env.target.torch is None
    only_package = to_facts([observe("collect_env", LINES, 4, "interpreter.packages.numpy", "1.26.4")])
    assert only_package.target.interpreter == InterpreterFacts(packages={"numpy": "1.26.4"})
    error = to_facts([observe("errors", LINES, 6, "error", "not a record")])
    assert error.errors == [SeenError(LINES[5], 6, "error", {})]


def test_a_paste_looks_facts_up_as_its_observations_grow() -> None:
    first = observe("collect_env", LINES, 2, "host.system", "Darwin")
    paste = Paste("\n".join(LINES), [first])
    assert paste.get("host.system") == first and paste.value("host.system") == "Darwin"
    assert paste.get("host.model") is None and paste.value("host.model") is None
    assert paste.all("host.model") == []
    second = observe("uname", LINES, 3, "host.system", "Linux")
    paste.observations.append(second)  # grown: looked up again
    assert paste.all("host.system") == [first, second] and paste.value("host.system") == "Darwin"
    paste.observations = [second]  # replaced: looked up again
    assert paste.all("host.system") == [second]
    assert paste.facts.host.system == "Linux"


def test_a_pastes_kinds_in_the_order_they_first_appear() -> None:
    paste = Paste(
        "",
        [
            observe("uname", LINES, 3, "host.system", "Darwin"),
            observe("prose", LINES, 1, "host.cpu_brand", "Apple M2 Max"),
            observe("collect_env", LINES, 2, "host.system", "Darwin"),
            observe("sw_vers", LINES, 3, "host.macos_version", "14.5"),
            observe("prose", LINES, 4, "host.model", "Mac14,6"),
        ],
    )
    assert paste.kinds == ["prose", "collect_env", "uname", "sw_vers"]


def test_each_line_gives_the_rule_each_line_and_its_number() -> None:
    def rule(seen, line):  # type: ignore[no-untyped-def]
        return [seen("host.system", "Darwin")] if line.startswith("OS:") else []

    found = each_line("collect_env", LINES, rule)
    assert [(o.fact, o.value, o.line, o.text, o.kind, o.command) for o in found] == [
        ("host.system", "Darwin", 2, LINES[1], "collect_env", None)
    ]
