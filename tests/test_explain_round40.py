"""The classes of input the 40th out-of-sample round (2026-11-25: CI and test suites on Macs, and building against
torch on Apple silicon) found explain missing, each read generally: a macOS virtual machine told only in words (a
"virtualized Mac", MPS said unavailable on a line that says CI), which is the hosted runner's paravirtual GPU.

The texts are lines of the round's pastes (tests/corpus names each).
"""

from __future__ import annotations

from mpscheck.checks.causes import explain_text, pip_build
from mpscheck.knowledge.cuda_only_rows import CUDA_ONLY_LIBRARY
from mpscheck.knowledge.told_rows import TOLD
from mpscheck.probes.paste import intel_support, prose, vm_words


def _facts(lines: list[str]) -> set[str]:
    return {o.fact for o in prose.parse(lines)}


def test_a_virtualized_mac_told_in_words_is_a_virtual_machine() -> None:
    said = (
        "# user: There's a multi-layered story here, where virtualized Mac does not support MPS (I think because most "
        "likely there's no MMU for MPS, so you can't virtualize MPS).\n# user: problem occurs in github ci/cd"
    )
    assert explain_text(said).cause.id == "virtual-machine"  # torchchat#1416
    for line in (
        "virtualized Mac does not support MPS",
        "the job runs in a virtual Mac",
        "tests run on macOS VMs",
        "a macOS virtual machine has no Metal for MPS",
        "Virtualised macOS images",
    ):
        assert "host.hypervisor" in _facts([line]), line
    for line in (
        "I have a Mac and a virtual environment",  # a venv, not a VM
        "virtual memory of the Mac",
        "the virtual Mac address of the card",
        "a virtualized Mac on an Intel host",  # an Intel machine named: not the arm64 VM's paravirtual GPU
    ):
        assert "host.hypervisor" not in _facts([line]), line


def test_mps_said_unavailable_on_a_ci_line_is_the_hosted_runner() -> None:
    said = (
        "# user: Some GH jobs that request MacOS are being given MPS machines\n"
        "# user: Issue is that MPS isn't available to via GH CI"
    )
    assert explain_text(said).cause.id == "virtual-machine"  # torchchat#975
    assert vm_words.vm_told("MPS is not actually available in CI", ci=True)
    assert vm_words.vm_told("the CI machine can't use MPS", ci=True)
    assert not vm_words.vm_told("MPS isn't available here", ci=False)  # no CI said: any Mac
    assert not vm_words.vm_told("MPS is available in CI", ci=True)
    # an Intel runner has no MPS because it is an Intel Mac (torchgeo#1188): not read as a VM
    line = "We don't see this issue in CI because the GitHub runner is an old x86_64 Mac and doesn't support MPS."
    assert "host.hypervisor" not in _facts([line])


def test_pip_failing_to_build_a_cuda_only_package_on_a_mac_is_that_package_not_mps() -> None:
    said = (
        "# user: I am on Apple M1 Pro, and the python environment is 3.9.13.\n"
        "Building wheels for collected packages: xformers\n"
        "  Building wheel for xformers (setup.py) ... error\n"
        "  error: subprocess-exited-with-error"
    )
    diagnosis = explain_text(said)  # unslothai/unsloth#414
    assert diagnosis.cause.id == "backend-has-no-mps"
    assert diagnosis.cause.fix is not None and "xformers" in diagnosis.cause.fix.summary
    pattern = CUDA_ONLY_LIBRARY.pattern
    for line in (
        "  Building wheel for xformers (setup.py) ... error",
        "  Building wheel for flash-attn (pyproject.toml) ... error",
        "  ERROR: Failed building wheel for xformers",
        "Failed to build mamba-ssm",
        "ERROR: Could not build wheels for auto_gptq, which is required to install pyproject.toml-based projects",
    ):
        assert pattern.search(line), line
    for line in (
        "  Building wheel for xformers (setup.py) ... done",  # built: no failure
        "  Building wheel for tokenizers (pyproject.toml) ... error",  # not a CUDA-only package
        "Failed building wheel for xformersx",
    ):
        assert not pattern.search(line), line


def test_intel_named_as_what_a_release_supported_is_not_the_users_mac() -> None:
    said = (
        "# user: Note that PyTorch 2.2 was the last release that supported MacOS on the Intel platform, so I upgraded "
        "the version to MacOS 14.\n"
        "# user: Since the new MacOS runner comes with M1, our MPS tests that were previously skipped would run now.\n"
        "# user: But some of these tests now run out of memory in the CI (has 8GB ram (??))"
    )
    assert explain_text(said).cause.id == "virtual-machine"  # Lightning#19708
    assert intel_support.intel_of_a_release("torch 2.2.2 is the last version for Intel Macs")
    assert intel_support.intel_of_a_release("PyTorch dropped support for Intel Macs after 2.2")
    assert not intel_support.intel_of_a_release("my Intel Mac got the last release that supported Intel")  # owned
    assert not intel_support.intel_of_a_release("I have an Intel Mac")  # no release talk
    assert "paste.intel_prose" not in _facts(
        ["PyTorch 2.2 was the last release that supported MacOS on the Intel platform"]
    )
    assert "paste.intel_prose" in _facts(["I'm on an Intel Mac and torch 2.2.2 is the last release for Intel"])
    assert "paste.intel_prose" in _facts(["MacBook Pro 2019, Intel Core i9"])


