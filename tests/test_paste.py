"""Paste parsers and the judgement of pastes: totality (property-based), facts with their evidence
lines, unknown left unknown, and the rules that pick the root cause.

Recorded texts come from tests/recorded.py (each cited there) and tests/corpus (each file names its
thread); a few messages are built from torch's own message formats (MPSAllocator.mm, MPSFallback.mm),
with numbers chosen by the test to reach one rule each.
"""

from __future__ import annotations

import json
import re
from typing import ClassVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mpscheck.checks.causes import explain_text, judge
from mpscheck.checks.causes.ops import op_names
from mpscheck.checks.signatures import recognise
from mpscheck.knowledge.sizes import size_bytes
from mpscheck.model import ExitCode
from mpscheck.probes import paste as paste_package
from mpscheck.probes.paste import PARSERS, parser, read
from mpscheck.probes.paste.normalise import normalise
from mpscheck.render.paste import render
from tests import recorded as rec
from tests.corpus_cases import CORPUS, load

# Fragments of real pastes, so generated text reaches the parsers' deeper branches too.
FRAGMENTS = [
    "PyTorch version: ",
    "OS: macOS ",
    "Python platform: macOS-",
    "CPU:\n",
    "Apple M",
    "[pip3] torch==",
    "ProductVersion:",
    "machdep.cpu.brand_string: ",
    "sysctl -n hw.optional.arm64\n",
    "sysctl.proc_translated: ",
    "Darwin Kernel Version 23.1.0: x; root:xnu/RELEASE_ARM64_T6000 ",
    "platform : osx-",
    "__osx=",
    "from versions: ",
    "Downloading torch-2.2.2-cp310-none-macosx_10_9_x86_64.whl",
    "You're on macOS (`macosx_",
    ">>> torch.backends.mps.is_available()\n",
    "platform.processor()",
    "'i386'",
    "GPU available: True (mps), used: ",
    "Ultralytics YOLOv8.0.1 🚀 Python-3.11.1 torch-2.1.0 ",
    'File "/Users/a/lib/python3.10/site-packages/torch/x.py", line 1',
    "export PYTORCH_ENABLE_MPS_FALLBACK=",
    'os.environ["PYTORCH_MPS_HIGH_WATERMARK_RATIO"] = "',
    "on an M2 Max with 32 GB, macOS 14.",
    "MPS backend out of memory (MPS allocated: ",
    "The operator 'aten::",
    "Darwin 25.2.0 arm64 arm",
    "uv init x -p 3.13",
    "Intel Mac",
    "Rosetta 2: true\n",
    "mpscheck doctor · probed /Users/a/bin/python\n",
    "[✗] python-arch         x86_64 Python\n",
    "| ❌ | `smoke` | fails |\n",
    "**smoke**: do this\n",
    "```sh\n",
    "```\n",
    "      → Install it\n",
    "          pip install torch\n",
    "macOS: 14.5-x86_64\n",
    "/usr/local/bin/python3.11: Mach-O 64-bit executable x86_64\n",
    "uname_result(system='Darwin', node='m', release='23.1.0', version='RELEASE_ARM64_T6000', machine='",
    "\n",
    "=>",
    ":",
    " ",
    "True",
    "False",
    "0",
    "1",
    "x86_64",
    "arm64",
]
pasty = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=12)), max_size=30).map("".join)
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("name", PARSERS)
@FAST
@given(text=st.one_of(st.text(max_size=300), pasty))
def test_every_parser_is_total(name: str, text: str) -> None:
    """Any text in, observations out: never an exception, every observation on a real line."""
    lines = paste_package.split(text)
    for obs in parser(name)(lines):
        assert 1 <= obs.line <= len(lines) and obs.text == lines[obs.line - 1]


@FAST
@given(text=st.one_of(st.text(max_size=300), pasty))
def test_reading_judging_and_rendering_are_total(text: str) -> None:
    """Any text: a documented cause id, exit 0 only for a working setup, evidence on the paste's own lines."""
    diagnosis = explain_text(text)
    assert diagnosis.exit_code in (ExitCode.READY, ExitCode.PROBLEMS, ExitCode.USAGE)
    if diagnosis.exit_code is ExitCode.USAGE:
        return
    assert diagnosis.cause.id in DOCUMENTED, diagnosis.cause.id
    assert (diagnosis.exit_code is ExitCode.READY) == (diagnosis.cause.id in ("healthy", "op-fallback-warning"))
    lines = normalise(paste_package.split(text)).lines  # evidence quotes a wrapped line joined
    for item in diagnosis.cause.evidence:
        assert lines[item.line - 1] == item.text
    for fmt in ("text", "json", "markdown", "github", "junit"):
        assert render(diagnosis, fmt)


