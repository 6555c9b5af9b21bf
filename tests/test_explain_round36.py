"""The classes of input the 36th out-of-sample round (2026-11-25: image, diffusion, audio and speech front ends)
found explain missing, each read generally: a picture said to come out black or blank, however worded ("image is
black", "blank images ... Mac M2", "a black (or sometimes gray) upscaled image"), and numpy's NaN cast warning; the
cause of such a picture where the paste shows half precision at work (the web UI's NansException, a float32 switch
named, numpy's NaN cast): float16 overflowing to NaN, fixed by the front end's own float32 switch; an Intel Mac told
by its CPU tier before the Mac ("my i5 mac").

The texts are lines of the round's pastes (tests/corpus names each).
"""

from __future__ import annotations

import pytest

from mpscheck.checks.causes import explain_text
from mpscheck.model import ExitCode
from mpscheck.probes.paste import prose
from mpscheck.probes.paste.wrong_words import BLACK_PICTURE

NANS = (
    "NansException: A tensor with all NaNs was produced in Unet. This could be either because there's not enough "
    "precision to represent the picture, or because your video card does not support half type. Try setting the "
    '"Upcast cross attention layer to float32" option in Settings > Stable Diffusion or using the --no-half '
    "commandline argument to fix this. Use --disable-nan-check commandline argument to disable this check."
)
CAST = (
    "/path/to/fooocus/core.py:260: RuntimeWarning: invalid value encountered in cast\n"
    "  x_sample = x_sample.cpu().numpy().clip(0, 255).astype(np.uint8)"
)


def _facts(lines: list[str]) -> set[str]:
    return {o.fact for o in prose.parse(lines)}


@pytest.mark.parametrize(
    "said",
    [
        "output image  image is black, but using it fixes",  # Comfy-Org/ComfyUI#4799
        "generating blank images with ComfyUI? Mac M2",  # #2273
        "produces a black (or sometimes gray) upscaled image",  # huggingface/diffusers#2495
        "then suddenly preview becomes black and final output is also a black image",  # Fooocus#2171
        "the images are all black",
    ],
)
def test_a_picture_said_to_come_out_black_or_blank_is_read(said: str) -> None:
    assert BLACK_PICTURE.search(said)


@pytest.mark.parametrize(
    "said",
    [
        "a black background behind the cat",  # a colour asked for, not a result gone wrong
        "the image is blackened on purpose with a mask",  # "blackened", not "black"
        "I set a blank prompt for the images",  # a blank prompt
        "black and white images",
    ],
)
def test_a_colour_asked_for_is_no_black_picture(said: str) -> None:
    assert not BLACK_PICTURE.search(said)


def test_a_black_picture_said_beside_mps_is_a_wrong_result_never_healthy() -> None:
    paste = "Device: mps\noutput image  image is black"
    diagnosis = explain_text(paste)
    assert diagnosis.cause.id == "metal-bug-fixed-later"  # no half precision shown: a backend bug until shown so
    assert diagnosis.exit_code != ExitCode.READY


def test_a_black_picture_said_beside_the_mac_is_read_with_the_mac_after_it() -> None:
    assert "paste.wrong_results" in _facts(["generating blank images with ComfyUI? Mac M2, default workflow"])


def test_numpy_nan_cast_on_a_mac_is_a_black_picture_on_mps() -> None:
    paste = 'macOS 12.6.1\nHardware: MacBook Pro 14" 2021, CPU M1 Max, 64GB RAM\n' + CAST
    assert "paste.picture_wrong" in _facts(paste.split("\n"))
    diagnosis = explain_text(paste)
    assert diagnosis.cause.id == "half-precision-nan"  # numpy's NaN cast is NaN in the picture
    assert "float32" in diagnosis.cause.fix.summary


def test_a_black_picture_without_half_precision_shown_stays_a_backend_bug() -> None:
    paste = "pipeline = pipeline.to('mps')\nRunning the pipeline on MPS produces a black (or sometimes gray) image."
    assert explain_text(paste).cause.id == "metal-bug-fixed-later"


def test_the_web_uis_nans_exception_is_half_precision_with_no_half() -> None:
    diagnosis = explain_text(NANS + "\ntorch: 2.0.1  •\nMacBook Air\nApple M1")
    assert diagnosis.cause.id == "half-precision-nan"
    assert diagnosis.cause.fix.commands == ("./webui.sh --no-half",)
    assert "Unet" in diagnosis.cause.summary


def test_the_nans_exception_quoted_in_a_sentence_is_read_too() -> None:
    said = "Gives me this in terminal: modules.devices.NansException: " + NANS.removeprefix("NansException: ")
    assert explain_text(said).cause.id == "half-precision-nan"


@pytest.mark.parametrize(
    ("paste", "command"),
    [
        (  # ComfyUI's banner and its flag named: its own switch
            "Total VRAM 16384 MB\nDevice: mps\noutput image  image is black, but --force-upcast-attention fixes it",
            "python main.py --force-upcast-attention",
        ),
        (  # Fooocus's script: its VAE switch
            "python entry_with_update.py\nDevice: mps\n" + CAST,
            "python entry_with_update.py --vae-in-fp32",
        ),
        (  # the web UI named: --no-half
            "stable-diffusion-webui on mps\nthe images are all black until I added --no-half",
            "./webui.sh --no-half",
        ),
    ],
)
def test_a_black_picture_with_half_precision_shown_names_the_front_ends_switch(paste: str, command: str) -> None:
    diagnosis = explain_text(paste)
    assert diagnosis.cause.id == "half-precision-nan"
    assert diagnosis.cause.fix.commands == (command,)
    assert "upgrade torch" in diagnosis.cause.fix.summary  # the other cause, and the run that tells them apart


