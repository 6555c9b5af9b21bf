"""The classes of input the 38th out-of-sample round (2026-11-25: pytorch/pytorch MPS issues of 2025-2026) found explain
missing, each read generally: a wrong result told in a training run's words ("corrupted training losses",
"nonsensical text") or said to come silently ("returns plausible tensors without a warning"); memory said to grow with
an adverb between ("memory usage steadily increases"); the same check printed under a CPU label and an mps label with
NaN only under mps; and one op said slower on mps than an equivalent one (no CPU in the comparison).

The texts are lines of the round's pastes (tests/corpus names each).
"""

from __future__ import annotations

from mpscheck.checks.causes import explain_text
from mpscheck.probes.paste import nan_blocks, prose, read


def _facts(lines: list[str]) -> set[str]:
    return {o.fact for o in prose.parse(lines)}


def test_corrupted_losses_and_nonsensical_text_are_wrong_results_with_mps_named() -> None:
    said = [
        "- Backend is MPS",
        "I originally encountered this issue in an LLM fine-tuning workflow using `transformers` and `trl`, where "
        "training with `DPOTrainer` would result in corrupted training losses, and `GRPOTrainer` would generate "
        "nonsensical text during training.",
    ]
    diagnosis = explain_text("\n".join(said))  # pytorch#180776
    assert diagnosis.cause.id == "metal-bug-fixed-later"
    assert diagnosis.cause.fix is not None and "--upgrade torch" in " ".join(diagnosis.cause.fix.commands)
    assert "paste.wrong_apart" in _facts(["the run ended with corrupted training losses"])
    assert "paste.wrong_apart" in _facts(["GRPOTrainer would generate nonsensical text"])
    assert "paste.wrong_apart" not in _facts(["the training losses went down nicely"])


def test_a_result_said_to_come_silently_or_to_look_plausible_is_a_wrong_result() -> None:
    said = (
        "> On the MPS backend, `scaled_dot_product_attention(..., is_causal=True)` can apply the causal mask once per "
        "group of four query positions.\n> The call returns plausible tensors without a warning, error, or NaN."
    )
    assert explain_text(said).cause.id == "metal-bug-fixed-later"  # pytorch#195910, quoted with "> "
    for line in (
        "bmm still goes through MPSGraph and returns silently wrong results",  # pytorch#195163
        "This is silent and the conv gives plausible-looking output",  # pytorch#192212, retold
    ):
        assert "paste.wrong_apart" in _facts([line]), line
    for line in ("the script fails silently when the file is missing", "a plausible explanation is the cache"):
        assert "paste.wrong_apart" not in _facts([line]), line


def test_memory_said_to_grow_with_an_adverb_between_is_memory_growth() -> None:
    said = (
        "When running a simple LSTM model on the MPS backend with a repetitive loop, memory usage steadily increases, "
        "eventually leading to an Out of Memory error."
    )
    assert "paste.memory_growth" in _facts([said])  # pytorch#145374
    diagnosis = explain_text(said)
    assert diagnosis.cause.id == "metal-bug-fixed-later"
    assert diagnosis.cause.variant == "memory-growth"
    assert "paste.memory_growth" not in _facts(["on mps the memory usage is steady at 4 GB"])


NAN_CHECK = [
    "Testing for NaNs on cpu...",
    "Has NaNs: False - Range: -4.285 to 4.010 - input",
    "Has NaNs: False - Range: -4.285 to 4.419 - output",
    "Testing for NaNs on mps...",
    "Has NaNs: False - Range: -4.285 to 4.010 - input",
    "Has NaNs: True - Range: nan to nan - output",
]


def test_nan_under_the_mps_label_only_is_the_same_output_apart() -> None:
    found = nan_blocks.parse(NAN_CHECK)  # pytorch#151667's comment
    assert [(o.fact, o.line) for o in found] == [("paste.values_differ", 6)]
    diagnosis = explain_text("\n".join(NAN_CHECK))
    assert diagnosis.cause.id == "metal-bug-fixed-later"
    assert "values differ" in diagnosis.cause.summary


