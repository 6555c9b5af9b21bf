"""Rows of the known-errors table (joined before ``LATE`` in knowledge/errors.py) for an MPS error the user tells in
words instead of quoting torch's message: a dtype MPS lacks said to be unsupported ("the console said the MPS
backend does not support the Float8 data type", "报错提示 MPS 后端不支持 Float8 数据类型"), or a sampler's generator
said not to be on mps. Late, because torch's own message, when quoted too, names the dtype exactly and outranks a
retelling.
"""

from __future__ import annotations

from mpscheck.knowledge.distributed_rows import DISTRIBUTED_TOLD
from mpscheck.knowledge.error_rows import Row

# The dtypes MPS has no kind of at all (float8 variants, unsigned wider than 8 bits), as people write them; float64
# and bfloat16 have rows of their own, and complex is left to torch's own messages ("MPS doesn't support complex
# types", the messages table), which name the op and the release that fixed it.
_DTYPE = r"(?P<NAME>[Ff]loat8\w{0,20}|FP8|fp8|[Uu][Ii]nt(?:16|32|64))"

TOLD: tuple[Row, ...] = (
    Row(
        "dtype-unsupported-told",
        # "MPS 后端不支持 Float8 数据类型" (zjncs.github.io, Z-Image on a Mac): no \b parts MPS from Chinese text
        # (short words between, no Latin letters; [Mm]PS so that the row's needle is 不支持, not every "MPS" line)
        r"(?<![A-Za-z])[Mm]PS(?![A-Za-z])[^\nA-Za-z]{0,12}?不支持\s?"
        + _DTYPE.replace("NAME", "dtype")
        + r"|\bMPS(?: backend| framework| device)?,? (?:does not|doesn't|doesn’t|cannot|can't) support (?:the )?[`'\"]?"
        + _DTYPE.replace("NAME", "dtype2"),
        "dtype-unsupported",
        "MPS has no {dtype} type",
        "Use a dtype MPS has (float32, float16, bfloat16 on macOS 14) for tensors on mps: a checkpoint in that "
        "dtype (or a GGUF/quantised build the front end runs on mps), not the {dtype} one.",
        (),
        "aten/src/ATen/mps/EmptyTensor.cpp (the dtypes MPS accepts); https://zjncs.github.io/2025/12/01/ "
        "(Z-Image-Turbo FP8 on ComfyUI, macOS)",
    ),
    DISTRIBUTED_TOLD,
    Row(
        "op-missing-told",
        # MPS said in words to lack operators, no op's message quoted ("the MPS backend is still missing
        # implementations of many operators, so the tests will fail", torchgeo/torchgeo#1188; "some operations are not
        # yet supported on MPS"): the missing kernels torch's NotImplementedError names, told
        r"\b(?:operators|operations|ops)\b[^\n.;!?]{0,30}? (?:are|is) not (?:yet |currently )?(?:implemented|supported)"
        r" (?:on|for|in|by) (?:the )?(?:MPS|mps)\b|"
        + "|".join(
            rf"(?<!\w){mps}(?: backend| device)?\b[^\n.;!?]{{0,20}}? (?:is (?:still )?missing|lacks|does(?:n't| not) "
            r"(?:have|implement)) (?:the )?(?:(?:an? )?implementations? (?:of|for) )?"
            r"(?:many |some |several |a few |all )?(?:the )?(?:operators|operations|ops|kernels)\b"
            for mps in ("MPS", "mps")
        ),
        "op-not-implemented",
        "the paste says MPS lacks some of the operators the run uses: torch raises NotImplementedError for such an op "
        "unless PYTORCH_ENABLE_MPS_FALLBACK=1 runs it on the CPU",
        "Set PYTORCH_ENABLE_MPS_FALLBACK=1 before Python starts (those ops then run on the CPU), or run that work on "
        "the CPU; a newer torch implements more ops on mps.",
        ("export PYTORCH_ENABLE_MPS_FALLBACK=1",),
        "aten/src/ATen/mps/MPSFallback.mm (the fallback variable); https://github.com/torchgeo/torchgeo/pull/1188",
    ),
    Row(
        "float64-told",
        # torch's float64 message cut to its middle ("the Apple-Silicon `MPS Tensor to float64` error"), or float64 said
        # to be beyond the backend ("hard-codes `dtype=torch.float64` ..., which PyTorch's MPS backend cannot
        # represent", max3925vats/zotero-docling#36: a clause of its own about it); the whole message is the float64
        # row's, earlier in the table
        r"MPS [Tt]ensors? to float64\b"
        r"|(?<![\w.])(?:torch\.)?float64\b[^\n.;!?]{0,80}?\b(?:which|that)\b[^\n.;!?]{0,30}?\b(?:MPS|mps)\b"
        r"(?: backend| framework| device)? (?:cannot|can't|does not|doesn't|is unable to) "
        r"(?:represent|handle|use|store|support)\b",
        "float64-unsupported",
        "a float64 (double) tensor reached MPS, which has no float64",  # the float64 row's words (errors.py)
        "Use float32: create tensors with dtype=torch.float32 (numpy arrays are float64 by default: call "
        ".float() or torch.from_numpy(a).float() before .to('mps')).",
        (),
        "https://github.com/max3925vats/zotero-docling/pull/36 (transformers' RT-DETRv2 position embedding in float64)",
    ),
    Row(
        "generator-device-told",
        # torch's "Expected a 'mps:0' generator device but found 'cpu'" told in words: a sampler or generator said not
        # to be made on mps ("torch.RandomSampler is not being initialized with a torch.Generator on MPS",
        # huggingface/transformers#31390), or a generator said to be on the wrong device on a line naming mps. Never a
        # generator simply made on mps (torch.Generator('mps').manual_seed(0), the fix)
        # (one alternative per noun, so that each holds a literal the table's needles can gate on)
        "|".join(
            rf"{start}{noun}\b[^\n.;!?]{{0,40}}? (?:is not|isn't|isn’t|not being|was not|wasn't) "
            r"(?:being )?(?:initiali[sz]ed|created|made|placed|put)\b[^\n;!?]{0,40}?\b(?:MPS|mps)\b"
            # the starts differ: a prefix common to every alternative would be factored out by the regex parser,
            # leaving no top-level alternatives to take needles from
            for start, noun in ((r"\b", "[Gg]enerator"), (r"(?<!\w)", "(?:Random)?[Ss]ampler"))
        )
        + r"|(?<![\w-])[Gg]enerator\b[^\n.;!?]{0,30}? (?:on|for) (?:the |a )?(?:wrong|different|another|other) "
        r"device\b"
        r"[^\n.;!?]{0,40}?\b(?:MPS|mps)\b",
        "device-mismatch",
        "the paste says a random sampler's torch.Generator is not on the device that draws (mps): torch refuses a draw "
        "whose generator is on another device",
        "Drop torch.set_default_device('mps') and move the model and each batch with .to('mps') instead (the Trainer "
        "does it itself), or make the generator on the device that draws: torch.Generator(device='mps').",
        (),
        "aten/src/ATen/core/Generator.h (check_generator); https://github.com/pytorch/pytorch/issues/110820; "
        "https://github.com/huggingface/transformers/issues/31390",
    ),
)
