"""CPU- and CUDA-only kernels a recording can contain, mapped back to the op that MPS will see.

A recording made on Linux sees the op the CPU or CUDA build chose (oneDNN convolution, CPU flash
attention, cuDNN batch norm); on a Mac the same Python code reaches a different op. Each row names
the op MPS sees instead and where torch makes the choice (pytorch/pytorch, read at main with the
look-up tools; dispatch keys from the installed release's ``native_functions.yaml``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BackendKernel:
    """*mps_op*: the op MPS sees instead (None: torch takes a plain-op path on MPS, nothing to look up)."""

    mps_op: str | None
    why: str
    source: str


_SDPA = BackendKernel(
    "aten::scaled_dot_product_attention",
    "scaled_dot_product_attention picks a fused backend per device; on MPS it takes the math path "
    "(_scaled_dot_product_attention_math_for_mps where the release has it, else the composite math)",
    "aten/src/ATen/native/transformers/attention.cpp (scaled_dot_product_attention, _fused_sdp_choice: "
    "dispatch keys CPU, CUDA, XPU, Meta only)",
)
_CONV = BackendKernel(
    "aten::convolution",
    "_convolution selects the backend kernel (cuDNN, MIOpen, oneDNN, NNPACK, or _mps_convolution on MPS)",
    "aten/src/ATen/native/Convolution.cpp (select_conv_backend, ConvBackend::Mps)",
)
_BN = BackendKernel(
    "aten::native_batch_norm",
    "batch_norm calls cudnn_batch_norm / miopen_batch_norm only on CUDA; other devices use native_batch_norm",
    "aten/src/ATen/native/Normalization.cpp (_batch_norm_impl_index)",
)
_BN_BACKWARD = BackendKernel(
    "aten::native_batch_norm_backward",
    "the backward of native_batch_norm",
    "aten/src/ATen/native/Normalization.cpp (_batch_norm_impl_index_backward)",
)
_LSTM = BackendKernel(
    "aten::_lstm_mps",
    "cuDNN/oneDNN run the whole RNN; on MPS an LSTM runs _lstm_mps (GRU and RNN decompose into plain ops)",
    "aten/src/ATen/native/RNN.cpp (lstm: use_mkldnn, at::_lstm_mps when the input is on MPS)",
)
_LSTM_BACKWARD = BackendKernel(
    "aten::lstm_mps_backward",
    "the backward of _lstm_mps",
    "aten/src/ATen/native/RNN.cpp; native_functions.yaml lstm_mps_backward (dispatch MPS)",
)
_FAST_PATH = BackendKernel(
    None,
    "the fused transformer fast path runs only on cpu, cuda, xpu and a privateuse1 device; "
    "on MPS the module takes its plain Python path (linear, attention, layer norm)",
    "torch/nn/modules/transformer.py (_supported_device_type), torch/nn/modules/activation.py (_check_arg_device)",
)

_DROPOUT = BackendKernel(
    "aten::bernoulli_.float",
    "dropout takes the fused native_dropout only on cuda, xpu, lazy and privateuse1 devices; on MPS it takes "
    "the composite path (a bernoulli_ mask, then a multiply), whatever MPS kernels the release has",
    "aten/src/ATen/native/Dropout.cpp (is_fused_kernel_acceptable: no MPS in any version read; "
    "checked on the H100 device machine: pytorch/examples mnist records native_dropout on CUDA)",
)
_DROPOUT_BACKWARD = BackendKernel(
    None, "the backward of dropout's composite path is a multiply by the mask", "aten/src/ATen/native/Dropout.cpp"
)

BACKEND_KERNELS: dict[str, BackendKernel] = {
    "aten::native_dropout": _DROPOUT,
    "aten::native_dropout_backward": _DROPOUT_BACKWARD,
    "aten::_scaled_dot_product_flash_attention_for_cpu": _SDPA,
    "aten::_scaled_dot_product_flash_attention_for_cpu_backward": _SDPA,
    "aten::_scaled_dot_product_flash_attention": _SDPA,
    "aten::_scaled_dot_product_flash_attention_backward": _SDPA,
    "aten::_scaled_dot_product_efficient_attention": _SDPA,
    "aten::_scaled_dot_product_efficient_attention_backward": _SDPA,
    "aten::_scaled_dot_product_cudnn_attention": _SDPA,
    "aten::_scaled_dot_product_cudnn_attention_backward": _SDPA,
    "aten::_flash_attention_forward": _SDPA,
    "aten::_flash_attention_backward": _SDPA,
    "aten::_efficient_attention_forward": _SDPA,
    "aten::_efficient_attention_backward": _SDPA,
    "aten::_cudnn_attention_forward": _SDPA,
    "aten::_cudnn_attention_backward": _SDPA,
    "aten::mkldnn_convolution": _CONV,
    "aten::_nnpack_spatial_convolution": _CONV,
    "aten::cudnn_convolution": _CONV,
    "aten::cudnn_convolution_transpose": _CONV,
    "aten::cudnn_convolution_relu": _CONV,
    "aten::cudnn_convolution_add_relu": _CONV,
    "aten::miopen_convolution": _CONV,
    "aten::miopen_convolution_transpose": _CONV,
    "aten::miopen_depthwise_convolution": _CONV,
    "aten::cudnn_batch_norm": _BN,
    "aten::miopen_batch_norm": _BN,
    "aten::cudnn_batch_norm_backward": _BN_BACKWARD,
    "aten::miopen_batch_norm_backward": _BN_BACKWARD,
    "aten::mkldnn_rnn_layer": _LSTM,
    "aten::_cudnn_rnn": _LSTM,
    "aten::miopen_rnn": _LSTM,
    "aten::mkldnn_rnn_layer_backward": _LSTM_BACKWARD,
    "aten::_cudnn_rnn_backward": _LSTM_BACKWARD,
    "aten::miopen_rnn_backward": _LSTM_BACKWARD,
    "aten::_cudnn_ctc_loss": BackendKernel(
        "aten::_ctc_loss",
        "ctc_loss uses cuDNN only on CUDA; elsewhere _ctc_loss",
        "aten/src/ATen/native/LossCTC.cpp (ctc_loss: use_cudnn)",
    ),
    "aten::_cudnn_ctc_loss.Tensor": BackendKernel(
        "aten::_ctc_loss.Tensor",
        "ctc_loss uses cuDNN only on CUDA; elsewhere _ctc_loss",
        "aten/src/ATen/native/LossCTC.cpp (ctc_loss: use_cudnn)",
    ),
    "aten::cudnn_grid_sampler": BackendKernel(
        "aten::grid_sampler_2d",
        "grid_sampler uses cuDNN only on CUDA; elsewhere grid_sampler_2d",
        "aten/src/ATen/native/GridSampler.cpp (grid_sampler: cond_cudnn_grid_sampler)",
    ),
    "aten::cudnn_grid_sampler_backward": BackendKernel(
        "aten::grid_sampler_2d_backward",
        "the backward of grid_sampler_2d",
        "aten/src/ATen/native/GridSampler.cpp",
    ),
    "aten::cudnn_affine_grid_generator": BackendKernel(
        "aten::affine_grid_generator",
        "affine_grid uses cuDNN only on CUDA",
        "torch/nn/functional.py (affine_grid: cudnn_is_acceptable)",
    ),
    "aten::cudnn_affine_grid_generator_backward": BackendKernel(
        "aten::affine_grid_generator_backward",
        "the backward of affine_grid_generator",
        "torch/nn/functional.py (affine_grid)",
    ),
    "aten::_transformer_encoder_layer_fwd": _FAST_PATH,
    "aten::_native_multi_head_attention": _FAST_PATH,
    "aten::_weight_int4pack_mm_for_cpu": BackendKernel(
        "aten::_weight_int4pack_mm",
        "the CPU build has its own int4 packing; other devices use _weight_int4pack_mm",
        "native_functions.yaml (_weight_int4pack_mm_for_cpu: dispatch CPU)",
    ),
    "aten::_convert_weight_to_int4pack_for_cpu": BackendKernel(
        "aten::_convert_weight_to_int4pack",
        "the CPU build has its own int4 packing; other devices use _convert_weight_to_int4pack",
        "native_functions.yaml (_convert_weight_to_int4pack_for_cpu: dispatch CPU)",
    ),
}

# Ops that never reach a device kernel: CUDA-only bookkeeping with no MPS counterpart at all.
NOT_ON_MPS = frozenset({"aten::_cudnn_init_dropout_state", "aten::_cudnn_rnn_flatten_weight"})


# CompositeImplicit ops that MPSFallback.mm registers for the MPS key (so they run on the CPU on
# MPS, whole), mapped from the op a Linux recording sees instead (their decomposition): a recording
# never sees the composite op itself. Sources: aten/src/ATen/mps/MPSFallback.mm (m.impl of
# linalg_svd, linalg_svd.U, upsample_nearest3d.vec); native_functions.yaml (linalg_svd is
# CompositeImplicitAutograd over _linalg_svd; upsample_nearest3d.vec over upsample_nearest3d);
# torch 2.13 on Linux records torch.svd, torch.linalg.svd and torch.linalg.svdvals all as
# aten::_linalg_svd, and F.interpolate(mode="nearest") of a 5-d input as aten::upsample_nearest3d.
DECOMPOSED_FROM: dict[str, str] = {
    "aten::_linalg_svd": "aten::linalg_svd",
    "aten::_linalg_svd.U": "aten::linalg_svd.U",
    "aten::upsample_nearest3d": "aten::upsample_nearest3d.vec",
}


# torch.optim's default multi-tensor path: taken only on the devices listed by
# torch/utils/_foreach_utils.py _get_foreach_kernels_supported_devices(), which is cuda, xpu (and mtia
# from 2.9) plus a privateuse1 device in every macOS arm64 wheel from 2.1.0 to 2.15.0 (read from the
# wheels; 2.0 decides by p.is_cuda). On MPS the optimizer loops over its tensors with per-tensor ops.
FOREACH_DEVICES = ("cuda", "xpu", "mtia")
_OPTIMIZER_FOREACH = BackendKernel(
    None,
    "recorded on a device where torch.optim defaults to its multi-tensor (foreach) path; on MPS the "
    "optimizer takes its per-tensor loop instead (unless the script passes foreach=True)",
    "torch/utils/_foreach_utils.py (_get_foreach_kernels_supported_devices: no 'mps' in 2.1-2.15); "
    "torch/optim/optimizer.py (_default_to_fused_or_foreach)",
)


def mps_side(name: str, devices: tuple[str, ...] = ()) -> BackendKernel | None:
    """The mapping for a recorded op name (and the devices it ran on), or None when MPS sees the same op."""
    if name.startswith("aten::_foreach_") and devices and all(d.split(":")[0] in FOREACH_DEVICES for d in devices):
        return _OPTIMIZER_FOREACH
    return BACKEND_KERNELS.get(name)
