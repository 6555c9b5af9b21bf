"""Causes read from the facts a paste shows, most basic first: not macOS, Rosetta, an Intel Mac, an
x86_64 Python of unknown hardware, a VM, an old macOS, an old torch, a torch without MPS, no Metal device.
"""

from __future__ import annotations

import re
from dataclasses import replace

from mpscheck.checks.causes.base import Reader
from mpscheck.checks.causes.model import Cause, Evidence, evidence_of
from mpscheck.checks.installing import conda_arm64_create
from mpscheck.checks.machine import intel_mac, virtual_machine, x86_python
from mpscheck.knowledge.versions import FIRST_MPS_TORCH, at_least, parse_version
from mpscheck.model import Remediation
from mpscheck.probes.paste.model import Observation

CHIP_NOT_SHOWN = "chip-not-shown"  # an x86_64 Python, and nothing says Apple silicon or Intel
TELL_CHIP = "sysctl -n machdep.cpu.brand_string"
SETUP_ORDER = (
    "not-macos",
    "rosetta-python",
    "intel-mac",
    "x86_64-python",
    "virtual-machine",
    "macos-too-old",
    "torch-too-old",
    "torch-not-built-with-mps",
    "no-metal-device",
    "no-matching-distribution",
)


class SetupRules(Reader):
    def arm64_hardware(self) -> tuple[Evidence, ...]:
        host, info = self.facts.host, self.facts.target.interpreter
        ev: list[Observation] = []
        if info and info.proc_translated == 1:  # only Apple silicon translates
            ev += self.paste.all("interpreter.proc_translated")
        if host.arm64_hardware:
            ev += self.paste.all("host.arm64_hardware")
        if host.cpu_brand and host.cpu_brand.startswith("Apple M"):
            ev += self.paste.all("host.cpu_brand")
        if self.value("paste.shell_machine") == "arm64":
            ev += self.paste.all("paste.shell_machine")
        if self.value("paste.archspec") in ("arm64", "m1", "m2", "m3", "m4"):
            ev += self.paste.all("paste.archspec")
        return evidence_of(ev)

    def x86_python(self) -> tuple[Evidence, ...]:
        info = self.facts.target.interpreter
        ev: list[Observation] = []
        if info and info.proc_translated == 1:  # the python itself is translated: Rosetta, certainly
            ev += self.paste.all("interpreter.proc_translated")
        if info and info.machine == "x86_64":
            ev += self.paste.all("interpreter.machine")
        if info and info.processor == "i386":
            ev += self.paste.all("interpreter.processor")
        if info and info.conda_subdir == "osx-64":
            ev += self.paste.all("interpreter.conda_subdir")
        if info and info.binary_archs and not any(a.startswith("arm64") for a in info.binary_archs):
            ev += self.paste.all("interpreter.binary_archs")  # an x86_64-only python runs only translated
        if self.value("paste.shell_translated") == 1 or self.value("paste.x86_cpu_features"):
            ev += self.paste.all("paste.shell_translated") + self.paste.all("paste.x86_cpu_features")
        if self.value("paste.shell_machine") == "x86_64":  # a Rosetta shell on an Apple chip, or an Intel Mac
            ev += self.paste.all("paste.shell_machine")
        if self.value("paste.archspec") == "x86_64":  # conda's own CPU family: an x86_64 conda, or an Intel Mac
            ev += self.paste.all("paste.archspec")
        if self.value("paste.x86_library") and self.on_a_mac():  # Intel MKL runs only as x86_64 code
            ev += self.paste.all("paste.x86_library")
        return evidence_of(ev)

    def on_a_mac(self) -> bool:
        """The paste shows macOS or a Mac, so x86_64 code in it is a Mac's (on Linux it is only a PC)."""
        host = self.facts.host
        return host.system == "Darwin" or bool(self.arm64_hardware()) or bool(self.value("paste.mac_named"))

    def guest_told(self) -> str | None:
        """The system of a guest (Docker, a VM) the user says the Python runs in, where macOS is known from words
        only: the Mac they name is the guest's host, and the guest's Linux is where torch runs (pytorch#81224)."""
        guest = self.paste.get("paste.guest_said")
        said = self.paste.all("host.system")
        if guest is None or self.facts.host.system != "Darwin" or any(o.kind != "prose" for o in said):
            return None
        return str(guest.value)

    def setup_causes(self) -> list[Cause]:
        found: dict[str, Cause] = {}
        host, torch = self.facts.host, self.facts.target.torch
        if host.system in ("Linux", "Windows"):
            found["not-macos"] = self.general("not-macos", self.ev("host.system"), system=host.system)
        elif not host.system and self.value("paste.pc_gpu"):  # an NVIDIA RTX/GeForce: a PC, not a Mac
            found["not-macos"] = self.general("not-macos", self.ev("paste.pc_gpu"), system="a PC with an NVIDIA GPU")
        elif (guest := self.guest_told()) is not None:  # "my docker images are running ..." after "on M1 chips"
            found["not-macos"] = self.general(
                "not-macos", self.ev("paste.guest_said"), system=f"{guest} in a container or VM on the Mac"
            )
        elif not host.system and self.value("paste.not_a_mac"):  # "I'm not on a Mac": the user says so
            found["not-macos"] = self.general(
                "not-macos", self.ev("paste.not_a_mac"), system="a machine that is not a Mac"
            )
        x86, arm = self.x86_python(), self.arm64_hardware()
        intel = intel_mac(host)
        if x86 and arm and not intel:
            found["rosetta-python"] = self.rosetta(x86 + arm)
        elif intel and "not-macos" not in found:
            found["intel-mac"] = self.intel_mac()
        elif x86 and "not-macos" not in found and virtual_machine(self.facts):
            found["x86_64-python"] = self.general("x86_64-python", x86)  # a macOS VM: Intel runners as often as not
        elif x86 and "not-macos" not in found:
            found["rosetta-python"], found["intel-mac"] = self.chip_not_shown(x86)
        if virtual_machine(self.facts):  # the paravirtual Metal device alone says it too: its line is evidence
            shown = ("host.hypervisor", "host.model", "host.cpu_brand", "torch.mps_device_name")
            found["virtual-machine"] = self.virtual_machine(self.ev(*shown))
        if (old := self.macos_too_old(None)) is not None:
            found["macos-too-old"] = old
        version = parse_version(torch.version) if torch and torch.version else None
        version_fact = "torch.version"
        if version is None and (pinned := self.value("paste.torch_pinned")):  # a library's pin, no torch shown
            version, version_fact = parse_version(str(pinned)), "paste.torch_pinned"
        if version and not at_least(version, FIRST_MPS_TORCH):
            found["torch-too-old"] = self.torch_too_old(self.ev(version_fact))
        if torch and torch.mps_built is False and "not-macos" not in found:
            found["torch-not-built-with-mps"] = self.from_row("not-built", self.ev("torch.mps_built"))
        elif not (torch and torch.mps_built) and self.value("paste.no_mps_build") and "not-macos" not in found:
            found["torch-not-built-with-mps"] = self.from_row("not-built", self.ev("paste.no_mps_build"))
        if torch and torch.mps_available is False and not found and (other := self.another_torch_works()):
            cause = self.from_row("not-built", other)
            found["torch-not-built-with-mps"] = replace(
                cause,
                summary="the same Mac reports MPS available with another torch installed later in the paste, so the "
                "first torch is the problem: " + cause.summary,
            )
        if torch and torch.mps_built is not False and torch.mps_available is False and not found:
            evidence = self.ev("torch.mps_available", "torch.mps_built", "host.macos_version")
            found["no-metal-device"] = (
                self.hidden_gpu(evidence) if host.macos_version else self.from_row("no-metal-device", evidence)
            )
        if not found and (missing := self.no_wheel_for_python() or self.local_pin_on_mac()) is not None:
            found["no-matching-distribution"] = missing
        return [found[i] for i in SETUP_ORDER if i in found]

    def local_pin_on_mac(self) -> Cause | None:
        """torch pinned to a local version (+cpu, +cu121) on a Mac: PyTorch publishes those builds for Linux and
        Windows only (its macOS wheels carry no local version), so the pin has nothing to install here."""
        pin, host = self.paste.get("paste.torch_local_pin"), self.facts.host
        if pin is None or not (host.system == "Darwin" or host.arm64_hardware):
            return None
        version, local = str(pin.value).split("+", 1)
        summary = (
            f"torch is pinned to {pin.value}, a {local} build that PyTorch publishes for Linux and Windows only: no "
            "macOS wheel of it exists, so it cannot install on this Mac"
        )
        remedy = Remediation(
            f"Pin plain torch {version} for macOS (no +{local}, from PyPI: in a pyproject, a darwin marker without "
            "that index); its macOS arm64 wheel has MPS.",
            (f"{self.python} -m pip install 'torch=={version}'",),
        )
        cause = self.from_row("no-matching-distribution", self.ev("paste.torch_local_pin", "host.cpu_brand"))
        return replace(cause, summary=summary, fix=remedy)

    def no_wheel_for_python(self) -> Cause | None:
        """The user says torch (version X) will not install, no torch is installed, and the Python is known:
        the generated wheel table says whether X (or any release) has a wheel for that Python."""
        from mpscheck.knowledge import releases

        said, info, torch = (
            self.paste.get("paste.install_failed"),
            self.facts.target.interpreter,
            self.facts.target.torch,
        )
        tag = releases.cpython_tag(info.version) if info and info.version else None
        if said is None or info is None or tag is None or (torch and torch.version):
            return None
        arch = info.machine if info.machine in ("arm64", "x86_64") else "arm64"
        with_wheel = [
            f.version for f in map(releases.release_facts, releases.known_releases(arch)) if f and tag in f.install
        ]
        wanted, facts = str(said.value), releases.release_facts(str(said.value), arch) if said.value else None
        if facts is not None and tag not in facts.install:
            why = f"torch {wanted} has no macOS {arch} wheel for Python {info.version}"
            pythons = sorted(facts.install, key=lambda t: int(t[3:]) if t[3:].isdigit() else 0)
        elif not wanted and releases.known_releases(arch) and not with_wheel:
            why, pythons = f"no torch release has a macOS {arch} wheel for Python {info.version}", []
        else:
            return None
        newest = f"{pythons[-1][2]}.{pythons[-1][3:]}" if pythons else "3.12"
        commands = (f"{self.python} -m pip install 'torch>={with_wheel[0]}'",) if with_wheel else ()
        remedy = Remediation(
            "Install a torch release that has a wheel for this Python"
            + (f" (torch {with_wheel[0]} or later)" if with_wheel else "")
            + f", or make the venv with a Python {'torch ' + wanted if wanted else 'torch'} has wheels for "
            f"(up to {newest}), native arm64.",
            (*commands, f"/opt/homebrew/bin/brew install python@{newest}"),
        )
        cause = self.from_row("no-matching-distribution", self.ev("paste.install_failed", "interpreter.version"))
        first = f" (the first release with one is torch {with_wheel[0]})" if with_wheel else ""
        return replace(cause, summary=f"{why}{first}: pip finds no torch to install for this Python", fix=remedy)

    def another_torch_works(self) -> tuple[Evidence, ...]:
        """is_available() False, then a torch installed, then True: the machine is fine, the first torch is not."""
        answers = self.paste.all("torch.mps_available")
        first_false = next((o for o in answers if o.value is False), None)
        later_true = next((o for o in answers if o.value is True and first_false and o.line > first_false.line), None)
        if first_false is None or later_true is None:
            return ()
        between = self.paste.text.split("\n")[first_false.line : later_true.line - 1]
        install = next(
            (
                first_false.line + 1 + i
                for i, line in enumerate(between)
                if re.search(r"pip3? install\b.{0,500}?torch", line)
            ),
            None,
        )
        if install is None:
            return ()
        lines = self.paste.text.split("\n")
        return (*evidence_of([first_false]), Evidence(install, lines[install - 1]), *evidence_of([later_true]))

    def rosetta(self, evidence: tuple[Evidence, ...]) -> Cause:
        from mpscheck.checks.interpreter import rosetta_cause
        from mpscheck.checks.registry import Context

        info, ctx = self.facts.target.interpreter, Context(self.facts)
        x86 = info is not None and x86_python(info)
        if info is not None and (
            info.conda_prefix or info.conda_subdir == "osx-64" or self.value("paste.conda_python")
        ):
            known = replace(info, conda_prefix=info.conda_prefix or "torch", conda_subdir=info.conda_subdir or "osx-64")
            why, remedy = rosetta_cause(ctx, known)
            why = why if info.conda_prefix else "a conda Python with Intel (osx-64) packages"
        elif info is not None and x86 and info.real_executable:
            why, remedy = rosetta_cause(ctx, info)
        elif info is not None and x86:
            _, remedy = rosetta_cause(ctx, info)
            why = "an x86_64 Python build"
        elif self.value("paste.x86_library") and not self.shell_is_x86():
            why, remedy = self.x86_library_in_use()
        else:
            return self.general(
                "rosetta-python",
                evidence,
                why="the terminal itself runs under Rosetta, so everything started from it is x86_64",
            )
        return replace(self.general("rosetta-python", evidence, why=why), fix=remedy)

    def chip_not_shown(self, x86: tuple[Evidence, ...]) -> tuple[Cause, Cause]:
        """An x86_64 Python on a Mac whose chip the paste does not show: Rosetta 2 on Apple silicon first, an
        Intel Mac second, each saying that the paste does not settle it, with the chip's sysctl first in the fix.

        Rosetta leads because reports about MPS come from Apple silicon far more often: Apple has sold no Intel
        Mac since 2023, current torch has no x86_64 macOS wheel (the last is 2.2.2), and 6 of the 7 threads of
        the tuning corpus whose paste showed this concluded Rosetta. Both are problems: neither is ever "ready".
        """
        rosetta, intel = self.rosetta(x86), self.general("intel-mac", x86)
        unsure = (
            f"; the paste does not show the chip: an Intel Mac prints the same, and `{TELL_CHIP}` tells them apart "
            "('Apple M…' means Rosetta)"
        )
        if rosetta.fix is not None:
            commands = (TELL_CHIP, *(c for c in rosetta.fix.commands if c != TELL_CHIP))
            summary = "First tell which Mac this is ('Apple M…' means Rosetta). " + rosetta.fix.summary
            if not any("conda" in c for c in commands):  # the Python's origin is not shown: conda's way too
                commands = (*commands, conda_arm64_create())
                summary += " With conda, create the environment with arm64 packages (the last command)."
            rosetta = replace(rosetta, fix=Remediation(summary, commands))
        rosetta = replace(rosetta, summary="most likely " + rosetta.summary + unsure, variant=CHIP_NOT_SHOWN)
        intel = replace(intel, summary="or, if the chip is Intel, " + intel.summary, variant=CHIP_NOT_SHOWN)
        return rosetta, intel

    def shell_is_x86(self) -> bool:
        """The shell the paste ran in is x86_64 (sysctl, arch, uname -m, brew config say so)."""
        translated = self.value("paste.shell_translated") == 1 or self.value("paste.x86_cpu_features")
        return bool(translated) or self.value("paste.shell_machine") == "x86_64"

    def x86_library_in_use(self) -> tuple[str, Remediation]:
        """Only an x86_64-only library (Intel MKL) says the Python is x86_64: which install made it is unknown."""
        library = self.value("paste.x86_library")
        why = (
            f"{library}, which exists only as x86_64 code, runs in this Python: an x86_64 Python (an Intel conda "
            "or Python install) running under Rosetta, where MKL also refuses to start (Rosetta has no AVX)"
        )
        remedy = Remediation(
            "Check the Python's architecture (x86_64 means an Intel build under Rosetta), then install an arm64 "
            "Python, such as an arm64 Miniforge or Homebrew in /opt/homebrew, and recreate the environment with it.",
            (
                f"{self.python} -c 'import platform; print(platform.machine())'",
                "CONDA_SUBDIR=osx-arm64 conda create -n torch-arm64 python=3.12",
            ),
        )
        return why, remedy

    def intel_mac(self) -> Cause:
        return self.general("intel-mac", self.ev("host.cpu_brand", "host.arm64_hardware", "paste.intel_prose"))
