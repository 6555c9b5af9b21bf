"""Where the Python that printed a paste runs, and what a paste only advises (issue 17, classes found by
30 new real pastes): Docker's own output says a Linux container; a program's output outranks the user's
prose about the Mac; a Linux or Windows system named with its version in prose says where the Python
runs; torch's advice to set a variable is not a paste that sets it.

Every text is taken from the real pastes of tests/corpus (their sources are in each file's header).
"""

from __future__ import annotations

from mpscheck.checks.causes import explain_text
from mpscheck.probes.paste import read
from tests.corpus_cases import CORPUS, load


def paste(name: str) -> str:
    return load(CORPUS / f"{name}.txt").paste


def env(text: str) -> dict[str, object]:
    return {o.fact: o.value for o in read(text).observations if o.fact.startswith("interpreter.env.")}


def test_torch_advice_to_set_a_variable_is_not_a_setting() -> None:
    cut = paste("comfyui-2489-oom-truncated-advice").splitlines()[0]  # "... Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0"
    assert cut.endswith("Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0")
    assert env(cut) == {}
    plain = (
        "As a temporary fix, you can set the environment variable PYTORCH_ENABLE_MPS_FALLBACK=1 to use the CPU as "
        "a fallback for this op. WARNING: this will be slower than running natively on MPS."
    )  # torch's NotImplementedError advice as it reads once a renderer dropped the backticks
    assert env(plain) == {}


def test_a_real_setting_is_still_read() -> None:
    assert env("export PYTORCH_ENABLE_MPS_FALLBACK=1") == {"interpreter.env.PYTORCH_ENABLE_MPS_FALLBACK": "1"}
    assert env("PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 python main.py") == {
        "interpreter.env.PYTORCH_MPS_HIGH_WATERMARK_RATIO": "0.0"
    }


def test_docker_compose_output_is_a_linux_container() -> None:
    text = paste("reranker-4-docker-compose-not-linked")
    facts = read(text).facts
    assert facts.host.system == "Linux"  # though the user's first line says "on macOS M2"
    assert explain_text(text).cause.id == "not-macos"


def test_docker_build_output_is_a_linux_container() -> None:
    text = paste("open-webui-1165-docker-build-not-linked")
    assert read(text).facts.host.system == "Linux"
    assert explain_text(text).cause.id == "not-macos"


def test_prose_mentioning_docker_is_not_docker_output() -> None:
    assert read("# user: Nah, manually `docker build` failed to:").facts.host.system == ""


def test_collect_env_outranks_the_users_words_about_the_mac() -> None:
    text = paste("pytorch-96066-docker-debian-collect-env")
    assert text.splitlines()[0].startswith("# user: Running a docker container on a mac running Mac OS 13.0")
    assert read(text).facts.host.system == "Linux"
    assert explain_text(text).cause.id == "not-macos"


def test_prose_naming_another_system_with_its_version() -> None:
    text = paste("pytorch-96881-ubuntu-nvidia-mps")
    assert read(text).facts.host.system == "Linux"
    assert explain_text(text).cause.id == "not-macos"
    # a line that also names a Mac compares machines: it says nothing of where this Python runs
    assert read("# user: the same script works on Ubuntu 22.04 but fails on my MacBook").facts.host.system == ""