DOCUMENTED = set(re.findall(r"^### `([a-z0-9_-]+)`$", (CORPUS.parent.parent / "docs" / "explain.md").read_text(), re.M))


def corpus(name: str) -> str:
    return load(CORPUS / name).paste


# ---- parsers: facts and their evidence ---------------------------------------------------------------


def test_sw_vers_gives_the_macos_version_and_nothing_else() -> None:
    paste = read(rec.SW_VERS_14_5)
    facts = paste.facts
    assert (facts.host.system, facts.host.macos_version, facts.host.macos_build) == ("Darwin", "14.5", "23F79")
    assert facts.target.interpreter is None and facts.target.torch is None  # not shown: unknown
    assert facts.host.cpu_brand is None and facts.host.arm64_hardware is None
    assert paste.get("host.macos_version").line == 2  # the ProductVersion line


def test_collect_env_under_rosetta() -> None:
    paste = read(corpus("pytorch-146236-rosetta-bf16.txt"))
    info, host = paste.facts.target.interpreter, paste.facts.host
    assert (info.machine, info.processor, info.mac_ver) == ("x86_64", "i386", "10.16")
    assert (host.macos_version, host.cpu_brand) == ("15.3", "Apple M2 Pro")
    assert paste.facts.target.torch.version == "2.6.0a0+git1eba9b3"
    assert paste.get("interpreter.mac_ver").text == "Python platform: macOS-10.16-x86_64-i386-64bit"


def test_sysctl_n_values_on_the_next_line() -> None:
    paste = read(corpus("whisper-cpp-66-rosetta-terminal-sysctl.txt"))
    assert paste.facts.host.arm64_hardware is True and paste.facts.host.cpu_brand == "Apple M1 Max"
    assert paste.value("paste.x86_cpu_features") is True


def test_uname_short_form_and_repl_arrows() -> None:
    paste = read(corpus("codex-10199-sandbox-macos26.txt"))
    assert paste.value("paste.shell_machine") == "arm64"
    torch = paste.facts.target.torch
    assert (torch.mps_built, torch.mps_available) == (True, False)


def test_conda_info_lines() -> None:
    paste = read(corpus("llama-cpp-python-847-x86-dylib-arm-conda.txt"))
    info = paste.facts.target.interpreter
    assert info.conda_prefix == "/Users/fozziethebeat/anaconda3/envs/llama" and info.version == "3.11.5"
    assert paste.value("paste.archspec") == "arm64" and paste.facts.host.macos_version == "14.1.2"


def test_pip_version_list_and_wheel_tag() -> None:
    versions = read(corpus("pytorch-161614-intel-mac-pip-2-2-2.txt")).value("paste.pip_versions")
    assert versions[-1] == "2.2.2" and len(versions) == 8
    wheel = read(corpus("pytorch-141864-intel-amd-bf16.txt"))
    assert wheel.facts.target.interpreter.machine == "x86_64" and wheel.value("paste.wheel_tag") == "macosx_10_9_x86_64"


def test_banner_device_and_versions() -> None:
    paste = read(corpus("ultralytics-4695-healthy-banner.txt"))
    assert paste.value("paste.device_used") == "mps" and paste.facts.target.torch.version == "2.1.0.dev20230831"
    assert paste.facts.host.cpu_brand == "Apple M1"


def test_a_code_line_is_not_an_observation() -> None:
    paste = read("if torch.backends.mps.is_available():\n    device = 'mps'\n")
    assert paste.facts.target.torch is None


def test_prose_reads_only_what_it_says() -> None:
    paste = read("# user: on an M2 Max with 32 GB, macOS Sonoma 14.2")
    host = paste.facts.host
    assert (host.cpu_brand, host.memory_bytes, host.macos_version) == ("Apple M2 Max", 32 * 1024**3, "14.2")
    assert host.hypervisor is None and paste.facts.target.interpreter is None


def test_environment_set_after_import() -> None:
    paste = read('import torch\nos.environ["PYTORCH_ENABLE_MPS_FALLBACK"] = "1"\n')
    assert paste.facts.target.interpreter.env == {"PYTORCH_ENABLE_MPS_FALLBACK": "1"}
    assert paste.value("paste.env_after_import") == "PYTORCH_ENABLE_MPS_FALLBACK"


# ---- the signature table -----------------------------------------------------------------------------