def test_mps_said_to_lack_operators_is_an_op_mps_lacks() -> None:
    said = (
        '# user: Starting with Lightning 2.0, `Trainer` now defaults to `accelerator="auto"`. While this works fine '
        "with CUDA, the MPS backend is still missing implementations of many operators, so the tests will fail."
    )
    diagnosis = explain_text(said)  # torchgeo#1188
    assert diagnosis.cause.id == "op-not-implemented"
    assert diagnosis.cause.fix is not None
    assert "export PYTORCH_ENABLE_MPS_FALLBACK=1" in diagnosis.cause.fix.commands
    pattern = next(row for row in TOLD if row.id == "op-missing-told").pattern
    for line in (
        "the MPS backend is still missing implementations of many operators",
        "Quite a few things fail because some operations are not yet supported on MPS",
        "mps lacks some ops",
        "the MPS device does not implement all operators",
    ):
        assert pattern.search(line), line
    for line in (
        "MPS is missing",  # nothing said missing
        "these operators are supported on MPS",
        "the CUDA backend is missing implementations of many operators",
        "MPS is missing. Many operators fail",  # another sentence
    ):
        assert not pattern.search(line), line


def test_a_ci_mac_runner_told_in_words_is_the_hosted_vm() -> None:
    said = (
        "# user: I've been seeing this for a few days now. Is this a GithHub limitation with the Mac runner? Below is "
        "a partial log from the CI run.\n"
        "2024-04-24T17:47:27.6409790Z python prepro_tinyshakespeare.py"
    )
    assert explain_text(said).cause.id == "virtual-machine"  # llm.c#242
    for line in ("M1 runners currently have a bug with PyTorch", "the mac-runner job fails", "on GitHub's M2 runner"):
        assert "host.hypervisor" in _facts([line]), line
    for line in (
        "our self-hosted M1 runner fails",  # a physical Mac of the project's own
        "the Mac ran the test runner",  # no runner of a Mac named
        "an M1 runner on an Intel host",
    ):
        assert "host.hypervisor" not in _facts([line]), line


def test_pip_failing_to_build_an_unknown_package_claims_no_mps_bug() -> None:
    said = (
        "# user: python3.11\n\nerror: subprocess-exited-with-error\n\n"
        "  × Getting requirements to build wheel did not run successfully.\n  │ exit code: 1"
    )
    diagnosis = explain_text(said)  # Langchain-Chatchat#3771 (xformers named in its title only)
    assert diagnosis.cause.id == "not-enough-evidence"
    assert diagnosis.cause.variant == "pip-build-failed"
    assert diagnosis.cause.fix is not None
    assert not any("--upgrade torch" in command for command in diagnosis.cause.fix.commands)
    named = explain_text("  ERROR: Failed building wheel for tokenizers\nFailed to build tokenizers")
    assert "the package tokenizers" in named.cause.summary
    assert pip_build.PIP_BUILD.search("× python setup.py egg_info did not run successfully.")
    assert not pip_build.PIP_BUILD.search("Successfully built tokenizers")
    assert not pip_build.PIP_BUILD.search("RuntimeError: MPS backend out of memory")
    installable = explain_text("ERROR: Failed to build installable wheels for some pyproject.toml based projects")
    assert "the package installable" not in installable.cause.summary


def test_a_module_not_installed_claims_no_mps_bug() -> None:
    said = (
        "[ins] In [2]: import pytorch3d\n"
        "---------------------------------------------------------------------------\n"
        "ModuleNotFoundError                       Traceback (most recent call last)\n"
        "<ipython-input-2-373ec51d3d6c> in <cell line: 1>()\n"
        "----> 1 import pytorch3d\n\n"
        "ModuleNotFoundError: No module named 'pytorch3d'"
    )
    diagnosis = explain_text(said)  # facebookresearch/pytorch3d#1348
    assert diagnosis.cause.id == "not-enough-evidence"
    assert diagnosis.cause.variant == "module-missing"
    assert "pytorch3d" in diagnosis.cause.summary
    assert diagnosis.cause.fix is not None
    assert not any("--upgrade torch" in command for command in diagnosis.cause.fix.commands)
    assert pip_build.MODULE_MISSING.search("No module named 'detectron2.layers'")["module"] == "detectron2.layers"
    assert not pip_build.MODULE_MISSING.search("No module named 'torch.mps'")  # torch's own: rows of their own
    assert not pip_build.MODULE_MISSING.search("No module named 'torch'")
