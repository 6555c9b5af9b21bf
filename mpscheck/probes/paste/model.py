"""What a parser gives back: observations (one fact, its value, the paste's line it came from), and
how a set of observations becomes the same ``Facts`` the probes produce.

A fact the paste does not show is never observed, so it stays unknown (None or empty) in the facts.
Fact names are ``host.<field>``, ``interpreter.<field>``, ``torch.<field>`` (fields of the facts
dataclasses), ``interpreter.packages.<name>``, ``interpreter.env.<NAME>``, and ``paste.<name>`` for
what a paste shows that the probes do not measure (the device a script used, pip's version list...).
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass, field
from typing import Any, Callable

from mpscheck.facts import Facts, HostFacts, InterpreterFacts, SeenError, TorchFacts


@dataclass(frozen=True)
class Observation:
    fact: str
    value: Any
    line: int  # 1-based line number in the paste
    text: str  # the paste's line, verbatim
    kind: str  # the parser that read it: collect_env, sw_vers, ...
    command: int | None = None  # the line of the command that printed this value (REPL, sysctl -n, uname -m)
    command_text: str = ""


@dataclass
class Paste:
    """Everything the parsers read from one paste: first observation of each fact wins."""

    text: str
    observations: list[Observation] = field(default_factory=list)
    origin: list[int] = field(default_factory=list)  # line of the original paste for each line of text
    # The input's own number of a line of the text (the same unless the input was cut: explain_input.input_line).
    input_line: Callable[[int], int] = field(default=lambda line: line, repr=False, compare=False)
    _index: dict[str, list[Observation]] = field(default_factory=dict, init=False, repr=False, compare=False)
    _index_key: tuple[int, int] = field(default=(0, -1), init=False, repr=False, compare=False)

    @property
    def kinds(self) -> list[str]:
        """The kinds of text recognised, in the order they first appear."""
        seen: list[str] = []
        for obs in sorted(self.observations, key=lambda o: o.line):
            if obs.kind not in seen:
                seen.append(obs.kind)
        return seen

    def get(self, fact: str) -> Observation | None:
        found = self._by_fact().get(check_fact(fact))
        return found[0] if found else None

    def value(self, fact: str) -> Any:
        obs = self.get(fact)
        return obs.value if obs else None

    def all(self, fact: str) -> list[Observation]:
        return list(self._by_fact().get(check_fact(fact), ()))

    def _by_fact(self) -> dict[str, list[Observation]]:
        """The observations by fact, in order: built once (a long log is asked about thousands of times),
        and again only if the list was replaced or grew."""
        key = (id(self.observations), len(self.observations))
        if self._index_key != key:
            index: dict[str, list[Observation]] = {}
            for obs in self.observations:
                index.setdefault(obs.fact, []).append(obs)
            self._index, self._index_key = index, key
        return self._index

    @property
    def facts(self) -> Facts:
        return to_facts(self.observations)


Seen = Callable[[str, Any], Observation]  # a parser's "this fact, on the line at hand"


def observe(kind: str, lines: list[str], number: int, fact: str, value: Any, command: int | None = None) -> Observation:
    """An observation of *fact* on 1-based line *number* of *lines*, printed by the *command* line if given."""
    check_fact(fact)
    text = lines[number - 1] if 0 < number <= len(lines) else ""
    if command is not None and not 0 < command <= len(lines):
        command = None
    return Observation(fact, value, number, text, kind, command, lines[command - 1] if command else "")


_FIELDS = {
    "host": {f.name for f in dataclasses.fields(HostFacts)},
    "interpreter": {f.name for f in dataclasses.fields(InterpreterFacts)},
    "torch": {f.name for f in dataclasses.fields(TorchFacts)},
}
# What a paste shows that the probes do not measure: the one list of ``paste.*`` names, so that a
# reader and a rule cannot drift apart on a name (a misspelt fact fails at once instead of reading as
# never seen).
PASTE_FACTS = frozenset(
    {
        "abort", "archspec", "brew_prefix", "checkpoint_elsewhere", "conda_command", "conda_python", "conda_subdir_env",
        "container",
        "ci_said", "crash_line", "crash_said", "crash_said_apart", "crash_said_mac", "hang_said",
        "cuda_asked", "degenerate_text", "garbage_values",
        "device_used", "doctor_failed", "env_after_import", "error_line", "exception", "fails_on_mac", "frame",
        "framework_mps_available", "gpu_off_works", "guest_said", "install_failed", "intel_prose", "lightning",
        "mac_named", "macos_regression",
        "memory_growth", "mixed_precision", "mps_available_said", "mps_fails_cpu_works", "mps_fails_said", "mps_tensor",
        "nan_values",
        "no_mps_build",
        "not_a_mac", "older_torch_works", "onnx_engine", "only_on_mps", "oom_said", "pc_gpu",
        "picture_wrong",
        "pip_requirement", "pip_versions", "requires_python", "shell_machine", "shell_processor", "slow_said",
        "slow_vs_op",
        "shell_translated", "site_python", "torch_local_pin", "torch_pinned", "uv_command", "warning_line", "wheel_tag",
        "values_differ", "wrong_apart", "wrong_on_gpu", "wrong_results",
        "works_elsewhere", "x86_cpu_features", "x86_library", "yolo_command",
    }
)  # fmt: skip
# Names with a key after them: a package, a variable, a doctor check's id.
_FAMILIES = (
    "interpreter.packages.",
    "interpreter.env.",
    "paste.doctor_command.",
    "paste.doctor_fix.",
    "paste.doctor_summary.",
)


def check_fact(fact: str) -> str:
    """*fact* itself if it is a name this model knows: a field of the facts, a ``paste.*`` name, or an error."""
    section, _, name = fact.partition(".")
    if fact == "error" or name in _FIELDS.get(section, ()) or (section == "paste" and name in PASTE_FACTS):
        return fact
    if fact.startswith(_FAMILIES) and fact.count(".") >= 2 and not fact.endswith("."):
        return fact
    raise ValueError(f"unknown fact name {fact!r} (probes/paste/model.py lists the names)")


def to_facts(observations: list[Observation]) -> Facts:
    """Facts with exactly what was observed; the interpreter and torch stay None unless shown.

    The first observation of a fact wins, except that what a program printed outranks the user's own
    words (prose): "on my Mac" above a collect_env run inside Docker does not make that Python a Mac's."""
    values: dict[str, dict[str, Any]] = {"host": {}, "interpreter": {}, "torch": {}}
    packages: dict[str, str | None] = {}
    env: dict[str, str] = {}
    for obs in sorted(observations, key=lambda o: o.kind == "prose"):  # stable: line order kept within each
        section, _, name = obs.fact.partition(".")
        if obs.fact.startswith("interpreter.packages."):
            packages.setdefault(obs.fact.split(".", 2)[2], str(obs.value))
        elif obs.fact.startswith("interpreter.env."):
            env.setdefault(obs.fact.split(".", 2)[2], str(obs.value))
        elif section in _FIELDS and name in _FIELDS[section]:
            values[section].setdefault(name, obs.value)
    facts = Facts(host=HostFacts(**values["host"]))
    if values["interpreter"] or packages or env:
        facts.target.interpreter = InterpreterFacts(**values["interpreter"], packages=packages or None, env=env or None)
    if values["torch"]:
        facts.target.torch = TorchFacts(installed=True, **values["torch"])
    facts.errors = _distinct_errors(observations)
    facts.target.run.message = "read from a paste, not probed"
    return facts


