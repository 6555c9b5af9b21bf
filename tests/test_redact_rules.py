"""The masking and sanitising step's exact output: what stays around a masked value, the shortest
value masked, and which of two overlapping secrets wins. Each test pins one rule of redact.py that
a looser assertion ("the secret is gone") would let drift."""

from __future__ import annotations

import pytest

from mpscheck.redact import MASK, mask, redact, sanitise, scrub, secret_values


def test_a_credential_value_of_six_characters_is_masked_and_five_are_not() -> None:
    environ = {"MY_PASS": "abc123", "OTHER_TOKEN": "ab123", "HOME": "/Users/someone"}
    assert secret_values(environ) == ["abc123"]
    assert redact("login abc123 ab123", environ) == f"login {MASK} ab123"


def test_of_two_overlapping_secrets_the_longer_is_masked_whole() -> None:
    environ = {"A_TOKEN": "s3cretvalue", "B_TOKEN": "s3cretvalue-and-more-9"}
    assert secret_values(environ) == ["s3cretvalue-and-more-9", "s3cretvalue"]
    assert redact("x=s3cretvalue-and-more-9;", environ) == f"x={MASK};"


def test_the_longer_secret_is_masked_first_even_where_it_sorts_before_the_shorter() -> None:
    # In reverse alphabetical order the shorter value ("wxyz12") would come first and leave the longer one's
    # ends ("a-" and "-b") in the text: the order is by length, not by the values' letters.
    environ = {"A_TOKEN": "wxyz12", "B_SECRET": "a-wxyz12-b"}
    assert secret_values(environ) == ["a-wxyz12-b", "wxyz12"]
    assert redact("k=a-wxyz12-b.", environ) == f"k={MASK}."


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "-----BEGIN RSA PRIVATE KEY-----\nMIIEow==\n-----END RSA PRIVATE KEY-----",
            f"-----BEGIN RSA PRIVATE KEY-----{MASK}-----END RSA PRIVATE KEY-----",
        ),
        # cut short before its end line: the header stays, nothing is appended
        ("-----BEGIN PRIVATE KEY-----\nMIIEow", f"-----BEGIN PRIVATE KEY-----{MASK}"),
    ],
)
def test_a_private_key_keeps_its_header_and_end_line(text: str, expected: str) -> None:
    assert mask(text, []) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("password=hunter22 next", f"password={MASK} next"),
        ('"api_key": "abcdefgh"', f'"api_key": "{MASK}"'),
        ("https://x.org/p?token=abcdef123&page=2", f"https://x.org/p?token={MASK}&page=2"),
        ("Authorization: Bearer abcdefgh123", f"Authorization: Bearer {MASK}"),
    ],
)
def test_a_named_secret_keeps_its_name_and_separator(text: str, expected: str) -> None:
    assert mask(text, []) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a\r\nb", "a\nb"),
        ("progress 10%\rprogress 20%", "progress 10%\nprogress 20%"),
        ("\x1b[31mred\x1b[0m text", "red text"),
        ("title\x1b]0;owned\x07 kept", "title kept"),
        ("tab\tstays", "tab\tstays"),
    ],
)
def test_sanitise_turns_carriage_returns_into_newlines_and_drops_escapes(text: str, expected: str) -> None:
    assert sanitise(text) == expected


def test_scrub_masks_then_sanitises() -> None:
    assert scrub("\x1b[1mkey hf_abcdefghijklmnopqrstuvwxyz\r", {}) == f"key {MASK}\n"
