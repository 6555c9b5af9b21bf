"""How explain reads its INPUT (issue 18, items 2, 6 and 9; issue 17, item 2): bytes, not the locale's
text; byte-order marks; a cut input said in every format and never "ready"; a JSON object that is no
report read as text; inputs that once crashed (400 digits, deep nesting) are exit 1 or 2, never 3.
"""

from __future__ import annotations

import codecs
import json

import pytest
from click.testing import CliRunner

from mpscheck.cli import cli
from mpscheck.probes.explain_input import MAX_INPUT, decode, looks_like_report, read_input
from tests.corpus_cases import CORPUS, load

ENV = {"GITHUB_ACTIONS": "", "GITHUB_STEP_SUMMARY": "", "NO_COLOR": "1"}
HEALTHY = load(CORPUS / "nixpkgs-351778-healthy-mps-tensor.txt").paste
ROSETTA = load(CORPUS / "lightning-14634-rosetta-misconfig.txt").paste


def explain(*args: str, stdin: str | bytes | None = None):
    return CliRunner().invoke(cli, ["explain", *args], input=stdin, env=ENV, catch_exceptions=False)


@pytest.mark.parametrize(
    "mark, encoding",
    [
        (codecs.BOM_UTF8, "utf-8"),
        (codecs.BOM_UTF16_LE, "utf-16-le"),
        (codecs.BOM_UTF16_BE, "utf-16-be"),
        (codecs.BOM_UTF32_LE, "utf-32-le"),
        (codecs.BOM_UTF32_BE, "utf-32-be"),
    ],
)
def test_a_file_with_a_byte_order_mark_reads_as_the_same_paste(tmp_path, mark: bytes, encoding: str) -> None:
    path = tmp_path / "paste.txt"
    path.write_bytes(mark + HEALTHY.encode(encoding))
    assert read_input(str(path)).text == HEALTHY
    result = explain("--format", "json", str(path))
    assert result.exit_code == 0 and json.loads(result.output)["cause"]["id"] == "healthy"


def test_a_stray_byte_on_standard_input_reads_like_the_same_file(tmp_path) -> None:
    data = ROSETTA.encode() + b"\n\xff\xfe stray bytes \x80\n"
    path = tmp_path / "paste.txt"
    path.write_bytes(data)
    from_file = explain("--format", "json", str(path))
    from_stdin = explain("--format", "json", "-", stdin=data)
    assert from_stdin.exit_code == from_file.exit_code == 1
    assert json.loads(from_stdin.output)["cause"]["id"] == json.loads(from_file.output)["cause"]["id"]
    assert "\ufffd" in decode(b"\xff")