def test_nan_under_both_labels_or_in_code_is_no_difference() -> None:
    both = [line.replace("-4.285 to 4.419", "nan to nan") for line in NAN_CHECK]
    assert nan_blocks.parse(both) == []  # NaN on the CPU too: the model's, not the backend's
    other_line = [*NAN_CHECK[:5], "loss: nan"]
    assert nan_blocks.parse(other_line) == []  # no line of the CPU's block has that shape
    code = ["# on mps", "x = torch.full((2,), float('nan'))", "# on cpu", "x = torch.zeros(2)"]
    assert nan_blocks.parse(code) == []
    assert nan_blocks.parse(["on mps:", "Has NaNs: True - nan"]) == []  # one device alone: nothing to compare


def test_one_op_said_slower_than_an_equivalent_on_mps_is_a_slow_kernel_path() -> None:
    title = (
        "# title: [MPS] 3D `F.linear` on `[B,1,K]` (seq=1 decode) is up to 8.5x slower than 2D / `torch.matmul` "
        "(bf16/fp16)"
    )
    diagnosis = explain_text(title)  # pytorch#189847
    assert diagnosis.cause.id == "metal-bug-fixed-later"
    assert diagnosis.cause.variant == "slow-path"
    assert diagnosis.cause.fix is not None and "--upgrade torch" in " ".join(diagnosis.cause.fix.commands)
    facts = {o.fact for o in read(title).observations}
    assert {"paste.slow_said", "paste.slow_vs_op"} <= facts


def test_mps_said_slower_than_the_cpu_names_no_cause() -> None:
    for said in ("on my M2, mps is 3x slower than cpu", "training on mps is slower than on my RTX 3090"):
        facts = {o.fact for o in read(said).observations}
        assert "paste.slow_vs_op" not in facts, said
    assert explain_text("on my M2, mps is 3x slower than cpu").cause.id == "not-enough-evidence"


def test_wrong_results_on_a_macos_vm_outrank_the_vm() -> None:
    said = (
        "On GitHub's macos-26 runner (which has an M1 chip), nn.Linear gives the wrong answer when `bias=True`.\n"
        'mps = nn.Linear(in_f, out_f, bias=bias).to("mps")'
    )
    diagnosis = explain_text(said)  # pytorch#188438: macOS 26's bias fusion, not the VM
    assert diagnosis.cause.id == "metal-bug-fixed-later"
    assert "virtual-machine" in [c.id for c in diagnosis.others]
    vm_only = "On GitHub's macos-26 runner (which has an M1 chip) the tests run on mps"
    assert explain_text(vm_only).cause.id != "metal-bug-fixed-later"  # no wrong result said: the VM stays


def test_a_discrepancy_between_the_cpu_and_mps_output_is_a_wrong_result() -> None:
    said = [
        'sysctl -n machdep.cpu.brand_string   # "Apple M1 (Virtual)"',
        'On "Apple M1 (Virtual)" I observe a large discrepancy between the CPU and MPS output.',
    ]
    assert explain_text("\n".join(said)).cause.id == "metal-bug-fixed-later"  # pytorch#192934
    assert "paste.wrong_results" in _facts([said[1]])
    assert "paste.wrong_results" not in _facts(["there is no discrepancy between the CPU and MPS output"])


def test_a_hang_told_in_words_with_mps_named_is_the_backends_hang() -> None:
    said = (
        'lib.foo(torch.rand(3, device="mps"))\ntorch.mps.synchronize()\n'
        "It will hang the process, and few attempt to reproduce the same resulted in system hang"
    )
    diagnosis = explain_text(said)  # pytorch#144634
    assert diagnosis.cause.id == "metal-bug-fixed-later"
    assert diagnosis.cause.variant == "hang-said"
    assert diagnosis.exit_code == 1
    assert "paste.hang_said" in _facts(["the program gets stuck at model.to(device)"])
    for line in ("I'm stuck with this error, please help", "the hangar's wifi is slow"):
        assert "paste.hang_said" not in _facts([line]), line
    assert explain_text("It will hang the process").cause.variant != "hang-said"  # mps not named: not MPS's hang
