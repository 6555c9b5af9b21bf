"""The classes of input the 42nd out-of-sample round (2026-11-25: the Hugging Face ecosystem on Macs, 2024-2026:
transformers, accelerate, trl, diffusers, sentence-transformers and parler-tts threads where a user on a Mac hit
MPS) found explain missing, each read generally:

- torch's own message for a random draw handed a generator of another device in its newer wording ("Expected a
  'mps:0' generator device but found 'cpu'", the older "device type for generator" row of knowledge/error_texts.py
  extended): the sampler's CPU generator under torch.set_default_device('mps'), a device mismatch, not a backend bug;
- the same told in words, a sampler or generator said not to be made on mps (knowledge/told_rows.py);
- mixed precision said in words to be on, by the user or by a library's default ("fp16 was enabled", "seemed to set
  it to true", probes/paste/precision.py), which the precision judge then weighs like a flag.

The texts are lines of the round's pastes (tests/corpus names each).
"""

from __future__ import annotations

from mpscheck.checks.causes import explain_text
from mpscheck.knowledge import errors
from mpscheck.knowledge.told_rows import TOLD
from mpscheck.probes.paste import precision


def _row_id(text: str) -> str | None:
    hit = errors.first(text)
    return hit.row.id if hit is not None else None


def test_a_generator_of_another_device_is_a_device_mismatch_not_a_backend_bug() -> None:
    """Class: torch's check that a random draw's generator is on the draw's device (mps or the CPU, with or without
    an index, in either of torch's wordings), in a traceback's last line or a title. Near misses: other "expected ...
    device" messages keep their own rows."""
    said = (
        "# user: While trying to run Trainer.train() on a Mac device, I run into the following error:\n"
        "# title: RuntimeError: Expected a 'mps:0' generator device but found 'cpu'"
    )
    diagnosis = explain_text(said)  # transformers#31897
    assert diagnosis.cause.id == "device-mismatch"
    assert diagnosis.cause.fix is not None and ".to(" in diagnosis.cause.fix.summary
    for line in (
        "RuntimeError: Expected a 'mps:0' generator device but found 'cpu'",
        "RuntimeError: Expected a 'cpu' generator device but found 'mps:0'",
        "Expected a 'mps' generator device but found 'cpu'",
        "RuntimeError: Expected a 'mps' device type for generator but found 'cpu'",  # the older wording
    ):
        assert _row_id(line) == "generator-device", line
    for line in (
        "Expected a generator",  # no devices named
        "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, mps:0 and cpu!",
        "generator = torch.Generator(device='mps')",
    ):
        assert _row_id(line) != "generator-device", line


def test_a_samplers_generator_said_not_to_be_on_mps_is_a_device_mismatch() -> None:
    """Class: the generator message told in words (a sampler or generator not made on mps, a generator on the wrong
    device, on a line naming mps). Near misses: a generator made on mps (the fix), no mps named, a generator that
    is on mps."""
    said = (
        "- Using GPU in script?: Using MPS\n"
        'mps_device = torch.device("mps")\n'
        "torch.set_default_device(mps_device)\n"
        "# title: MPS acceleration doesn't work with transformers.Trainer because torch.RandomSampler is not being "
        "initialized with a torch.Generator on MPS"
    )
    diagnosis = explain_text(said)  # transformers#31390
    assert diagnosis.cause.id == "device-mismatch"
    pattern = next(row for row in TOLD if row.id == "generator-device-told").pattern
    for line in (
        "torch.RandomSampler is not being initialized with a torch.Generator on MPS",
        "the DataLoader's sampler isn't created with a generator on mps",
        "the generator was not made on the mps device",
        "it looks like the generator is on the wrong device when the default device is mps",
    ):
        assert pattern.search(line), line
    for line in (
        "generator=torch.Generator('mps').manual_seed(0)",  # a generator made on mps: the fix
        "torch.Generator(device='mps') is created on MPS",  # nothing said wrong
        "the sampler is not initialized with a generator",  # no mps
        "the generator is on the wrong device",  # no mps named: CUDA as likely
    ):
        assert not pattern.search(line), line


def _asked(line: str) -> str | None:
    found = [o.value for o in precision.parse([line]) if o.fact == "paste.mixed_precision"]
    return found[0] if found else None


def test_mixed_precision_said_to_be_on_is_asked_for() -> None:
    """Class: the user's words that fp16/bf16/mixed precision was on, set by them or by a library's default. Near
    misses: it said off, not enabled, or another thing enabled on the line."""
    said = (
        "# user: I tried to train a sentence-transformers model using the latest release (3.0.0) on my M3 MacBook.\n"
        "# user: (in particular despite sentence-transformers having an fp16 argument that I set to False, the "
        "default behavior of `Accelerator(**args)` seemed to set it to true with no way I see of changing that.)\n"
        "# user: This results in an exception at accelerator.py#L461 (since device type is 'mps')"
    )
    assert explain_text(said).cause.id == "autocast-needs-newer-torch"  # sentence-transformers#2699
    for line, dtype in (
        ("fp16 was enabled in the accelerate config", "fp16"),
        ("bf16 is on by default in this trainer", "bf16"),
        ("mixed precision is turned on", "fp16"),
        ("the fp16 flag I passed as False, but the library seemed to set it to true", "fp16"),
    ):
        assert _asked(line) == dtype, line
    for line in (
        "fp16 is not enabled",
        "I set fp16 to false",
        "fp16 off, MPS enabled",
        "bf16 was disabled and MPS turned on",
    ):
        assert _asked(line) is None, line
