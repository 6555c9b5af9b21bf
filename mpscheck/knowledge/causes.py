"""The causes reached from what an input shows rather than from one error text (not macOS, Rosetta, an
Intel Mac, a VM, an old macOS...), with their general fix and source: the second half of the one cause
vocabulary, beside the table of known errors (knowledge/errors.py). Ids are documented in docs/explain.md.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CauseFix:
    """A cause the judgement reaches from what a paste shows (no single error text), with its general fix."""

    id: str
    summary: str  # may use {python}, {system}, {macos}, {last_intel}
    fix: str
    commands: tuple[str, ...] = ()
    source: str = ""


CAUSES: dict[str, CauseFix] = {
    cause.id: cause
    for cause in (
        CauseFix(
            "not-macos",
            "this runs on {system}, where there is no MPS: MPS exists only on macOS (a Docker container on a Mac is "
            "a Linux VM)",
            "Run PyTorch natively on macOS with Apple silicon for MPS; on this machine use CUDA or the CPU.",
            ("mpscheck doctor --require gpu",),
            "docs/source/notes/mps.rst (MPS is a macOS backend); https://github.com/jankais3r/LLaMA_MPS/issues/6",
        ),
        CauseFix(
            "rosetta-python",
            "x86_64 Python under Rosetta 2 on Apple silicon ({why}): x86_64 torch stops at {last_intel}, its MPS "
            "checks misread the macOS version under Rosetta (no bfloat16, often no MPS at all), and Lightning sees "
            "processor 'i386'",
            "Run the terminal natively: untick 'Open using Rosetta' in its Get Info (and use the arm64 Homebrew in "
            "/opt/homebrew), then recreate the environment; check with:",
            ("arch", "sysctl -n sysctl.proc_translated", "ls /opt/homebrew/bin/brew"),
            "https://github.com/pytorch/pytorch/issues/146236; "
            "https://github.com/Lightning-AI/pytorch-lightning/issues/14634",
        ),
        CauseFix(
            "x86_64-python",
            "this Python is x86_64: on Apple silicon it runs under Rosetta (no torch after {last_intel}, no MPS); on "
            "an Intel Mac MPS is not supported by current torch. The paste does not show which Mac this is",
            "Tell which: an 'Apple M…' chip means Rosetta, so install a native arm64 Python (Homebrew in "
            "/opt/homebrew, python.org, or an arm64 Miniforge) and recreate the environment.",
            (
                "sysctl -n machdep.cpu.brand_string",
                "{python} -c 'import platform; print(platform.machine())'",
                "{conda_arm64}",  # checks/installing.py conda_arm64_create: one spelling
            ),
            "https://github.com/pytorch/pytorch/issues/114602 (no x86_64 macOS wheels after 2.2.2)",
        ),
        CauseFix(
            "intel-mac",
            "an Intel Mac: current torch has no MPS for it (the last macOS x86_64 torch is {last_intel}, and MPS on "
            "AMD GPUs is not supported), so MPS features such as bfloat16 are out of reach",
            "Use a Mac with Apple silicon for MPS; on this Mac run on the CPU (torch {last_intel} is the last "
            "release). Confirm the chip, and that conda is not an Intel install on Apple silicon:",
            (
                "sysctl -n machdep.cpu.brand_string",
                "conda info | grep platform",
                "{python} -m pip install torch=={last_intel}",
            ),
            "https://github.com/pytorch/pytorch/issues/114602; https://github.com/pytorch/pytorch/issues/141864",
        ),
        CauseFix(
            "virtual-machine",
            "a macOS virtual machine (such as a GitHub-hosted runner): its paravirtual GPU reports MPS available but "
            "refuses allocations",
            "Run MPS work on a physical Mac (a self-hosted runner in CI); on hosted runners, test on the CPU. Some "
            "projects lift the cap in CI with the watermark variable, which does not always help.",
            ("mpscheck doctor --require none", "export PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0"),
            "https://github.com/actions/runner-images/issues/9918; https://github.com/pytorch/pytorch/issues/125197",
        ),
        CauseFix(
            "macos-too-old",
            "macOS {macos} is older than what this torch needs for MPS",
            "Upgrade macOS; or run on the CPU.",
            ("softwareupdate --list",),
            "https://github.com/pytorch/pytorch/issues/139425; mpscheck/knowledge/versions.py (MAC_FLOOR_BY_TORCH)",
        ),
        CauseFix(
            "no-metal-device",
            "torch finds no Metal device although macOS {macos} is new enough (and nothing in the paste shows Rosetta "
            "or a VM): typically a sandbox, such as an AI agent's tool runner or the App Sandbox, or a remote "
            "session, hides the GPU from this process",
            "Run the same command from a normal Terminal window, outside the sandbox, and compare; if only the "
            "sandboxed run fails, allow Metal in its policy or run the work outside it.",
            ("{python} -c 'import torch; print(torch.backends.mps.is_available())'",),
            "https://github.com/openai/codex/issues/10199; https://github.com/openai/codex/issues/9007",
        ),
        CauseFix(
            "mps-not-requested",
            "the run used the CPU on a Mac: the script or framework never asked for the MPS device (Ultralytics "
            "device=None and Lightning accelerator defaults may pick the CPU)",
            "Ask for the GPU explicitly: device='mps' (Ultralytics device=mps, Lightning Trainer(accelerator='mps'), "
            "torch: model.to('mps') and every input .to('mps')).",
            ("{python} -c 'import torch; print(torch.backends.mps.is_available())'",),
            "https://docs.ultralytics.com/modes/train/#apple-silicon-mps-training; "
            "https://github.com/ultralytics/ultralytics/issues/2599",
        ),
        CauseFix(
            "fallback-env-too-late",
            "PYTORCH_ENABLE_MPS_FALLBACK is set in the script after `import torch`: torch reads it when it loads, so "
            "{op} still raises",
            "Set it before Python starts (in the shell, or at the very top of the script before any import).",
            ("export PYTORCH_ENABLE_MPS_FALLBACK=1",),
            "aten/src/ATen/mps/MPSFallback.mm (read once at load)",
        ),
        CauseFix(
            "half-precision-nan",
            "the picture came out black (NaN) on mps and the paste shows half precision at work ({why}): float16 "
            "overflowing to NaN in the attention or the VAE, which the front ends' float32 switches fix",
            "Run the step in float32: {how}; if float32 still gives a black picture, upgrade torch and macOS (then it "
            "is a backend bug).",
            (
                "./webui.sh --no-half",
                "python main.py --force-upcast-attention",
                "python entry_with_update.py --vae-in-fp32",
            ),
            "https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/8555 (--no-half); "
            "https://github.com/Comfy-Org/ComfyUI/issues/4799 (--force-upcast-attention); "
            "https://github.com/lllyasviel/Fooocus/issues/3070 (--vae-in-fp32)",
        ),
        CauseFix(
            "not-enough-evidence",
            "the paste shows no error and not enough to say whether MPS works",
            "Run mpscheck on the Mac and paste its report; it probes the interpreter, torch and MPS.",
            ("mpscheck doctor --format markdown",),
            "",
        ),
        CauseFix("healthy", "the paste shows MPS working: {how}", "", (), ""),
    )
}
