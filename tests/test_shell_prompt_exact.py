"""The host name in a shell prompt (probes/paste/shell_prompt.py), pinned exactly: a Mac model says macOS, an
Apple chip beside it says Apple silicon, and what is not a prompt or not a Mac's name is not read."""

from __future__ import annotations

import pytest

from mpscheck.probes.paste import parser


def facts(lines: list[str]) -> list[tuple[str, object, int]]:
    found = parser("shell_prompt")(lines)
    assert {o.kind for o in found} <= {"shell prompt"}
    return [(o.fact, o.value, o.line) for o in found]


def test_a_chip_beside_the_mac_model_is_apple_silicon() -> None:
    line = "(base) nikotsar@M1-MacBook-Pro stable-diffusion % python app.py"
    assert facts(["x", line, line]) == [
        ("host.system", "Darwin", 2),
        ("host.cpu_brand", "Apple M1", 2),
        ("host.arm64_hardware", True, 2),
    ]


@pytest.mark.parametrize(
    ("line", "brand"),
    [
        ("me@Mac-mini-M2 ~ % ls", "Apple M2"),
        ("jo@Jos-M3-Max-MacBook-Pro.local:~/src$ make", "Apple M3 Max"),
        ("a@m4-pro-macbook-air dir # x", "Apple M4 Pro"),
    ],
)
def test_each_chip_and_tier_is_read(line: str, brand: str) -> None:
    assert ("host.cpu_brand", brand, 1) in facts([line])


def test_a_mac_model_without_a_chip_says_macos_only() -> None:
    assert facts(["(web-ui) ppt@pptdeMacBook-Pro stable-diffusion-webui % python webui.py"]) == [
        ("host.system", "Darwin", 1)
    ]


@pytest.mark.parametrize(
    "line",
    [
        "root@build-m1:/src# make",  # a chip word with no Mac model: a server's name, say
        "see me@Johns-MacBook-Pro for details",  # an address in prose, no prompt sign after it
        "git@github.com:owner/repo.git",
        "user@ubuntu-box:~$ python x.py",
    ],
)
def test_what_is_not_a_macs_prompt_is_not_read(line: str) -> None:
    assert facts([line]) == []
