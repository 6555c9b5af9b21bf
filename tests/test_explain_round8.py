"""The classes of input the eighth out-of-sample round (2026-11-24, GitHub issue threads) found explain missing,
each read generally: torch's fallback warning cut after its first clause; a pickle saved on mps loaded where torch
has no MPS ("Storage device not recognized: mps"); an installer's verbose log skipping torch's own arm64 wheel;
results on mps called worse, corrupted or inconsistent, a detector that finds nothing on mps, a wrong result named
far from "mps" on its line; a run told to fail on mps where the CPU's works; ``accelerate env``'s "use_cpu: True"; a
model saved on the Mac told not to load elsewhere; values called wrong after torch.load(..., map_location='mps'); a
build against a macOS SDK without the MPSGraph API it uses; GitHub's hosted runner named after "macOS 14", or shown by
its tool cache in a path; torch's op message cut to the quoted op and its tail (a title), and a library's own op
(torchvision::) whose kernel comes with a newer release of that library; torch pinned to a local version (+cpu,
+cu121) in a pyproject or a requirements file on a Mac.

The texts are lines of the round's threads (tests/corpus names each).
"""

from __future__ import annotations

from mpscheck.checks.causes import explain_text


def test_the_fallback_warning_cut_after_its_first_clause_is_still_the_warning() -> None:
    title = "The operator 'aten::nonzero' is not currently supported on the MPS backend"  # ultralytics/yolov5#8508
    diagnosis = explain_text(title)
    assert diagnosis.cause.id == "op-fallback-warning"
    assert diagnosis.cause.fix is not None and "Nothing is broken" in diagnosis.cause.fix.summary
    # torch's error for a missing kernel is another message, still the failure it was
    error = "NotImplementedError: The operator 'aten::nonzero' is not currently implemented for the MPS device."
    assert explain_text(error).cause.id == "op-not-implemented"


def test_a_pickle_saved_on_mps_and_loaded_without_mps_is_a_checkpoint_load_fixed_by_map_location() -> None:
    line = "RuntimeError: torch.UntypedStorage(): Storage device not recognized: mps"  # sentence-transformers#3229
    diagnosis = explain_text(line)
    assert diagnosis.cause.id == "mps-checkpoint-load"
    assert diagnosis.cause.fix is not None and "map_location='cpu'" in diagnosis.cause.fix.summary
    # another device's storage is not this cause
    assert explain_text("RuntimeError: Storage device not recognized: xla").cause.id != "mps-checkpoint-load"


def test_an_installer_skipping_torchs_arm64_wheel_asks_which_python_this_is() -> None:
    skipped = " as this is not supported by the current environment"
    poetry = "Skipping wheel torch-2.3.0-cp311-none-macosx_11_0_arm64.whl" + skipped  # python-poetry/poetry#9442
    pip = "Skipping link: none of the wheel's tags match: cp311-none-macosx_11_0_arm64: https://files.example/torch.whl"
    for text in (poetry, pip):
        diagnosis = explain_text(text)
        assert diagnosis.cause.id == "no-matching-distribution"
        assert "arm64" in diagnosis.cause.summary and "Python version" in diagnosis.cause.summary
        assert diagnosis.cause.fix is not None
        assert "platform.machine()" in diagnosis.cause.fix.commands[0]
    # skipping another platform's wheel is what every install logs: no cause of its own
    linux = "Skipping wheel torch-2.3.0-cp311-cp311-manylinux1_x86_64.whl" + skipped
    assert explain_text(linux).cause.id != "no-matching-distribution"


def test_results_on_mps_called_worse_or_corrupted_are_wrong_results() -> None:
    for said in (
        "found that the result by the MPS backend is significantly worse.",  # pytorch#126862
        "Using the MPS backend to train a model produces much worse results than using other backends",  # pytorch#92615
        "MPS backend produces corrupted output in SDXL image generation on macOS 27 beta",  # pytorch#187280
        "Using PyTorch with Transformers to run inference with 'MPS' backend causes poor results.",  # pytorch#128435
        "when I run: python detect.py --source 0 --device mps, there is no detections.",  # ultralytics/yolov5#9596
    ):
        diagnosis = explain_text(said)
        assert diagnosis.cause.id == "metal-bug-fixed-later", said
        assert diagnosis.cause.summary.startswith("the paste says the results on mps are wrong")
    # worse said of the speed is no wrong result
    assert explain_text("mps training is much slower, worse performance than cpu").cause.id != "metal-bug-fixed-later"
    assert explain_text("mps gives poor performance").cause.id != "metal-bug-fixed-later"


