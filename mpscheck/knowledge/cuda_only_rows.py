"""The known-errors table's row for a library whose GPU code runs on CUDA only (bitsandbytes and transformers'
quantizers, AutoGPTQ, GPTQ-for-LLaMa, xformers, flash-attn, cpm_kernels), failing on a Mac in its own words: the
library has no Metal/MPS backend, so the fix is doing without it (joined into knowledge/error_texts.py in its place
among the early rows).
"""

from __future__ import annotations

from mpscheck.knowledge.error_rows import Row

CUDA_ONLY_LIBRARY = Row(
    "cuda-only-library",
    r"bitsandbytes was compiled without GPU support"
    # transformers says this where bitsandbytes is unusable, and it counts bitsandbytes unusable without CUDA
    r"|Using `bitsandbytes` (?:8|4)-bit quantization requires Accelerate"
    r"|No operator found for `memory_efficient_attention_\w+`"
    # xformers' attention kernels, named in its dispatch error ("`cutlassF` is not supported because: device=mps")
    r"|\bcutlassF\b|\btritonflashattF\b|\bflshattF\b|\bsmallkF\b"
    # transformers' check of a model's remote code that imports flash_attn (Florence-2: microsoft/OmniParser#224)
    r"|packages that were not found in your environment: [\w, -]{0,120}?\bflash_attn\b"
    r"|No module named '?flash_attn"
    # ... that check's message cut short in a title ("ImportError: This modeling file requires... flash_attn",
    # replit/ReplitLM#8), and flash-attn's own setup.py refusing to build without CUDA's compiler on a Mac
    # ("flash_attn was requested, but nvcc was not found", OpenBMB/MiniCPM-V#11, Dao-AILab/flash-attention#770)
    r"|This modeling file requires\b[^\n]{0,160}?\bflash_attn\b"
    r"|flash_attn was requested, but nvcc was not found"
    r"|FlashAttention only supports Ampere GPUs or newer"
    # cpm_kernels, the CUDA kernels of ChatGLM's int4/int8 models: it looks for nvrtc and knows no macOS
    r"|Failed to load cpm_kernels|\bcpm_kernels\b.{0,200}?Unknown platform: darwin"
    r"|cpm_kernels/library/(?:nvrtc|base)\.py\b"
    r"|object has no attribute 'int4WeightExtraction\w*'"
    # transformers' bitsandbytes (and HQQ) quantizers refuse without CUDA (quantizers/quantizer_bnb_4bit.py)
    r"|No GPU found\. A GPU is needed for quantization"
    # AutoGPTQ's CUDA extension, left undefined where it was not built (auto_gptq/nn_modules/qlinear)
    r"|name '?autogptq_cuda_(?:256|64)'? is not defined"
    # a model's code that imports xformers, which has no Metal kernels (zai-org/CogVLM#432: Linux only)
    r"|No module named '?xformers\b"
    # Mamba's CUDA kernels (mamba_ssm, causal_conv1d), which a hybrid model's code imports (Zyphra/Zonos#1 on an M1)
    r"|No module named '?(?:mamba_ssm|causal_conv1d)\b"
    # GPTQ-for-LLaMa's loader of 4-bit GPTQ models in text-generation-webui: CUDA kernels only
    r"|No module named '?llama_inference_offload\b"
    # pip building one of these CUDA-only packages from its source on a Mac, which has no wheel of them, and failing
    # ("Building wheel for xformers (setup.py) ... error" on an M1 Pro, unslothai/unsloth#414; "Failed building
    # wheel for xformers", AUTOMATIC1111/stable-diffusion-webui#16921): not an MPS error, the package needs CUDA
    r"|\bBuilding wheel for (?:xformers|flash[-_]attn|mamba[-_]ssm|causal[-_]conv1d|auto[-_]gptq)\b[^\n]{0,20}?"
    r"\.\.\. error\b"
    + "".join(
        rf"|\b{failed} (?:xformers|flash[-_]attn|mamba[-_]ssm|causal[-_]conv1d|auto[-_]gptq)\b"
        for failed in ("Failed building wheel for", "Failed to build", "Could not build wheels for")
    ),
    "backend-has-no-mps",
    "the library that failed (bitsandbytes, xformers, flash-attn, or cpm_kernels of a quantized ChatGLM-style "
    "model) runs its GPU code on CUDA only: it has no Metal/MPS backend",
    "Turn that library off on the Mac (no 4/8-bit loading, the unquantized model in float16/float32 for mps, "
    "attention without xformers/flash-attn: the default attention, sdpa), or use its CPU path.",
    (),
    "https://github.com/bitsandbytes-foundation/bitsandbytes (cextension.py); "
    "https://github.com/OpenBMB/MiniCPM-V/issues/215 (transformers' 'requires Accelerate' on an M3: "
    "bitsandbytes supports CUDA only); "
    "https://github.com/facebookresearch/xformers (ops/fmha/dispatch.py); "
    "https://github.com/Dao-AILab/flash-attention (setup.py: nvcc not found); "
    "https://github.com/replit/ReplitLM/issues/8 (flash_attn on an M1: use the default attention); "
    "https://github.com/zai-org/ChatGLM-6B/issues/462 (int4 kernels are CUDA: CPU only; half runs on mps); "
    "https://github.com/PromtEngineer/localGPT/issues/145 (autogptq doesn't support mps); "
    "https://github.com/zai-org/CogVLM/issues/432 (xformers and triton: Linux only); "
    "https://github.com/facebookresearch/xformers/issues/740 ('xformers is not compatible with MacOS')",
)
