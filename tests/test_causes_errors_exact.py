"""The error rules of the paste judge pinned exactly (checks/causes/errors.py and memory.py): an error a
setup cause explains, no Metal device on a new enough macOS, the ops without a kernel (each branch of
upgrade, known, unknown; the conv ops reached by a device mismatch or a large input), sparse ops,
Lightning's processor check, pip's no-wheel errors (an Intel Python, no wheel at all, a pin with no wheel
here), a library of the other architecture, and the watermark ratios (torch's own default refused).

Ops are looked up in a stand-in of the op table with the same interface (checks/causes/ops.py), so the
releases each branch reads are the test's own. Expected values are written out or built from the table
rows with plain code; every field of a Cause is compared.
"""

from __future__ import annotations

from mpscheck.checks.causes import Cause, Evidence, explain_text
from mpscheck.checks.causes.judge import judge
from mpscheck.knowledge import errors as table
from mpscheck.knowledge.versions import torch_pin_for_macos
from mpscheck.model import Remediation
from mpscheck.probes.paste import read

SW_VERS = ["ProductName:\t\tmacOS", "ProductVersion:\t\t14.5"]
NOT_IMPLEMENTED = (
    "NotImplementedError: The operator '{}' is not currently implemented for the MPS device. If you want this "
    "op to be added in priority during the prototype phase of this feature, please comment on "
    "https://github.com/pytorch/pytorch/issues/77764."
)
FALLBACK = (
    "UserWarning: The operator '{}' is not currently supported on the MPS backend and will fall back to run on "
    "the CPU. This may have performance implications."
)
PIP_SOURCE = table.BY_ID["no-matching-distribution"].source
PR_86844 = "https://github.com/pytorch/pytorch/pull/86844; "


class Ops:
    """The op table's interface over a small dict: op -> first release with an MPS kernel (None: listed, none)."""

    def __init__(self, mps: dict[str, str | None], sparse: dict[str, str] | None = None) -> None:
        self.mps, self.sparse = mps, sparse or {}

    def first_mps_release(self, op: str) -> str | None:
        return self.mps.get(op)

    def knows(self, op: str) -> bool:
        return op in self.mps

    def first_sparse_release(self, op: str) -> str | None:
        return self.sparse.get(op)

    def oldest(self) -> str | None:
        return "2.0.0"


def cause_of(lines: list[str], ops: Ops | None = None) -> Cause:
    return judge(read("\n".join(lines)), ops or Ops({})).cause


def row_fix(row_id: str, python: str = "python3", **values: str) -> Remediation:
    row = table.BY_ID[row_id]
    filled = {"python": python, **values}
    return Remediation(table.fill(row.fix, filled), tuple(table.fill(c, filled) for c in row.commands))


# ---- errors explained by the setup, and no Metal device ------------------------------------------------

AVAILABILITY = (
    "RuntimeError: The MPS backend is supported on MacOS 12.3+.Current OS version can be queried using `sw_vers`"
)


def test_no_metal_device_on_a_new_macos_names_every_fact_that_shows_it() -> None:
    lines = [
        *SW_VERS,
        ">>> torch.backends.mps.is_built()",
        "True",
        ">>> torch.backends.mps.is_available()",
        "False",
        AVAILABILITY,
    ]
    cause = cause_of(lines)
    assert cause.id == "no-metal-device"
    assert cause.evidence == tuple(Evidence(n, lines[n - 1]) for n in (2, 3, 4, 5, 6, 7))


def test_an_error_a_setup_cause_explains_is_that_cause_with_the_errors_line_first() -> None:
    lines = ["Rosetta (sysctl.proc_translated): 1", AVAILABILITY]
    setup = explain_text(lines[0]).cause
    cause = cause_of(lines)
    shown = (Evidence(1, lines[0]), Evidence(2, lines[1]))
    assert cause == Cause(setup.id, setup.summary, setup.fix, shown, setup.source)


# ---- ops without an MPS kernel ---------------------------------------------------------------------------


