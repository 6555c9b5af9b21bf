"""More rows of the known-errors table (``mpscheck/knowledge/errors.py`` joins them into ``TABLE``):
the texts that torch, the Objective-C runtime, Metal and the installers (pip, uv, Poetry, pixi, conda)
print to everyone, for the causes the 2026-11-24 corpus threads concluded.

``EARLY`` rows are tried before the older rows, because each is more specific than an older row that
would also match (a conv size limit before the generic Metal assertion, two MPS dtypes in a conv
before "different devices", complex dtypes before the macOS-14 row); ``LATE`` rows after them (a
``Killed: 9`` says less than torch's own out-of-memory line). Every pattern is a plain alternation of
literals and bounded classes: linear on any line.
"""

from __future__ import annotations

from mpscheck.knowledge.cpu_rows import ON_THE_CPU
from mpscheck.knowledge.cuda_only_rows import CUDA_ONLY_LIBRARY
from mpscheck.knowledge.dispatch_rows import DISPATCH
from mpscheck.knowledge.error_rows import TORCH_ISSUE, WARNING, Row
from mpscheck.knowledge.install_rows import INSTALL
from mpscheck.knowledge.metal_rows import MEMORY
from mpscheck.knowledge.native_rows import NATIVE

UPGRADE = "{python} -m pip install --upgrade torch"
FALLBACK_USELESS = "PYTORCH_ENABLE_MPS_FALLBACK does not help here"

