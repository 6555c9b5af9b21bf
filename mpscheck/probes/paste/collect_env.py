"""`python -m torch.utils.collect_env` (and the environment block of mpscheck's own markdown report).

torch/utils/collect_env.py prints ``key: value`` lines; on a Mac ``OS: macOS 14.5 (arm64)`` carries
sw_vers's version and platform.machine() of the Python that ran it, ``Python platform`` is
platform.platform() (its version is platform.mac_ver(), 10.16 for an old-SDK Python), and the chip is
on the line after ``CPU:``.
"""

from __future__ import annotations

import functools
import re

from mpscheck.probes.paste.model import Observation, Seen, observe

KIND = "collect_env"
UNKNOWN = ("Could not collect", "N/A", "None", "")

_BOOLS = {
    "Is debug build": "torch.debug_build",
    "Is CUDA available": "torch.cuda_available",
    "Is MPS built": "torch.mps_built",
    "Is MPS available": "torch.mps_available",
}
PLATFORM = re.compile(r"macOS-(?P<mac_ver>\d+(?:\.\d+)*)-(?P<machine>arm64|x86_64)-(?P<processor>arm|i386)(?:-64bit)?")
LINE = re.compile(r"^\s*(?:- )?`?(?P<key>[^\W\d_](?:[\w ./()?-]*[\w./()?-])?)`?\s*:\s*(?P<value>(?:\S(?:.*\S)?)?)\s*$")
PIP = re.compile(r"^\s*\[(?:pip3?|conda)\]\s+(?P<name>[A-Za-z0-9_.-]+)(?:==|\s+)(?P<version>\d[\w.+-]*)")
CONDA_LIST = re.compile(
    r"^\s*(?P<name>pytorch|torch)\s+(?P<version>\d+\.\d+[\w.+]*)\s+(?P<build>\S+)(?:\s+(?P<channel>\S+))?\s*$"
)
OS_MAC = re.compile(
    r"^(?:macOS|Mac OSX|Mac OS X) (?:(?:Big Sur|Monterey|Ventura|Sonoma|Sequoia|Tahoe) )?"
    r"(?P<version>\d+(?:\.\d+)*)(?: \((?P<machine>\w+)\))?"
)


def parse(lines: list[str]) -> list[Observation]:
    # Not each_line: a "CPU:" row may leave its value to the next line, so the rule needs its neighbours.
    return [found for number, line in enumerate(lines, start=1) for found in _line(lines, number, line)]


def _line(lines: list[str], number: int, line: str) -> list[Observation]:
    seen: Seen = functools.partial(observe, KIND, lines, number)
    if match := PIP.match(line):
        name, version = match["name"].lower(), match["version"]
        found = [seen(f"interpreter.packages.{name}", version)]
        if name in ("torch", "pytorch"):
            found.append(seen("torch.version", version))
        return found
    if match := CONDA_LIST.match(line):  # `conda list` row
        return [seen("torch.version", match["version"]), seen("interpreter.packages.torch", match["version"])]
    match = LINE.match(line)
    if not match:
        return []
    key, value = match["key"].strip(), match["value"].strip().strip("`")
    if key in _BOOLS and value in ("True", "False"):
        return [seen(_BOOLS[key], value == "True")]
    if key in ("PyTorch version", "PyTorch version (GPU?)", "PyTorch") and value not in UNKNOWN:
        version = value.split()[0]
        return [seen("torch.version", version)] if re.match(r"\A(?:\d)", version) else []
    if key == "CUDA used to build PyTorch" and value not in UNKNOWN and value != "Could not collect":
        return [seen("torch.cuda_built", value)]
    if key == "OS":
        return _os(seen, value)
    if key == "Python version" and (version := re.match(r"\A(?:Python )?(\d+\.\d+(?:\.\d+)?)", value)):
        conda = [seen("paste.conda_python", True)] if re.search(r"packaged by (?:Anaconda|conda-forge)", value) else []
        return [seen("interpreter.version", version.group(1)), *conda]
    if key in ("Python platform", "Platform") and value not in UNKNOWN:
        return _platform(seen, value)
    if key in MPSCHECK_FIELDS:
        return _mpscheck_field(seen, key, value)
    if key in LIGHTNING_FIELDS:
        return _lightning_field(seen, key, value)
    if key in ("Hardware", "Chip") and re.match(r"\A(?:Apple M\d|Intel)", value):
        return [seen("host.cpu_brand", value)]
    if key == "Architecture" and value in ("arm64", "x86_64"):
        return [seen("paste.shell_machine", value)]
    if key == "CPU":
        brand = value or _next_nonblank(lines, number)
        return [observe(KIND, lines, _line_of(lines, number, brand), "host.cpu_brand", brand)] if brand else []
    if key == "Clang version" and value not in UNKNOWN:
        return [seen("host.clang_version", value)]
    return _by_value(seen, value)


# Values whose shape says what they are, whatever the label's language (a translated collect_env).
# ... and a hand-written one's "macOS 15.3.2(Apple Silicon) M1 pro" (facebookresearch/pytorch3d#1983)
VALUE_OS = re.compile(
    r"\A(?:macOS|Mac OS X) \d+(?:\.\d+)*(?: ?\((?:arm64|x86_64|Apple [Ss]ilicon)\))?"
    r"(?: M[1-9](?: (?i:pro|max|ultra))?)?\Z"
)
VALUE_PLATFORM = re.compile(r"\AmacOS-\d+(?:\.\d+)*-(?:arm64|x86_64)-(?:arm|i386)(?:-64bit)?(?:-Mach-O)?\Z")
VALUE_CHIP = re.compile(r"\AApple M[1-9](?: (?:Pro|Max|Ultra))?\Z")
# "3.11.9 (main, ...) [Clang ...] (64-bit runtime)", "3.8.13 | packaged by conda-forge | (default, ...", cut or not
VALUE_PYTHON = re.compile(r"\A(?P<version>\d+\.\d+\.\d+) [(|][^\n]{0,200}?(?:\(64-bit|\[(?:Clang|GCC|MSC))")