def test_an_op_with_a_kernel_in_a_later_torch_is_an_upgrade_with_the_version_shown() -> None:
    lines = ["PyTorch version: 2.1.0", NOT_IMPLEMENTED.format("aten::_linalg_solve_ex.result")]
    ops = Ops({"aten::_linalg_solve_ex.result": "2.4.0"})
    assert cause_of(lines, ops) == Cause(
        "op-not-implemented",
        "aten::_linalg_solve_ex.result has an MPS kernel since torch 2.4.0: upgrade (this is torch 2.1.0)",
        Remediation(
            "Upgrade torch to 2.4.0 or later; meanwhile PYTORCH_ENABLE_MPS_FALLBACK=1 (set before Python starts) "
            "runs this op on the CPU.",
            ("python3 -m pip install --upgrade 'torch>=2.4.0'", "export PYTORCH_ENABLE_MPS_FALLBACK=1"),
        ),
        (Evidence(1, lines[0]), Evidence(2, lines[1])),
        table.BY_ID["op-not-implemented"].source,
    )
    assert cause_of(lines, Ops({})).summary == (
        "aten::_linalg_solve_ex.result: no MPS kernel in this torch, and the CPU fallback is off"
    )  # an op the table does not list
    oldest = cause_of([lines[1]], Ops({"aten::_linalg_solve_ex.result": "2.0.0"}))
    assert oldest.summary == (
        "aten::_linalg_solve_ex.result has an MPS kernel since torch 2.0.0 (or earlier: the oldest release the op "
        "table covers): upgrade"
    )
    assert oldest.evidence == (Evidence(1, lines[1]),)


def test_an_op_this_torch_has_a_kernel_for_is_a_call_the_kernel_does_not_cover_not_a_missing_kernel() -> None:
    """torch 2.5.1 raising for an op the table lists since 2.4.0: never 'no MPS kernel in any release yet'."""
    op = "aten::_linalg_solve_ex.result"
    ops = Ops({op: "2.4.0"})
    covered = (
        "the op table lists an MPS kernel since torch 2.4.0, but not for this call (a dtype or an argument it does "
        "not cover)"
    )
    for shown in ("2.4.0", "2.5.1"):  # at the release the table names, and past it
        lines = [f"PyTorch version: {shown}", NOT_IMPLEMENTED.format(op)]
        cause = cause_of(lines, ops)
        assert (cause.id, cause.summary) == ("op-not-implemented", f"{op}: {covered}, and the CPU fallback is off")
        assert cause.fix is not None and cause.fix.commands[0] == "export PYTORCH_ENABLE_MPS_FALLBACK=1"
        assert cause.evidence == (Evidence(2, lines[1]),)
    line = FALLBACK.format(op)
    warned = judge(read("\n".join(["PyTorch version: 2.5.1", line])), ops).cause
    row = table.BY_ID["op-fallback"]
    assert warned.id == "op-fallback-warning" and warned.summary == (
        f"{table.fill(row.summary, {'op': op})}; {covered}. The fallback copies the op's tensors to the CPU and back "
        "at every call"
    )
    assert warned.fix == Remediation(row.fix, ())


def test_an_op_without_a_kernel_anywhere_or_unknown_says_so_and_offers_the_fallback() -> None:
    op = "aten::upsample_bicubic2d.out"
    lines = [NOT_IMPLEMENTED.format(op), "export PYTORCH_ENABLE_MPS_FALLBACK=1"]
    remedy = Remediation(
        "Set PYTORCH_ENABLE_MPS_FALLBACK=1 before Python starts (os.environ after `import torch` is too late), or "
        "keep this op on the CPU; a newer torch may have the kernel. The fallback copies the op's tensors to the "
        "CPU and back at every call: slower, not wrong.",
        ("export PYTORCH_ENABLE_MPS_FALLBACK=1", "python3 -m pip install --upgrade torch"),
    )
    note = (
        "the paste sets PYTORCH_ENABLE_MPS_FALLBACK, yet the op raised: the variable did not reach this process "
        "when torch loaded (set it in the shell that starts Python, or upgrade torch)"
    )
    source = table.BY_ID["op-not-implemented"].source
    assert cause_of(lines, Ops({op: None})) == Cause(
        "op-not-implemented",
        f"{op}: no MPS kernel in any release yet, and the CPU fallback is off",
        remedy,
        (Evidence(1, lines[0]),),
        source,
        (note,),
    )
    assert cause_of(lines[:1]) == Cause(
        "op-not-implemented", f"{op}: no MPS kernel in this torch, and the CPU fallback is off", remedy,
        (Evidence(1, lines[0]),), source,
    )  # fmt: skip