EARLY: tuple[Row, ...] = (
    Row(
        "lightning-mps-quoted",
        r"`MPSAccelerator` can not run on your system since the accelerator is not available",
        "lightning-processor",
        "Lightning says MPS is not available: it also requires platform.processor() to be 'arm', which an x86_64 "
        "(Rosetta) Python reports as 'i386'",
        "Run a native arm64 Python; check what Lightning sees with platform.processor().",
        ("{python} -c 'import platform; print(platform.processor())'",),
        "https://github.com/Lightning-AI/pytorch-lightning/issues/15861 (newer Lightning quotes the class name)",
    ),
    Row(
        "mps-size-limit",
        r"Output channels > 65536 not supported at the MPS device"
        r"|\[MPS\w*NDArray initWithDevice:descriptor:[\w:]*\] Error"
        r"|total bytes of NDArray > 2\*\*32|NDArray dimension length > INT_MAX"
        r"|does not support tensor dims larger than INT_MAX",
        "mps-size-limit",
        "a size limit of torch's MPS kernels was hit (a convolution with more than 65536 output channels, a "
        "dimension over INT_MAX, an MPS array over 2**32 bytes); " + FALLBACK_USELESS,
        "Keep the tensor under the limit on mps (fewer channels, split the batch or the sequence) or run that op on "
        "the CPU; newer torch and macOS lift some of these limits (conv channels > 65536 on macOS 15.1+).",
        (UPGRADE, "softwareupdate --list"),
        TORCH_ISSUE + "129207; PR pytorch/pytorch#140726; PR pytorch/pytorch#158824 "
        "(aten/src/ATen/native/mps/operations/Convolution.mm)",
    ),
    Row(
        "complex-on-mps",
        r"Trying to convert (?P<dtype>Complex\w+) to the MPS backend",
        "dtype-unsupported",
        "this torch has no {dtype} on MPS (complex64 came to MPS in later torch releases on macOS 14; complex128 "
        "never did)",
        "Keep complex tensors (and torch.fft on them) on the CPU: x.cpu() before the op, then .to('mps'); or use "
        "complex64 with a newer torch on macOS 14 or later.",
        (UPGRADE, "softwareupdate --list"),
        TORCH_ISSUE + "78044; " + TORCH_ISSUE + "176981 (aten/src/ATen/native/mps/OperationUtils.mm, getMPSDataType)",
    ),
    Row(
        "input-dtype-mismatch",
        r"Input type \((?P<input>[\w.]{0,40}MPS\w{0,40}|torch\.mps\.\w{1,40})\) and weight type "
        r"\((?P<weight>[\w.]{0,40}MPS\w{0,40}|torch\.mps\.\w{1,40})\) should be the same"
        r"|Input type \((?P<input2>[\w.:]{1,60})\) and bias type \((?P<weight2>[\w.:]{1,60})\) should be the same"
        r"|mat1 and mat2 must have the same dtype|MPS device does not support linear for non-float inputs",
        "input-dtype-mismatch",
        "the input and the weights (or two operands) are on the same device but of different dtypes",
        "Cast the input to the model's dtype before the call: x = x.to(device='mps', dtype=torch.float32) (an image "
        "read as uint8 needs .float() / 255).",
        (),
        "aten/src/ATen/native/Convolution.cpp (check_input_same_type_as_parameters)",
    ),
    Row(
        "not-linked-mps",
        r"PyTorch is not linked with support for mps devices",
        "torch-not-built-with-mps",
        "this torch has no MPS device at all (PyTorch is not linked with support for mps devices): either it runs on "
        "Linux or Windows (a Docker container on a Mac is Linux), where torch has no MPS, or it is a macOS build "
        "made without MPS; the paste does not show which",
        "Print where this torch runs and whether it has MPS: on Linux or Windows use CUDA or the CPU (MPS exists only "
        "on macOS); on a Mac install the PyPI torch with this interpreter.",
        (
            "{python} -c 'import platform, torch; print(platform.system(), platform.machine(), "
            "torch.backends.mps.is_built())'",
            "{python} -m pip install --force-reinstall torch",
        ),
        "c10/core/impl/DeviceGuardImplInterface.h (getDeviceGuardImpl); https://github.com/jankais3r/LLaMA_MPS/issues/6",
    ),
    Row(
        "compile-on-mps",
        r"\bDevice mps not supported\b|BackendCompilerFailed: \w+ raised AssertionError: Torch not compiled",
        "compile-needs-newer-torch",
        "torch.compile (Inductor) has no MPS backend in this torch: MPSInductor came with torch 2.8",
        "Upgrade torch to 2.8 or later for torch.compile on mps; meanwhile run eager (no torch.compile) or "
        "torch.compile(model, backend='aot_eager').",
        ("{python} -m pip install --upgrade 'torch>=2.8'",),
        TORCH_ISSUE + "125254; " + TORCH_ISSUE + "96976 (torch/_inductor: MPS backend in 2.8)",
    ),
    Row(
        "autocast-device-mps",
        # also retyped ("Userspecified an ...", lm-sys/FastChat#3120) or cut in a title (ComfyUI-LTXVideo#90)
        r"(?:User ?specified an )?unsupported autocast device_type '?mps",
        "autocast-needs-newer-torch",
        "this torch has no autocast for mps (MPS autocast came with torch 2.5 for float16, 2.6 for bfloat16)",
        "Upgrade torch (2.6 or later for bfloat16 autocast on mps) and the library that asked for it, or turn "
        "mixed precision off on mps.",
        ("{python} -m pip install --upgrade 'torch>=2.6' accelerate",),
        "https://github.com/huggingface/accelerate/issues/2693 (torch/amp/autocast_mode.py)",
    ),
    Row(
        "accelerate-fp16-mps",
        r"(?:fp16|bf16) mixed precision requires (?:a GPU(?: \(not '?mps'?\)|(?! \())"  # older accelerate: bare
        r"|PyTorch >= [\d.]+ and a supported)"
        r"|fp16 mixed precision requires a GPU \(not \{self\.device\.type!r\}\)",  # the raise line, quoted
        "autocast-needs-newer-torch",
        "accelerate refuses mixed precision on mps with this torch and accelerate (fp16 amp on mps needs torch 2.8 "
        "and an accelerate with huggingface/accelerate#3373)",
        "Train without mixed precision on mps (fp16=False / mixed_precision='no'), or upgrade torch to 2.8+ and "
        "accelerate.",
        ("{python} -m pip install --upgrade 'torch>=2.8' accelerate",),
        "https://github.com/huggingface/accelerate/issues/3718 (accelerate/accelerator.py)",
    ),
    Row(
        "autocast-dtype-mps",
        r"In MPS autocast, but the target dtype is not supported|MPS Autocast only supports dtype of torch\.\w+",
        "autocast-needs-newer-torch",
        "this torch's MPS autocast does not take the dtype asked for, so autocast was disabled (float16 from torch "
        "2.5, bfloat16 from 2.6)",
        "Autocast with dtype=torch.float16 on mps with this torch, or upgrade torch for bfloat16 autocast.",
        ("{python} -m pip install --upgrade 'torch>=2.6'",),
        TORCH_ISSUE + "139190 (torch/amp/autocast_mode.py)",
        severity=WARNING,
    ),
    Row(
        "torch-amp-module",
        # nanoGPT's train.py calls torch.amp.autocast(device_type=...): an old torch has no torch.amp package.
        r"module 'torch' has no attribute 'amp'|No module named 'torch\.amp'",
        "autocast-needs-newer-torch",
        "this torch is too old to have torch.amp, the autocast the code asks for by device type (autocast on mps "
        "itself needs torch 2.5 for float16, 2.6 for bfloat16)",
        "Upgrade torch (2.6 or later for autocast on mps), or run without autocast (a float32 dtype option).",
        ("{python} -m pip install --upgrade 'torch>=2.6'",),
        "https://github.com/karpathy/nanoGPT/issues/150 (torch/amp/__init__.py)",
    ),
    Row(
        "nccl-on-mac",
        # torch.distributed's NCCL backend and torch.cuda.set_device exist only in CUDA builds: Meta's llama
        # examples call init_process_group("nccl") and then torch.cuda.set_device. A build without NCCL also warns
        # "Attempted to get default timeout for nccl backend, but NCCL support is not compiled" when asked for that
        # backend (distributed_c10d.py's _get_default_timeout), the one line a traceback cut short may keep (llama3#75).
        r"Distributed package doesn't have NCCL built in|module 'torch\._C' has no attribute '_cuda_setDevice'"
        r"|timeout for nccl backend, but NCCL support is not compiled",
        "cuda-requested-on-mac",
        "the code starts torch.distributed with the NCCL backend (or sets a CUDA device), which only CUDA builds "
        "have: it asks for an NVIDIA GPU",
        "Use the gloo backend (torch.distributed.init_process_group('gloo')) and device mps or cpu instead of "
        "cuda, or run the script without torchrun where it does not need distributed at all.",
        ("{python} -c 'import torch; print(torch.backends.mps.is_available())'",),
        "torch/distributed/distributed_c10d.py (init_process_group, _get_default_timeout); "
        "https://github.com/meta-llama/llama/issues/50",
    ),
    Row(
        "torch-mps-module",
        r"module 'torch' has no attribute 'mps'|No module named 'torch\.mps'",
        "torch-mps-module-missing",
        "this torch has no torch.mps module (it came with torch 2.0; torch 2.0.0 needs `import torch.mps`)",
        "Upgrade torch to 2.0 or later (or guard torch.mps calls with hasattr(torch, 'mps')).",
        ("{python} -m pip install --upgrade 'torch>=2.0'",),
        "https://github.com/huggingface/accelerate/pull/2686 (torch/mps/__init__.py, new in 2.0)",
    ),
    Row(
        "mps-checkpoint-load",
        r"don't know how to restore data location of [\w.]+ \(tagged with mps",
        "mps-checkpoint-load",
        "the checkpoint's tensors were saved on mps, and this torch cannot restore them there",
        "Load on the CPU, then move: torch.load(path, map_location='cpu') and model.to('mps'); or upgrade torch.",
        (UPGRADE,),
        TORCH_ISSUE + "77874; https://github.com/ultralytics/yolov5/issues/8102 (torch/serialization.py)",
    ),
    Row(
        "mps-checkpoint-elsewhere",
        r"Storage device not recognized: mps",
        "mps-checkpoint-load",
        "the checkpoint's (or pickle's) tensors were saved on mps, and this torch has no MPS to put them back on (a "
        "Linux machine, or a torch built without MPS)",
        "Load it with map_location='cpu' (torch.load(path, map_location='cpu'), or the tool's map_location option); or "
        "move the model to the CPU before saving it on the Mac.",
        (),
        "torch/csrc/Storage.cpp (THPStorage_pynew: 'Storage device not recognized'); "
        "https://github.com/huggingface/sentence-transformers/issues/3229",
    ),
    Row(
        "mpsgraph-api-missing-in-sdk",
        # a build (torch, torchvision, executorch's MPS delegate) against an SDK older than the MPSGraph API it uses
        r"error: (?:unknown type name|use of undeclared identifier) '(?P<api>MPSGraph\w{1,80})'"
        r"|'(?P<api2>MPSGraph\w{1,80})' is (?:only available|unavailable) (?:on|in) macOS",
        "macos-too-old",
        "the build uses {api}, which this macOS SDK does not have: the code needs a newer macOS and Xcode than this "
        "Mac's",
        "Upgrade macOS and Xcode to the versions the project asks for (the MPSGraph API comes with the macOS SDK), "
        "then build again.",
        ("softwareupdate --list", "xcodebuild -version"),
        "https://github.com/pytorch/executorch/issues/1020 (MPSGraphExecutableSerializationDescriptor is new in the "
        "macOS 14 SDK: 'you will need macOS Sonoma and Xcode 15')",
    ),
    Row(
        "metal-language-newer-than-os",
        # Metal refusing a compiled library (a .metallib, or a kernel built at run time) made for a newer Metal
        # Shading Language than this macOS loads: the OS is older than the kernel's author built for
        r"language version (?P<msl>\d{1,3}(?:\.\d{1,3}){0,2}) which is not supported on this OS",
        "macos-too-old",
        "a Metal library was built for Metal language {msl}, which this macOS cannot load: the kernel needs a newer "
        "macOS",
        "Update macOS to the version that library's project asks for, or turn that Metal kernel off and use the "
        "project's PyTorch path.",
        ("softwareupdate --list",),
        "https://github.com/shivampkumar/trellis-mac/issues/9 (flex_gemm's metallib uses MSL 4.0: 'only loads on "
        "macOS 26 (Tahoe) or newer')",
    ),
    Row(
        "cuda-checkpoint-on-mac",
        # torch words this opening only for CUDA (serialization._validate_device names the backend), so the message
        # cut after it is the same error: a title cut at 80 characters ("... but torch.cuda.is_availabl",
        # GPT-SoVITS#1296)
        r"Attempting to deserialize object on a CUDA device\b"
        r"|Attempting to deserialize object on CUDA device \d+ but torch\.cuda\.device_count\(\) is",
        "cuda-requested-on-mac",
        "the checkpoint was saved on a CUDA GPU, and torch.load tries to put it back on CUDA, which this Mac has not",
        "Load the CUDA checkpoint with map_location so torch.load does not ask for CUDA: torch.load(path, "
        "map_location='cpu'), then .to('mps'), in the code or the tool's device option.",
        (),
        "torch/serialization.py (validate_cuda_device); https://github.com/ThereforeGames/txt2mask/issues/18",
    ),
    Row(
        "cuda-on-mac",
        # Not AUTOMATIC1111's start-up line "Warning: caught exception 'Torch not compiled with CUDA enabled', memory
        # monitor disabled", which every Mac prints: the webui caught its own CUDA probe and went on. Users quote it
        # in their words in any case and cut ("a 'torch not compiled with cuda' error", AnimateAnyone-Evolved#27).
        r"[Tt]orch not compiled with (?:CUDA|cuda)(?! enabled', memory monitor disabled)"
        r"|`CUDAAccelerator` can not run on your system|Found no NVIDIA driver on your system",
        "cuda-requested-on-mac",
        "the code (or its config, or a library default) asks for CUDA, which torch on a Mac does not have",
        "Ask for mps (or cpu) instead of cuda: device='mps' in the code, the config file or the tool's --device "
        "option, and replace .cuda() with .to('mps').",
        ("{python} -c 'import torch; print(torch.backends.mps.is_available())'",),
        "torch/cuda/__init__.py (_lazy_init); https://github.com/kijai/ComfyUI-LivePortraitKJ/issues/31",
    ),
    Row(
        "cuda-extension-build",
        # torch's C++-extension builder asked to compile CUDA sources (3D rasterizers, simple-knn, tiny-cuda-nn):
        # it finds no CUDA install, or calls an nvcc that is not there
        r"CUDA_HOME environment variable is not set|No such file or directory: '[^'\n]{0,80}/cuda/bin/nvcc'",
        "cuda-requested-on-mac",
        "a package being built is a CUDA extension (torch.utils.cpp_extension compiling .cu sources), and a Mac "
        "has no CUDA to build it with",
        "Run the parts that need no CUDA extension on mps (or cpu), or use a Metal port of the extension; a CUDA "
        "extension cannot be built or run on a Mac, and CUDA_HOME has nothing to point at there.",
        (),
        "torch/utils/cpp_extension.py (_join_cuda_home); https://github.com/Tencent-Hunyuan/Hunyuan3D-2/issues/320",
    ),
    Row(
        "generator-device",
        r"Expected a '(?:mps|cpu)(?::\d)?' (?:device type for generator|generator device) but found '[\w:]{3,6}'",
        "device-mismatch",
        "a torch.Generator is on another device than the tensors it fills (one on mps, one on the CPU)",
        "Create the generator on the tensors' device: torch.Generator(device='mps'), or move the tensors .to(device).",
        (),
        "aten/src/ATen/core/Generator.h (check_generator); https://github.com/riffusion/riffusion-hobby/issues/125",
    ),
    Row(
        "half-on-cpu",  # the op also as retyped from a dialog: spaces for underscores, the closing quote mistyped
        # or cut ("not implemented for 'Half" at the end of a pasted line, Parskatt/RoMa#26)
        r"\"(?P<op>\w+(?: \w+){0,4})\" not implemented for 'Half(?:['\"]|(?![\w']))",
        "half-on-cpu-fallback",
        "{op} ran on the CPU with float16, which the CPU kernel does not take (a CPU fallback, or a model half on "
        "the CPU)",
        "Run the model in float32 (a --no-half or precision option of the tool, or model.float()), or use a torch and "
        "macOS with the MPS kernel for this op.",
        (UPGRADE,),
        "https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/11633 (aten/src/ATen/Dispatch.h)",
    ),
    Row(
        "fork-after-mps",
        r"may have been in progress in another thread when fork\(\) was called",
        "fork-after-mps-init",
        "the process forked after MPS (MPSGraph) was initialised, which the Objective-C runtime forbids",
        "Start worker processes with spawn (multiprocessing.set_start_method('spawn'), DataLoader "
        "multiprocessing_context='spawn', num_workers=0), or touch mps only inside the children.",
        (),
        "https://github.com/apple-oss-distributions/objc4 (runtime/objc-initialize.mm, the fork() check)",
    ),
    Row(
        "backend-without-mps",
        r"unsupported device mps\b"
        # the same told in words: "底层的ctranslate2库还不支持 mps", "faster-whisper doesn't support mps"
        r"|[Cc][Tt]ranslate2[^\n]{0,40}?(?:不支持|(?:does not|doesn't|doesn’t|has no) support(?: for)?)"
        r"\s*(?:the )?(?:mps|MPS|[Mm]etal)\b"
        r"|[Ff]aster[-_][Ww]hisper[^\n]{0,40}?(?:不支持|(?:does not|doesn't|doesn’t|has no) support(?: for)?)"
        r"\s*(?:the )?(?:mps|MPS|[Mm]etal)\b"
        # ... or told to run on the CPU ("CTranslate2 isn't optimized falling back to the CPU", WhisperLive#394)
        r"|(?:[Cc][Tt]ranslate2|[Ff]aster[-_][Ww]hisper)\b[^\n]{0,60}?\b(?:(?:falls?|falling|fell) back to|"
        r"(?:only|just) (?:runs?|running) on) (?:the )?CPU\b"
        # CTranslate2's refusal of float16 where it runs, the CPU on a Mac (its compute-type check)
        r"|Requested float16 compute type, but the target device or backend do not support efficient float16",
        "backend-has-no-mps",
        "the engine that raised this is not torch and has no Metal/MPS backend (CTranslate2, used by faster-whisper)",
        "Use its CPU device (device='cpu', compute_type='int8' or 'float32'); for the Apple GPU use a torch-based "
        "or MLX-based tool instead.",
        (),
        "https://github.com/SYSTRAN/faster-whisper/issues/911 (CTranslate2 devices); "
        "https://github.com/serg-markovich/local-whisper-obsidian/issues/5 (its float16 compute-type refusal)",
    ),
)