def test_a_cut_input_says_so_in_every_format_and_is_never_ready(tmp_path) -> None:
    path = tmp_path / "long.txt"
    path.write_text(HEALTHY + "\n" + "filler line\n" * (MAX_INPUT // 12 + 10))
    for fmt in ("text", "json", "markdown", "github", "junit"):
        result = explain("--format", fmt, str(path))
        assert result.exit_code == 1, fmt
        assert f"longer than {MAX_INPUT:,} characters" in result.output, fmt
    short = tmp_path / "short.txt"
    short.write_text(HEALTHY)
    assert explain(str(short)).exit_code == 0  # the same start, uncut, is ready


def test_a_long_log_is_judged_on_its_start_and_its_end(tmp_path) -> None:
    """A whole training log: the set-up at its start, the error a run prints last at its end, megabytes between."""
    path = tmp_path / "train.log"
    steps = "".join(f"step {n:6d} loss 0.{n % 1000:03d}\n" for n in range(200_000))  # 5.6 MB of progress
    path.write_text(HEALTHY + "\n" + steps + ROSETTA)
    result = explain("--format", "json", str(path))
    report = json.loads(result.output)
    assert result.exit_code == 1 and report["cause"]["id"] == "rosetta-python"  # read at the end
    assert "only its first 3,472 lines and the last 13,900 lines were read" in result.output
    lines = path.read_text().split("\n")  # every line the report names is numbered as in the file
    named = [*report["cause"]["evidence"], *(e for c in report["other_causes"] for e in c["evidence"])]
    named += [e for e in report["facts"]["errors"] if e["line"]]
    assert named and all(lines[e["line"] - 1].strip() == e["text"].strip() for e in named)
    assert max(e["line"] for e in named) > 200_000  # after the skipped middle
    said = next(f["summary"] for f in report["findings"] if f["id"] == "error-text")
    assert said.startswith("line 200013: Lightning says MPS is not available") and lines[200_012].startswith(
        "pytorch_lightning.utilities.exceptions.MisconfigurationException"
    )
    piped = explain("--format", "json", "-", stdin=path.read_bytes())
    assert json.loads(piped.output)["cause"]["id"] == "rosetta-python"


def test_an_unreadable_input_that_was_cut_says_both(tmp_path) -> None:
    path = tmp_path / "numbers.txt"
    path.write_text("\n".join(str(n) for n in range(100_000)))
    result = explain(str(path))
    assert result.exit_code == 2
    assert "nothing in the input could be read (" + str(
        path
    ) + " is longer than 400,000 characters or 25,000 lines:" in (result.output)
    short = tmp_path / "few.txt"
    short.write_text("1\n2\n3\n")
    assert "nothing in the input could be read; explain accepts" in explain(str(short)).output


def test_a_json_object_that_is_no_report_is_read_as_text(tmp_path) -> None:
    """A Jupyter error object (ename, evalue, traceback) starts with { but is a paste, not a broken report."""
    traceback = ROSETTA.splitlines()
    jupyter = {"output_type": "error", "ename": "MisconfigurationException", "evalue": "", "traceback": traceback}
    text = json.dumps(jupyter)
    assert not looks_like_report(text)
    result = explain("--format", "json", "-", stdin=text)
    assert result.exit_code == 1 and json.loads(result.output)["cause"]["id"] == "rosetta-python"
    assert looks_like_report('{"kind": "something-else"}')  # says it is a report: gets the report's error


def test_hostile_numbers_and_nesting_are_not_mpscheck_crashes() -> None:
    digits = "9" * 400
    oom = (
        f"RuntimeError: MPS backend out of memory (MPS allocated: {digits} GB, other allocations: 1.00 MB, "
        f"max allowed: 18.13 GB). Tried to allocate {digits}.5 MB on private pool."
    )
    assert explain("-", stdin=oom).exit_code == 1
    assert explain("-", stdin=f"Memory: {digits} GB\n").exit_code in (1, 2)
    assert explain("-", stdin='{"a": ' * 100_000).exit_code == 2
    assert explain("-", stdin="[" * 100_000).exit_code == 2


@pytest.mark.parametrize("depth", [40, 500, 900])
def test_a_saved_report_nested_too_deep_is_a_usage_error_not_a_crash(tmp_path, depth: int) -> None:
    from tests.test_saved_report_trust import report

    data = report("healthy native M1")
    nested: object = "x"
    for _ in range(depth):
        nested = {"a": nested}
    data["facts"]["target"]["smoke"]["steps"][0]["values"]["deep"] = nested
    path = tmp_path / "deep.json"
    path.write_text(json.dumps(data))
    result = explain(str(path))
    assert result.exit_code == 2 and "nested deeper than" in result.output
    assert explain(str(path), "--format", "json").exit_code == 2


def test_a_saved_report_in_utf16_loads_for_the_plugin_too(tmp_path) -> None:
    from mpscheck.probes.saved_report import load_report
    from tests.test_saved_report_trust import report

    path = tmp_path / "report.json"
    path.write_bytes(codecs.BOM_UTF16_LE + json.dumps(report("healthy native M1")).encode("utf-16-le"))
    assert load_report(str(path)).facts.target.smoke is not None
    assert explain(str(path)).exit_code == 0