def test_a_fallback_warning_says_whether_an_upgrade_removes_it() -> None:
    op = "aten::upsample_bicubic2d.out"
    line = FALLBACK.format(op)
    row = table.BY_ID["op-fallback"]
    summary = table.fill(row.summary, {"op": op})
    tail = ". The fallback copies the op's tensors to the CPU and back at every call"
    cases = (
        (Ops({op: "2.6.0"}), f"{op} has an MPS kernel since torch 2.6.0: upgrading removes the fallback",
         ("python3 -m pip install --upgrade 'torch>=2.6.0'",)),
        (Ops({op: None}), "no MPS kernel in any release yet", ()),
        (Ops({}), "whether a newer torch has an MPS kernel for it is not known here", ()),
        (Ops({op: "9.0.0"}), f"{op} has an MPS kernel since torch 9.0.0: upgrading removes the fallback",
         ("python3 -m pip install --upgrade 'torch>=9.0.0'",)),
    )  # fmt: skip
    for ops, note, commands in cases:
        diagnosis = judge(read(line), ops)
        assert diagnosis.cause == Cause(
            "op-fallback-warning",
            f"{summary}; {note}{tail}",
            Remediation(row.fix, commands),
            (Evidence(1, line),),
            row.source,
        ), note
    shown = judge(read("\n".join(["PyTorch version: 2.5.1", line])), Ops({op: "2.6.0"})).cause
    assert shown.summary == f"{summary}; {op} has an MPS kernel since torch 2.6.0: upgrading removes the fallback{tail}"
    assert shown.evidence == (Evidence(2, line),)


def test_conv_ops_reached_only_by_a_cpu_input_or_a_large_one() -> None:
    row = table.BY_ID["device-mismatch"]
    for op in ("aten::_slow_conv2d_forward", "aten::_slow_conv2d_backward"):
        line = NOT_IMPLEMENTED.format(op)
        assert cause_of([line]) == Cause(
            "device-mismatch",
            f"{op} is reached only when the input is on the CPU and the weights on MPS: " + row.summary,
            Remediation(row.fix, ()),
            (Evidence(1, line),),
            PR_86844 + row.source,
        )
    op = "aten::slow_conv3d_forward"
    line = NOT_IMPLEMENTED.format(op)
    assert cause_of([line]) == Cause(
        "device-mismatch",
        f"{op} runs on MPS when the input is on the CPU and the weights on mps, or when the input is too large for "
        "32-bit indexing (over 2**31 elements): the paste does not show which",
        Remediation(
            "Print the devices and the size where the conv is called: different devices -> move both to mps "
            "(x.to(device)); more than 2**31 - 1 elements -> split the batch (a size limit of the MPS kernels).",
            ("print(x.device, conv.weight.device, x.numel() > 2**31 - 1)",),
        ),
        (Evidence(1, line),),
        PR_86844 + row.source,
        ("also possible: mps-size-limit (an input too large for 32-bit indexing)",),
    )


def test_an_op_error_after_setting_the_fallback_in_the_script_is_fallback_env_too_late() -> None:
    op = "aten::upsample_bicubic2d.out"
    lines = ["import torch", "os.environ['PYTORCH_ENABLE_MPS_FALLBACK'] = '1'", NOT_IMPLEMENTED.format(op)]
    cause = cause_of(lines)
    assert cause.id == "fallback-env-too-late"
    assert cause.evidence == (Evidence(2, lines[1]), Evidence(3, lines[2]))
    assert op in cause.summary


# ---- sparse ops, Lightning ---------------------------------------------------------------------------------

