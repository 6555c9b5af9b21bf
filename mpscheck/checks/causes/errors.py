"""An error text matched by the signature table, judged with the facts: attributed to a setup cause it
is a symptom of, or given its own cause; ops looked up in the op coverage table.
"""

from __future__ import annotations

import re
from dataclasses import replace

from mpscheck.checks.causes import no_wheel
from mpscheck.checks.causes.conda_cuda import conda_cuda_cause
from mpscheck.checks.causes.default_device import default_device_bug
from mpscheck.checks.causes.explained import PROBE_ROWS, X86, deeper_causes
from mpscheck.checks.causes.library import distribution, failing_library
from mpscheck.checks.causes.memory import MemoryRules, default_ratio_rejected
from mpscheck.checks.causes.model import Cause, Evidence
from mpscheck.checks.causes.no_wheel import OWN_REASON, old_sdk_tags, placeholder_row
from mpscheck.checks.causes.setup import CHIP_NOT_SHOWN
from mpscheck.checks.installing import NATIVE_VENV
from mpscheck.knowledge import errors as table
from mpscheck.knowledge.versions import at_least, last_intel_mac_torch, parse_version
from mpscheck.model import Remediation
from mpscheck.probes.paste.model import Observation

# Ops reached only when the input is on the CPU and the weights on MPS (pytorch/pytorch#86844).
# Ops reached on MPS also for an input too large for 32-bit indexing (issue 17): the paste cannot tell which.
LARGE_INPUT_OPS = ("aten::slow_conv3d_forward",)
# The paste quantizes with bitsandbytes, which runs on CUDA only (Lightning-AI/pytorch-lightning#19360 made
# Lightning say so): a CUDA error there comes from the library, not from a device the code names.
BITSANDBYTES_USED = re.compile(
    r"\bBitsandbytesPrecision\b|\bload_in_[48]bit\s*=\s*True\b|\bBitsAndBytesConfig\(|\bbnb\.(?:optim|nn)\.\w"
)
# Packages pip compiles on install with CMake, which must be told the architecture on a Mac
# (abetlen/llama-cpp-python#724, the maintainer's pinned answer: CMAKE_ARGS="-DCMAKE_OSX_ARCHITECTURES=arm64").
BUILT_BY_CMAKE = frozenset({"llama-cpp-python"})
# The CUDA-only library a cuda-only-library message names (its own words, or a text only it prints), and how the
# model runs without it: transformers loads without quantization, and attends with PyTorch's sdpa (attn_implementation).
CUDA_ONLY = (
    (
        "bitsandbytes",
        "bitsandbytes",
        "load without 4/8-bit quantization: no load_in_8bit/load_in_4bit or BitsAndBytesConfig",
    ),
    ("A GPU is needed for quantization", "bitsandbytes", "load without 4/8-bit quantization: no --load-4bit/8bit"),
    ("autogptq_cuda", "AutoGPTQ", "load the unquantized model, not a GPTQ one, in float16 for mps"),
    ("memory_efficient_attention", "xformers", "attend without xformers: the default attention, sdpa"),
    ("xformers", "xformers", "attend without xformers: the default attention, sdpa"),
    ("llama_inference_offload", "GPTQ-for-LLaMa", "an unquantized model, not a 4-bit GPTQ one, in float16 for mps"),
    ("FlashAttention", "flash-attn", "attend without flash-attn: attn_implementation='sdpa'"),
    ("flash_attn", "flash-attn", "attend without flash-attn: attn_implementation='sdpa'"),
)
CPU_INPUT_OPS = ("aten::_slow_conv2d_forward", "aten::_slow_conv2d_backward", "aten::slow_conv3d_forward")


