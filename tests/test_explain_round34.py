"""The classes of input the 34th out-of-sample round (2026-11-24: installers, environments and Docker on a Mac)
found explain missing, each read generally: conda's PackagesNotFoundError naming a CUDA package (pytorch-cuda,
cuda-toolkit), which is a CUDA request with the same command less those packages for its fix, not a Python with no
torch; Poetry's refusal of a +cpu (or +cuXXX) build, a local variant with no macOS wheel, not a Python too new;
and Latin words written against Chinese text ("mac系统intel架构", "M2芯片"), which no \\b separates.

The texts are lines of the round's threads (tests/corpus names each).
"""

from __future__ import annotations

from mpscheck.checks.causes import explain_text
from mpscheck.checks.causes.conda_cuda import without_cuda
from mpscheck.probes.paste import conda, prose
from mpscheck.probes.paste.normalise import join_wrapped, spaced_cjk

CONDA_CUDA = (  # Gouryella/ChatTTS-webui#4
    "# user: macOS 14.5 + M2\n"
    "# user: When running `yes | conda install pytorch==2.2.2 torchvision==0.17.2 torchaudio==2.2.2 "
    "pytorch-cuda=12.1 -c pytorch -c nvidia`, it throws error as below:\n"
    "PackagesNotFoundError: The following packages are not available from current channels:\n"
    "\n"
    "  - pytorch-cuda=12.1*\n"
    "\n"
    "Current channels:\n"
    "\n"
    "  - https://conda.anaconda.org/pytorch\n"
)


def test_conda_not_finding_a_cuda_package_is_a_cuda_request_with_the_command_less_cuda() -> None:
    diagnosis = explain_text(CONDA_CUDA)
    assert diagnosis.cause.id == "cuda-requested-on-mac"
    assert diagnosis.cause.summary.startswith("conda found no pytorch-cuda for this platform: it is a CUDA package")
    assert diagnosis.cause.fix is not None
    assert diagnosis.cause.fix.commands == (
        "conda install pytorch==2.2.2 torchvision==0.17.2 torchaudio==2.2.2 -c pytorch",
    )
    assert [e.line for e in diagnosis.cause.evidence] == [2, 3, 5]  # the command, the error, the package


def test_conda_not_finding_cuda_without_a_command_still_drops_cuda_with_no_command() -> None:
    paste = (  # xNul/chat-llama-discord-bot#11, without the command line
        "PackagesNotFoundError: The following packages are not available from current channels:\n\n  - cuda-toolkit\n"
    )
    diagnosis = explain_text(paste)
    assert diagnosis.cause.id == "cuda-requested-on-mac"
    assert diagnosis.cause.fix is not None and diagnosis.cause.fix.commands == ()
    assert "Drop the CUDA packages" in diagnosis.cause.fix.summary


def test_conda_not_finding_torch_itself_stays_no_matching_distribution() -> None:
    paste = (  # BoBo0037/bobo-fun#2: an Intel Mac's pins, no CUDA package among them
        "% conda install pytorch==2.4.1 torchvision==0.19.1 torchaudio==2.4.1 -c pytorch\n"
        "PackagesNotFoundError: The following packages are not available from current channels:\n\n"
        "  - torchvision==0.19.1\n  - pytorch==2.4.1\n"
    )
    assert explain_text(paste).cause.id == "no-matching-distribution"


def test_conda_not_finding_cuda_on_a_linux_paste_is_not_called_a_mac() -> None:
    paste = "Python platform: Linux-5.15.0-x86_64-with-glibc2.35\n" + CONDA_CUDA.split("\n", 2)[2]
    assert explain_text(paste).cause.id != "cuda-requested-on-mac"


def test_the_command_less_cuda_drops_cuda_specs_and_nvidia_channels_only() -> None:
    assert (
        without_cuda(
            "conda create -n textgen python=3.10.9 torchvision torchaudio pytorch-cuda=11.7 cuda-toolkit "
            "conda-forge::ninja conda-forge::git -c pytorch -c nvidia/label/cuda-11.7.0 -c nvidia"
        )
        == "conda create -n textgen python=3.10.9 torchvision torchaudio conda-forge::ninja conda-forge::git -c pytorch"
    )
    assert without_cuda("conda install cudatoolkit=11.0 -c nvidia") is None  # nothing left to install
    assert without_cuda("conda install pytorch -c conda-forge") == "conda install pytorch -c conda-forge"


def test_the_conda_command_is_read_up_to_a_closing_backtick() -> None:
    lines = ["run `yes | conda install pytorch pytorch-cuda=12.1 -c nvidia`, it fails", "conda info"]
    found = [(o.fact, o.value, o.line) for o in conda.parse(lines)]
    assert found == [("paste.conda_command", "conda install pytorch pytorch-cuda=12.1 -c nvidia", 1)]


def test_a_cuda_package_under_packages_not_found_is_a_cuda_ask_on_its_own_line() -> None:
    lines = CONDA_CUDA.split("\n")
    asked = [(o.line, o.text) for o in conda.parse(lines) if o.fact == "paste.cuda_asked"]
    assert asked == [(5, "  - pytorch-cuda=12.1*")]


POETRY_CPU = "Unable to find installation candidates for torch (2.0.1+cpu)"  # iusztinpaul/hands-on-llms#58