SPARSE = (
    "NotImplementedError: Could not run 'aten::_sparse_coo_tensor_with_dims_and_tensors' with arguments from the "
    "'SparseMPS' backend."
)


def test_a_sparse_op_names_the_release_with_a_sparse_kernel_only_when_newer() -> None:
    op = "aten::_sparse_coo_tensor_with_dims_and_tensors"
    row = table.BY_ID["sparse"]
    summary = table.fill(row.summary, {"op": op})
    ops = Ops({}, {op: "2.8.0"})
    assert cause_of([SPARSE], ops) == Cause(
        "sparse-unsupported",
        f"{summary}; torch 2.8.0 and later have a SparseMPS kernel for it",
        Remediation(
            row.fix + " Or upgrade torch to 2.8.0 or later.", ("python3 -m pip install --upgrade 'torch>=2.8.0'",)
        ),
        (Evidence(1, SPARSE),),
        row.source,
    )
    plain = Cause("sparse-unsupported", summary, Remediation(row.fix, ()), (Evidence(1, SPARSE),), row.source)
    assert cause_of([SPARSE]) == plain
    new = Cause("sparse-unsupported", summary, Remediation(row.fix, ()), (Evidence(1, "PyTorch version: 2.8.0"),
                Evidence(2, SPARSE)), row.source)  # fmt: skip
    assert cause_of(["PyTorch version: 2.8.0", SPARSE], ops) == replace_evidence(new, (Evidence(2, SPARSE),))


def replace_evidence(cause: Cause, evidence: tuple[Evidence, ...]) -> Cause:
    return Cause(cause.id, cause.summary, cause.fix, evidence, cause.source, cause.notes, cause.variant)


LIGHTNING = (
    "MisconfigurationException: MPSAccelerator can not run on your system since the accelerator is not available."
)


def test_lightning_on_a_native_python_is_told_to_upgrade_lightning() -> None:
    row = table.BY_ID["lightning-mps"]
    for processor in ("arm", "arm64"):
        lines = [f"platform.machine() / processor(): arm64 / {processor}", LIGHTNING]
        assert cause_of(lines) == Cause(
            "lightning-processor",
            "Lightning says MPS is not available although this Python is native (platform.processor() is "
            f"{processor!r}): older Lightning releases accepted only 'arm'; upgrade Lightning",
            Remediation(
                "Upgrade Lightning (the check accepts 'arm' and 'arm64' since 1.7.1).",
                ("python3 -m pip install --upgrade lightning pytorch-lightning",),
            ),
            (Evidence(1, lines[0]), Evidence(2, LIGHTNING)),
            row.source,
        ), processor
    assert cause_of([LIGHTNING]) == Cause(
        "lightning-processor", row.summary, row_fix("lightning-mps"), (Evidence(1, LIGHTNING),), row.source
    )


def test_the_errors_own_macos_floor_makes_an_older_macos_the_cause() -> None:
    lines = ["ProductName:\t\tmacOS", "ProductVersion:\t\t13.5", AVAILABILITY.replace("12.3+.", "14.0+. ")]
    pin = torch_pin_for_macos((13, 5), None, "arm64")
    assert pin
    assert cause_of(lines) == Cause(
        "macos-too-old",
        "macOS 13.5 is older than macOS 14.0, which this torch needs for MPS",
        Remediation(
            f"Upgrade macOS, or install the newest torch whose MPS runs on it ({pin}); or run on the CPU.",
            ("softwareupdate --list", f"python3 -m pip install '{pin}'"),
        ),
        (Evidence(2, lines[1]), Evidence(3, lines[2])),
        "https://github.com/pytorch/pytorch/issues/139425; mpscheck/knowledge/versions.py (MAC_FLOOR_BY_TORCH)",
    )


def test_a_buffer_over_metals_largest_is_its_own_kind_of_out_of_memory() -> None:
    line = "RuntimeError: Invalid buffer size: 10.00 GB"
    row = table.BY_ID["buffer-too-large"]
    values = {"python": "python3", "requested": "10.00 GB"}
    assert cause_of([line]) == Cause(
        "out-of-memory",
        table.fill(row.summary, values),
        Remediation(table.fill(row.fix, values), ()),
        (Evidence(1, line),),
        row.source,
        variant="buffer-too-large",
    )
    assert row.commands == ()


