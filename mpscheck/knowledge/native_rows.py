"""Rows of the known-errors table (joined into ``LATE`` of knowledge/error_texts.py) for native code that
will not load or run on this Mac at all: a torch library dyld rejected, an executable of the other architecture
(the shell's "bad CPU type in executable"), and a library that knows no macOS ("Unknown platform: darwin", the
check cpm_kernels and others make before loading their CUDA libraries).
Late, because each says less than a row that names the reason (wrong-arch-dylib gives both architectures).
"""

from __future__ import annotations

from mpscheck.knowledge.error_rows import Row

NATIVE: tuple[Row, ...] = (
    Row(
        "torch-dylib-not-loaded",
        # dyld's "tried: '<the library itself>' (<reason>)", the file there (not "no such file") but rejected
        r"dlopen\((?P<library>[^\s,)']{0,300}?/torch/lib/\w+\.dylib), 0x[0-9A-Fa-f]{1,8}\): tried: "
        r"'[^']{0,1000}'(?! \(no such file)",
        "wrong-arch-wheel",
        "torch's own library {library} could not be loaded (dyld rejected the file itself): on a Mac "
        "that is most often a torch built for the other architecture than this Python (x86_64 or arm64)",
        "Check that the library and this Python have the same architecture, then reinstall torch with this very "
        "interpreter, bypassing pip's cache.",
        (
            "file {library}",
            "{python} -c 'import platform, sys; print(sys.executable, platform.machine())'",
            "{python} -m pip install --force-reinstall --no-cache-dir torch",
        ),
        "https://github.com/Vaibhavs10/insanely-fast-whisper/issues/126; https://github.com/invoke-ai/InvokeAI/issues/2152",
    ),
    Row(
        "bad-cpu-type",
        # zsh's "zsh: bad CPU type in executable: PATH", bash's "PATH: Bad CPU type in executable" (EBADARCH); not a
        # Python itself, whose architecture the setup rules read (an x86_64 Python on Apple silicon is Rosetta's)
        r"(?<!python: )(?<!python\d: )(?<!python\d\.\d: )(?<!python\d\.\d\d: )[Bb]ad CPU type in executable"
        r"(?!:? [^\s:]{0,300}/python)",
        "wrong-arch-wheel",
        "macOS refused to run a program built for the other architecture than this Mac runs (on Apple silicon an "
        "x86_64-only program with no Rosetta 2 installed, on an Intel Mac an arm64-only one)",
        "Install the build of that program for this Mac's architecture (arm64 on Apple silicon), not Rosetta: an "
        "x86_64 Python runs only translated, where torch has no MPS; `file` on the program's path shows its build.",
        ("uname -m",),
        "https://github.com/ContinuumIO/anaconda-issues/issues/12941; "
        "https://github.com/jupyterlab/jupyterlab-desktop/issues/700",
    ),
    Row(
        "unknown-platform-darwin",
        # a library that supports Windows and Linux only: cpm_kernels/library/base.py raises exactly this
        r"\bUnknown platform: darwin\b",
        "backend-has-no-mps",
        "a library in this run does not support macOS at all (it says 'Unknown platform: darwin'): with "
        "ChatGLM-style quantized models that is cpm_kernels, their CUDA kernels, which have no Metal/MPS backend",
        "Turn that library off on the Mac: with ChatGLM-style models load the unquantized model (from a local path, "
        "float16/float32 on mps) instead of the int4/int8 one; otherwise find the package in the traceback's last "
        "frame.",
        (),
        "https://github.com/zai-org/ChatGLM-6B/issues/462; "
        "https://github.com/chatchat-space/Langchain-Chatchat/issues/776 (cpm_kernels/library/base.py)",
    ),
)
