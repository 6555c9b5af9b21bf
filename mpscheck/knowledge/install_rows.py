"""The installers' own refusals of torch (Poetry, pip, uv, conda and pixi) as rows of the known-errors table: the
last rows tried (``error_texts.LATE`` ends with them), since each says less than an error torch itself raises.
Every pattern is a plain alternation of literals and bounded classes: linear on any line.
"""

from __future__ import annotations

from mpscheck.knowledge.error_rows import TORCH_ISSUE, Row

INSTALL: tuple[Row, ...] = (
    Row(
        "poetry-no-candidates",
        r"Unable to find installation candidates for (?P<package>torch) \((?P<version>[\w.+]+)\)",
        "no-matching-distribution",
        "Poetry found no torch {version} file that this environment can install",
        "Use a torch version that has a wheel for this Python and platform (pin it in pyproject.toml).",
        (),
        "https://github.com/mindverse/Second-Me/issues/32 (poetry/installation/chooser.py)",
    ),
    Row(
        "wheel-not-supported",
        r"(?<![\w.+-])(?P<wheel>torch-[\w.+-]{1,120}\.whl) is not a supported wheel on this platform",
        "no-matching-distribution",
        "{wheel} does not fit this interpreter (its Python version tag or architecture differs)",
        "Install with plain pip from the Python you will run, which picks the right wheel, instead of a wheel file.",
        ("{python} -m pip install torch",),
        TORCH_ISSUE + "148528 (pip/_internal/req/constructors.py)",
    ),
    Row(
        "arm64-wheel-skipped",
        # Poetry's verbose log and pip's -v log skip the Apple-silicon wheel itself: the interpreter is not arm64
        r"Skipping wheel (?P<wheel>torch-[\w.+]{1,40}-cp\d+-\w+-macosx_\d+_\d+_arm64\.whl) as this is not supported by "
        r"the current environment"
        r"|Skipping link: none of the wheel's tags match: (?P<wheel2>cp\d+-\w+-macosx_\d+_\d+_arm64)\b",
        "no-matching-distribution",
        "the installer skipped torch's Apple-silicon wheel ({wheel}) as unfit for this environment: its Python is not "
        "an arm64 one (an x86_64 interpreter, run under Rosetta), or not the Python version that wheel is for",
        "Check the environment's Python (the first command: it must say arm64, and a version torch has wheels for); "
        "if it says x86_64, recreate the environment with an arm64 Python, then install torch again.",
        (
            "{python} -c 'import platform, sys; print(platform.machine(), sys.version)'",
            "arch -arm64 /opt/homebrew/bin/python3 -m venv .venv && .venv/bin/python -m pip install torch",
        ),
        "https://github.com/python-poetry/poetry/issues/9442 (poetry/installation/chooser.py: 'Skipping wheel ... as "
        "this is not supported by the current environment'); pip/_internal/index/package_finder.py",
    ),
    Row(
        "torch-placeholder-sdist",
        # No torch wheel fitted, so pip took the 0.1.2 source package left on PyPI as a placeholder: its
        # setup.py never builds (it imports tools.nnwrap, which it does not ship)
        r"(?<![\w.-])torch-0\.1\.2(?:\.post\d)?\.tar\.gz"
        r"|yanked version: 'torch' candidate \(version 0\.1\.2"
        r"|No module named 'tools\.nnwrap'"
        r"|\(from versions: 0\.1\.2(?:, 0\.1\.2\.post\d){0,4}\)",
        "no-matching-distribution",
        "no torch wheel fitted this interpreter, so pip fell back to torch 0.1.2, a placeholder source package "
        "that never builds: its Python version, its architecture or its macOS tags are not among torch's wheels "
        "(or this pip is too old to accept them: pip before 20.3 rejects every macOS wheel on macOS 11)",
        "Upgrade pip, check the platform tags it accepts, then install torch from a Python that torch publishes "
        "wheels for (a native arm64 one on Apple silicon).",
        (
            "{python} -m pip install --upgrade pip",
            "{python} -m pip debug --verbose",
            "{python} -m pip install torch",
        ),
        TORCH_ISSUE + "47978; " + TORCH_ISSUE + "51854; https://github.com/pypa/pip/issues/9142 (PyPI's yank "
        "note: '0.1.2 is past it's support date and confuses users on unsupported platforms')",
    ),
    Row(
        "pdm-no-candidate",
        r"CandidateNotFound: No candidate is found for `(?P<package>torch)` that matches the environment",
        "no-matching-distribution",
        "PDM found no torch file that matches this environment (its lock names a build, such as a +cpu local "
        "version, that has no wheel for this platform)",
        "Let the lock resolve plain torch from PyPI on macOS (no +cpu pin, no CUDA or CPU index for darwin), then "
        "install again.",
        ("{python} -m pip install torch",),
        "https://github.com/pdm-project/pdm/issues/3605 (pdm/models/candidates.py)",
    ),
    Row(
        "uv-only-wheels-for",
        r"but `(?P<package>torch)` \(v(?P<version>[\w.+]+)\) only has wheels for the following platforms",
        "no-matching-distribution",
        "uv found no torch {version} wheel for macOS: that build has wheels for other platforms only",
        "Resolve torch from PyPI on macOS (drop the CUDA index or the +cuXXX local version there).",
        ("{python} -m pip install torch",),
        "https://github.com/PrimeIntellect-ai/verifiers/issues/553 (uv's resolver hint)",
    ),
    Row(
        "conda-not-found",
        r"PackagesNotFoundError: The following packages are not available from current channels"
        r"|UnsatisfiableError: The following specifications were found to be incompatible"
        r"|No candidates were found for (?P<package>[\w-]*torch[\w-]*)"
        r"|nothing provides (?:requested )?__cuda",
        "no-matching-distribution",
        "the conda (or pixi) solver found no build of the requested PyTorch packages for this platform",
        "Install the PyPI wheels into this environment (PyPI's macOS arm64 torch has MPS), or drop the package the "
        "channel lacks for this platform (a CUDA build such as pytorch-gpu has none for macOS).",
        ("{python} -m pip install torch torchvision torchaudio",),
        TORCH_ISSUE + "82483; https://github.com/rerun-io/prompt-da/issues/2",
    ),
    Row(
        "pip-no-match-other",
        # pip refuses a package beside torch (a CUDA-only one such as bitsandbytes 0.43.0, flash-attn or triton has
        # no macOS file): an install failure, not an MPS error; torch's own refusal is read by probes/paste/pip.py
        r"No matching distribution found for (?P<package>(?!torch(?:vision|audio)?\b)[A-Za-z0-9][\w.-]{0,80})"
        # ... or only pip's line before it, the one a paste often keeps ("Could not find a version that satisfies
        # the requirement mlx<0.27,>=0.26.0 (from moshi-mlx)", kyutai-labs/moshi#394: no mlx 0.26 for Python 3.14)
        r"|Could not find a version that satisfies the requirement "
        r"(?P<package2>(?!torch(?:vision|audio)?\b)[A-Za-z0-9][\w.-]{0,80})",
        "no-matching-distribution",
        "pip found no release of {package} (as pinned) that installs on this Python and platform: the install "
        "stops before torch runs",
        "Loosen or drop the {package} pin so pip can pick a release built for this platform (packages built for "
        "CUDA only, such as flash-attn, xformers, triton or bitsandbytes 0.43.0, publish none for macOS: install "
        "the project without that optional package).",
        ("{python} -m pip index versions {package}", "{python} -m pip install '{package}'"),
        "https://github.com/axolotl-ai-cloud/axolotl/issues/1436 (bitsandbytes==0.43.0 on macOS)",
    ),
)
