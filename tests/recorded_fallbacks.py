"""What torch printed on real Macs about CPU fallbacks, copied from public threads, each with its source.

Nobody on the team has a Mac. Only what the thread shows is kept (paths as the reporter's machine
printed them); nothing is filled in. No public thread was found that shows the CPU-fallback
statistics table (PYTORCH_MPS_LOG_PROFILE_INFO with CPU_FALLBACK_STATS); the one real profiler
output below is the sibling "MPS Operations Profiling" table from the same profiler, which the
fallback reader must not mistake for fallbacks. The fallback table's layout is tested in
test_ops_trace.py from the format strings in torch's source, and says so.
"""

from __future__ import annotations

# pytorch/pytorch#96942 (2023-03-16, torch 2.0): the warning with PYTORCH_ENABLE_MPS_FALLBACK=1, as
# printed in VS Code (the path became a link there; kept as shown).
ROLL_WARNING_2_0 = (
    "UserWarning: The operator 'aten::roll' is not currently supported on the MPS backend and will fall "
    "back to run on the CPU. This may have performance implications. (Triggered internally at "
    "[/Users/runner/work/pytorch/pytorch/pytorch/aten/src/ATen/mps/MPSFallback.mm:11](https://file+.vscode-"
    "resource.vscode-cdn.net/Users/runner/work/pytorch/pytorch/pytorch/aten/src/ATen/mps/MPSFallback.mm:11).)\n"
    "  shifted_x = torch.roll(x, shifts=(-self.shift_size, -self.shift_size), dims=(1, 2))\n"
)

# pytorch/pytorch#80278 (2022-06-25, a 1.13 nightly): the warning printed while printing a tensor.
BITWISE_AND_WARNING = (
    "/Users/marco/miniforge3/envs/torch/lib/python3.9/site-packages/torch/_tensor_str.py:103: UserWarning: "
    "The operator 'aten::bitwise_and.Tensor_out' is not currently supported on the MPS backend and will fall "
    "back to run on the CPU. This may have performance implications. (Triggered internally at "
    "/Users/runner/work/pytorch/pytorch/pytorch/aten/src/ATen/mps/MPSFallback.mm:11.)\n"
    "  nonzero_finite_vals = torch.masked_select(tensor_view, torch.isfinite(tensor_view) & tensor_view.ne(0))\n"
)

# invoke-ai/InvokeAI#262 (2022-08-31): a warning, then the error of an op without a kernel, in the
# early wording "not current implemented".
INVOKEAI_WARNING_AND_ERROR = (
    ".../stable-diffusion/ldm/modules/embedding_manager.py:152: UserWarning: The operator 'aten::nonzero' is "
    "not currently supported on the MPS backend and will fall back to run on the CPU. This may have "
    "performance implications. (Triggered internally at  /Users/runner/miniforge3/conda-bld/"
    "pytorch-recipe_1660136240338/work/aten/src/ATen/mps/MPSFallback.mm:11.)\n"
    '.../stable-diffusion/ldm/modules/embedding_manager.py", line 155, in forward\n'
    "    embedded_text[placeholder_idx] = placeholder_embedding\n"
    "NotImplementedError: The operator 'aten::_index_put_impl_' is not current implemented for the MPS "
    "device. If you want this op to be added in priority during the prototype phase of this feature, please "
    "comment on https://github.com/pytorch/pytorch/issues/77764. As a temporary fix, you can set the "
    "environment variable `PYTORCH_ENABLE_MPS_FALLBACK=1` to use the CPU as a fallback for this op. WARNING: "
    "this will be slower than running natively on MPS.\n"
)

# pytorch/pytorch#141287 (2025-07-06, torch 2.7.1): the 2.6+ wording of the error.
LOGSPACE_ERROR_2_7 = (
    "NotImplementedError: The operator 'aten::logspace.out' is not currently implemented for the MPS device. "
    "If you want this op to be considered for addition please comment on "
    "https://github.com/pytorch/pytorch/issues/141287 and mention use-case, that resulted in missing op as "
    "well as commit hash e2d141dbde55c2a4370fac5165b0561b6af4798b. As a temporary fix, you can set the "
    "environment variable `PYTORCH_ENABLE_MPS_FALLBACK=1` to use the CPU as a fallback for this op. WARNING: "
    "this will be slower than running natively on MPS.\n"
)

# replicate/latent-consistency-model#3 (2023-10-27): a kernel that runs on the CPU on older macOS.
UPSAMPLE_MACOS_WARNING = (
    "/Users/chigozie/anaconda3/envs/lcm/lib/python3.11/site-packages/torch/nn/functional.py:3931: UserWarning: "
    "MPS: passing scale factor to upsample ops is supported natively starting from macOS 13.0. Falling back "
    "on CPU. This may have performance implications. (Triggered internally at /Users/runner/work/pytorch/"
    "pytorch/pytorch/aten/src/ATen/native/mps/operations/UpSample.mm:233.)\n"
)

# tinygrad/tinygrad#1167 (2023-07-07, a 2.1 nightly): PYTORCH_MPS_LOG_PROFILE_INFO=31 output: per-op
# info lines, copies, the script's own lines, and the start of the operations table (the thread's
# excerpt ends inside the table header; kept as far as it goes).
TINYGRAD_PROFILE_31 = (
    "BlitCopySync: CPU:Float[4096, 4096] --> MPS:Float[4096, 4096] (len=64.00 MB)\n"
    "BlitCopySync: MPS:Float[4096, 4096] --> CPU:Float[4096, 4096] (len=64.00 MB)\n"
    "aten::add_out_mps::f32[4096,4096]:i64[Scalar]:f32[4096,4096] (id=G1, run=1)\n"
    "BlitCopySync: MPS:Float[4096, 4096] --> CPU:Float[4096, 4096] (len=64.00 MB)\n"
    "aten::sum_out_mps:0,1::f32[4096,4096]:0:4::f32[Scalar]: (id=G2, run=1)\n"
    "BlitCopySync: MPS:Float[] --> CPU:Float[] (len=4 bytes)\n"
    " sum                             4096x 4096    4.50 ms (    3.73 GFLOPS    14.91 GB/s) in torch,    8.52 ms "
    "(    1.97 GFLOPS     7.88 GB/s) in tinygrad,    1.89x slower      16.78 MOPS    67.11 MB\n"
    ".\n"
    "----------------------------------------------------------------------\n"
    "Ran 1 test in 0.188s\n"
    "\n"
    "OK\n"
    "\n"
    "---------------------------------------------------------------------------- MPS Operations Profiling: 2 "
    "graphs, 0 kernels -----------------------------------------------------------------------------\n"
    "  ID  | #Runs | Mean KRNL(ms) | Mean GPU(ms) | Total GPU(ms) | Operat\n"
)
