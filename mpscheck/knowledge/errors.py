"""The one table of known error texts: pattern -> cause -> summary and fix, each row with its source.

Matching is on torch's (or pip's, Metal's, a framework's) own words, so a release that rewords a
message degrades to "unrecognised", never to a wrong diagnosis. Rows are tried in order: the more
specific pattern comes first (a 0-byte out-of-memory before the general one). Fix commands are
templates: ``{python}`` is the interpreter the facts or the paste name (shell-quoted), ``{op}`` the
operator an error names; a template whose placeholder has no value keeps its ``{name}`` visible
rather than inventing one. ``cause`` is the one cause vocabulary: a check id or a cause id documented in
docs/explain.md, the same whether the text was pasted, saved in a report or raised in the doctor's smoke test.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

from mpscheck.knowledge.device_call_rows import CUDA_CALL_OTHER_DEVICE
from mpscheck.knowledge.error_notes import NOTES
from mpscheck.knowledge.error_rows import ERROR, TORCH_ISSUE, WARNING, Hit, Row, fill, groups_of
from mpscheck.knowledge.error_texts import EARLY, LATE, MORE_EARLY
from mpscheck.knowledge.library_rows import LIBRARY
from mpscheck.knowledge.memory_rows import MEMORY
from mpscheck.knowledge.metal_rows import ASSERTION
from mpscheck.knowledge.needles import holding, may_match, needles
from mpscheck.knowledge.told_rows import TOLD

__all__ = ["BY_ID", "ERROR", "TABLE", "WARNING", "Hit", "Row", "fill", "find", "first", "groups_of"]


UNIFIED_MEMORY = "MPS backend is only supported on devices with unified memory"


def availability_pattern() -> re.Pattern[str]:
    """The availability row's pattern, compiled (the row itself compiles it on first use)."""
    return re.compile(availability_regex())


def availability_regex() -> str:
    """torch's 'MPS is unavailable' texts: the three EmptyTensor.cpp wordings (pytorch/pytorch#164943,
    #177819), then every text of every release read from the wheels (mpscheck/knowledge) when present."""
    known = r"The MPS backend is supported on [Mm]ac[Oo][Ss] (?P<floor>12\.3|13\.0|14\.0|15\.0)\+"
    try:
        from mpscheck.knowledge import releases

        texts = [t.strip() for t in releases.availability_texts() if UNIFIED_MEMORY not in t and t.strip()]
    except Exception:  # the table is optional here: the known wordings still match
        texts = []
    read = "|".join(re.escape(t) for t in sorted(set(texts), key=lambda t: (-len(t), t)))
    return known + (f"|{read}" if read else "")