MORE_EARLY: tuple[Row, ...] = (
    Row(
        "torch-mps-api-missing",
        r"module 'torch\._C' has no attribute '_mps_\w+'|module 'torch\.mps' has no attribute '\w+'",
        "torch-mps-module-missing",
        "this torch lacks the torch.mps function the code calls (torch.mps came with 2.0 and grew in later releases)",
        "Upgrade torch (or guard the call with hasattr(torch.mps, name)).",
        ("{python} -m pip install --upgrade 'torch>=2.0'",),
        "torch/mps/__init__.py (functions added release by release); https://github.com/huggingface/accelerate/pull/2686",
    ),
    *DISPATCH,
    Row(
        "library-op-no-mps",
        r"Could not run '(?P<op>(?!aten::)\w+::\w+)' with arguments from the 'MPS' backend",
        "op-not-implemented",
        "{op} (an op of a library built on torch, such as torchvision) has no MPS kernel in this build of the library",
        "Upgrade the library to a release with an MPS kernel for it, built for this torch; meanwhile "
        "PYTORCH_ENABLE_MPS_FALLBACK=1 (set before Python starts) runs it on the CPU.",
        ("export PYTORCH_ENABLE_MPS_FALLBACK=1", "{python} -m pip install --upgrade torch torchvision"),
        "aten/src/ATen/core/dispatch (the 'Could not run ... from the backend' text); aten/src/ATen/mps/MPSFallback.mm",
    ),
    CUDA_ONLY_LIBRARY,
    Row(
        "mps-tensor-to-numpy",
        r"can't convert mps(?::\d+)? device type tensor to numpy",
        "device-mismatch",
        "a tensor on mps was handed to numpy, which reads only CPU memory",
        "Copy it to the CPU first: t.detach().cpu().numpy() (or t.to('cpu')) where the error points.",
        (),
        "torch/_tensor.py (Tensor.__array__ / numpy(): 'can't convert ... device type tensor to numpy')",
    ),
    Row(
        "int64-no-support",
        # Older torch refused (TORCH_CHECK "..., please cast it to int32"); newer torch casts and goes on
        # ("..., casting it to int32"), a note read by error_notes.py's int64-downcast.
        r"MPS: no support for int64 (?P<op>[\w/ ]{1,40}?)(?: ops?)?, please cast\b",
        "int64-op-needs-newer-macos",
        "this MPS op ({op}) has no int64 kernel here",
        "Cast the tensor to int32 before the op, or upgrade macOS ({macos_or} or later) and torch.",
        ("softwareupdate --list", UPGRADE),
        "aten/src/ATen/native/mps/operations/ReduceOps.mm ('MPS: no support for int64 ...')",
    ),
    Row(
        "cuda-amp-on-mac",
        r"User provided device_type of 'cuda', but CUDA is not available"
        r"|GradScaler is enabled, but CUDA is not available",
        "cuda-requested-on-mac",
        "autocast or the gradient scaler was asked for on cuda, which this Mac has not, so torch disabled it",
        "Ask for mps instead of cuda: torch.autocast('mps', dtype=torch.float16) (torch 2.5+), or no mixed precision.",
        (),
        "torch/amp/autocast_mode.py; torch/amp/grad_scaler.py (the 'Disabling' warnings)",
        severity=WARNING,
    ),
)

