"""Rows of the known-errors table for a run that works but never asked for mps: a library's own warning that it
put the model on the CPU (Whisper's FP16 note, a transformers pipeline built with no device). Warnings, so any
error of the same paste outranks them; joined into ``EARLY`` of knowledge/error_texts.py.
"""

from __future__ import annotations

from mpscheck.knowledge.error_rows import WARNING, Row

ON_THE_CPU: tuple[Row, ...] = (
    Row(
        "whisper-on-cpu",
        r"FP16 is not supported on CPU; using FP32 instead",
        "mps-not-requested",
        "Whisper runs on the CPU: it picks CUDA when there is one, else the CPU, unless asked for mps",
        "Ask for mps: whisper.load_model(name, device='mps') (or --device mps where the tool has it); on an Intel "
        "Mac the CPU is all there is.",
        ("{python} -c 'import torch; print(torch.backends.mps.is_available())'",),
        "https://github.com/openai/whisper (whisper/transcribe.py: the FP16 warning on CPU)",
        severity=WARNING,
    ),
    Row(
        "transformers-pipeline-on-cpu",
        # printed by every transformers pipeline() made without a device while an accelerator (MPS included) is
        # there; some transformers print "Model will be on CPU." on the next line, so the pattern stops before it
        r"no `device` argument is passed to the `Pipeline` object",
        "mps-not-requested",
        "a transformers pipeline was built with no device, so it runs on the CPU although the GPU (MPS on a Mac) "
        "is there",
        "Ask for mps where the pipeline is built: pipeline(task, model=..., device='mps') (or the tool's device "
        "option for that model, or an update of the tool that passes it).",
        ("{python} -c 'import torch; print(torch.backends.mps.is_available())'",),
        "https://github.com/huggingface/transformers (src/transformers/pipelines/base.py: the warning of a Pipeline "
        "made with device=None while an accelerator is available); https://github.com/black-forest-labs/flux/pull/112",
        severity=WARNING,
    ),
)
