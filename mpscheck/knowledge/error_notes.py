"""Rows of the known-errors table (``mpscheck/knowledge/errors.py`` joins them into ``TABLE``) for issue 17's
fifth, seventh and ninth out-of-sample rounds: what torch or a framework prints on mps and then goes on (a note,
never a failure on its own, including a library that puts one model on the CPU and any torch MPS warning that says
"This may have performance implications"), torch's generic "natively starting from macOS N" refusal of one op, an
op named with its line cut before torch says whether it fell back, transformers' refusal to build an attention mask
on mps, torch's out-of-memory named without its numbers, Docker's refusal of a GPU reservation, and GroundingDINO's
missing CUDA ops.

Kept apart from error_texts.py, which holds the earlier rounds' rows. Every pattern is literals and
bounded classes: linear on any line (tests/test_pattern_linearity.py).
"""

from __future__ import annotations

from mpscheck.knowledge.error_rows import WARNING, Row

NOTES: tuple[Row, ...] = (
    Row(
        "int64-downcast",
        # torch's TORCH_WARN_ONCE texts ("..., casting it to int32", "..., downcasting to a smaller data type"):
        # the op runs, on int32, and the script goes on.
        r"MPS: no support for int64 (?P<op>[\w/ {}]{1,40}?)(?: ops?)?, (?:casting it|downcasting) to\b",
        "op-fallback-warning",
        "torch casts the int64 tensors of {op} to int32 on MPS (no int64 kernel before macOS {macos_or}) and goes on: "
        "a note, not a failure",
        "Nothing is broken while the values fit in int32; macOS {macos_or} or later has the int64 kernels.",
        ("softwareupdate --list",),
        "aten/src/ATen/native/mps/operations/ReduceOps.mm, Repeat.mm (TORCH_WARN_ONCE 'MPS: no support for int64')",
        severity=WARNING,
    ),
    Row(
        "framework-cpu-step",
        # A framework's own notice that one step of an mps run goes to the CPU ("Device mps:0 does not support
        # the torch.fft functions used in the FreeU node, switching to CPU."): the rest stays on mps.
        r"\b(?:mps|MPS)(?::\d{1,2})?\b[^\n]{0,40}?\b(?:does not|doesn't|do not) support\b[^\n]{0,160}?"
        r"\b(?:[Ss]witching|[Ff]alling back|[Ff]all back) to (?:the )?(?:CPU|cpu)\b",
        "op-fallback-warning",
        "one step that mps cannot run is done on the CPU, and the run goes on: slower, not a failure",
        "Nothing is broken; the rest of the run stays on mps (a newer torch or framework may keep this step on mps).",
        (),
        "https://github.com/lllyasviel/Fooocus/issues/690 (Fooocus/ComfyUI FreeU: torch.fft on mps)",
        severity=WARNING,
    ),
    Row(
        "framework-cpu-model",
        # A library's notice that it keeps one model off mps ("surya: `TableRecEncoderDecoderModel` is not
        # compatible with mps backend. Defaulting to cpu instead"; iopaint's "lama not support mps, switch to cpu",
        # SoraWatermarkCleaner#31): that model runs on the CPU, the run goes on.
        r"\bnot (?:compatible with|supported (?:on|by)|support) (?:the )?(?:mps|MPS)\b[^\n]{0,40}?"
        r"\b(?:[Dd]efaulting|[Ss]witch(?:ing)?|[Ff]alling back|[Uu]sing) (?:to )?(?:the )?(?:CPU|cpu)\b",
        "op-fallback-warning",
        "the library runs one of its models on the CPU instead of mps (it says so), and the run goes on: much slower, "
        "not a failure",
        "Nothing is broken; that model stays on the CPU by the library's choice (often because mps gave it wrong "
        "results): a library release that keeps it on mps, or an earlier one that did, is the only way to speed it.",
        (),
        "https://github.com/datalab-to/marker/issues/960 (surya's table_rec loader: 'not compatible with mps backend')",
        severity=WARNING,
    ),
    Row(
        "groundingdino-no-c-ops",
        # GroundingDINO's warning when its compiled extension (CUDA's multi-scale deformable attention) is absent,
        # as it is on every Mac: the CUDA ops are not there, so the demo's default device (cuda) cannot run.
        r"Failed to load custom C\+\+ ops",
        "cuda-requested-on-mac",
        "GroundingDINO's compiled CUDA ops are not there (no Mac has CUDA), so only its CPU path can run",
        "Run it with the device set to cpu (--device cpu; its demos default to CUDA); its custom ops have no mps "
        "version.",
        (),
        "https://github.com/IDEA-Research/Grounded-Segment-Anything/issues/96 (GroundingDINO's ms_deform_attn.py "
        "warning)",
        severity=WARNING,
    ),
    Row(
        "docker-nvidia-gpu",
        # Docker's refusal of a GPU reservation (`--gpus all`, Compose's `driver: nvidia`) where no NVIDIA
        # driver exists, as on every Mac: the setup asks for CUDA.
        # Any driver name, the empty one too: `docker run --gpus all` names none ('device driver "" with ...').
        r"could not select device driver \"?[\w.-]{0,20}\"? with capabilities: \[\[gpu\]\]",
        "cuda-requested-on-mac",
        "the container asks Docker for an NVIDIA (CUDA) GPU, which no Mac has; Docker on a Mac passes no GPU to a "
        "container, not even mps",
        "Drop the CUDA GPU reservation (--gpus, or Compose's driver: nvidia) so the container runs on the CPU, or "
        "run the program natively on macOS with device mps.",
        (),
        "https://github.com/phkhanhtrinh23/translation_layoutrecovery/issues/7 (Docker daemon's message); "
        "https://github.com/remsky/Kokoro-FastAPI/issues/135 (the empty driver name of --gpus all)",
    ),
    Row(
        "op-needs-newer-macos",
        # "MPS support binary op with uint8 natively starting from macOS 13.0" and its siblings, without the
        # "Falling back on CPU" that makes op-native-from-macos a note: the op fails on this macOS.
        r"MPS:? (?:support )?[\w' ]{1,60}? natively starting from macOS (?P<macos>\d{2}(?:\.\d)?)"
        r"(?!\.?\d)(?!\.? ?Falling back)",
        "int64-op-needs-newer-macos",
        "this op has no MPS kernel before macOS {macos}",
        "Upgrade macOS to {macos} or later, or run this step on the CPU.",
        ("softwareupdate --list", "{python} -m pip install --upgrade torch"),
        "aten/src/ATen/native/mps/operations (TORCH_CHECK 'natively starting from macOS'); "
        "https://github.com/continue-revolution/sd-webui-segment-anything/issues/105",
    ),
    Row(
        "mps-performance-note",
        # Any of torch's MPS warnings that end "This may have performance implications" ("MPS: The constant padding
        # of more than 3 dimensions is not currently supported natively. It uses View Ops default implementation to
        # run."): the op runs, by another path, and the script goes on. After op-native-from-macos, which names more.
        r"\bMPS: [^\n]{1,240}?This may have performance implications",
        "op-fallback-warning",
        "torch runs one op on mps by a slower path (it says so: 'This may have performance implications') and goes "
        "on: a note, not a failure",
        "Nothing is broken by this warning; if the run fails, the failure is another line of the log.",
        (),
        "aten/src/ATen/native/mps/operations (TORCH_WARN_ONCE '... This may have performance implications.'); "
        "https://github.com/w-okada/voice-changer/issues/1642",
        severity=WARNING,
    ),
    Row(
        "hf-attention-mask-mps",
        # transformers' generate() refuses to infer the attention mask on mps: it needs torch.isin, which had no MPS
        # kernel before torch 2.4 (transformers' isin_mps_friendly works around it from then on). The release is the
        # op table's (op_coverage.json: aten::isin.Tensor_Tensor_out, mps from 2.4.0; tests/test_error_table.py).
        r"Can't infer missing attention mask on .mps. device",
        "op-not-implemented",
        "transformers will not build the attention mask on mps: that needs torch.isin, which has no MPS kernel before "
        "torch 2.4",
        "Upgrade torch (2.4 or later) and transformers, or pass an attention_mask to generate(); "
        "PYTORCH_ENABLE_MPS_FALLBACK does not help, as transformers refuses before the op runs.",
        ("{python} -m pip install --upgrade 'torch>=2.4' transformers",),
        "transformers generation/utils.py (_prepare_attention_mask_for_generation), pytorch_utils.py "
        "(isin_mps_friendly); https://github.com/coqui-ai/TTS/issues/3758",
    ),
    Row(
        "oom-said",
        # torch's out-of-memory named without its numbers (a title, a retelling: "MPS backend out of memory Issue"):
        # what the numbers would tell apart (model too large, memory held elsewhere, a watermark) is unknown.
        r"\bMPS backend out of memory\b(?! \(MPS allocated)"
        # ... or only its tail, the head cut away ("Music generation failed: .....disable upper limit for memory
        # allocations (may cause system failure).", ACE-Step-1.5#1336): torch's MPS allocator alone words it so;
        # not after the message's own "to " (the whole message, its numbers' rows read it, however it is wrapped)
        r"|(?<!to )\bdisable upper limit for memory allocations \(may cause system failure\)"
        # ... or a piece of its middle, its head and tail cut away ("other allocations: 163.11 GiB,", kijai/
        # ComfyUI-WanVideoWrapper#1856): these words and a size are the MPS allocator's alone; not inside the whole
        # message (the "oom" row reads it with its numbers)
        # (0 bytes in use is a VM's paravirtual GPU, as the doctor's own report quotes it: not read here)
        r"|(?<!, )\bother allocations: (?!0 bytes)[\d.]{1,12} ?(?:bytes|[KMGT]i?B)\b"
        r"|(?<!\()\bMPS allocated: (?!0 bytes)[\d.]{1,12} ?(?:bytes|[KMGT]i?B)\b",
        "out-of-memory",
        "MPS ran out of memory; the paste does not show the allocator's numbers, which tell a model too large for this "
        "Mac from memory held by other processes",
        "Use a smaller model, batch or resolution (or float16), and close what holds memory; lifting the cap with the "
        "variable below lets macOS swap (slow; may freeze the system). The full message's numbers tell which.",
        ("top -l 1 -o mem -n 10", "export PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0"),
        "aten/src/ATen/mps/MPSAllocator.mm (the message); https://github.com/datalab-to/marker/issues/321",
    ),
)