def test_the_checks_view_uses_the_one_cause_vocabulary_and_every_row() -> None:
    assert recognise(rec.VM_ALLOCATION_ERROR).cause == "virtual-machine"
    assert recognise(rec.FALLBACK_OFF_ERROR).cause == "op-not-implemented"
    sparse = recognise("Could not run 'aten::add' with arguments from the 'SparseMPS' backend")
    assert sparse is not None and sparse.cause == "sparse-unsupported"  # a row of the paste table: the checks know it


def test_every_row_cites_a_source() -> None:
    from mpscheck.knowledge.errors import TABLE

    assert len({row.id for row in TABLE}) == len(TABLE)
    for row in TABLE:
        assert "github.com" in row.source or "/" in row.source, row.id


def test_sizes_count_in_1024s() -> None:
    assert size_bytes("17.36 GB") == int(17.36 * 1024**3) and size_bytes("0 bytes") == 0
    assert size_bytes("2.41 MiB") == int(2.41 * 1024**2) and size_bytes("lots") is None


# ---- judgement ----------------------------------------------------------------------------------------


def test_bfloat16_under_rosetta_is_rosetta_not_an_old_macos() -> None:
    diagnosis = explain_text(corpus("pytorch-146236-rosetta-bf16.txt"))
    assert diagnosis.cause.id == "rosetta-python"
    quoted = [e.text for e in diagnosis.cause.evidence]
    assert any("MPS BFloat16 is only supported on MacOS 14" in t for t in quoted)  # the symptom, quoted
    assert "OS: macOS 15.3 (x86_64)" in quoted


def test_bfloat16_on_a_native_python_on_macos_13_is_the_os() -> None:
    assert explain_text(corpus("torchchat-616-bf16-ci-macos13.txt")).cause.id == "dtype-needs-macos14"


# torch's message format (MPSAllocator.mm, mps-facts.md 3.3); the numbers are the test's.
OOM = (
    "RuntimeError: MPS backend out of memory (MPS allocated: {a}, other allocations: {o}, max allowed: {m}). "
    "Tried to allocate {r} on private pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper limit for "
    "memory allocations (may cause system failure)."
)


@pytest.mark.parametrize(
    ("message", "prose", "cause", "variant"),
    [
        (OOM.format(a="0 bytes", o="0 bytes", m="7.93 GB", r="256 bytes"), "", "virtual-machine", "vm-cap"),
        (OOM.format(a="1.02 GB", o="0 bytes", m="15.87 GB", r="256 bytes"), "", "virtual-machine", "vm-cap"),
        (OOM.format(a="1.45 GB", o="7.42 GB", m="9.07 GB", r="563.62 MB"), "", "out-of-memory", "other-processes"),
        (OOM.format(a="8.93 GB", o="120.39 MB", m="9.07 GB", r="25.00 MB"), "", "out-of-memory", "too-large"),
        (
            OOM.format(a="11.50 GB", o="100.00 MB", m="11.60 GB", r="512.00 MB"),
            "on an M2 Max with 32 GB",
            "out-of-memory",
            "watermark-lowered",
        ),
        (
            OOM.format(a="2.44 GB", o="4.34 GB", m="6.77 GB", r="10.58 MB"),
            "export PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0",
            "out-of-memory",
            "watermark-not-applied",
        ),
        (
            "MPS backend out of memory (MPS allocated: 30.10 GB, other allocations: 1.00 GB). Tried to allocate "
            "2.00 GB on private pool.",
            "",
            "out-of-memory",
            "watermark-off",
        ),
    ],
)
def test_out_of_memory_numbers_tell_the_kinds_apart(message: str, prose: str, cause: str, variant: str) -> None:
    diagnosis = explain_text(f"{message}\n{prose}")
    assert (diagnosis.cause.id, diagnosis.cause.variant) == (cause, variant)
    assert diagnosis.cause.evidence[0].line == 1


def test_a_fallback_warning_is_a_note_and_exit_0() -> None:
    diagnosis = explain_text(corpus("pytorch-80278-bitwise-and-fallback-warning.txt"))
    assert diagnosis.cause.id == "op-fallback-warning" and diagnosis.exit_code is ExitCode.READY


# MPSFallback.mm's message format (pytorch/pytorch#86195), for an op chosen by the test.
NOT_IMPLEMENTED = "NotImplementedError: The operator '{op}' is not currently implemented for the MPS device."


class TinyOps:
    """A stand-in for mpscheck.knowledge.ops: aten::foo got an MPS kernel in 2.1, aten::bar never did."""

    TABLE: ClassVar[dict[str, str | None]] = {"aten::foo": "2.1", "aten::bar": None}

    def first_mps_release(self, op: str) -> str | None:
        return next((self.TABLE[n] for n in op_names(op) if n in self.TABLE), None)

    def knows(self, op: str) -> bool:
        return any(n in self.TABLE for n in op_names(op))

    def first_sparse_release(self, op: str) -> str | None:
        return "2.9.0" if "sparse" in op else None

    def oldest(self) -> str | None:
        return "2.0.0"


