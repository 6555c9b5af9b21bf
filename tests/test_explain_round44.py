"""The classes of input the 44th out-of-sample round (2026-11-25: torch.compile/Inductor, torch.export and the newer
torch tool chain on Macs: torchao and torchchat int4 quantisation, ExecuTorch's MPS delegate, Triton on macOS, SDPA,
torch.mps helpers) found explain missing, each read generally:

- torch.compile (Inductor) failing on mps in a torch with no Metal code generator: a lowering that finds none
  ("LoweringException: TypeError: 'NoneType' object is not callable", torch 2.6) or any Inductor failure with a
  torch older than 2.7 shown, is compile-needs-newer-torch (checks/causes/compile_device.py); from 2.7 on, an
  Inductor failure on mps stays a bug of the young backend.
- bash's job reports of a crash, capitalised ("Bus error: 10", "Illegal instruction: 4"), are crashes like zsh's
  lower-case ones (probes/paste/error_line.py).

The texts are lines of the round's pastes (tests/corpus names each) and other wordings of the same classes.
"""

from __future__ import annotations

from mpscheck.checks.causes import explain_text
from mpscheck.probes.paste import error_line

LOWERING = (
    "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\n"
    "LoweringException: TypeError: 'NoneType' object is not callable\n"
    "  target: aten.mean.default\n"
    "  args[0]: TensorBox(StorageBox(\n"
    "    Pointwise(\n"
    "      'mps',\n"
    "      torch.float32,\n"
)


def test_an_inductor_lowering_with_no_code_generator_for_mps_needs_a_newer_torch() -> None:
    """Inductor found no code generator for the mps device (GPTQModel#1684, torch 2.6): torch 2.8's MPSInductor."""
    diagnosis = explain_text(LOWERING)
    assert diagnosis.cause.id == "compile-needs-newer-torch"
    assert any("torch>=2.8" in command for command in diagnosis.cause.fix.commands)
    # the same lowering told through the device string of the user's code, or a benchmark's flag
    other = LOWERING.replace("      'mps',\n", "") + "model = torch.compile(model)  # device='mps'\n"
    assert explain_text(other).cause.id == "compile-needs-newer-torch"
    flag = "python3 bench.py --backend inductor --devices mps\n" + LOWERING.replace("      'mps',\n", "")
    assert explain_text(flag).cause.id == "compile-needs-newer-torch"


def test_an_inductor_failure_on_mps_with_a_torch_before_mps_inductor_needs_a_newer_torch() -> None:
    """Any Inductor failure on mps where the paste shows a torch older than 2.7 (no MPSInductor at all)."""
    for version in ("PyTorch version: 2.5.1", "PyTorch version: 2.6.0", "[pip3] torch==2.4.0"):
        said = (
            f"{version}\n"
            "x = torch.randn(8, device='mps')\n"
            "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\n"
            "AttributeError: 'NoneType' object has no attribute 'group_fn'\n"
        )
        assert explain_text(said).cause.id == "compile-needs-newer-torch", version


def test_inductor_failures_that_are_not_a_missing_mps_backend_are_left_to_other_rules() -> None:
    """Near misses: torch 2.7 or newer (MPSInductor exists: its bugs are fixed later), no mps named (a CUDA or CPU
    compile), no torch version and no missing-generator signature."""
    newer = (
        "PyTorch version: 2.7.0\n"
        "x = torch.randn(8, device='mps')\n"
        "torch._inductor.exc.InductorError: SyntaxError: failed to compile\n"
    )
    assert explain_text(newer).cause.id == "metal-bug-fixed-later"
    assert explain_text(LOWERING.replace("'mps'", "'cuda'")).cause.id != "compile-needs-newer-torch"
    unknown = "x = torch.randn(8, device='mps')\ntorch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\n"
    assert explain_text(unknown).cause.id != "compile-needs-newer-torch"
    not_inductor = "PyTorch version: 2.5.1\nx = torch.randn(8, device='mps')\nRuntimeError: shape mismatch\n"
    assert explain_text(not_inductor).cause.id != "compile-needs-newer-torch"


def _crashes(line: str) -> list[str]:
    return [o.value for o in error_line.parse([line]) if o.fact == "paste.crash_line"]


def test_bash_job_reports_of_a_crash_are_crashes() -> None:
    """bash prints "Bus error: 10" where zsh prints "zsh: bus error" (torchchat#342's CI log)."""
    log = (
        "  + python generate.py --dtype float16 --device mps --checkpoint-path x.pt\n"
        "  /Users/ec2-user/runner/_work/_temp/exec_script: line 40: 43558 Bus error: 10           "
        "python generate.py --device mps > ./output_eager\n"
    )
    assert explain_text(log).cause.id == "metal-bug-fixed-later"
    for line in ("Bus error: 10", "zsh: bus error  python train.py", "[1]    123 bus error  python x.py"):
        assert _crashes(line), line
    assert _crashes("line 12: 999 Illegal instruction: 4  python run.py") == ["Illegal instruction: 4"]
    assert explain_text("./run.sh: line 3: 77 Illegal instruction: 4  python app.py\n").cause.id == "wrong-arch-wheel"
    for line in ("the Omnibus errors are listed below", "Bus errors: none", "illegal instruction set for the test"):
        assert not _crashes(line), line
