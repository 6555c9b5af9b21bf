"""The classes of input the sixteenth out-of-sample round (2026-11-24, the Hugging Face training and serving stack:
trl, peft, setfit, lerobot, accelerate, transformers, diffusers, sentence-transformers, ...) found explain missing,
each read generally: a library's own check that the Python is an x86_64 build under Rosetta (MuJoCo's, also passed on
by gymnasium).

The texts are lines of the round's threads (tests/corpus names each), or the libraries' own source wording.
"""

from __future__ import annotations

from mpscheck.checks.causes import explain_text

MUJOCO = (
    "You are running an x86_64 build of Python on an Apple Silicon machine. This is not supported by MuJoCo. Please "
    "install and run a native, arm64 build of Python."
)


def test_a_library_that_says_the_python_is_x86_64_on_apple_silicon_is_rosetta() -> None:
    for text in (
        f"ImportError: {MUJOCO}",  # mujoco/__init__.py raises it on import
        # gymnasium passes it on (sample-factory quotes it)
        f"gymnasium.error.DependencyNotInstalled: {MUJOCO}. (HINT: you need to install mujoco, run `pip install "
        "gymnasium[mujoco]`.)",
        f'# user: MuJoCo raised that my Python was not for Apple Silicon: "{MUJOCO}"',  # lerobot#665, in prose
    ):
        diagnosis = explain_text(text)
        assert diagnosis.cause.id == "rosetta-python", text
        assert diagnosis.cause.fix is not None and "arch" in diagnosis.cause.fix.commands
        assert diagnosis.exit_code == 1


def test_an_arm64_python_or_another_build_named_is_not_that_check() -> None:
    for text in (
        "You are running an arm64 build of Python on an Apple Silicon machine.",
        "an x86_64 build of Python runs fine on an Intel Mac",
    ):
        assert explain_text(text).cause.id != "rosetta-python", text
