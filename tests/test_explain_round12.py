"""The classes of input the twelfth out-of-sample round (2026-11-24, learners' and course repositories: nanoGPT,
llm.c, LLMs-from-scratch, Meta's llama examples, alpaca-lora, Janus, ...) found explain missing, each read
generally: torch.distributed's NCCL backend (and torch.cuda.set_device) asked for on a Mac; an old torch without
torch.amp; torch's input/bias dtype message with c10 type names; the user's words that the trouble goes away on the
CPU or with another torch, where the paste names mps.

The texts are lines of the round's threads (tests/corpus names each).
"""

from __future__ import annotations

from mpscheck.checks.causes import explain_text
from mpscheck.probes.paste import prose


def test_nccl_asked_for_on_a_mac_is_cuda_asked_for() -> None:
    # meta-llama/llama#405, #50: the examples hard-code init_process_group("nccl"), then torch.cuda.set_device
    for line in (
        "RuntimeError: Distributed package doesn't have NCCL built in",
        "AttributeError: module 'torch._C' has no attribute '_cuda_setDevice'",
    ):
        diagnosis = explain_text(line)
        assert diagnosis.cause.id == "cuda-requested-on-mac", line
        assert diagnosis.cause.fix is not None and "gloo" in diagnosis.cause.fix.summary
    # other NCCL words, and other attributes of torch._C, are not this
    assert explain_text("NCCL is not built in here, I think").cause.id != "cuda-requested-on-mac"
    assert explain_text("AttributeError: module 'torch._C' has no attribute '_jit_pass'").cause.id != (
        "cuda-requested-on-mac"
    )


def test_an_old_torch_without_torch_amp_needs_a_newer_torch_for_autocast() -> None:
    text = (  # karpathy/nanoGPT#150
        "ctx = nullcontext() if device_type == 'cpu' else torch.amp.autocast(device_type=device_type, dtype=ptdtype)\n"
        "AttributeError: module 'torch' has no attribute 'amp'\n"
    )
    diagnosis = explain_text(text)
    assert diagnosis.cause.id == "autocast-needs-newer-torch"
    assert diagnosis.cause.fix is not None
    assert any("'torch>=2.6'" in command for command in diagnosis.cause.fix.commands)
    assert explain_text("ModuleNotFoundError: No module named 'torch.amp'").cause.id == "autocast-needs-newer-torch"
    # torch.ampere or an attribute of another module is not torch.amp
    assert explain_text("AttributeError: module 'numpy' has no attribute 'amp'").cause.id != (
        "autocast-needs-newer-torch"
    )


def test_the_input_and_bias_dtypes_named_by_c10_are_an_input_dtype_mismatch() -> None:
    line = "RuntimeError: Input type (c10::BFloat16) and bias type (c10::Half) should be the same"  # Janus#83
    diagnosis = explain_text(line)
    assert diagnosis.cause.id == "input-dtype-mismatch"
    assert explain_text(line.replace("c10::", "")).cause.id == "input-dtype-mismatch"


LLMC = (  # karpathy/llm.c#36: the run "works" on mps and prints only token 0
    "using device: mps\n"
    "iteration 9, loss: 0.37650370597839355\n"
    "<|endoftext|>!!!!!!!!!!!!!!!!\n"
    "When downgrading to torch 2.1.X or using the CPU, this does not happen.\n"
)


def test_trouble_that_goes_away_on_the_cpu_where_mps_ran_is_a_backend_bug_never_healthy() -> None:
    diagnosis = explain_text(LLMC)
    assert diagnosis.cause.id == "metal-bug-fixed-later"
    assert "goes away on the CPU" in diagnosis.cause.summary
    assert diagnosis.cause.fix is not None and "Compare the op on the CPU" in diagnosis.cause.fix.summary
    # without the user's words and the generated text the same log reads as a working run; the generated text
    # alone (token 0 over and over after the end-of-text token: probes/paste/degenerate.py) says the numbers went wrong
    assert explain_text(LLMC.split("\n<|")[0] + "\n").cause.id != "metal-bug-fixed-later"
    assert explain_text(LLMC.rsplit("\n", 2)[0] + "\n").cause.id == "metal-bug-fixed-later"
    # and the words with no mps anywhere name no MPS bug
    assert explain_text("Using the CPU, this does not happen.").cause.id != "metal-bug-fixed-later"