def test_an_op_with_a_kernel_in_a_later_release_says_upgrade() -> None:
    text = NOT_IMPLEMENTED.format(op="aten::foo.out") + "\nPyTorch version: 2.0.1\n"
    cause = judge(read(text), TinyOps()).cause
    assert (
        cause.id == "op-not-implemented" and "aten::foo.out has an MPS kernel since torch 2.1: upgrade" in cause.summary
    )
    assert "-m pip install --upgrade 'torch>=2.1'" in cause.fix.commands[0]
    missing = judge(read(NOT_IMPLEMENTED.format(op="aten::bar")), TinyOps()).cause
    assert "no MPS kernel in any release yet" in missing.summary
    assert missing.fix.commands[0] == "export PYTORCH_ENABLE_MPS_FALLBACK=1"
    unknown = judge(read(NOT_IMPLEMENTED.format(op="aten::baz")), TinyOps()).cause
    assert "no MPS kernel in this torch" in unknown.summary  # not in the table: no claim about releases


def test_a_fallback_warning_for_an_op_with_a_later_kernel() -> None:
    warning = (
        "UserWarning: The operator 'aten::foo.out' is not currently supported on the MPS backend and will fall back "
        "to run on the CPU. This may have performance implications."
    )
    cause = judge(read(warning), TinyOps()).cause
    assert cause.id == "op-fallback-warning" and "has an MPS kernel since torch 2.1" in cause.summary


def test_the_knowledge_module_is_used_when_present(monkeypatch) -> None:
    import sys
    import types

    from mpscheck.checks.causes.ops import knowledge_ops

    fake = types.ModuleType("mpscheck.knowledge.ops")
    kinds = {("aten::foo", "2.1"): "mps", ("aten::foo", "2.0"): "none", ("aten::sp", "2.1"): "sparse-mps"}
    fake.first_mps_release = lambda name: {"aten::foo": "2.1"}.get(name)  # type: ignore[attr-defined]
    fake.known_releases = lambda: ["2.0", "2.1"]  # type: ignore[attr-defined]
    fake.op_kind = lambda name, release: kinds.get((name, release))  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "mpscheck.knowledge.ops", fake)
    ops = knowledge_ops()
    assert ops is not None and ops.first_mps_release("aten::foo.out") == "2.1" and ops.knows("aten::foo")
    assert not ops.knows("aten::nothing") and ops.oldest() == "2.0"
    assert ops.first_sparse_release("aten::sp") == "2.1" and ops.first_sparse_release("aten::foo") is None


def test_sparse_ops_are_not_covered_by_the_fallback_variable() -> None:
    cause = explain_text(corpus("whisper-webui-276-sparse.txt")).cause
    assert cause.id == "sparse-unsupported" and "does not cover sparse ops" in cause.summary


def test_the_fallback_variable_set_after_import_is_too_late() -> None:
    text = 'import torch\nos.environ["PYTORCH_ENABLE_MPS_FALLBACK"] = "1"\n' + NOT_IMPLEMENTED.format(op="aten::foo")
    cause = explain_text(text).cause
    assert cause.id == "fallback-env-too-late" and "export PYTORCH_ENABLE_MPS_FALLBACK=1" in cause.fix.commands


def test_slow_conv2d_means_the_input_is_on_the_cpu() -> None:
    assert explain_text(corpus("pytorch-86195-slow-conv2d-input-on-cpu.txt")).cause.id == "device-mismatch"


def test_healthy_needs_positive_evidence() -> None:
    assert explain_text(corpus("spack-31283-healthy-repl.txt")).exit_code is ExitCode.READY
    only_version = explain_text(rec.SW_VERS_14_5)
    assert only_version.cause.id == "not-enough-evidence" and only_version.exit_code is ExitCode.PROBLEMS
    assert only_version.next_step == "mpscheck doctor --format markdown"


def test_nothing_readable_is_exit_2() -> None:
    assert explain_text("hello world\nlorem ipsum").exit_code is ExitCode.USAGE


def test_the_doctors_findings_only_where_the_paste_shows_their_inputs() -> None:
    findings = explain_text(rec.SW_VERS_13_5).findings
    assert [f.id for f in findings] == ["platform", "macos-version"]


# ---- rendering ---------------------------------------------------------------------------------------