class ErrorRules(MemoryRules):
    def error_cause(self, hit: table.Hit, setup: dict[str, Cause]) -> Cause:
        row, evidence = hit.row, (Evidence(hit.line, hit.text),)
        for deeper in deeper_causes(row):
            if row.id in PROBE_ROWS and deeper == "not-macos":
                continue  # the crash is the probe's: a newer torch answers it (False) on any system
            if deeper in setup and setup[deeper].variant == CHIP_NOT_SHOWN and X86 not in deeper_causes(row):
                continue  # which Mac is a guess there: it explains only what an x86_64 Python alone explains
            if deeper in setup:
                return replace(setup[deeper], evidence=evidence + setup[deeper].evidence)
        if row.cause == "no-metal-device" and (old := self.macos_too_old(hit.groups.get("floor"))) is not None:
            return Cause(old.id, old.summary, old.fix, evidence + old.evidence, old.source)
        if row.cause == "no-metal-device" and self.facts.host.macos_version:
            return self.hidden_gpu(evidence + self.ev("host.macos_version", "torch.mps_built", "torch.mps_available"))
        if row.id == "oom-zero":
            vm = self.virtual_machine(evidence, ": the first allocation failed with 0 bytes in use")
            return replace(vm, variant="vm-cap")
        if row.id == "oom":
            return self.out_of_memory(hit, evidence)
        if row.id == "oom-said" and (in_vm := self.unnumbered_in_vm(evidence)) is not None:
            return in_vm
        if row.id in ("op-not-implemented", "op-fallback") and "op" in hit.groups:
            return self.op_cause(hit, evidence)
        if row.id == "device-mismatch" and (own := default_device_bug(self.paste.text, evidence, self.python)):
            return own
        if row.cause == "lightning-processor":
            return self.lightning(hit, evidence)
        if row.id == "sparse":
            return self.sparse(hit, evidence)
        if row.id == "watermark" and (rejected := default_ratio_rejected(self, hit, evidence)) is not None:
            return rejected
        if row.id == "watermark" and hit.groups.get("which") == "low":
            return self.low_watermark(hit, evidence)
        said = next((o for o in self.paste.all("paste.cuda_asked") if o.kind == "conda"), None)
        command = self.paste.get("paste.conda_command")
        system = self.facts.host.system
        if row.id == "conda-not-found" and (cuda := conda_cuda_cause(said, command, evidence, system)) is not None:
            return cuda
        if row.cause == "no-matching-distribution" and row.id != "pip-no-match-other":  # that one is not torch's
            return self.no_distribution(hit, evidence)
        python = info.version if (info := self.facts.target.interpreter) else None
        if row.id == "pip-no-match-other" and (predates := no_wheel.pin_predates_python(hit.text, python)):
            return Cause(row.cause, *predates, evidence + self.ev("interpreter.version"), row.source)
        if row.cause == "cuda-requested-on-mac" and (quantized := BITSANDBYTES_USED.search(self.paste.text)):
            return self.cuda_for_bitsandbytes(quantized, evidence)
        if row.id == "cuda-only-library":
            return cuda_only(self.from_row(row.id, evidence), hit.text)
        groups = dict(hit.groups)
        if row.id == "wrong-arch-dylib":
            groups["package"] = _package_in(hit.text) or "the package named in the error"
        summary, remedy = self.fill(row, groups)
        if row.id == "wrong-arch-dylib" and not _package_in(hit.text):
            remedy = Remediation(remedy.summary, ())  # no command without the package's name
        elif row.id == "wrong-arch-dylib" and groups["package"] in BUILT_BY_CMAKE and remedy.commands:
            # compiled on install: CMake builds for the architecture it is told, else maybe the other one
            told = f'CMAKE_ARGS="-DCMAKE_OSX_ARCHITECTURES={hit.groups.get("need", "arm64")}" '
            remedy = Remediation(
                remedy.summary + " It is compiled when installed: tell CMake the architecture.",
                (told + remedy.commands[0],),
            )
        if row.cause == "float64-unsupported" and (made := failing_library(self.paste, hit.line)) is not None:
            return self.float64_in_library(made, summary, evidence)
        variant = {"buffer-too-large": "buffer-too-large", "op-fallback-told": "retold"}.get(row.id)
        return Cause(row.cause, summary, remedy, evidence, row.source, variant=variant)

    def float64_in_library(self, made: tuple[str, Observation], summary: str, evidence: tuple[Evidence, ...]) -> Cause:
        """A float64 tensor made inside an installed library (the deepest frame outside torch is in its
        site-packages folder): that library's code picks the dtype, so upgrading it is the fix."""
        library, frame = made
        return Cause(
            "float64-unsupported",
            f"{summary}; the deepest frame outside torch is in {library}: its code passed the float64 tensor to torch",
            Remediation(
                f"Upgrade {library} (later releases of several libraries pick float32 on mps); in your own code, "
                "use float32 before .to('mps').",
                (f"{self.python} -m pip install --upgrade {library}",),
            ),
            (*evidence, Evidence(frame.line, frame.text)),
            table.BY_ID["float64"].source + "; https://github.com/huggingface/diffusers/pull/9074",
        )

    def cuda_for_bitsandbytes(self, used: re.Match[str], evidence: tuple[Evidence, ...]) -> Cause:
        """CUDA asked for where the paste quantizes with bitsandbytes (Lightning's BitsandbytesPrecision,
        load_in_8bit=True, a BitsAndBytesConfig): the library is what needs CUDA, not a device string to change."""
        text = self.paste.text
        number = text.count("\n", 0, used.start()) + 1
        shown = (*evidence, Evidence(number, text.split("\n")[number - 1]))
        return cuda_only(self.from_row("cuda-only-library", shown), "bitsandbytes")

    def op_cause(self, hit: table.Hit, evidence: tuple[Evidence, ...]) -> Cause:
        op = hit.groups["op"]
        torch = self.facts.target.torch
        torch_version = parse_version(torch.version) if torch else None
        if hit.row.cause == "op-not-implemented" and op in LARGE_INPUT_OPS:
            return self.mismatch_or_size(op, evidence)
        if hit.row.cause == "op-not-implemented" and op in CPU_INPUT_OPS:
            row = table.BY_ID["device-mismatch"]
            return Cause(
                "device-mismatch",
                f"{op} is reached only when the input is on the CPU and the weights on MPS: " + row.summary,
                Remediation(row.fix, ()),
                evidence,
                "https://github.com/pytorch/pytorch/pull/86844; " + row.source,
            )
        env_late = self.paste.all("paste.env_after_import")
        if hit.row.cause == "op-not-implemented" and env_late:
            return self.general("fallback-env-too-late", evidence + self.ev("paste.env_after_import"), op=op)
        since = self.ops.first_mps_release(op) if self.ops else None
        known_table = bool(self.ops and self.ops.knows(op))
        upgrade = since and (torch_version is None or not at_least(torch_version, parse_version(since) or (0,)))
        if hit.row.cause == "op-fallback-warning":
            note = (
                f"{op} has an MPS kernel since torch {self.since(since)}: upgrading removes the fallback"
                if upgrade
                else self.kernel_state(
                    since, known_table, "whether a newer torch has an MPS kernel for it is not known here"
                )
            )
            summary, remedy = self.fill(hit.row, dict(hit.groups))
            commands = (f"{self.python} -m pip install --upgrade 'torch>={since}'",) if upgrade else remedy.commands
            return Cause(
                "op-fallback-warning",
                f"{summary}; {note}. The fallback copies the op's tensors to the CPU and back at every call",
                Remediation(remedy.summary, commands),
                evidence,
                hit.row.source,
            )
        fallback = "export PYTORCH_ENABLE_MPS_FALLBACK=1"
        if upgrade:
            shown = f" (this is torch {torch.version})" if torch and torch.version else ""
            summary = f"{op} has an MPS kernel since torch {self.since(since)}: upgrade{shown}"
            remedy = Remediation(
                f"Upgrade torch to {since} or later; meanwhile PYTORCH_ENABLE_MPS_FALLBACK=1 (set before Python "
                "starts) runs this op on the CPU.",
                (f"{self.python} -m pip install --upgrade 'torch>={since}'", fallback),
            )
        else:
            # a library's own op (torchvision::nms) gets its MPS kernel from a newer release of that library
            package = op.split("::")[0] if "::" in op and not op.startswith("aten::") else "torch"
            state = self.kernel_state(since, known_table, f"no MPS kernel in this {package}")
            summary = f"{op}: {state}, and the CPU fallback is off"
            remedy = Remediation(
                "Set PYTORCH_ENABLE_MPS_FALLBACK=1 before Python starts (os.environ after `import torch` is too late), "
                f"or keep this op on the CPU; a newer {package} may have the kernel. The fallback copies the op's "
                "tensors to the CPU and back at every call: slower, not wrong.",
                (fallback, f"{self.python} -m pip install --upgrade {package}"),
            )
        notes: tuple[str, ...] = ()
        if self.paste.all("interpreter.env.PYTORCH_ENABLE_MPS_FALLBACK"):
            notes = (
                "the paste sets PYTORCH_ENABLE_MPS_FALLBACK, yet the op raised: the variable did not reach this "
                "process when torch loaded (set it in the shell that starts Python, or upgrade torch)",
            )
        shown_version = self.ev("torch.version") if upgrade else ()
        return Cause("op-not-implemented", summary, remedy, evidence + shown_version, hit.row.source, notes)

    def mismatch_or_size(self, op: str, evidence: tuple[Evidence, ...]) -> Cause:
        """Two causes reach this op; name both, and the one line that tells them apart."""
        row = table.BY_ID["device-mismatch"]
        return Cause(
            "device-mismatch",
            f"{op} runs on MPS when the input is on the CPU and the weights on mps, or when the input is too large "
            "for 32-bit indexing (over 2**31 elements): the paste does not show which",
            Remediation(
                "Print the devices and the size where the conv is called: different devices -> move both to mps "
                "(x.to(device)); more than 2**31 - 1 elements -> split the batch (a size limit of the MPS kernels).",
                ("print(x.device, conv.weight.device, x.numel() > 2**31 - 1)",),
            ),
            evidence,
            "https://github.com/pytorch/pytorch/pull/86844; " + row.source,
            ("also possible: mps-size-limit (an input too large for 32-bit indexing)",),
        )

    def kernel_state(self, since: str | None, known_table: bool, unknown: str) -> str:
        """What the op table says of an op this torch (not older than *since*) still sent to the CPU."""
        if since:  # the table lists a kernel from that release on: this call is one it does not cover
            return (
                f"the op table lists an MPS kernel since torch {self.since(since)}, but not for this call (a dtype "
                "or an argument it does not cover)"
            )
        return "no MPS kernel in any release yet" if known_table else unknown

    def since(self, release: str | None) -> str:
        """'2.6.0', or '2.0.0 (or earlier: the oldest release the table covers)'."""
        if release is None:
            return "a later release"
        if self.ops and release == self.ops.oldest():
            return f"{release} (or earlier: the oldest release the op table covers)"
        return release

    def sparse(self, hit: table.Hit, evidence: tuple[Evidence, ...]) -> Cause:
        summary, remedy = self.fill(hit.row, dict(hit.groups))
        op = hit.groups.get("op", "")
        torch = self.facts.target.torch
        version = parse_version(torch.version) if torch else None
        since = self.ops.first_sparse_release(op) if self.ops and op else None
        if since and (version is None or not at_least(version, parse_version(since) or (0,))):
            summary += f"; torch {self.since(since)} and later have a SparseMPS kernel for it"
            remedy = Remediation(
                remedy.summary + f" Or upgrade torch to {since} or later.",
                (f"{self.python} -m pip install --upgrade 'torch>={since}'",),
            )
        return Cause("sparse-unsupported", summary, remedy, evidence, hit.row.source)

    def lightning(self, hit: table.Hit, evidence: tuple[Evidence, ...]) -> Cause:
        info = self.facts.target.interpreter
        processor = info.processor if info else ""
        summary, remedy = self.fill(hit.row, dict(hit.groups))
        if processor in ("arm", "arm64"):
            summary = (
                f"Lightning says MPS is not available although this Python is native (platform.processor() is "
                f"{processor!r}): older Lightning releases accepted only 'arm'; upgrade Lightning"
            )
            remedy = Remediation(
                "Upgrade Lightning (the check accepts 'arm' and 'arm64' since 1.7.1).",
                (f"{self.python} -m pip install --upgrade lightning pytorch-lightning",),
            )
        return Cause(
            "lightning-processor", summary, remedy, evidence + self.ev("interpreter.processor"), hit.row.source
        )

    def shows_intel(self) -> bool:
        """The paste says this Mac is an Intel one: its brand string, or the user's own words."""
        brand = self.facts.host.cpu_brand
        return bool(self.value("paste.intel_prose")) or bool(brand and "Intel" in brand)

    def no_distribution(self, hit: table.Hit, evidence: tuple[Evidence, ...]) -> Cause:
        listed = self.value("paste.pip_versions")
        versions = listed if isinstance(listed, list) else []
        # A list that stops at the last x86_64 release says more than the pin it misses: this Python is x86_64.
        stops_at_intel = bool(versions) and versions[-1] == last_intel_mac_torch()
        ev = evidence + self.ev("paste.pip_versions", "interpreter.machine", "interpreter.version", "paste.intel_prose")
        # the same paste shows pip's fall-back to torch 0.1.2: no wheel fitted at all, whatever the pin
        if hit.row.id not in OWN_REASON and (placeholder := placeholder_row(self.paste.text)) is not None:
            summary, remedy = self.fill(placeholder, {})
            return Cause("no-matching-distribution", summary, remedy, ev, placeholder.source)
        if not stops_at_intel and (pinned := self.pin_not_published(hit, evidence)) is not None:
            return pinned
        info = self.facts.target.interpreter
        python = info.version if info and info.version else None
        summary, remedy = self.fill(hit.row, dict(hit.groups))
        if (
            (versions and versions[-1] == last_intel_mac_torch())
            or (info and info.machine == "x86_64")
            or (self.value("paste.intel_prose"))
        ):
            summary = (
                f"no torch wheel for this x86_64 (Intel) Python: PyTorch stopped publishing macOS x86_64 wheels after "
                f"{last_intel_mac_torch()}" + (f" (pip lists versions up to {versions[-1]})" if versions else "")
            )
            pin = f"{self.python} -m pip install 'torch<={last_intel_mac_torch()}'"
            tell = "sysctl -n machdep.cpu.brand_string"
            both = (
                f"On an Intel Mac, install torch {last_intel_mac_torch()} (uv: constrain torch for Intel macOS); on "
                "Apple silicon, use a native arm64 Python instead."
            )
            # which Mac decides the fix: unless the paste shows an Intel one, tell which before pinning
            intel = self.shows_intel()
            remedy = Remediation(
                both if intel else "The paste does not show which Mac this is: the first command tells. " + both,
                (pin, tell) if intel else (tell, pin),
            )
        elif not versions and info and str(info.mac_ver or "").startswith("10.16") and info.machine != "x86_64":
            summary, remedy = old_sdk_tags(self.python, python)
        elif (left_behind := no_wheel.python_left_behind(versions)) is not None:
            summary, remedy = left_behind
        elif not versions and hit.row.id not in OWN_REASON:
            named = re.match(r"torch\w*", hit.groups.get("package", ""))  # torch, or torchvision / torchaudio
            summary = (
                f"pip (or uv) found no {named.group(0) if named else 'torch'} wheel at all for this Python"
                + (f" {python}" if python else "")
                + ": torch publishes wheels for a few Python versions only, and a new Python gets them months later"
            )
            uv = self.value("paste.uv_command")
            again = [re.sub(r"(-p|--python)([ =])\d+\.\d+\S*", r"\g<1>\g<2>3.12", uv)] if isinstance(uv, str) else []
            if not again and info and info.venv_tool == "uv":  # uv fetches that Python itself
                again = ["uv venv --python 3.12"]
            remedy = Remediation(
                "Use a Python version torch has wheels for (e.g. 3.12), native arm64, and make the venv with it.",
                (
                    *again,
                    "/opt/homebrew/bin/brew install python@3.12",
                    NATIVE_VENV,
                ),
            )
        return Cause("no-matching-distribution", summary, remedy, ev, hit.row.source)

    def pin_not_published(self, hit: table.Hit, evidence: tuple[Evidence, ...]) -> Cause | None:
        """torch==X asked for where X has no wheel here: a CUDA/ROCm build (+cuXXX has no macOS wheel), or a
        release missing from the versions pip lists for this Python and platform; the fix relaxes the pin."""
        listed = self.value("paste.pip_versions")
        versions = [str(v) for v in listed] if isinstance(listed, list) else []
        asked = hit.groups.get("package", "") + (f"=={hit.groups['version']}" if hit.groups.get("version") else "")
        pin = re.match(r"torch==(?P<base>[\d.]+)(?P<local>\+\w+)?", asked)  # Poetry's "torch (2.0.1+cpu)" too
        if pin is None or (not pin["local"] and (not versions or pin["base"] in versions)):
            return None
        wanted, base = pin.group(0), pin["base"]
        if pin["local"]:
            summary = f"{wanted} is a build for another platform ({pin['local'][1:]}): no macOS wheel of it exists"
            spec = f"torch=={base}" if not versions or base in versions else "torch"
        else:
            summary = f"{wanted} has no wheel for this Python and platform: pip lists {', '.join(versions[-4:])}"
            spec = "torch"
        remedy = Remediation(
            "Relax the pin for this machine (requirements file or pyproject): install a torch that has a wheel here, "
            "or use a Python version the pinned release has wheels for.",
            (f"{self.python} -m pip install '{spec}'",),
        )
        if pin["local"] and hit.row.id == "poetry-no-candidates":  # Poetry's lock or source asks for that build
            remedy = no_wheel.poetry_plain_torch(pin["local"], remedy)
        return Cause(
            "no-matching-distribution", summary, remedy, evidence + self.ev("paste.pip_versions"), hit.row.source
        )

    # ---- no error ----


def cuda_only(cause: Cause, text: str) -> Cause:
    """The cuda-only-library cause said of the one library *text* names, with the way to do without it."""
    found = next(((name, how) for said, name, how in CUDA_ONLY if said in text), None)
    if found is None or cause.fix is None:
        return cause
    name, how = found
    return replace(
        cause,
        summary=f"{name} runs its GPU code on CUDA only: it has no Metal/MPS backend",
        fix=Remediation(f"Turn {name} off on the Mac ({how}), or use its CPU path.", cause.fix.commands),
    )


def _package_in(line: str) -> str | None:
    """The installed package a library path belongs to: .../site-packages/torch/lib/... -> torch."""
    match = re.search(r"(?:site-packages|python_dependencies)/(?P<package>[A-Za-z0-9_.-]+)/", line)
    if not match:
        return None
    return distribution(match["package"])
