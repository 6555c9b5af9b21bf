"""pip and uv output: "No matching distribution found for torch" with its "(from versions: ...)" list,
the wheels they download (whose platform tag is the interpreter's architecture), uv's "You're on
macOS (`macosx_14_0_x86_64`)" hint, site-packages paths that name the Python version, and torch pinned to a
local version (``+cpu``, ``+cu121``) in a pyproject or a requirements file.
"""

from __future__ import annotations

import re

from mpscheck.probes.paste.model import Observation, Seen, each_line

KIND = "pip"
# pip names who asked between the two ("torch~=2.3 (from medaka) (from versions: ...)", "(from -r req.txt (line 3))").
VERSIONS = re.compile(
    r"requirement (?P<req>torch\S*) (?:\(from [^()\n]{1,200}?(?:\([^()\n]{0,80}\)[^()\n]{0,40})?\) )?"
    r"\(from versions: (?P<versions>[^)]*)\)"
)
WHEEL = re.compile(
    r"(?:Downloading|Using cached|Collecting|Processing|Obtaining|Installing)\s(?:\S*/)?"
    r"\btorch-(?P<version>\d[\w.+]*)-(?P<py>cp\d+)-[\w]+-(?P<tag>macosx_\d+_\d+_(?P<arch>x86_64|arm64|universal2))\.whl"
)
UV_PLATFORM = re.compile(r"You're on macOS \(`?macosx_(?P<major>\d+)_(?P<minor>\d+)_(?P<arch>x86_64|arm64)`?\)")
# uv wraps its hint: joined back, the blanks (and a reply's "> ") between the words stay
UV_TAG = re.compile(r"matching[\s>]{1,40}platform tag \(e\.g\.,? `?macosx_\d+_\d+_(?P<arch>x86_64|arm64)`?\)")
PYTHON_TAG = re.compile(r"Python (?:ABI )?tag \(e\.g\.,? `?cp(?P<major>\d)(?P<minor>\d+)`?\)")
SITE = re.compile(r"/lib/python(?P<version>\d\.\d+)/site-packages")
UV_PYTHON = re.compile(r"^\s*Using (?:CPython|Python|PyPy) (?P<version>\d+\.\d+(?:\.\d+)?)\b")
UV_COMMAND = re.compile(
    r"^\s*(?:[$%>]\s*)?(?P<command>uv (?:init|venv)\b.{0,1000}?(?:-p|--python)[ =]\d+\.\d+(?:.*\S)?)\s*$"
)
UV_USED = re.compile(
    r"^\s*(?:[$%>]\s*)?uv (?:pip|add|sync|venv|run)\b"
    r"|^\s*Using (?:CPython|Python) \d+\.\d+\S* (?:environment at|interpreter at)"
    r"|^\s*× No solution found when resolving dependencies|^\s*error: Distribution `[^`]+ @ registry"
)
UV_ENVIRONMENT = re.compile(r"^\s*Using (?:CPython|Python) \d+\.\d+\S* environment at:? (?P<env>/\S+|~/\S+)")
REQUIRES_PYTHON = re.compile(r"Requires-Python (?P<spec>[<>=!~][^;:\s]*)")
# torch pinned to a local version in a pyproject or a requirements file (torch = { version = "^2.5.1+cpu", ... },
# torch==2.4.0+cu121): builds published for Linux and Windows only, never for macOS.
LOCAL_PIN = re.compile(
    r"^\s*torch\s*=\s*(?:\{[^}\n]{0,200}?\bversion\s*=\s*)?[\"'][~^=<>!]{0,2}\s*(?P<pin>\d+(?:\.\d+){0,2}\+"
    r"(?:cpu|cu\d{2,3}|rocm[\d.]{1,8}))[\"']"
    r"|^\s*torch\s*==\s*(?P<pin2>\d+(?:\.\d+){0,2}\+(?:cpu|cu\d{2,3}|rocm[\d.]{1,8}))\s*(?:;|$)"
)


def parse(lines: list[str]) -> list[Observation]:
    return each_line(KIND, lines, _line)


def _line(seen: Seen, line: str) -> list[Observation]:
    found: list[Observation] = []
    if match := VERSIONS.search(line):
        listed = [v.strip() for v in match["versions"].split(",") if v.strip() and v.strip() != "none"]
        found += [seen("paste.pip_versions", listed), seen("paste.pip_requirement", match["req"])]
    if match := WHEEL.search(line):
        found.append(seen("paste.wheel_tag", match["tag"]))
        if match["arch"] != "universal2":
            found.append(seen("interpreter.machine", match["arch"]))
        found.append(seen("interpreter.version", f"{match['py'][2]}.{match['py'][3:]}"))
    if match := UV_PLATFORM.search(line) or UV_TAG.search(line):
        found += [seen("host.system", "Darwin"), seen("interpreter.machine", match["arch"])]
    if match := PYTHON_TAG.search(line):
        found.append(seen("interpreter.version", f"{match['major']}.{match['minor']}"))
    if (match := SITE.search(line)) and ("pip" in line or "Requirement" in line or "site-packages" in line):
        found.append(seen("paste.site_python", match["version"]))
    if UV_USED.search(line):  # uv manages this environment: its venvs have no pip
        found.append(seen("interpreter.venv_tool", "uv"))
    if match := UV_ENVIRONMENT.match(line):  # a venv's interpreter is always bin/python inside it
        found.append(seen("interpreter.executable", match["env"].rstrip("/") + "/bin/python"))
    if match := UV_PYTHON.match(line):
        found.append(seen("interpreter.version", match["version"]))
    if match := UV_COMMAND.match(line):
        found.append(seen("paste.uv_command", match["command"]))
    if match := REQUIRES_PYTHON.search(line):
        found.append(seen("paste.requires_python", match["spec"]))
    if match := LOCAL_PIN.match(line):
        found.append(seen("paste.torch_local_pin", match["pin"] or match["pin2"]))
    return found