def test_json_carries_a_stable_cause_id_and_the_evidence_lines_with_home_as_tilde() -> None:
    diagnosis = explain_text(corpus("pytorch-80278-bitwise-and-fallback-warning.txt"))
    data = json.loads(render(diagnosis, "json"))
    assert data["kind"] == "mpscheck-paste-diagnosis" and data["cause"]["id"] == "op-fallback-warning"
    assert data["cause"]["evidence"][0]["line"] == 1
    assert data["cause"]["evidence"][0]["text"].startswith("~/miniforge3/envs/torch/lib/python3.9/")
    assert "/Users/marco" not in json.dumps(data)


def test_markdown_is_a_short_reply_with_the_fix_commands() -> None:
    out = render(explain_text(corpus("kohya-603-invalid-low-watermark.txt")), "markdown")
    assert out.startswith("**Root cause: `watermark-invalid`**")
    assert "```sh\nunset PYTORCH_MPS_HIGH_WATERMARK_RATIO PYTORCH_MPS_LOW_WATERMARK_RATIO" in out
    assert "RuntimeError: invalid low watermark ratio 1.4" in out and len(out.splitlines()) < 25


def test_junit_and_github_name_the_cause() -> None:
    diagnosis = explain_text(corpus("basaran-173-model-not-moved.txt"))
    assert '<failure message="a tensor and the model' in render(diagnosis, "junit")
    assert render(diagnosis, "github").startswith("::error title=mpscheck explain device-mismatch::")


def test_every_cause_id_has_a_docs_section() -> None:
    import re
    from pathlib import Path

    from mpscheck.checks.causes.setup import SETUP_ORDER
    from mpscheck.knowledge.errors import TABLE

    documented = set(
        re.findall(r"^### `([a-z0-9_-]+)`$", (Path(__file__).parent.parent / "docs" / "explain.md").read_text(), re.M)
    )
    produced = {row.cause for row in TABLE} | set(SETUP_ORDER)
    produced |= {"healthy", "not-enough-evidence", "mps-not-requested", "fallback-env-too-late", "doctor-check-failed"}
    assert produced <= documented, produced - documented


# bevry/dorothy#243 (description): `uname -a` in a terminal under Rosetta on Apple silicon.
UNAME_ROSETTA = (
    "➜  ~ uname -a\n"
    "Darwin MacBook-Pro-WITH-A-WEIRD-NAME.local 24.0.0 Darwin Kernel Version 24.0.0: Wed Aug  7 03:08:06 PDT 2024; "
    "root:xnu-11215.1.9~22/RELEASE_ARM64_T6031 x86_64\n"
)
# testssl/testssl.sh#127 (jpluimers, 2015): an Intel MacBook Pro.
UNAME_INTEL = (
    "    $ uname -a\n"
    "    Darwin RetinaMBPro1TB.local 13.4.0 Darwin Kernel Version 13.4.0: Wed Mar 18 16:20:14 PDT 2015; "
    "root:xnu-2422.115.14~1/RELEASE_X86_64 x86_64\n"
    "    $ uname -m\n"
    "    x86_64\n"
    "    $ uname -p\n"
    "    i386\n"
)


def test_uname_of_a_rosetta_terminal_is_rosetta() -> None:
    paste = read(UNAME_ROSETTA)
    assert paste.facts.host.arm64_hardware is True and paste.value("paste.shell_machine") == "x86_64"
    cause = explain_text(UNAME_ROSETTA).cause
    assert cause.id == "rosetta-python" and [e.line for e in cause.evidence] == [2]


def test_uname_of_an_intel_mac_is_an_intel_mac() -> None:
    paste = read(UNAME_INTEL)
    assert paste.facts.host.arm64_hardware is False and paste.facts.host.release == "13.4.0"
    assert paste.get("paste.shell_machine").line == 2  # uname -a gives it first; uname -m agrees
    assert paste.value("paste.shell_processor") == "i386"
    assert explain_text(UNAME_INTEL).cause.id == "intel-mac"


# Homebrew/homebrew-core#83244 (BR00l): `brew config` from a terminal under Rosetta on an M1 (cut).
BREW_CONFIG_ROSETTA = """HOMEBREW_VERSION: 3.2.6
HOMEBREW_PREFIX: /opt/homebrew
CPU: octa-core 64-bit westmere
Clang: 12.0.5 build 1205
macOS: 11.5.2-x86_64
CLT: 12.5.0.22.9
Rosetta 2: true
"""


def test_brew_config_under_rosetta() -> None:
    paste = read(BREW_CONFIG_ROSETTA)
    assert (paste.facts.host.macos_version, paste.facts.host.arm64_hardware) == ("11.5.2", True)
    assert paste.value("paste.shell_translated") == 1 and paste.value("paste.brew_prefix") == "/opt/homebrew"
    cause = explain_text(BREW_CONFIG_ROSETTA).cause
    assert cause.id == "rosetta-python" and "Rosetta 2: true" in [e.text for e in cause.evidence]