def _distinct_errors(observations: list[Observation]) -> list[SeenError]:
    """The error and warning lines, each distinct text once (at its first line): a log that repeats one
    warning a thousand times shows one warning, and judging or reporting it a thousand times says no more."""
    seen: set[str] = set()
    out = []
    for obs in observations:
        if obs.fact == "error" and obs.text not in seen:
            seen.add(obs.text)
            out.append(_seen_error(obs))
    return out


def _seen_error(obs: Observation) -> SeenError:
    record = obs.value if isinstance(obs.value, dict) else {}
    values = {str(k): str(v) for k, v in (record.get("values") or {}).items()}
    return SeenError(obs.text, obs.line, str(record.get("severity", "error")), values)


def each_line(kind: str, lines: list[str], rule: Callable[[Seen, str], list[Observation]]) -> list[Observation]:
    """Everything *rule* observes on each line of a paste; its *seen* records a fact on the line at hand.

    A rule sees its line only, so a line repeated (a log's warnings, progress bars, a paste given twice) is read
    once and its observations are moved to each later copy: a long log costs what its distinct lines cost."""
    out: list[Observation] = []
    read: dict[str, list[Observation]] = {}
    for number, line in enumerate(lines, start=1):
        if (first := read.get(line)) is None:
            out += read.setdefault(line, rule(functools.partial(observe, kind, lines, number), line))
        else:
            out += [dataclasses.replace(obs, line=number) for obs in first]
    return out