def _by_value(seen: Seen, value: str) -> list[Observation]:
    """A row whose label is not collect_env's English one: read by the shape of its value alone."""
    if VALUE_OS.match(value):
        return _os(seen, value)
    if VALUE_PLATFORM.match(value):
        return _platform(seen, value)
    if VALUE_CHIP.match(value):
        return [seen("host.cpu_brand", value)]
    if match := VALUE_PYTHON.match(value):
        return [seen("interpreter.version", match["version"])]
    return []


# The environment block of `mpscheck doctor --format markdown` adds these rows to collect_env's.
MPSCHECK_FIELDS = (
    "Virtual machine",
    "Model",
    "MPS device",
    "Rosetta (sysctl.proc_translated)",
    "platform.machine() / processor()",
    "Interpreter",
    "conda env / subdir",
    "platform.mac_ver()",
    "GPU cores",
)


def _mpscheck_field(seen: Seen, key: str, value: str) -> list[Observation]:
    if value in UNKNOWN:
        return []
    if key == "Virtual machine" and value in ("True", "False"):
        return [seen("host.hypervisor", value == "True")]
    if key == "Model" and re.fullmatch(r"\A(?:[A-Za-z]+\d+,\d+)", value):
        return [seen("host.model", value)]
    if key == "MPS device":
        return [seen("torch.mps_device_name", value)]
    if key == "Rosetta (sysctl.proc_translated)" and value in ("0", "1"):
        return [seen("interpreter.proc_translated", int(value))]
    # an empty processor() (some Linux and conda Pythons) leaves "arm64 /" once the row is stripped
    if key == "platform.machine() / processor()" and (match := re.fullmatch(r"\A(\w+) /(?: (\w+))?", value)):
        found = [seen("interpreter.machine", match.group(1))]
        return found + ([seen("interpreter.processor", match.group(2))] if match.group(2) else [])
    if key == "Interpreter" and value.startswith(("/", "~")):
        return [seen("interpreter.executable", value)]
    if key == "conda env / subdir" and (match := re.fullmatch(r"\A(\S+?) / ((?:osx|linux|win)-\w+)", value)):
        return [seen("interpreter.conda_prefix", match.group(1)), seen("interpreter.conda_subdir", match.group(2))]
    if key == "platform.mac_ver()" and re.fullmatch(r"\A(?:\d+(?:\.\d+)*)", value):
        return [seen("interpreter.mac_ver", value)]
    if key == "GPU cores" and value.isdigit():
        return [seen("host.gpu_cores", int(value))]
    return []


# Lightning's collect_env_details.py prints lower-case rows under "* System:" and "* Lightning:":
# "- processor: i386" is platform.processor() of the Python that ran it (i386 under Rosetta).
LIGHTNING_FIELDS = ("processor", "python", "torch")


def _lightning_field(seen: Seen, key: str, value: str) -> list[Observation]:
    if key == "processor" and value in ("i386", "arm", "arm64"):
        return [seen("interpreter.processor", value)]
    if key == "python" and re.fullmatch(r"\A\d+\.\d+(?:\.\d+)?", value):
        return [seen("interpreter.version", value)]
    if key == "torch" and re.fullmatch(r"\A\d+\.\d+[\w.+]*", value):
        return [seen("torch.version", value)]
    return []


def _os(seen: Seen, value: str) -> list[Observation]:
    if value == "Darwin":  # platform.system(), as Lightning's report prints it
        return [seen("host.system", "Darwin")]
    if match := OS_MAC.match(value):
        found = [seen("host.system", "Darwin"), seen("host.macos_version", match["version"])]
        if match["machine"]:
            found.append(seen("interpreter.machine", match["machine"]))
        return found
    for word, system in (("Windows", "Windows"), ("Ubuntu", "Linux"), ("Linux", "Linux")):
        if word in value:
            return [seen("host.system", system)]
    return []


def _platform(seen: Seen, value: str) -> list[Observation]:
    found = [seen("interpreter.platform", value)]
    if match := PLATFORM.search(value):
        found += [
            seen("host.system", "Darwin"),
            seen("interpreter.mac_ver", match["mac_ver"]),
            seen("interpreter.machine", match["machine"]),
            seen("interpreter.processor", match["processor"]),
        ]
    elif value.startswith("Linux"):
        found.append(seen("host.system", "Linux"))
    elif value.startswith("Windows"):
        found.append(seen("host.system", "Windows"))
    return found


def _next_nonblank(lines: list[str], number: int) -> str:
    for line in lines[number : number + 2]:
        if line.strip():
            text = line.strip()
            return text if re.match(r"\A(?:(Apple M\d|Intel\(R\)|Apple silicon))", text) else ""
    return ""


def _line_of(lines: list[str], number: int, text: str) -> int:
    for offset, line in enumerate(lines[number - 1 : number + 2]):
        if text in line:
            return number + offset
    return number