def test_platform_uname_and_an_x86_64_only_python() -> None:
    # The shape of CPython's platform.uname() repr and of file(1) on a Mach-O binary; values chosen by the test.
    text = (
        "/usr/local/bin/python3.11: Mach-O 64-bit executable x86_64\n"
        "uname_result(system='Darwin', node='m', release='23.1.0', version='Darwin Kernel Version 23.1.0: "
        "root:xnu-10002.41.9~6/RELEASE_ARM64_T6000', machine='x86_64')\n"
    )
    paste = read(text)
    assert paste.facts.target.interpreter.binary_archs == ["x86_64"]
    assert paste.facts.target.interpreter.machine == "x86_64" and paste.facts.host.arm64_hardware is True
    assert explain_text(text).cause.id == "rosetta-python"


def test_a_library_op_and_a_torchvision_op() -> None:
    # open-mmlab/mmdetection#11437 (the error line); VoxelCubes/PanelCleaner#149 (the torchvision line, cut).
    mmcv = explain_text("RuntimeError: nms_impl: implementation for device mps:0 not found.").cause
    assert mmcv.id == "op-not-implemented" and "does not cover" in mmcv.summary
    torchvision = explain_text(
        "NotImplementedError: The operator 'torchvision::nms' is not currently implemented for the MPS device."
    ).cause
    assert torchvision.id == "op-not-implemented" and "torchvision::nms" in torchvision.summary
    assert "export PYTORCH_ENABLE_MPS_FALLBACK=1" in torchvision.fix.commands


def test_lightning_banners() -> None:
    # Lightning's banner format (lightning/pytorch/trainer/setup.py: "GPU available: {}{}, used: {}").
    unused = explain_text("GPU available: True (mps), used: False\n")
    assert unused.cause.id == "mps-not-requested"
    assert "Trainer(accelerator='mps', devices=1)" in unused.cause.fix.commands
    assert explain_text("GPU available: True (mps), used: True\n").cause.id == "healthy"
    assert explain_text("GPU available: False, used: False\n").cause.id == "not-enough-evidence"  # any OS
    on_a_mac = "# user: on an M1 Pro\nGPU available: False, used: False\n"
    assert explain_text(on_a_mac).cause.id == "lightning-processor"


def test_json_follows_its_schema_for_every_corpus_case() -> None:
    import jsonschema

    from mpscheck.render.paste import SCHEMA_PATH
    from tests.corpus_cases import cases

    schema = json.loads(SCHEMA_PATH.read_text())
    for case in cases():
        jsonschema.Draft202012Validator(schema).validate(json.loads(render(explain_text(case.paste), "json")))


def test_long_evidence_is_cut_in_the_reply_and_whole_in_json() -> None:
    diagnosis = explain_text(corpus("whisper-webui-276-sparse.txt"))
    quoted = render(diagnosis, "markdown").split("```")[1]
    assert max(len(line) for line in quoted.splitlines()) <= 300 and "…" in quoted
    whole = json.loads(render(diagnosis, "json"))["cause"]["evidence"][0]["text"]
    assert len(whole) > 1000


def test_home_folders_of_every_os_are_shown_as_tilde() -> None:
    from mpscheck.render.paste import tilde

    assert tilde(r"C:\Users\bob\x.py /Users/alice/y.py /home/carl/z.py") == r"~\x.py ~/y.py ~/z.py"


# pytorch/pytorch#177819 (bede214, "needs reproduction"): a markdown summary and a REPL-style check.
ISSUE_177819 = """## Versions

- PyTorch: `2.10.0`
- Python: `3.12.13`
- OS: `macOS 26.3.1`
- Architecture: `arm64`
- Hardware: `Apple M2 Max`

```python
torch.backends.mps.is_built() == True
torch.backends.mps.is_available() == False
torch.mps.device_count() == 0
```

```text
RuntimeError: The MPS backend is supported on macOS 14.0+. Current OS version can be queried using `sw_vers`
```
"""


def test_a_markdown_summary_with_comparisons() -> None:
    facts = read(ISSUE_177819).facts
    assert (facts.host.macos_version, facts.host.cpu_brand) == ("26.3.1", "Apple M2 Max")
    assert (facts.target.torch.version, facts.target.torch.mps_built, facts.target.torch.mps_available) == (
        "2.10.0",
        True,
        False,
    )
    cause = explain_text(ISSUE_177819).cause
    assert cause.id == "no-metal-device" and "macOS 26.3.1 is new enough" in cause.summary