LATE: tuple[Row, ...] = (
    *NATIVE,
    Row(
        "lightning-misconfig-cut",
        r"\bMisconfigurationException[ \t]{2,}Traceback \(most recent call last\)",
        "lightning-processor",
        "a notebook shows Lightning's MisconfigurationException with its message cut: raised by Trainer(accelerator="
        "'mps') when Lightning's MPS check fails, which also requires platform.processor() to be 'arm' (an x86_64 "
        "Python under Rosetta reports 'i386')",
        "Run the notebook's kernel from a native arm64 Python; check what Lightning sees with platform.processor().",
        ("{python} -c 'import platform; print(platform.processor())'",),
        "https://github.com/Lightning-AI/pytorch-lightning/issues/19868 (Jupyter's header names only the class)",
    ),
    Row(
        "homebrew-intel-prefix",
        r"Cannot install in Homebrew on ARM processor in Intel default prefix"
        r"|Cannot install under Rosetta 2 in ARM default prefix",
        "rosetta-python",
        "an Intel (x86_64) Homebrew in /usr/local, or a terminal under Rosetta, on Apple silicon: what it installs "
        "(Python included) is x86_64 and runs under Rosetta",
        "Use the arm64 Homebrew in /opt/homebrew from a native (not Rosetta) terminal, and make the Python "
        "environment again with its Python.",
        ("arch", "/opt/homebrew/bin/brew config", "ls /opt/homebrew/bin/brew"),
        "https://docs.brew.sh/Installation (Homebrew's own refusals of the other architecture's prefix)",
    ),
    *ON_THE_CPU,
    *MEMORY,
    *INSTALL,
)