def test_poetry_refusing_a_cpu_build_names_the_build_and_adds_plain_torch() -> None:
    diagnosis = explain_text(POETRY_CPU + "\n# user: I'm using macOS Sonoma 14.")
    assert diagnosis.cause.id == "no-matching-distribution"
    assert (
        diagnosis.cause.summary == "torch==2.0.1+cpu is a build for another platform (cpu): no macOS wheel of it exists"
    )
    assert diagnosis.cause.fix is not None
    assert diagnosis.cause.fix.commands == ("poetry add torch", "python3 -m pip install torch==2.0.1")
    assert diagnosis.cause.fix.summary.startswith("Drop the +cpu pin (or the CPU/CUDA source Poetry takes torch from)")


def test_poetry_refusing_a_plain_release_keeps_its_own_reading() -> None:
    diagnosis = explain_text("Unable to find installation candidates for torch (2.4.0)")
    assert diagnosis.cause.id == "no-matching-distribution"
    assert diagnosis.cause.fix is None or "poetry add torch" not in diagnosis.cause.fix.commands


def test_latin_words_against_cjk_text_are_spaced_for_the_readers() -> None:
    assert spaced_cjk("mac系统intel架构的，pip仓库没有torch==2.4.1怎么办？") == (
        "mac 系统 intel 架构的，pip 仓库没有 torch==2.4.1 怎么办？"
    )
    assert spaced_cjk("我的M2芯片") == "我的 M2 芯片"
    ascii_line = "on my M2 Max, macOS 14.5"
    assert spaced_cjk(ascii_line) is ascii_line
    assert spaced_cjk("Größe über M2") == "Größe über M2"  # not CJK: untouched


def test_a_chip_and_an_intel_mac_written_against_chinese_are_read() -> None:
    chip = {(o.fact, o.value) for o in prose.parse(["# user: 我的mac是M2芯片，mps用不了"])}
    assert ("host.cpu_brand", "Apple M2") in chip
    intel = {(o.fact, o.value) for o in prose.parse(["# user: mac系统intel架构的，pip仓库没有torch==2.4.1怎么办？"])}
    assert ("paste.intel_prose", True) in intel and ("host.arm64_hardware", False) in intel
    # the evidence keeps the user's line as written
    seen = prose.parse(["# user: 我的mac是M2芯片"])
    assert {o.text for o in seen} == {"# user: 我的mac是M2芯片"}


def test_an_intel_mac_told_in_chinese_is_an_intel_mac() -> None:  # QwenAudio/CosyVoice#501
    paste = (
        "# user: torch2.4.1没有mac intel处理器版本，有没有替代方案？\n"
        "# user: mac系统intel架构的，pip仓库没有torch==2.4.1怎么办？"
    )
    assert explain_text(paste).cause.id == "intel-mac"


DOCKER_AFTER_MAC = (  # pytorch/pytorch#81224
    "# user: It'd be very helpful to release an ARM64 pytorch docker image for running pytorch models with docker on "
    "M1 chips natively using the MPS backend.\n"
    "# user: now that my pytorch docker images are running in AMD64 emulation mode, it's so slow that I can't even "
    "debug and test my prototypes locally anymore.\n"
)


def test_a_container_told_after_the_mac_is_where_torch_runs() -> None:
    diagnosis = explain_text(DOCKER_AFTER_MAC)
    assert diagnosis.cause.id == "not-macos"
    assert diagnosis.cause.summary.startswith(
        "this runs on Linux in a container or VM on the Mac, where there is no MPS"
    )
    assert [e.line for e in diagnosis.cause.evidence] == [2]


def test_a_container_told_in_words_does_not_outrank_a_mac_a_program_printed() -> None:
    printed = "ProductName:\tmacOS\nProductVersion:\t14.5\nBuildVersion:\t23F79\n" + DOCKER_AFTER_MAC
    assert explain_text(printed).cause.id != "not-macos"


def test_running_docker_images_are_a_guest_and_only_those() -> None:
    said = {(o.fact, o.value) for o in prose.parse(["my pytorch docker images are running in AMD64 emulation mode"])}
    assert ("paste.guest_said", "Linux") in said and ("host.system", "Linux") in said
    for line in ("I build docker images for the server", "the docker image is large"):
        assert not any(o.fact == "paste.guest_said" for o in prose.parse([line])), line


def test_conda_forges_pytorch_gpu_named_by_the_user_is_a_cuda_ask() -> None:  # pytorch-practical-training#4
    paste = (
        "# user: The pyproject.toml configuration file is trying to force Nvidia-specific packages (pytorch-gpu, "
        "cuda) even when you are on a Mac.\n"
        "# On Linux, this defaults to CPU (unless you specifically request cuda versions).\n"
    )
    diagnosis = explain_text(paste)
    assert diagnosis.cause.id == "cuda-requested-on-mac"
    assert [e.line for e in diagnosis.cause.evidence][:1] == [1]
    asked = [o.fact for o in prose.parse(["we install it without pytorch-gpu on the Mac"])]
    assert "paste.cuda_asked" not in asked


def test_a_quoted_reply_of_uvs_wrapped_platform_tag_is_joined_as_the_plain_one() -> None:  # krita-ai-diffusion#1865
    plain = [
        "      and torch>=2.7.0 has no wheels with a matching platform tag (e.g.,",
        "      `macosx_13_0_x86_64`), we can conclude that torch>=2.7.0 cannot be used.",
    ]
    quoted = ["> " + line for line in plain]
    assert join_wrapped(quoted)[0] == "> " + join_wrapped(plain)[0]
    assert join_wrapped(quoted)[1] == ""