def test_an_invalid_low_watermark_points_at_the_high_one() -> None:
    error = "RuntimeError: invalid low watermark ratio 1.4"  # kohya-ss/sd-scripts#603, seedvr2#336
    alone = explain_text(error).cause
    assert alone.id == "watermark-invalid" and "activate script" in alone.summary
    shown = explain_text("export PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.7\n" + error).cause
    assert "PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.7 is set" in shown.summary and len(shown.evidence) == 2


def test_every_cause_of_the_corpus_vocabulary_has_a_fix_in_the_tables() -> None:
    import re

    from mpscheck.knowledge.causes import CAUSES
    from mpscheck.knowledge.errors import TABLE

    readme = (CORPUS / "README.md").read_text()
    section = readme.split("## Causes", 1)[1].split("\n## ", 1)[0]
    vocabulary = set(re.findall(r"^\| ([a-z][a-z0-9_-]*) \|", section, re.M)) - {"cause"}
    assert vocabulary, "the corpus README lists its causes"
    covered = {row.cause for row in TABLE} | set(CAUSES)
    assert vocabulary <= covered, vocabulary - covered
    for cause in CAUSES.values():
        assert cause.id == "healthy" or (cause.fix and cause.commands), cause.id


@pytest.mark.parametrize(
    ("scenario", "cause"),
    [
        ("healthy native M1", "healthy"),
        ("Rosetta via an Intel Miniconda", "rosetta-python"),
        ("GitHub-hosted macOS arm64 runner", "virtual-machine"),
        ("macOS 12.7.6 with torch 2.5.1", "macos-too-old"),
        ("Intel Mac, AMD GPU", "intel-mac"),
        ("torch built without MPS", "torch-not-built-with-mps"),
        ("Linux with CUDA, --require mps", "not-macos"),
        ("invalid fallback and watermark values", "watermark-invalid"),
    ],
)
def test_the_doctors_own_markdown_pasted_back(scenario: str, cause: str) -> None:
    """A report from `mpscheck doctor --format markdown` (of the recorded scenarios) read as a paste."""
    from mpscheck.checks.diagnose import diagnose
    from mpscheck.render.markdown import render as render_markdown
    from tests.scenarios import scenarios

    facts = next(s.facts for s in scenarios() if s.name.startswith(scenario))
    assert explain_text(render_markdown(diagnose(facts))).cause.id == cause


def test_a_failing_check_without_a_cause_of_its_own() -> None:
    # The doctor's mps-fallback-env check on a value torch's std::stoi rejects (mps-facts.md 3.1).
    cause = explain_text("on my M1 Pro, macOS 14.5\nexport PYTORCH_ENABLE_MPS_FALLBACK=yes\n").cause
    assert (cause.id, cause.variant) == ("doctor-check-failed", "mps-fallback-env")
    assert cause.fix is not None and "export PYTORCH_ENABLE_MPS_FALLBACK=1" in cause.fix.commands


def test_the_doctors_own_terminal_report_pasted_back() -> None:
    """tests/golden/rosetta_conda.txt is what `mpscheck doctor` prints for a recorded Rosetta conda setup."""
    from pathlib import Path

    text = (Path(__file__).parent / "golden" / "rosetta_conda.txt").read_text()
    cause = explain_text(text).cause
    assert cause.id == "rosetta-python" and cause.summary.endswith("Lightning sees processor 'i386'")
    assert cause.fix is not None and cause.fix.commands[1] == "~/miniforge3/bin/conda create -n ml-arm64 python=3.11"
    assert [o.id for o in explain_text(text).others] == []  # x86_64-python is settled by the report


def test_a_sparse_op_with_a_later_sparse_kernel() -> None:
    error = (
        "Could not run 'aten::_sparse_coo_tensor_with_dims_and_tensors' with arguments from the 'SparseMPS' backend."
    )
    cause = judge(read(error + "\nPyTorch version: 2.5.1\n"), TinyOps()).cause
    assert cause.id == "sparse-unsupported" and "torch 2.9.0 and later have a SparseMPS kernel" in cause.summary
    assert "does not cover sparse ops" in cause.summary and cause.fix.commands == (
        "python3 -m pip install --upgrade 'torch>=2.9.0'",
    )
    oldest = judge(read(NOT_IMPLEMENTED.format(op="aten::old")), OldestOps()).cause
    assert "since torch 2.0.0 (or earlier: the oldest release the op table covers)" in oldest.summary


class OldestOps(TinyOps):
    TABLE: ClassVar[dict[str, str | None]] = {"aten::old": "2.0.0"}


