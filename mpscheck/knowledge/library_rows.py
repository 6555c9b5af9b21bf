"""Rows of the known-errors table (``mpscheck/knowledge/errors.py`` joins them into ``TABLE``) for what the
libraries built on torch say when they have no MPS path of their own, and for a torch message about MPS type names
that older releases raised.

Kept apart from ``error_texts.py`` (torch's and the installers' own texts): these rows read a library's
device table (DGL's ``KeyError: 'mps'``, DeepSpeed's half-written ``MPS_Accelerator``), torch's legacy type
strings that had no MPS entry, and a library's own check that the Python runs translated (MuJoCo). Every
pattern is an alternation of literals and bounded classes: linear on any line.
"""

from __future__ import annotations

from mpscheck.knowledge.error_rows import Row

UPGRADE = "{python} -m pip install --upgrade torch"

LIBRARY: tuple[Row, ...] = (
    Row(
        "library-device-table-no-mps",
        # A library that looks its device up by type ("KeyError: 'mps'": DGL's DGLGraph.to('mps')), or that picks a
        # half-written MPS accelerator class of its own (DeepSpeed's MPS_Accelerator with abstract methods left).
        r"\bKeyError: 'mps(?::\d)?'(?!\S)"
        r"|Can't instantiate abstract class MPS_?Accelerator\b",
        "backend-has-no-mps",
        "the library that raised this has no (complete) mps device of its own: its table of devices or its "
        "accelerator class does not cover mps",
        "Keep that library's work on the CPU (device='cpu', or turn its accelerator off) and use mps only for plain "
        "torch tensors; upgrade the library if a newer release lists mps.",
        (),
        "https://github.com/dmlc/dgl/issues/4274 ('DGL currently does not support mps device'); "
        "https://github.com/deepspeedai/DeepSpeed/issues/5132 (MPS_Accelerator with abstract methods)",
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
)