def test_a_wrong_result_named_far_from_mps_on_its_line_is_read_but_not_a_claim_called_incorrect() -> None:
    line = (  # ultralytics#16827
        "However, when using device=mps, the segmentation  appears to remove the bounding boxes, showing only the "
        "incorrect segmentation masks."
    )
    assert explain_text(line).cause.id == "metal-bug-fixed-later"
    claim = (  # Lightning-AI/pytorch-lightning#17667: "incorrect" said of an assumption, not of a result
        "As of, I believe, macOS 12.3, MPS is supported on Intel, not just ARM ... the assumption made in "
        "lightning/src/../accelerators/mps.py, namely that the processor must be arm, otherwise we're in emulation "
        "mode, is incorrect. On my Intel MacBook Pro"
    )
    diagnosis = explain_text(claim)
    assert all(c.variant != "wrong-results" for c in (diagnosis.cause, *diagnosis.others))


def test_a_run_that_fails_on_mps_where_the_cpu_works_is_a_backend_bug_told_in_words() -> None:
    said = "`detect.py` works well when running on CPU but failed on Apple MPS on my computer."  # yolov5#8459
    for text in (said, "it fails on mps but works on cpu", "It works on CPU but not on MPS"):
        diagnosis = explain_text(text)
        assert diagnosis.cause.id == "metal-bug-fixed-later", text
        assert diagnosis.cause.summary.startswith("the paste says the run fails on mps where it works on the CPU")
        assert diagnosis.cause.fix is not None and "--upgrade torch" in diagnosis.cause.fix.commands[0]
    # the other way round, or both failing, says nothing against mps
    for text in ("mps works but cpu fails", "it fails on mps and on cpu"):
        assert explain_text(text).cause.id != "metal-bug-fixed-later", text


ACCELERATE_ENV = """- `Accelerate` version: 1.5.2
- Platform: macOS-15.3.2-arm64-arm-64bit
- Python version: 3.12.9
- PyTorch version (GPU?): 2.6.0 (False)
- `Accelerate` default config:
        - compute_environment: LOCAL_MACHINE
        - distributed_type: NO
        - mixed_precision: no
        - use_cpu: True
"""  # huggingface/accelerate#3453


def test_accelerates_default_config_on_the_cpu_is_mps_not_requested() -> None:
    diagnosis = explain_text(ACCELERATE_ENV)
    assert diagnosis.cause.id == "mps-not-requested"
    assert any("use_cpu: True" in e.text for e in diagnosis.cause.evidence)
    # use_cpu: False asks for nothing
    assert explain_text(ACCELERATE_ENV.replace("use_cpu: True", "use_cpu: False")).cause.id != "mps-not-requested"


def test_a_model_saved_on_the_mac_told_not_to_load_elsewhere_is_a_checkpoint_load() -> None:
    for said in (
        "We trained a Model under Apple-Silicon and are not able to reload the model under Linux.",  # pytorch#109943
        "Loading model trained on MPS cannot be opened on non MPS system",  # pytorch#87504's title
        "Can't run a model trained in MPS-system on CPU-only system.",  # pytorch#160846's title
    ):
        diagnosis = explain_text(said)
        assert diagnosis.cause.id == "mps-checkpoint-load", said
        assert diagnosis.cause.fix is not None and "map_location='cpu'" in diagnosis.cause.fix.summary
    # saved on the Mac and used elsewhere, with nothing said to fail, is no problem
    assert explain_text("I trained on MPS and deployed it to a server successfully").cause.id != "mps-checkpoint-load"


def test_values_called_wrong_after_loading_straight_onto_mps_are_a_checkpoint_load() -> None:
    text = (  # pytorch#85230
        'model_state = torch.load(ckpt, map_location="mps")\n'
        'print(model_state["model_state"]["inp_block.bn0.weight"])\n'
        "# MPS load gives zeros:\n"
    )
    diagnosis = explain_text(text)
    assert diagnosis.cause.id == "mps-checkpoint-load"
    assert diagnosis.cause.fix is not None and "map_location='cpu'" in diagnosis.cause.fix.summary
    assert [e.line for e in diagnosis.cause.evidence] == [1, 3]
    # the same words with a load on the CPU are a backend bug as before
    on_cpu = text.replace('map_location="mps"', 'map_location="cpu"')
    assert explain_text(on_cpu).cause.id == "metal-bug-fixed-later"