def test_the_users_words_that_it_works_elsewhere_are_read_in_their_shapes() -> None:
    said = [
        "When downgrading to torch 2.1.X or using the CPU, this does not happen.",  # llm.c#36
        "This does not happen when using Torch 2.1.x.",  # nanoGPT#458
        "my training loss seems 'stuck' around 6. When I force to CPU it works as expected.",  # LLMs-from-scratch#635
        "If I switch to cpu, it works.",
        "It doesn't happen on the CPU.",
    ]
    for line in said:
        assert "paste.only_on_mps" in {o.fact for o in prose.parse([line])}, line
    for line in (
        "It does not happen often.",
        "I switched to Linux and it works.",
        "The CPU is slow, this does not matter.",
        "torch works fine",
    ):
        assert "paste.only_on_mps" not in {o.fact for o in prose.parse([line])}, line
    # a line that already says mps fails where the CPU works stays that fact alone
    both = "It fails on mps but works on the cpu, this does not happen on the CPU."
    facts = {o.fact for o in prose.parse([both])}
    assert "paste.mps_fails_cpu_works" in facts and "paste.only_on_mps" not in facts


def test_the_answer_to_trouble_gone_on_the_cpu_names_the_users_line_exactly() -> None:
    diagnosis = explain_text(LLMC)
    assert diagnosis.cause.summary.startswith(
        "the paste says the trouble goes away on the CPU (or with another torch), and shows no error: a backend bug "
        "of this torch on mps"
    )
    assert [(e.line, e.text) for e in diagnosis.cause.evidence] == [
        (4, "When downgrading to torch 2.1.X or using the CPU, this does not happen.")
    ]
    # "MPS" in capitals names mps as well; the words that the results are wrong keep their own answer
    upper = LLMC.replace("using device: mps", "Using device: MPS")
    assert explain_text(upper).cause.id == "metal-bug-fixed-later"
    wrong = LLMC + "The results on mps are wrong.\n"
    assert explain_text(wrong).cause.summary.startswith("the paste says the results on mps are wrong")


def test_a_traceback_frame_that_starts_nccl_on_a_mac_is_cuda_asked_for() -> None:
    text = (  # meta-llama/llama#722: the stored traceback ends in init_process_group's frame
        '  File "/Users/jc/llama/llama-main/llama/generation.py", line 62, in build\n'
        '    torch.distributed.init_process_group("nccl")\n'
        '  File "/Users/jc/miniconda3/envs/myenv/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", '
        "line 907, in init_process_g\n"
    )
    diagnosis = explain_text(text)
    assert diagnosis.cause.id == "cuda-requested-on-mac"
    assert diagnosis.cause.fix is not None and "gloo" in diagnosis.cause.fix.summary  # the NCCL row's fix
    assert [e.line for e in diagnosis.cause.evidence][:1] == [2]
    for line in ("dist.init_process_group(backend='nccl')", 'init_process_group( "nccl", rank=0)'):
        assert "paste.cuda_asked" in {o.fact for o in prose.parse([line])}, line
    # a config that names nccl, or gloo started, asks for nothing
    for line in ("backend = 'nccl' # 'nccl', 'gloo', etc.", 'torch.distributed.init_process_group("gloo")'):
        assert "paste.cuda_asked" not in {o.fact for o in prose.parse([line])}, line
    # the words asking for CUDA keep the CUDA row's fix
    asked = explain_text("On my M1 Mac the script keeps asking for cuda.")
    assert asked.cause.id == "cuda-requested-on-mac"
    assert asked.cause.fix is not None and "gloo" not in asked.cause.fix.summary


def test_results_said_to_differ_on_the_mac_or_its_chip_are_wrong_results() -> None:
    line = (  # tloen/alpaca-lora#444
        "I run the same code on a CUDA architecture and it provides a result, while on M2 it works (and it is quite "
        "fast) but the results are different."
    )
    assert explain_text(line).cause.id == "metal-bug-fixed-later"
    for said in (
        "On my Mac the outputs were not the same as on Colab.",
        "on an M1 Pro the predictions are quite inconsistent",
        "With macOS the results were different.",
    ):
        assert "paste.wrong_results" in {o.fact for o in prose.parse([said])}, said
    for said in (
        "On M2 the results are fast.",  # a speed, not the results
        "The results are different on Windows and Linux.",  # no Mac named
        "my M2 drive is different",  # no results
        "m15 results are different",  # no Apple chip
    ):
        assert "paste.wrong_results" not in {o.fact for o in prose.parse([said])}, said


def test_a_python_assignments_trailing_comment_is_not_the_users_words() -> None:
    # karpathy/nanoGPT#28: nanoGPT's config sets mps, with its own comment from the CPU default it replaced
    line = "device = 'mps'  # run on cpu only"
    assert "paste.device_used" not in {o.fact for o in prose.parse([line])}
    assert explain_text(line).cause.id != "mps-not-requested"
    for code in ("compile = False # do not torch compile the model", 'dtype = "float16"', "n_layer = 4"):
        assert prose.parse([code]) == [], code
    # the user's own sentences, and a shell's environment assignment, are still read
    assert "paste.device_used" in {o.fact for o in prose.parse(["it seems to run on the cpu only"])}
    env = "PYTORCH_ENABLE_MPS_FALLBACK=1 python train.py, but it seems to run on the CPU only"
    assert "paste.device_used" in {o.fact for o in prose.parse([env])}