def test_half_precision_in_own_code_names_float32_and_no_front_end() -> None:
    cast = (  # diffusers' image processor, in a script of one's own (no front end named)
        "site-packages/diffusers/image_processor.py:147: RuntimeWarning: invalid value encountered in cast\n"
        '  images = (images * 255).round().astype("uint8")'
    )
    diagnosis = explain_text("pipe = pipe.to('mps')\n" + cast)
    assert diagnosis.cause.id == "half-precision-nan"
    assert diagnosis.cause.fix.commands == ()
    assert "torch_dtype=torch.float32" in diagnosis.cause.fix.summary


@pytest.mark.parametrize("said", ["The issue persist, may be related to my i5 mac", "on my i7 MacBook Pro"])
def test_the_cpu_tier_said_before_the_mac_is_an_intel_mac(said: str) -> None:
    assert "host.arm64_hardware" in {o.fact for o in prose.parse([said]) if o.value is False}


def test_a_tier_not_before_a_mac_is_no_intel_mac() -> None:
    assert not [o for o in prose.parse(["my i5 settings on the mac mini"]) if o.fact == "host.arm64_hardware"]


def test_a_black_picture_on_an_i5_mac_is_the_intel_mac() -> None:
    paste = "Device: mps\nVAE dtype: torch.float32\n" + CAST + "\nThe issue persist, may be related to my i5 mac"
    assert explain_text(paste).cause.id == "intel-mac"


def test_a_hang_said_of_mps_is_a_backend_bug_never_healthy() -> None:
    paste = (  # coqui-ai/TTS#3649
        "If I change the device to cpu then it works just fine and rather quickly. If I change it to mps, it just "
        "hangs until I Ctrl-C\nIs MPS available? True\nUsing device: mps"
    )
    diagnosis = explain_text(paste)
    assert diagnosis.cause.id == "metal-bug-fixed-later"
    assert "hangs on mps" in diagnosis.cause.summary
    assert diagnosis.exit_code != ExitCode.READY


@pytest.mark.parametrize("said", ["the UI hangs for a second on my Mac", "it hangs on the CPU\nmps is fine"])
def test_a_hang_not_said_of_mps_is_no_hang_on_mps(said: str) -> None:
    """Merged with round 38's reading (a hang told anywhere, the judge asks for mps named in the paste): a hang with
    no mps in the paste, or of the CPU, is no hang of mps."""
    assert explain_text(said).cause.variant != "hang-said"
    assert "paste.hang_said" not in _facts(["it hangs on the CPU"])


def test_a_result_said_not_to_come_out_right_on_a_macs_gpu_is_wrong() -> None:
    paste = (  # davabase/whisper_real_time#5
        "Heyo, so i ran this on my 2023 m2 macbook and got some results. it uses the gpu but doesnt quite get it "
        "right.\n/Users/c/whisper/decoding.py:633: UserWarning: The operator 'aten::repeat_interleave.self_int' is not "
        "currently supported on the MPS backend and will fall back to run on the CPU. This may have performance "
        "implications."
    )
    diagnosis = explain_text(paste)
    assert diagnosis.cause.id == "metal-bug-fixed-later"  # wrong results outrank the fallback's performance note
    assert diagnosis.exit_code != ExitCode.READY


def test_half_precision_names_its_sign_and_both_lines_as_evidence() -> None:
    cause = explain_text("Device: mps\nthe images are all black\nI start it with ./webui.sh --no-half").cause
    assert cause.id == "half-precision-nan"
    assert "(--no-half)" in cause.summary  # the sign the paste shows
    assert [e.line for e in cause.evidence] == [2, 3]  # the black picture, then the sign


@pytest.mark.parametrize(
    "paste",
    [
        "macOS 12.6\nMacBook Pro, Intel Core i7\n" + CAST,  # an Intel Mac, mps never named: not mps's picture
        "Ubuntu 22.04\n" + CAST,  # no Mac, no mps
    ],
)
def test_numpy_nan_cast_off_mps_is_no_half_precision_on_mps(paste: str) -> None:
    assert explain_text(paste).cause.id != "half-precision-nan"


def test_a_torch_release_said_to_make_it_work_again_is_a_release_bug_on_mps() -> None:
    paste = (  # city96/ComfyUI-GGUF#107
        "> This is super annoying because the 2.6 nightly finally added support for autocast on MPS\n\n"
        "thank you bro! By using pytorch 2.4.1,  It works again!"
    )
    assert explain_text(paste).cause.id == "metal-bug-fixed-later"
    assert "paste.older_torch_works" not in _facts(["using Python 3.10 it works again on mps"])


def test_numpys_nan_cast_is_read_where_it_stands_only_on_mps_or_an_apple_silicon_mac() -> None:
    from mpscheck.checks.causes.wrong_said import nan_cast
    from mpscheck.probes.paste import read

    mac = read('macOS 12.6.1\nHardware: MacBook Pro 14" 2021, CPU M1 Max, 64GB RAM\n' + CAST)
    found = nan_cast(mac, mac.facts)
    assert found is not None and (found.fact, found.line) == ("paste.picture_wrong", 3)
    assert found.text == CAST.split("\n")[0]
    on_mps = read("device = 'mps'\n" + CAST)
    assert nan_cast(on_mps, on_mps.facts) is not None  # mps named, no Mac shown
    for text in ("Ubuntu 22.04\n" + CAST, "macOS 12.6\nMacBook Pro, Intel Core i7\n" + CAST, "macOS 14.5\nno cast"):
        paste = read(text)
        assert nan_cast(paste, paste.facts) is None, text