def test_a_build_against_an_sdk_without_the_mpsgraph_api_is_macos_too_old() -> None:
    line = (  # pytorch/executorch#1020
        ": error: unknown type name 'MPSGraphExecutableSerializationDescriptor'; did you mean "
        "'MPSGraphExecutableExecutionDescriptor'?"
    )
    diagnosis = explain_text(line)
    assert diagnosis.cause.id == "macos-too-old"
    assert "MPSGraphExecutableSerializationDescriptor" in diagnosis.cause.summary
    assert diagnosis.cause.fix is not None and "softwareupdate --list" in diagnosis.cause.fix.commands
    available = "'MPSGraphExecutable' is only available on macOS 12.0 or newer"
    assert explain_text(available).cause.id == "macos-too-old"
    # another type unknown to the compiler is no macOS matter
    assert explain_text("error: unknown type name 'Foo'").cause.id != "macos-too-old"


def test_githubs_hosted_runner_named_after_macos_or_shown_by_its_tool_cache_is_a_virtual_machine() -> None:
    said = "# user: a crash which only happens on macOS 14 in the hosted runner of GitHub Actions."  # executorch#6746
    path = "Process 4164 launched: '/Users/runner/hostedtoolcache/node/22.10.0/arm64/bin/node' (arm64)"
    crash = "* thread #1, queue = 'com.apple.main-thread', stop reason = EXC_BAD_ACCESS (code=1, address=0x580)"
    for text in (said, path):
        assert explain_text(text + "\n" + crash).cause.id == "virtual-machine", text
    # torch's own build path names the machine torch was built on, not where it runs
    torch_path = (
        "(Triggered internally at /Users/runner/work/pytorch/pytorch/pytorch/aten/src/ATen/mps/MPSFallback.mm:11.)"
    )
    assert explain_text(torch_path + "\n" + crash).cause.id != "virtual-machine"


def test_the_op_message_cut_to_its_quoted_op_is_read_and_a_library_op_upgrades_the_library() -> None:
    title = "'torchvision::deform_conv2d' is not currently implemented for the MPS device"  # pytorch/vision#9164
    diagnosis = explain_text(title)
    assert diagnosis.cause.id == "op-not-implemented"
    assert diagnosis.cause.summary.startswith("torchvision::deform_conv2d: no MPS kernel in this torchvision")
    assert diagnosis.cause.fix is not None
    assert diagnosis.cause.fix.commands == (
        "export PYTORCH_ENABLE_MPS_FALLBACK=1",
        "python3 -m pip install --upgrade torchvision",
    )
    # an op word with no namespace, or no quote, is no op message
    assert (
        explain_text("deform_conv2d is not currently implemented for the MPS device").cause.id != "op-not-implemented"
    )


def test_torch_pinned_to_a_local_version_on_a_mac_has_no_wheel_to_install() -> None:
    pyproject = (  # python-poetry/poetry#10125
        "# user: Python 3.12.3 / pip latest / Poetry (version 2.0.1)/ I am on Apple M3 Max\n"
        'torch = { version = "^2.5.1+cpu", source = "pytorch-cpu" }\n'
    )
    diagnosis = explain_text(pyproject)
    assert diagnosis.cause.id == "no-matching-distribution"
    assert diagnosis.cause.summary.startswith("torch is pinned to 2.5.1+cpu, a cpu build")
    assert diagnosis.cause.fix is not None and "torch==2.5.1" in diagnosis.cause.fix.commands[0]
    assert explain_text("torch==2.4.0+cu121\n# user: on my M2 Mac").cause.id == "no-matching-distribution"
    # the same pin where no Mac is shown, or on Linux, says nothing of macOS wheels
    assert explain_text("torch==2.4.0+cu121").cause.id != "no-matching-distribution"
    assert explain_text("torch==2.4.0+cu121\n# user: on Ubuntu 22.04").cause.id == "not-macos"
