"""What frameworks print when they start: the device they chose and the versions they run.

Lightning: ``GPU available: True (mps), used: False``. Stable-Baselines3: ``GPU Enabled: False``.
Ultralytics: ``Ultralytics YOLOv8.0.196 🚀
Python-3.11.5 torch-2.1.0 CPU (Apple M1 Pro)``. ComfyUI: ``Total VRAM 16384 MB, total RAM 16384 MB``,
``pytorch version: 2.1.0``, ``Device: mps``. ``transformers-cli env`` / ``accelerate env`` /
``diffusers-cli env``: ``- Platform: macOS-13.4.1-arm64-arm-64bit``, ``- PyTorch version (GPU?): 2.0.1``
(the dashed lines are read by the collect_env parser's ``key: value`` rule); ``accelerate env``'s ``- use_cpu: True``.
"""

from __future__ import annotations

import re

from mpscheck.knowledge.needles import gated
from mpscheck.probes.paste.model import Observation, Seen, each_line

KIND = "banner"
LIGHTNING = gated(r"GPU available: (?P<available>True|False)(?: \((?P<kind>\w+)\))?, used: (?P<used>True|False)")
LIGHTNING_UNUSED = gated(r"MPS available but not used\. Set `accelerator`")
ULTRALYTICS = gated(
    r"Ultralytics\s+(?:YOLO[A-Za-z]*\s*)?(?P<version>\d[\w.]*)(?![\w.]).{0,200}?Python-(?P<python>\d+\.\d+(?:\.\d+)?)\s+"
    r"torch-(?P<torch>\d[\w.+]*)\s+(?P<device>CPU|MPS|CUDA:\d+)(?:\s+\((?P<chip>[^)]*)\))?"
)
# Ultralytics' banner cut after torch's version, no device named: select_device prints it so just before it raises
# "Invalid CUDA 'device=0' requested" (ultralytics#19770, whose copy ends inside select_device): CUDA was asked for.
ULTRALYTICS_NO_DEVICE = gated(
    r"Ultralytics\s+(?:YOLO[A-Za-z]*\s*)?(?P<version>\d[\w.]*)(?![\w.]).{0,200}?Python-(?P<python>\d+\.\d+(?:\.\d+)?)\s+"
    r"torch-(?P<torch>\d[\w.+]*)[ \t]*$"
)
YOLOV5 = gated(
    r"YOLOv5 \S+ (?P<version>v?\d[\w.-]*)\s+(?:Python-(?P<python>\d+\.\d+(?:\.\d+)?)\s+)?"
    r"torch[- ](?P<torch>\d[\w.+]*)\s+"
    r"(?P<device>CPU|MPS|CUDA:\d+)"
)
COMFY_RAM = gated(r"Total VRAM (?P<vram>\d+) MB, total RAM (?P<ram>\d+) MB")
COMFY_TORCH = gated(r"(?i)^\s*(?:py)?torch version:\s*(?P<version>\d[\w.+]*)\s*$")
COMFY_DEVICE = gated(r"^\s*Device:\s*(?P<device>mps|cpu|cuda(?::\d+)?)\b")
GENERIC_DEVICE = gated(
    r"(?i)^\s*(?:using|running on|selected) device:?\s*'?(?P<device>mps|cpu|cuda)(?::\d+)?'?\s*$"
    r"|^\s*Device \"(?P<device2>mps|cpu|cuda)\" is detected"  # Whisper-WebUI
    r"|^\s*Device set to use (?P<device3>mps|cpu|cuda)(?::\d+)?\s*$"  # transformers' pipeline()
    r"|^\s*Using (?P<device4>mps|cpu|cuda)(?::\d+)? device\s*$"  # Stable-Baselines3's "Using cpu device"
)
# A framework's log line that it took the CPU, after a log level or an arrow (cellpose: "[INFO] >>>> using CPU"):
# the run is on the CPU, whatever the Mac has.
LOG_CPU = gated(
    r"(?i)(?:(?<!>)>{2,8}|\binfo\b\]?:?)[ \t]{0,8}(?:-[ \t]{0,4})?using (?:the )?cpu(?: device)?"
    r"[ \t]{0,8}\.?[ \t]{0,8}$"
)
# Stable-Baselines3's system info (its bug template asks for it): "GPU Enabled" is torch.cuda.is_available(), and
# with it False SB3's device="auto" is the CPU (it never picks mps itself).
SB3_GPU = gated(r"^\s*GPU Enabled:\s*False\s*$")
# A framework's log that it found no CUDA and took the CPU ("modelscope - INFO - cuda is not available, using cpu
# instead.", ChatTTS's "No GPU found, use CPU instead"): it picks CUDA or the CPU, never mps, so the run is on the CPU.
NO_CUDA_CPU = gated(
    r"(?i)\b(?:(?:cuda|gpu) (?:is )?not available|no (?:cuda|gpu) (?:device )?(?:found|detected|available))\b"
    r"[,.;:]? ?(?:-+ ?)?(?:using|falling back to|switching to|defaulting to|"
    r"will use|use) (?:the )?cpu\b"
)
# ``accelerate env``'s default config ("- use_cpu: True", its bug template asks for it): Accelerator() then
# takes the CPU whatever the Mac has, so the run is on the CPU.
ACCELERATE_CPU = gated(r"^\s*-\s*use_cpu:\s*True\s*$")
YOLO = gated(r"^\s*(?:[$%>]\s*|!)?(?P<command>yolo\s+\S(?:.*\S)?)\s*$")
PACKAGE = gated(
    r"^\s*-\s*`?(?P<name>transformers|accelerate|diffusers|lightning|pytorch-lightning)`? version:\s*(?P<v>\d[\w.]*)"
)