TABLE: tuple[Row, ...] = (
    Row(
        "linker-other-arch",
        r"building for macOS-(?P<need>arm64|x86_64) but attempting to link with file built for "
        r"macOS-(?P<have>arm64|x86_64)"
        r"|found architecture '(?P<have2>arm64e?|x86_64|i386)', required architecture '(?P<need2>arm64e?|x86_64)'",
        "wrong-arch-wheel",
        "the linker skips a library built for {have} while building for {need}: the libtorch (or other library) "
        "linked is for the other architecture",
        "Link against a library of this architecture: the libtorch inside an arm64 `pip install torch` (its folder: "
        "python -c 'import torch, os; print(os.path.dirname(torch.__file__))'), not an x86_64 download.",
        ("{python} -m pip install --force-reinstall --no-cache-dir torch",),
        TORCH_ISSUE + "63558; https://github.com/LaurentMazare/tch-rs/issues/881 (ld64's two wordings)",
    ),
    *MEMORY,
    Row(
        "sparse",
        r"Could not run '(?P<op>aten::[\w.]+)' with arguments from the 'SparseMPS' backend"
        r"|Could not run '(?P<op2>[\w:.]{0,200}?(?:sparse|compressed)\w{0,200})' from the 'mps(?::\d+)?' device"
        r"|SparseMPS[^\n]{0,40}?(?P<op3>aten::[A-Za-z0-9_.]{1,80})",
        "sparse-unsupported",
        "{op} has no kernel for sparse tensors on MPS (the SparseMPS key); PYTORCH_ENABLE_MPS_FALLBACK does not "
        "cover sparse ops",
        "Keep the sparse tensor on the CPU (or make it dense with .to_dense() before moving it to mps).",
        (),
        "aten/src/ATen/native/native_functions.yaml (SparseMPS dispatch); " + TORCH_ISSUE + "129842",
    ),
    Row(
        "op-not-implemented",
        # torch's words, and the same retold ("The operation aten::x is not currently implemented for MPS", or in words,
        # op3-op5: "aten::index_copy.out is not implemented on MPS", "aten::x操作时,MPS后端尚未实现"), or cut
        # to the op and the rest in a title ("'torchvision::deform_conv2d' is not currently implemented for ...")
        r"[Tt]he (?:operator|operation|op) ?[`'\"‘’]?(?P<op>\w+::[\w.]+)[`'\"‘’]? is not current(?:ly)? implemented "
        r"for (?:the )?MPS(?: device| backend)?"
        r"|(?<![\w:])[`'\"‘’](?P<op2>[A-Za-z_]\w{0,40}::[\w.]{1,80})[`'\"‘’] is not current(?:ly)? implemented for "
        r"(?:the )?MPS(?: device| backend)?"
        r"|(?P<op3>aten::[A-Za-z0-9_.]{1,80})[^\n]{0,40}?is not (?:yet )?implemented (?:on|for) (?:the )?MPS"
        r"|(?P<op4>aten::[A-Za-z0-9_.]{1,80})[^\n]{0,40}?MPS[^\nA-Za-z]{0,10}?尚未实现"
        r"|(?P<op5>aten::[A-Za-z0-9_.]{1,80})[^\n]{0,40}?MPS[^\nA-Za-z]{0,10}?没有实现",
        "op-not-implemented",
        "{op} has no MPS kernel in this torch, and the CPU fallback is off",
        "Set PYTORCH_ENABLE_MPS_FALLBACK=1 before Python starts (setting it in the script after `import torch` "
        "is too late), or upgrade torch if a newer release has the kernel.",
        ("export PYTORCH_ENABLE_MPS_FALLBACK=1",),
        "aten/src/ATen/mps/MPSFallback.mm; " + TORCH_ISSUE + "77764",
    ),
    Row(
        "library-op-missing",
        r"(?<!\w)(?P<op>\w+): implementation for device mps(?::\d+)? not found"
        # a library's CPU-only kernel handed a tensor on mps (detectron2's ROIAlign_cpu.cpp "input must be a CPU
        # tensor", torch_scatter's scatter_cpu.cpp "src must be CPU tensor"): no MPS kernel of the library's own
        r"|\w{1,40}\.device\(\)\.is_cpu\(\) INTERNAL ASSERT FAILED at \"[^\"\n]{0,300}?/(?P<op2>\w+?)_cpu\.cpp\"",
        "op-not-implemented",
        "{op} (a compiled op of the library, e.g. mmcv) has no MPS implementation; PYTORCH_ENABLE_MPS_FALLBACK does "
        "not cover a library's own ops",
        "Run this op (or the model) on the CPU, or use a library release with an MPS kernel for it.",
        (),
        "https://github.com/open-mmlab/mmdetection/issues/11437; https://github.com/open-mmlab/mmcv/issues/2732; "
        "https://github.com/facebookresearch/detectron2/issues/4686 (detectron2/layers/csrc/ROIAlign/ROIAlign_cpu.cpp)",
    ),
    Row(
        "op-fallback",
        # the warning's first clause alone (a title cut there) is still the warning: torch words no error so
        # and retold or re-rendered: the op in other quotes or none ("The operator aten::linalg_svd is not currently
        # supported ...", a blog's code span that lost its quotes, even its space: "The operatoraten::linalg_svd")
        r"[Tt]he operator ?[`'\"‘’]?(?P<op>\w+::[\w.]+)[`'\"‘’]? is not currently supported on the MPS backend(?: "
        r"and will fall back to run on the CPU)?",
        "op-fallback-warning",
        "{op} runs on the CPU (PYTORCH_ENABLE_MPS_FALLBACK is on): slower, but not a failure",
        "Nothing is broken; for speed, upgrade torch if a newer release has an MPS kernel for this op.",
        (),
        "aten/src/ATen/mps/MPSFallback.mm (TORCH_WARN_ONCE)",
        severity=WARNING,
    ),
    Row(
        "op-fallback-told",
        # the warning retold in words, the op named: "a fallback warning indicating that aten::_cholesky_solve_helper
        # is missing from the Metal backend, causing a silent CPU fallback" (cornellius-gp/gpytorch#2748)
        r"(?<![\w:])(?P<op>aten::\w{1,60}(?:\.\w{1,30})?)(?![\w.])[`'\"‘’]? ?(?:is|are) "
        r"(?:missing from|not (?:currently )?supported (?:on|by)) the (?:Metal|MPS) backend\b[^\n]{0,60}?"
        r"\b(?:(?:fall(?:s|ing)? ?back|fallback) (?:to|on) (?:run on )?(?:the )?CPU|CPU fall ?back|fallback warning)\b",
        "op-fallback-warning",
        "{op} runs on the CPU (the paste retells torch's fallback warning): slower, but not a failure",
        "Nothing is broken; for speed, upgrade torch if a newer release has an MPS kernel for this op.",
        (),
        "aten/src/ATen/mps/MPSFallback.mm (TORCH_WARN_ONCE)",
        severity=WARNING,
    ),
    Row(
        "op-native-from-macos",
        r"MPS: (?P<op>\w+) op is supported natively starting from macOS (?P<macos>[\d.]+)\. Falling back on CPU",
        "op-fallback-warning",
        "{op} runs on the CPU because it needs macOS {macos} on MPS: slower, but not a failure",
        "Nothing is broken; upgrade macOS to {macos} or later for the MPS kernel.",
        ("softwareupdate --list",),
        "aten/src/ATen/native/mps/operations (TORCH_WARN_ONCE); mps-facts.md 2.2",
        severity=WARNING,
    ),
    Row(
        "int64-op",
        r"MPS: (?P<op>\w+) op with int64 input is supported natively starting from macOS (?P<macos>[\d.]+)"
        r"|MPS does not support (?P<op2>\w{1,40}(?:/\w{1,40})?) ops? with int64 input"  # "min/max ops": pytorch#94515
        r"|(?<![\w/])(?P<op4>\w{1,40}(?:/\w{1,40})?) (?:is )?not supported for Long dtype on MPS"  # 2.0's assert
        # torch 1.12/1.13's unary ops refused int64 on any macOS ("Operation 'sign_out_mps()' ...", UnaryOps.mm)
        r"|Operation '(?P<op3>\w{1,40}?)(?:_out)?_mps\(\)' does not support input type 'int64'",
        "int64-op-needs-newer-macos",
        "this op has no int64 MPS kernel before macOS {macos_or}",
        "Upgrade macOS (13.3 or later) and torch (older torch misread macOS 13.3's version, fixed by PR "
        "pytorch/pytorch#96733), or cast the tensor to int32 before the op.",
        ("softwareupdate --list", "{python} -m pip install --upgrade torch"),
        TORCH_ISSUE
        + "96610; https://github.com/Plachtaa/VALL-E-X/issues/127; https://github.com/h2oai/h2ogpt/issues/464; "
        "https://github.com/truefoundry/cognita/issues/172 (torch 1.13's UnaryOps.mm)",
    ),
    Row(
        "float64",
        r"Cannot convert a (?:MPS Tensor to float64|float64 Tensor to MPS)"
        # the same told in words: "MPS (at least on my M2) doesn't support float64"
        # ... or with an article and quotes between: "the pytorch MPS backend doesn't support the `float64` type"
        # (pytorch/ignite#3326)
        r"|\bMPS\b[^\n]{0,60}?\b(?:does not|doesn't|doesn’t|cannot|can't) support (?:the |a )?[`'\"]?"
        r"(?:torch\.)?(?:float64|double|64-bit floats?)\b"
        # "uses float64 instead of float32, whit the former not being supported on MPS" (botorch#2724), not torch's own
        # "float64 is not supported on MPS" (its message table names it with its source)
        r"|\b(?:float64|64-bit floats?)\b(?! is not supported on MPS)[^\n]{0,80}?\bnot (?:being )?supported "
        r"(?:on|by) (?:the )?MPS\b"
        r"|\b(?:MPS|mps)\b[^\n.;!?]{0,30}?\b(?:torch\.)?float64\b\W{0,3}(?:is not|isn't|isn’t) supported\b"  # #223
        # float32 said to be what mps needs, with float64 what it got: "training on mps must occur with float32.
        # Currently, the library supplies data in float64" (etna-team/etna#612)
        r"|\b(?:MPS|mps)\b[^\n.;!?]{0,40}?\b(?:must|only|needs?|requires?)\b[^\n.;!?]{0,30}?\bfloat32\b"
        r"[^\n]{0,120}?\b(?:float64|double)\b"
        # ... or float64 first: "the tensors are set up using the float64 data type, while pytorch only supports
        # float32 for MPS" (TUDelft-CNS-ATM/bluesky-gym#7)
        r"|\b(?:float64|double)\b[^\n.;!?]{0,80}?\b(?:only supports?|must|requires?)\b[^\n.;!?]{0,20}?\bfloat32\b"
        r"[^\n.;!?]{0,30}?\b(?:MPS|mps)\b"
        # in Chinese, no \b before the next word: "提示MPS框架不支持float64数据类型" ([Mm]PS: the needle is 不支持)
        r"|(?<![A-Za-z])[Mm]PS(?![A-Za-z])[^\nA-Za-z]{0,12}?不支持\s?(?:float64|double|双精度)",
        "float64-unsupported",
        "a float64 (double) tensor reached MPS, which has no float64",
        "Use float32: create tensors with dtype=torch.float32 (numpy arrays are float64 by default: call "
        ".float() or torch.from_numpy(a).float() before .to('mps')).",
        (),
        "aten/src/ATen/mps/EmptyTensor.cpp; aten/src/ATen/native/mps/OperationUtils.mm (getMPSDataType)",
    ),
    Row(
        "needs-macos14",
        r"BFloat16 is only supported on MacOS 14|bfloat16 type is supported on MacOS 14"
        r"|complex types are only supported on MacOS 14"
        r"|Trying to convert ComplexFloat to the MPS backend but it does not have support",
        "dtype-needs-macos14",
        "bfloat16 and complex tensors on MPS need macOS 14 (and torch 2.3 or later)",
        "Upgrade macOS to 14 or later (and torch to 2.3+), or use float16/float32 meanwhile.",
        ("softwareupdate --list", "{python} -m pip install --upgrade torch"),
        TORCH_ISSUE + "104191; PR pytorch/pytorch#119641 (aten/src/ATen/mps/EmptyTensor.cpp)",
    ),
    Row(
        "bf16-old-torch",
        r"BFloat16 is not supported on MPS"
        r"|Trying to convert BFloat16 to the MPS backend but it does not have support",
        "bf16-needs-newer-torch",
        "this torch has no bfloat16 on MPS: bfloat16 came to MPS in torch 2.3, and needs macOS 14",
        "Load the model in float16 (or float32) on MPS; or upgrade to torch 2.3+ on macOS 14+ for bfloat16.",
        ("{python} -m pip install --upgrade 'torch>=2.3'",),
        TORCH_ISSUE + "104191; PR pytorch/pytorch#119641 (bfloat16 on MPS, torch 2.3, macOS 14)",
    ),
    Row(
        "dtype-unsupported",
        r"Trying to convert (?P<dtype>\w+) to the MPS backend but it does not have support for that dtype",
        "dtype-unsupported",
        "MPS has no {dtype} type",
        "Use a dtype MPS has (float32, float16, bfloat16 on macOS 14) for tensors on mps.",
        (),
        "aten/src/ATen/native/mps/OperationUtils.mm (getMPSDataType)",
    ),
    Row(
        "device-mismatch",
        r"Expected all tensors to be on the same device, but found at least two devices"
        r"|Placeholder storage has not been allocated on MPS device"
        r"|Input type \(\w*MPS\w*\) and weight type \([\w.]+\) should be the same"
        r"|Input type \([\w.]+\) and weight type \(\w*MPS\w*\) should be the same"
        # autograd's check of a backward's outputs: a gradient on mps for a tensor on the CPU (or the reverse)
        r"|invalid gradient at index \d+ - expected device (?:cpu|mps(?::\d+)?) but got (?:cpu|mps(?::\d+)?)"
        # torch's checkSameGPU, whose "GPU" is mps on a Mac (comfyui_segment_anything#68), and set_() handed a storage
        # of the other device (facebookresearch/sam2#487: pin_memory() then .to('mps'))
        r"|Tensor for argument #\d+ '\w+' is on (?:CPU|GPU), but expected it to be on (?:GPU|CPU)"
        r"|Attempted to set the storage of a tensor on device \"[\w:]{1,12}\" to a storage on different device"
        # the convolutions' device check by its head, as a title quotes it cut before "must be on the same device"
        # (huggingface/transformers#31571): the input on one device, the weights on the other (the whole message is
        # torch's message table's)
        r"|input\(device='(?:cpu|mps(?::\d+)?)'\) and weight\(device='?(?:cpu|mps(?::\d+)?)'?\)"
        r"(?! {0,3}must be on the same device)",
        "device-mismatch",
        "a tensor and the model (or two tensors) are on different devices, one on mps and one on the CPU",
        "Move the model and every input to the same device: model.to(device) and x = x.to(device), with "
        "device = torch.device('mps').",
        (),
        "aten/src/ATen/native/mps/OperationUtils.mm (Placeholder); " + TORCH_ISSUE + "79279; "
        "torch/csrc/autograd/engine.cpp (validate_outputs: 'invalid gradient at index'); aten/src/ATen/TensorUtils.cpp "
        "(checkSameGPU); https://github.com/facebookresearch/sam2/issues/487 (set_ with a storage of another device)",
    ),
    CUDA_CALL_OTHER_DEVICE,
    Row(
        "old-torch-device-string",
        r"Expected one of cpu, cuda.{0,600}? device type at start of device string: mps",
        "torch-too-old",
        "this torch predates MPS (1.12): it does not know the device string 'mps'",
        "Upgrade torch (1.12 or later; on Apple silicon any current release).",
        ("{python} -m pip install --upgrade torch",),
        "c10/core/Device.cpp (parse_type); https://pytorch.org/blog/introducing-accelerated-pytorch-training-on-mac/",
    ),
    Row(
        "old-torch-no-backends-mps",
        r"module 'torch\.backends' has no attribute 'mps'|No module named 'torch\.backends\.mps'",
        "torch-too-old",
        "this torch predates MPS (1.12): torch.backends.mps does not exist",
        "Upgrade torch (1.12 or later; on Apple silicon any current release).",
        ("{python} -m pip install --upgrade torch",),
        "torch/backends/mps/__init__.py (added in 1.12)",
    ),
    Row(
        "no-unified-memory",
        re.escape(UNIFIED_MEMORY),
        "intel-mac",
        "this torch's MPS needs unified memory (Apple silicon); this GPU has memory of its own: an Intel Mac's AMD GPU",
        "Use a Mac with Apple silicon for MPS; on this Mac run on the CPU.",
        ("sysctl -n machdep.cpu.brand_string",),
        "mpscheck/knowledge/torch_releases.json (torch 2.13+ binaries); aten/src/ATen/mps/MPSDevice.mm",
    ),
    Row(
        "no-metal-device",
        availability_regex,  # built on first use: reading the release table is not free
        "no-metal-device",
        "torch found no usable Metal device (its message names a macOS version, but it is raised whenever no "
        "device is found: an old macOS, a VM, a sandbox such as an AI agent's, or an x86_64 Python)",
        "Check the macOS version, the Python's architecture and whether a sandbox or VM hides the GPU.",
        ("sw_vers", "{python} -c 'import platform; print(platform.machine(), platform.processor())'"),
        "aten/src/ATen/mps/EmptyTensor.cpp (MPS_ERROR_RUNTIME_TOO_LOW); " + TORCH_ISSUE + "139425",
    ),
    Row(
        "doc-hint-macos",
        r"MPS not available because the current Mac ?OS version is not 12\.3\+",
        "no-metal-device",
        "torch.backends.mps.is_available() is False while is_built() is True",
        "Check the macOS version, the Python's architecture and whether a sandbox or VM hides the GPU.",
        ("sw_vers", "{python} -c 'import platform; print(platform.machine(), platform.processor())'"),
        "docs/source/notes/mps.rst (example code, printed by users' scripts)",
    ),
    Row(
        "not-built",
        r"not linked with support for mps|not compiled with MPS enabled"
        r"|with arguments from the 'MPS' backend"
        r"|MPS not available because the current PyTorch install was not built with MPS",
        "torch-not-built-with-mps",
        "this torch was built without MPS (a Linux/Windows/CPU build, or a conda build without MPS)",
        "Install PyPI's macOS arm64 wheel, which is built with MPS, into a native arm64 Python on the Mac.",
        ("{python} -m pip install --force-reinstall --no-cache-dir torch",),
        "aten/src/ATen/mps/EmptyTensor.cpp (MPS_ERROR_NOT_COMPILED); docs/source/notes/mps.rst",
    ),
    Row(
        "lightning-mps",
        r"MPSAccelerator can not run on your system since the accelerator is not available",
        "lightning-processor",
        "Lightning says MPS is not available: it also requires platform.processor() to be 'arm', which an x86_64 "
        "(Rosetta) Python reports as 'i386'",
        "Run a native arm64 Python; check what Lightning sees with platform.processor().",
        ("{python} -c 'import platform; print(platform.processor())'",),
        "https://github.com/Lightning-AI/pytorch-lightning/issues/14634 (lightning/fabric/accelerators/mps.py)",
    ),
    Row(
        "wrong-arch-dylib",
        r"incompatible architecture \(have \(?'?(?P<have>\w+)'?\)?, need \(?'?(?P<need>\w+)'?\)?",
        "wrong-arch-wheel",
        "a compiled library of {package} is {have} but this Python needs {need}: it was built or installed by a "
        "Python of the other architecture",
        "Reinstall {package} with this very interpreter, bypassing pip's cache of the wrong build.",
        ("{python} -m pip install --force-reinstall --no-cache-dir {package}",),
        "https://github.com/invoke-ai/InvokeAI/issues/2152",
    ),
    Row(
        "no-matching-distribution",
        r"No matching distribution found for (?P<package>torch\b[^\s]*)"
        r"|Could not find a version that satisfies the requirement (?P<package2>torch\b[^\s]*)"
        # uv's wrap (indented, or behind a reply's "> ") read as blanks between the words
        r"|(?P<package3>torch)(?:[=<>!~]=?[\w.+*]{1,30},?){0,4} has no wheels with a matching[\s>]{1,40}"
        r"(?:platform|Python ABI|Python) tag"
        r"|no wheels? (?:are available )?with a matching [\w ]{0,40}?tag\b.{0,600}?\btorch\b"
        r"|Distribution `(?P<package4>torch\w*)[=\w.+ ]{0,100}@[^`]{0,1000}` can't be installed",
        "no-matching-distribution",
        "pip (or uv) found no torch wheel for this Python: torch ships wheels only for some Python versions and, on "
        "macOS, only arm64 after 2.2.2",
        "Use a Python version that torch ships wheels for (e.g. 3.12), native arm64 on Apple silicon.",
        ("{python} -c 'import platform, sys; print(sys.version, platform.machine())'",),
        "pip/_internal/index/package_finder.py; https://pypi.org/project/torch/#files",
    ),
)

