"""Rows of the known-errors table (``mpscheck/knowledge/errors.py`` joins them into ``TABLE``) for what the
libraries built on torch say when they have no MPS path of their own, and for a torch message about MPS type names
that older releases raised; for a library's or a training script's refusal of any device but CUDA (transformers'
``--fp16`` check, ModelScope's device list, a script's ``assert torch.cuda.is_available()``).

Kept apart from ``error_texts.py`` (torch's and the installers' own texts): these rows read a library's
device table (DGL's ``KeyError: 'mps'``, DeepSpeed's half-written ``MPS_Accelerator``), torch's legacy type
strings that had no MPS entry, torch's index on another device, and a library's own check that the Python runs
translated (MuJoCo). Every pattern is an alternation of literals and bounded classes: linear on any line.
"""

from __future__ import annotations

from mpscheck.knowledge.distributed_rows import DISTRIBUTED
from mpscheck.knowledge.engine_rows import ENGINE
from mpscheck.knowledge.error_rows import Row
from mpscheck.knowledge.framework_device_rows import FRAMEWORK_DEVICE
from mpscheck.knowledge.half_rows import HALF

UPGRADE = "{python} -m pip install --upgrade torch"

LIBRARY: tuple[Row, ...] = (
    Row(
        "library-device-list-no-mps",
        # A library's own check of the device string, listing what it takes and no mps (ModelScope's pipelines,
        # FunASR's through them: "device should be either cpu, cuda, gpu, gpu:X or cuda:X ..."). The bounded look
        # ahead keeps a list that does name mps out; the device it was given ("got mps") is no such list.
        r"\bdevice (?:should|must) be (?:either |one of:? )?[\['\"(]?(?:cpu|cuda|gpu)\b"
        r"(?![^\n]{0,160}?(?<!got )(?<!got ')(?<!got \")(?<!not )\bmps\b)",
        "backend-has-no-mps",
        "the library that raised this takes only the devices it lists (cpu, cuda, gpu), not mps: its own device "
        "check refuses the Apple GPU",
        "Give that library device='cpu' (its device check lists no mps) and keep mps for plain torch work; upgrade "
        "the library if a newer release lists mps.",
        (),
        "https://github.com/jianchang512/pyvideotrans/pull/1028 (ModelScope's pipeline() accepts cpu/cuda/gpu only: "
        "'FunASRPipeline: device should be either cpu, cuda, gpu ...')",
    ),
    Row(
        "transformers-fp16-amp-mps",
        # transformers' TrainingArguments refusing --fp16 (or --bf16) anywhere but CUDA/NPU/XPU: on a Mac the Trainer's
        # device is mps, and that transformers/torch pair has no mixed precision there.
        r"(?:FP16 |BF16 )?Mixed precision training with AMP or APEX \(`--(?:fp16|bf16)`",
        "autocast-needs-newer-torch",
        "transformers refuses --fp16 mixed precision on mps with this transformers and torch (it allows it on CUDA, "
        "NPU and XPU only; fp16 amp on mps came with torch 2.8 and a newer accelerate)",
        "Train without mixed precision on mps (drop --fp16: float32), or upgrade torch to 2.8+ with transformers and "
        "accelerate.",
        ("{python} -m pip install --upgrade 'torch>=2.8' transformers accelerate",),
        "https://github.com/hiyouga/LlamaFactory/issues/2329 ('remove --fp16 or choose fp32 training'; "
        "transformers/training_args.py)",
    ),
    Row(
        "script-asserts-cuda",
        # A training script's own demand for CUDA, seen on its traceback's source line (so-vits-svc's train.py:
        # `assert torch.cuda.is_available(), "CPU training is not allowed."`): the AssertionError says less.
        r"\bassert torch\.cuda\.is_available\(\)",
        "cuda-requested-on-mac",
        "the script asserts that CUDA is there (assert torch.cuda.is_available()), which no Mac has: it will not "
        "start without an NVIDIA GPU",
        "The script demands CUDA: run it where there is an NVIDIA GPU, or change its CUDA assertion and cuda device "
        "to mps (or cpu) where the project's code allows it.",
        (),
        "https://github.com/svc-develop-team/so-vits-svc/issues/143 (train.py's CUDA assertion; the maintainers: "
        "mps lacks some of its functions)",
    ),
    Row(
        "library-device-table-no-mps",
        # A library that looks its device up by type ("KeyError: 'mps'": DGL's DGLGraph.to('mps')), or that picks a
        # half-written MPS accelerator class of its own (DeepSpeed's MPS_Accelerator with abstract methods left).
        r"\bKeyError: 'mps(?::\d)?'(?!\S)"
        r"|Can't instantiate abstract class MPS_?Accelerator\b"
        # a library's own parser of device names (ESP-PPQ's TorchExecutor: "Device type mps not understand"); torch's
        # own refusals ("Unsupported device type: mps" from an Inductor without MPS) are other rows'
        r"|\b[Dd]evice type '?mps'? (?:is )?not (?:understand|understood|recogni[sz]ed)\b",
        "backend-has-no-mps",
        "the library that raised this has no (complete) mps device of its own: its table of devices or its "
        "accelerator class does not cover mps",
        "Keep that library's work on the CPU (device='cpu', or turn its accelerator off) and use mps only for plain "
        "torch tensors; upgrade the library if a newer release lists mps.",
        (),
        "https://github.com/dmlc/dgl/issues/4274 ('DGL currently does not support mps device'); "
        "https://github.com/deepspeedai/DeepSpeed/issues/5132 (MPS_Accelerator with abstract methods); "
        "https://github.com/espressif/esp-dl/issues/221 (PPQ's executor: 'Device type mps not understand')",
    ),
    Row(
        "index-device-mismatch",
        # torch's check of an index: a CPU tensor indexed with a mask or indices on mps (ChatTTS's experimental mps
        # path, ChatTTS#772), or the reverse; the other device-mismatch texts are in errors.py.
        r"indices should be either on cpu or on the same device as the indexed tensor \((?:cpu|mps(?::\d)?)\)",
        "device-mismatch",
        "a tensor was indexed with indices (or a mask) on another device: one is on mps, the other on the CPU",
        "Move the indices to the indexed tensor's device (x[idx.to(x.device)]), or the tensor .to(idx.device), so "
        "both are on mps or both on the CPU.",
        (),
        "aten/src/ATen/native/TensorAdvancedIndexing.cpp (check_indices_on_cpu_or_selfdevice); "
        "https://github.com/2noise/ChatTTS/issues/772",
    ),
    Row(
        "legacy-type-string-mps",
        # torch/csrc/utils/tensor_types.cpp: x.type(name) looks the name up among the legacy types, and the MPS
        # types ('torch.mps.FloatTensor', which x.type() itself returns) were missing from that list.
        r"invalid type: 'torch\.mps\.\w{1,30}Tensor'",
        "metal-bug-fixed-later",
        "torch returned an MPS type name ('torch.mps.*Tensor') that its own .type() could not take back: a gap of "
        "older torch's legacy type list for mps",
        "Upgrade torch; or make the tensor with the input's device and dtype (torch.zeros(..., device=x.device, "
        "dtype=x.dtype)) instead of .type(x.type()).",
        (UPGRADE,),
        "torch/csrc/utils/tensor_types.cpp ('invalid type: '%s''); https://github.com/pytorch/pytorch/issues/82296; "
        "https://github.com/speechbrain/speechbrain/issues/1794",
    ),
    Row(
        "library-says-rosetta-python",
        # MuJoCo's own check on import (mujoco/__init__.py: sysctl.proc_translated is 1 and platform.machine() is
        # x86_64), also passed on by gymnasium's DependencyNotInstalled: the library saw the translation itself.
        r"running an x86_64 build of Python on an Apple Silicon machine",
        "rosetta-python",
        "the library checked the process itself: this Python is an x86_64 build running translated by Rosetta 2 "
        "on Apple silicon",
        "Install a native arm64 Python (an arm64 Miniforge/Miniconda, or python.org's universal2 installer from a "
        "terminal not opened with Rosetta) and make the environment again with it; check with:",
        ("arch", "{python} -c 'import platform; print(platform.machine())'"),
        "https://github.com/google-deepmind/mujoco (python/mujoco/__init__.py: the ImportError on a translated "
        "x86_64 Python); https://github.com/huggingface/lerobot/pull/665",
    ),
    Row(
        "library-feature-needs-gpu",
        # A library's feature that demands a GPU in its own words, where "GPU" means CUDA (transformers'
        # OffloadedCache: "OffloadedCache can only be used with a GPU", OmniGen#55/#118 on M1/M3 Macs; a script's own
        # assertion message "only available on gpu", DiffRhythm#23): the code path asks for CUDA, so mps never runs.
        # The exception's own text only ("RuntimeError: ..."): the same words in prose are read by prose_cuda.py,
        # which asks for a Mac in the paste ("Current version only runs on CUDA devices" alone is anyone's machine).
        r"\b[A-Z]\w{0,40}(?:Error|Exception): [^\n]{0,160}?"
        r"\b(?:can |(?:is|are) )?only (?:be used|supported|available|usable|works?|runs?) "
        r"(?:with|on) (?:an? )?(?:cuda|CUDA|nvidia|NVIDIA|gpu|GPU)(?: GPUs?| gpus?| devices?)?\b"
        r"(?! ?(?:or|and|/) ?(?:mps|MPS|metal|Metal|apple|Apple|cpu|CPU))",
        "cuda-requested-on-mac",
        "a library feature the code turned on (a GPU-offloaded cache, a GPU-only kernel or mode) works only with a "
        "CUDA GPU, which no Mac has: mps does not count as that GPU",
        "Turn that feature off on the Mac (OmniGen: pipe(..., use_kv_cache=False) or offload_kv_cache=False; the "
        "library's GPU-only option in general) and run on device mps, not cuda.",
        (),
        "transformers cache_utils.py (OffloadedCache: 'OffloadedCache can only be used with a GPU'); "
        "https://github.com/VectorSpaceLab/OmniGen/issues/118 (maintainer: use_kv_cache=False on mps)",
    ),
    *DISTRIBUTED,
    *HALF,
    *ENGINE,
    *FRAMEWORK_DEVICE,
)