def parse(lines: list[str]) -> list[Observation]:
    return each_line(KIND, lines, _line)


def _line(seen: Seen, line: str) -> list[Observation]:
    if match := LIGHTNING.search(line):
        found = [seen("paste.device_used", _lightning_device(match)), seen("paste.lightning", True)]
        if match["kind"] == "mps" or (match["available"] == "False"):
            found.append(seen("paste.framework_mps_available", match["available"] == "True"))
        return found
    if LIGHTNING_UNUSED.search(line):
        return [
            seen("paste.device_used", "cpu"),
            seen("paste.framework_mps_available", True),
            seen("paste.lightning", True),
        ]
    if match := ULTRALYTICS.search(line):
        found = [
            seen("interpreter.packages.ultralytics", match["version"]),
            seen("interpreter.version", match["python"]),
            seen("torch.version", match["torch"]),
            seen("paste.device_used", match["device"].split(":")[0].lower()),
        ]
        if match["chip"] and match["chip"].startswith(("Apple", "Intel")):
            found.append(seen("host.cpu_brand", match["chip"]))
        return found
    if match := ULTRALYTICS_NO_DEVICE.search(line):
        return [
            seen("interpreter.packages.ultralytics", match["version"]),
            seen("interpreter.version", match["python"]),
            seen("torch.version", match["torch"]),
            seen("paste.cuda_asked", True),
        ]
    if match := YOLOV5.search(line):
        found = [
            seen("torch.version", match["torch"]),
            seen("paste.device_used", match["device"].split(":")[0].lower()),
        ]
        return found + ([seen("interpreter.version", match["python"])] if match["python"] else [])
    if match := COMFY_RAM.search(line):
        return [seen("host.memory_bytes", int(match["ram"]) * 1024**2)]
    if match := COMFY_TORCH.match(line):
        return [seen("torch.version", match["version"])]
    if match := COMFY_DEVICE.match(line) or GENERIC_DEVICE.match(line):
        named = match.groupdict()
        device = named.get("device") or named.get("device2") or named.get("device3") or named.get("device4") or ""
        return [seen("paste.device_used", device.split(":")[0].lower())]
    if SB3_GPU.match(line) or NO_CUDA_CPU.search(line) or ACCELERATE_CPU.match(line) or LOG_CPU.search(line):
        return [seen("paste.device_used", "cpu")]
    if match := YOLO.match(line):
        return [seen("paste.yolo_command", match["command"])]
    if match := PACKAGE.match(line):
        return [seen(f"interpreter.packages.{match['name']}", match["v"])]
    return []


def _lightning_device(match: re.Match[str]) -> str:
    if match["used"] == "True":
        return match["kind"] or "gpu"
    return "cpu"