# The rows for the causes of the 2026-11-24 corpus: the more specific ones first (mpscheck/knowledge/error_texts.py).
TABLE = (*EARLY, *MORE_EARLY, *TABLE, *ASSERTION, *NOTES, *LIBRARY, *TOLD, *LATE)
BY_ID: dict[str, Row] = {row.id: row for row in TABLE}


def find(lines: list[str]) -> Iterator[Hit]:
    """Every row's matches in the *lines* of a text, in line order; one hit per row per line. A line repeated (a
    log's warnings and progress bars) is searched once and its hits given to every copy: no row spans lines."""
    if len(lines) == 1:  # one error's text (the judge asks for each): no index of lines to build
        line = lines[0]
        for row in TABLE:
            if may_match(row.pattern, line) and (own := row.pattern.search(line)) is not None:
                yield Hit(row, 1, line, groups_of(own))
        return
    distinct = list(dict.fromkeys(lines))
    if len(distinct) < len(lines):
        copies: dict[str, list[int]] = {}
        for number, line in enumerate(lines, start=1):
            copies.setdefault(line, []).append(number)
        found = [replace(hit, line=number) for hit in find(distinct) for number in copies[hit.text]]
        yield from sorted(found, key=lambda hit: hit.line)  # stable: table order within a line
        return
    text = "\n".join(lines)
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    found = [hit for row in TABLE for hit in _row_hits(row, lines, text, starts)]
    yield from sorted(found, key=lambda hit: hit.line)  # stable: table order within a line


def _row_hits(row: Row, lines: list[str], text: str, starts: list[int]) -> Iterator[Hit]:
    """The lines *row* matches, each searched on its own. Only the lines that hold one of the row's needles are
    searched (found by str.find in the whole text, many times faster than the regex engine at every position):
    exact, as a line the row matches holds a needle (tests/test_explain_large_input.py)."""
    wanted = needles(row.pattern)
    candidates = range(len(lines)) if wanted is None else sorted(holding(wanted, text, starts))
    for index in candidates:
        if (own := row.pattern.search(lines[index])) is not None:
            yield Hit(row, index + 1, lines[index], groups_of(own))


def first(text: str | None) -> Hit | None:
    """The first row (in table order) that matches anywhere in *text*: for one error message."""
    if not text:
        return None
    for row in TABLE:
        match = row.pattern.search(text) if may_match(row.pattern, text) else None
        if match:
            number = text.count("\n", 0, match.start()) + 1
            line = text.splitlines()[number - 1] if text.splitlines() else text
            return Hit(row, number, line, groups_of(match))
    return None