def test_a_paravirtual_gpu_is_a_virtual_machine() -> None:
    # "Apple Paravirtual device" is the Metal device of macOS VMs (ggml-org/llama.cpp#6628); JSON field as in
    # system_profiler SPDisplaysDataType -json (tests/recorded.py DISPLAYS_*).
    text = '    {\n      "sppci_model" : "Apple Paravirtual device"\n    }\n'
    assert explain_text(text).cause.id == "virtual-machine"


def test_install_commands_fit_a_uv_environment() -> None:
    # vllm-project/vllm-metal#379: uv's resolver error; the interpreter is named by uv's "Using Python ... at".
    text = (
        corpus("vllm-metal-379-uv-x86-python.txt")
        + "\nTrying to convert BFloat16 to the MPS backend but it does not have support for that dtype.\n"
    )
    cause = explain_text(text).cause
    expected = "uv pip install --python /Users/jassi/.venv-vllm-metal/bin/python "
    assert any(c.startswith(expected) for c in cause.fix.commands), cause.fix.commands
    plain = explain_text("TypeError: BFloat16 is not supported on MPS").cause
    assert plain.fix.commands == ("python3 -m pip install --upgrade 'torch>=2.3'",)


def test_the_op_table_read_from_torchs_wheels_backs_the_advice() -> None:
    # F5-TTS#443's error (aten::unfold_backward) on its torch 2.4.1; the table is mpscheck/knowledge/op_coverage.json.
    from mpscheck.checks.causes.ops import knowledge_ops

    ops = knowledge_ops()
    assert ops is not None and ops.first_mps_release("aten::unfold_backward") == "2.6.0"
    text = NOT_IMPLEMENTED.format(op="aten::unfold_backward") + "\nPyTorch version: 2.4.1\n"
    cause = explain_text(text).cause
    assert "aten::unfold_backward has an MPS kernel since torch 2.6.0: upgrade (this is torch 2.4.1)" in cause.summary
    assert [e.line for e in cause.evidence] == [1, 2]


def test_terminal_colours_are_not_part_of_the_text() -> None:
    coloured = "\x1b[31mRuntimeError\x1b[0m: Placeholder storage has not been allocated on MPS device!"
    cause = explain_text(coloured).cause
    assert cause.id == "device-mismatch" and cause.evidence[0].text.startswith("RuntimeError: Placeholder")


def test_a_quoted_reply_is_read_like_the_original() -> None:
    quoted = "> PyTorch version: 2.0.1\n> OS: macOS 14.0 (arm64)\n>>> torch.backends.mps.is_available()\nTrue\n"
    facts = read(quoted).facts
    assert (facts.target.torch.version, facts.host.macos_version, facts.target.torch.mps_available) == (
        "2.0.1",
        "14.0",
        True,
    )


def test_a_pasted_doctor_rows_general_fix_has_every_placeholder_filled() -> None:
    """The table of causes' templates are filled the same way whichever rule reaches the cause."""
    pasted = (
        "mpscheck doctor · probed /usr/local/bin/python3\n"
        "[✗] chip                Intel Mac (Intel(R) Core(TM) i7-9750H): torch has no macOS x86_64 wheels after 2.2.2\n"
    )
    cause = explain_text(pasted).cause
    assert cause.id == "intel-mac" and cause.fix is not None
    assert "{" not in cause.fix.summary and not any("{" in c for c in cause.fix.commands)


def test_a_misspelt_fact_name_fails_at_once_in_a_reader_and_in_a_rule() -> None:
    """One list of fact names: a reader that records, or a rule that asks for, a name nobody declared is a bug
    (it would read as never seen), so it raises instead of passing silently."""
    from mpscheck.probes.paste.model import PASTE_FACTS, check_fact, observe

    assert check_fact("host.system") == "host.system"
    assert check_fact("interpreter.packages.torch") == "interpreter.packages.torch"
    assert check_fact("paste.doctor_fix.macos") == "paste.doctor_fix.macos"
    assert all(check_fact(f"paste.{name}") for name in PASTE_FACTS)
    for wrong in ("HOST.SYSTEM", "host.sytem", "paste.device", "XXhost.systemXX", "interpreter.packages.", "paste"):
        with pytest.raises(ValueError, match="unknown fact name"):
            check_fact(wrong)
    with pytest.raises(ValueError):
        observe("uname", ["Darwin"], 1, "host.System", "Darwin")
    with pytest.raises(ValueError):
        read("Darwin mac.local 23.4.0 Darwin Kernel Version 23.4.0 arm64").get("paste.devise_used")
