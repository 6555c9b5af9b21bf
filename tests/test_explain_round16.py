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


# ---- mixed precision asked for on a Mac (probes/paste/precision.py, checks/causes/precision.py) ----------------

TRAINER_FP16 = (  # huggingface/transformers#35954: the error itself was a screenshot
    "``torch -- 2.2.2``\n"
    "``system -- mac os 15.2 (24C101)``\n"
    "training_args = TrainingArguments(\n"
    '    output_dir="out",\n'
    "    fp16=True,\n"
    ")\n"
)


def mixed(line: str) -> object:
    from mpscheck.probes.paste import read

    found = read(line).get("paste.mixed_precision")
    return None if found is None else found.value


def test_the_mixed_precision_asked_for_is_read_exactly() -> None:
    assert mixed("    fp16=True,") == "fp16"
    assert mixed("args = TrainingArguments(bf16=True)") == "bf16"
    assert mixed('>>> accelerator = Accelerator(mixed_precision="fp16")') == "fp16"
    assert mixed('  --mixed_precision="fp16" \\') == "fp16"
    assert mixed("accelerate launch --mixed_precision bf16 train.py") == "bf16"
    assert mixed("- mixed_precision: fp16") == "fp16"  # accelerate env's config
    assert mixed("python run_glue.py --fp16") == "fp16"
    assert mixed("fp16: true") == "fp16"
    assert mixed("# user: Can MPS use FP16 when training?Why I can't?") == "fp16"  # transformers#32035
    assert mixed("we use mixed precision for training") == "fp16"
    # asking for nothing: off, compared, another name, or fp16 with no training
    for line in (
        "    fp16=False,",
        "python run.py --bf16=false",
        '        if self.mixed_precision == "fp16" and is_torch_version(">=", "1.10"):',
        "\t- mixed_precision: no",
        "model.to(torch.float16)  # fp16 weights",
        "--fp16_backend amp",
        "myfp16=True",
    ):
        assert mixed(line) is None, line


def test_mixed_precision_asked_for_on_a_mac_with_an_older_or_unshown_torch_needs_a_newer_torch() -> None:
    diagnosis = explain_text(TRAINER_FP16)
    assert diagnosis.cause.id == "autocast-needs-newer-torch"
    assert diagnosis.cause.fix is not None
    assert diagnosis.cause.fix.commands[0] == "python3 -c 'import torch; print(torch.__version__)'"  # not shown
    assert "fp16=False" in diagnosis.cause.fix.summary
    assert any("'torch>=2.8'" in command for command in diagnosis.cause.fix.commands)
    assert "a torch the paste does not show" in diagnosis.cause.summary
    assert diagnosis.exit_code == 1
    shown = explain_text("PyTorch version: 2.7.1\nOS: macOS 15.2 (arm64)\n" + TRAINER_FP16)
    assert shown.cause.id == "autocast-needs-newer-torch" and "torch 2.7.1" in shown.cause.summary
    assert shown.cause.fix is not None and not shown.cause.fix.commands[0].endswith("print(torch.__version__)'")


def test_mixed_precision_is_no_cause_with_torch_2_8_off_a_mac_when_off_or_over_mps_working() -> None:
    for text in (
        "PyTorch version: 2.8.0\nOS: macOS 15.2 (arm64)\n" + TRAINER_FP16,  # fp16 amp on mps exists there
        "OS: Ubuntu 22.04.4 LTS (x86_64)\n" + TRAINER_FP16.replace("mac os 15.2", "ubuntu"),
        TRAINER_FP16.replace("fp16=True", "fp16=False"),
        # positive evidence that mps works outranks a setting: never turned into a failure
        TRAINER_FP16 + ">>> torch.ones(1, device='mps')\ntensor([1.], device='mps:0')\n",
    ):
        assert explain_text(text).cause.id != "autocast-needs-newer-torch", text


NOTEBOOK_CUT = (  # huggingface/transformers#32035: the traceback stops before the ValueError's message
    "# user: Can MPS use FP16 when training?Why I can't?\n"
    "ValueError                                Traceback (most recent call last)\n"
    "Cell In[15], line 1\n"
    "----> 1 trainer = Trainer(\n"
    "      2     model=model,\n"
    "File ~/Trans-Penv/transformers/src/transformers/trainer.py:409, in Trainer.__init__(self, model, args)\n"
)