# ---- a float64 tensor made inside a library ---------------------------------------------------------------

FLOAT64 = "TypeError: Cannot convert a MPS Tensor to float64 dtype as the MPS framework doesn't support float64."
SITE = "/Users/me/venv/lib/python3.11/site-packages"


def test_a_float64_tensor_from_a_librarys_frame_is_an_upgrade_of_that_library() -> None:
    row = table.BY_ID["float64"]
    frames = [
        "Traceback (most recent call last):",
        '  File "/Users/me/run.py", line 3, in <module>',
        f'  File "{SITE}/diffusers/models/embeddings.py", line 9, in get_1d_rotary_pos_embed',
        f'  File "{SITE}/torch/nn/modules/module.py", line 1501, in _call_impl',
        FLOAT64,
    ]
    summary = table.fill(row.summary, {"python": "python3"})
    assert cause_of(frames) == Cause(
        "float64-unsupported",
        f"{summary}; the deepest frame outside torch is in diffusers: its code passed the float64 tensor to torch",
        Remediation(
            "Upgrade diffusers (later releases of several libraries pick float32 on mps); in your own code, use "
            "float32 before .to('mps').",
            (f"{SITE.removesuffix('/lib/python3.11/site-packages')}/bin/python -m pip install --upgrade diffusers",),
        ),
        (Evidence(3, frames[2]), Evidence(5, FLOAT64)),
        row.source + "; https://github.com/huggingface/diffusers/pull/9074",
    )
    # an import name pip knows by another name is installed by its distribution's name
    renamed = [frames[0], f'  File "{SITE}/llama_cpp/llama.py", line 1, in f', FLOAT64]
    assert cause_of(renamed).fix == Remediation(
        "Upgrade llama-cpp-python (later releases of several libraries pick float32 on mps); in your own code, use "
        "float32 before .to('mps').",
        ("/Users/me/venv/bin/python -m pip install --upgrade llama-cpp-python",),
    )


def test_a_float64_tensor_from_the_users_own_frame_or_no_frame_is_the_users_cast() -> None:
    row = table.BY_ID["float64"]
    plain = Cause(
        "float64-unsupported",
        table.fill(row.summary, {"python": "python3"}),
        row_fix("float64"),
        (Evidence(4, FLOAT64),),
        row.source,
    )
    own = [
        f'  File "{SITE}/lightning/trainer.py", line 1, in fit',
        '  File "/Users/me/model.py", line 3, in training_step',
        f'  File "{SITE}/torch/_tensor.py", line 2, in to',
        FLOAT64,
    ]
    assert cause_of(own) == plain  # the user's code, called back by Lightning, made the tensor
    bare = ["# user: it fails", "", "", FLOAT64]
    assert cause_of(bare) == plain
    # a frame of an earlier error belongs to that error, not this one; a warning's path is no frame
    earlier = [f'  File "{SITE}/diffusers/x.py", line 1, in f', "ValueError: bad", "", FLOAT64]
    assert cause_of(earlier).fix == row_fix("float64")
    warned = [f"{SITE}/diffusers/x.py:1: UserWarning: slow", "", "", FLOAT64]
    assert cause_of(warned).fix == row_fix("float64")
    # an egg-info or a file right in site-packages is no library folder
    loose = [f'  File "{SITE}/six.py", line 1, in f', "", "", FLOAT64]
    assert cause_of(loose).fix == row_fix("float64")


def test_a_float64_tensor_from_a_library_of_a_pipx_app_is_upgraded_by_pipx_runpip() -> None:
    pipx = "/Users/me/.local/pipx/venvs/insanely-fast-whisper/lib/python3.11/site-packages"
    frames = [
        f'  File "{pipx}/transformers/models/whisper/generation_whisper.py", line 9, in _postprocess',
        f'  File "{pipx}/torch/_tensor.py", line 1, in to',
        FLOAT64,
    ]
    assert explain_text("\n".join(frames)).cause.fix.commands == (
        "pipx runpip insanely-fast-whisper install --upgrade transformers",
    )


