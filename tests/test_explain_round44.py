"""The classes of input the 44th out-of-sample round (2026-11-25: torch.compile/Inductor, torch.export and the newer
torch tool chain on Macs: torchao and torchchat int4 quantisation, ExecuTorch's MPS delegate, Triton on macOS, SDPA,
torch.mps helpers) found explain missing, each read generally:

- torch.compile (Inductor) failing on mps in a torch with no Metal code generator: a lowering that finds none
  ("LoweringException: TypeError: 'NoneType' object is not callable", torch 2.6) or any Inductor failure with a
  torch older than 2.7 shown, is compile-needs-newer-torch (checks/causes/compile_device.py); from 2.7 on, an
  Inductor failure on mps stays a bug of the young backend.
- bash's job reports of a crash, capitalised ("Bus error: 10", "Illegal instruction: 4"), are crashes like zsh's
  lower-case ones (probes/paste/error_line.py).
- a REPL running one call twice whose later result on mps turns -inf or nan where the earlier was finite (eager then
  compiled, or the CPU then mps) is a wrong result, never healthy (probes/paste/tensor_values.py).
- "Placeholder storage has not been allocated on MPS device" under a default device of mps, in torch's own
  optimizer, dynamo, export or compile, is a torch bug fixed later, not the user's tensors
  (checks/causes/default_device.py).
- a library's own device parser refusing mps ("Device type mps not understand", ESP-PPQ) is that library's missing
  mps, not torch's (knowledge/library_rows.py).

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


def test_one_call_finite_eagerly_and_infinite_compiled_on_mps_is_a_wrong_result() -> None:
    """A REPL running one computation twice, the later result on mps turning -inf or nan where the earlier was
    finite (pytorch#152205: polygamma eager 0.4228, compiled on mps -inf): wrong results, never healthy."""
    polygamma = (
        ">>> torch.special.polygamma(0, torch.tensor([2]).to('mps'))\n"
        "tensor([0.4228], device='mps:0')\n"
        ">>> torch.compile(lambda x: torch.special.polygamma(0, x))(torch.tensor([2], device='mps'))\n"
        "tensor([-inf], device='mps:0')\n"
    )
    diagnosis = explain_text(polygamma)
    assert diagnosis.cause.id == "metal-bug-fixed-later"
    assert diagnosis.exit_code != 0
    # other wordings: IPython's prompts, the CPU then mps, nan instead of -inf
    ipython = (
        "In [3]: torch.logsumexp(x, dim=0)\nOut[3]: tensor([1.2500, 0.5000])\n"
        "In [4]: torch.logsumexp(x.to('mps'), dim=0)\nOut[4]: tensor([nan, nan], device='mps:0')\n"
    )
    assert explain_text(ipython).cause.id == "metal-bug-fixed-later"


def test_different_calls_or_agreeing_infinities_across_prompts_are_no_wrong_result() -> None:
    """Near misses: two different functions (exp, then a log of zero on mps), the same -inf on both sides, and a
    result that was already infinite before."""
    for paste in (
        ">>> torch.exp(torch.tensor([0.]))\ntensor([1.])\n"
        ">>> torch.log(torch.tensor([0.], device='mps'))\ntensor([-inf], device='mps:0')\n",
        ">>> torch.log(torch.tensor([0.]))\ntensor([-inf])\n"
        ">>> torch.log(torch.tensor([0.], device='mps'))\ntensor([-inf], device='mps:0')\n",
        ">>> torch.log(torch.tensor([0.], device='mps'))\ntensor([-inf], device='mps:0')\n"
        ">>> torch.log(torch.tensor([1.], device='mps'))\ntensor([0.], device='mps:0')\n",
    ):
        assert explain_text(paste).cause.id != "metal-bug-fixed-later", paste


def test_a_device_mismatch_under_a_default_mps_device_in_torchs_own_machinery_is_a_torch_bug() -> None:
    """ "Placeholder storage ..." where mps is the default device and torch's optimizer, dynamo or export made the
    tensors (pytorch#149184, #158121): a torch bug fixed later, not the user's tensors."""
    said = (
        '# user: instantiating optimizer after torch.set_default_device("mps") throws\n'
        "RuntimeError: Placeholder storage has not been allocated on MPS device!\n"
    )
    diagnosis = explain_text(said)
    assert diagnosis.cause.id == "metal-bug-fixed-later"
    assert any("--upgrade torch" in command for command in diagnosis.cause.fix.commands)
    for other in (
        "with torch.device('mps'):\n    ep = torch.export.export(model, (x,))\n",
        "torch.set_default_device('mps')\nmodel = torch.compile(model)\n",
        "torch.set_default_device('mps')\nopt = torch.optim.AdamW(model.parameters())\n",
    ):
        text = other + "RuntimeError: Placeholder storage has not been allocated on MPS device!\n"
        assert explain_text(text).cause.id == "metal-bug-fixed-later", other


def test_a_device_mismatch_without_both_signs_stays_a_device_mismatch() -> None:
    """Near misses: the default device set but no torch machinery named (the user's own tensors), torch machinery
    but no default device of mps, a default device of cpu."""
    error = "RuntimeError: Placeholder storage has not been allocated on MPS device!\n"
    for before in (
        "torch.set_default_device('mps')\nx = torch.load('batch.pt')\n",
        "opt = torch.optim.AdamW(model.parameters())\n",
        "torch.set_default_device('cpu')\nopt = torch.optim.SGD(params)\n",
    ):
        assert explain_text(before + error).cause.id == "device-mismatch", before


def test_a_librarys_own_device_parser_refusing_mps_is_that_library_not_torch() -> None:
    """A library that parses device names itself and does not know mps (ESP-PPQ's TorchExecutor, esp-dl#221:
    "ValueError: Device type mps not understand."): keep that library on the CPU; torch is not at fault."""
    for line in (
        "ValueError: Device type mps not understand.",
        "ValueError: Device type 'mps' not understood",
        "RuntimeError: device type mps is not recognized by this executor",
    ):
        diagnosis = explain_text(line + "\n")
        assert diagnosis.cause.id == "backend-has-no-mps", line
        assert "CPU" in diagnosis.cause.fix.summary
    # near misses: Inductor's own refusal (torch), a device type that is not mps, a device understood
    assert explain_text("RuntimeError: Unsupported device type: mps\n").cause.id != "backend-has-no-mps"
    assert explain_text("ValueError: Device type xla not understood\n").cause.id != "backend-has-no-mps"
    assert explain_text("INFO: device type mps understood, running\n").cause.id != "backend-has-no-mps"