def test_an_unknown_error_while_the_trainer_is_built_with_mixed_precision_asked_is_its_refusal() -> None:
    diagnosis = explain_text(NOTEBOOK_CUT)
    assert diagnosis.cause.id == "autocast-needs-newer-torch"
    assert "most likely that refusal" in diagnosis.cause.summary
    assert [e.line for e in diagnosis.cause.evidence] == [1, 2, 4]
    # without mixed precision asked, or with no Trainer built, it stays an error no rule recognises
    plain = explain_text(NOTEBOOK_CUT.replace("FP16 when training", "the GPU"))
    assert (plain.cause.id, plain.cause.variant) == ("metal-bug-fixed-later", "unrecognised")
    elsewhere = explain_text(NOTEBOOK_CUT.replace("Trainer(", "evaluate(").replace("Trainer.__init__", "evaluate"))
    assert elsewhere.cause.id != "autocast-needs-newer-torch"


def test_text_about_torch_family_packages_is_read_not_unreadable() -> None:
    # pytorch/audio#2065: a feature template whose only words are about torchaudio
    for text in ("torchaudio.pipelines cannot be called", "torchvision.ops.nms is missing here"):
        diagnosis = explain_text(text)
        assert diagnosis.cause.id == "not-enough-evidence", text
        assert diagnosis.exit_code == 1
    assert explain_text("torchaudiox pipelines cannot be called").cause.id == "unreadable"  # not the package


TRANSFORMERS_REFUSAL = (  # transformers/training_args.py, __post_init__: what a Mac user with fp16=True meets
    "ValueError: FP16 Mixed precision training with AMP or APEX (`--fp16`) and FP16 half precision evaluation "
    "(`--fp16_full_eval`) can only be used on CUDA or NPU devices or certain XPU devices (with IPEX)."
)


def test_transformers_refusal_of_fp16_naming_the_flag_is_mixed_precision_needing_a_newer_torch() -> None:
    assert mixed(TRANSFORMERS_REFUSAL) == "fp16"
    for text in (TRANSFORMERS_REFUSAL, "# user: on my MacBook M2\n" + TRANSFORMERS_REFUSAL):
        diagnosis = explain_text(text)
        assert diagnosis.cause.id == "autocast-needs-newer-torch", text
        assert [e.line for e in diagnosis.cause.evidence] == [text.count("\n") + 1]
    # on Linux the same words are no Mac's: the other system is the answer
    linux = explain_text("OS: Ubuntu 22.04.4 LTS (x86_64)\n" + TRANSFORMERS_REFUSAL)
    assert linux.cause.id == "not-macos"
    # an error about something else, with fp16 asked on another line and no Trainer built, stays unrecognised
    other = explain_text("fp16=True\nmodel on my MacBook M2\nValueError: some other thing went wrong")
    assert (other.cause.id, other.cause.variant) == ("metal-bug-fixed-later", "unrecognised")


# ---- "fails on the Mac" and "works with CUDA" on two lines (probes/paste/contrast.py) ----------------------------

LEROBOT = (  # huggingface/lerobot#496, cut to its lines of facts and words
    "- Platform: macOS-14.7.1-arm64-arm-64bit\n"
    "- PyTorch version (GPU?): 2.5.1 (False)\n"
    "fails all eval episodes on mac.\n"
    "### Expected behavior\n"
    "The same agent works with Cuda\n"
)


def said(text: str) -> tuple[bool, bool]:
    from mpscheck.probes.paste import read

    paste = read(text)
    return paste.get("paste.fails_on_mac") is not None, paste.get("paste.works_elsewhere") is not None


def test_the_two_halves_are_read_exactly() -> None:
    assert said("fails all eval episodes on mac.") == (True, False)
    assert said("it doesn't work on my MacBook") == (True, False)
    assert said("training breaks with mps") == (True, False)
    assert said("The same agent works with Cuda") == (False, True)
    assert said("runs fine on Colab") == (False, True)
    assert said("it works perfectly on the CPU") == (False, True)
    for line in (
        "fails to install on mac",  # an installer's trouble
        "it failed to build the wheel on my Mac",
        "works on my mac",  # works said of the Mac itself
        "failures on mac are rare",
    ):
        assert said(line) == (False, False), line


def test_failing_on_the_mac_and_working_elsewhere_with_no_error_is_a_backend_bug() -> None:
    diagnosis = explain_text(LEROBOT)
    assert (diagnosis.cause.id, diagnosis.cause.variant) == ("metal-bug-fixed-later", "wrong-results")
    assert [e.line for e in diagnosis.cause.evidence] == [3, 5]
    assert diagnosis.exit_code == 1
    for text in (
        LEROBOT.replace("The same agent works with Cuda", "No idea why"),  # one half only
        LEROBOT.replace("fails all eval episodes on mac.", "it is slow"),
        LEROBOT.replace("- Platform: macOS-14.7.1-arm64-arm-64bit\n", ""),  # no Mac and no mps shown
    ):
        assert explain_text(text).cause.variant != "wrong-results", text
    # an error shown is the cause, not the words
    shown = explain_text(LEROBOT + "RuntimeError: Placeholder storage has not been allocated on MPS device!\n")
    assert shown.cause.id == "device-mismatch"