# ---- a CUDA-only library, named ------------------------------------------------------------------------------


def test_a_cuda_only_library_is_named_with_the_way_to_do_without_it() -> None:
    row = table.BY_ID["cuda-only-library"]
    said = {
        "UserWarning: The installed version of bitsandbytes was compiled without GPU support. 8-bit optimizers, 8-bit "
        "multiplication, and GPU quantization are unavailable.": (
            "bitsandbytes",
            "load without 4/8-bit quantization: no load_in_8bit/load_in_4bit or BitsAndBytesConfig",
        ),
        "NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:": (
            "xformers",
            "attend without xformers: the default attention, sdpa",
        ),
        "RuntimeError: FlashAttention only supports Ampere GPUs or newer.": (
            "flash-attn",
            "attend without flash-attn: attn_implementation='sdpa'",
        ),
        # round 20: transformers' bitsandbytes quantizer, AutoGPTQ, a model importing xformers, GPTQ-for-LLaMa
        "RuntimeError: No GPU found. A GPU is needed for quantization.": (
            "bitsandbytes",
            "load without 4/8-bit quantization: no --load-4bit/8bit",
        ),
        "NameError: name 'autogptq_cuda_256' is not defined": (
            "AutoGPTQ",
            "load the unquantized model, not a GPTQ one, in float16 for mps",
        ),
        "ModuleNotFoundError: No module named 'xformers'": (
            "xformers",
            "attend without xformers: the default attention, sdpa",
        ),
        "ModuleNotFoundError: No module named 'llama_inference_offload'": (
            "GPTQ-for-LLaMa",
            "an unquantized model, not a 4-bit GPTQ one, in float16 for mps",
        ),
    }
    for line, (name, how) in said.items():
        assert cause_of([line]) == Cause(
            "backend-has-no-mps",
            f"{name} runs its GPU code on CUDA only: it has no Metal/MPS backend",
            Remediation(f"Turn {name} off on the Mac ({how}), or use its CPU path.", ()),
            (Evidence(1, line),),
            row.source,
        ), name
    # CUDA asked for where the paste quantizes with bitsandbytes: bitsandbytes is the library named
    quantized = [
        "model = AutoModel.from_pretrained(name, load_in_8bit=True)",
        "AssertionError: Torch not compiled with CUDA enabled",
    ]
    found = cause_of(quantized)
    assert (found.id, found.summary) == (
        "backend-has-no-mps",
        "bitsandbytes runs its GPU code on CUDA only: it has no Metal/MPS backend",
    )
    assert found.fix == Remediation(
        "Turn bitsandbytes off on the Mac (load without 4/8-bit quantization: no load_in_8bit/load_in_4bit or "
        "BitsAndBytesConfig), or use its CPU path.",
        (),
    )


def test_each_frame_that_only_calls_back_is_passed_over_and_each_import_name_is_its_distribution() -> None:
    from mpscheck.checks.causes.library import DISTRIBUTION, NOT_THE_MAKER

    for passed in sorted(NOT_THE_MAKER):
        lines = [
            f'  File "{SITE}/diffusers/pipeline.py", line 1, in run',
            f'  File "{SITE}/{passed}/module.py", line 2, in call',
            FLOAT64,
        ]
        assert cause_of(lines).fix.commands[-1].endswith("--upgrade diffusers"), passed
    for directory, name in sorted(DISTRIBUTION.items()):
        lines = [f'  File "{SITE}/{directory}/module.py", line 2, in call', FLOAT64]
        assert cause_of(lines).fix.commands[-1].endswith(f"--upgrade {name}"), directory
    debian = ['  File "/usr/lib/python3/dist-packages/transformers/x.py", line 1, in f', FLOAT64]
    assert cause_of(debian).fix.commands == ("python3 -m pip install --upgrade transformers",)
    for metadata in ("foo.egg-info", "foo-1.0.dist-info"):
        lines = [f'  File "{SITE}/{metadata}/x.py", line 1, in f', FLOAT64]
        assert cause_of(lines).fix == row_fix("float64"), metadata
