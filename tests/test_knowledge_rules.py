"""Every version-dependent rule, across every release of the table read from torch's wheels.

Facts are built directly (HostFacts.macos_version, TorchFacts.version): no Mac output is invented.
The expected values come from the table itself, so a regenerated table moves the tests with it;
the fixed points (2.9 needs macOS 14, torch<2.9 on macOS 13, ...) are the wheels' own texts.
"""

from __future__ import annotations

import pytest

from mpscheck.checks.diagnose import diagnose
from mpscheck.checks.environment import read_fallback
from mpscheck.checks.signatures import recognise
from mpscheck.facts import Facts, HostFacts, InterpreterFacts, ProbeRun, TargetFacts, TorchFacts
from mpscheck.knowledge import releases
from mpscheck.knowledge.versions import floor_for, install_advice, show
from mpscheck.model import Finding, Requirement, Status

RELEASES = releases.known_releases()
PY = "/Users/dev/.venvs/torch/bin/python"


def below(version: tuple[int, ...]) -> str:
    """The last macOS minor before a floor: 14.0 -> 13.6, 12.3 -> 12.2."""
    major, minor = version[0], version[1] if len(version) > 1 else 0
    return f"{major}.{minor - 1}" if minor else f"{major - 1}.6"


def findings(macos: str, torch: TorchFacts, python: str = "3.11.9", machine: str = "arm64") -> dict[str, Finding]:
    host = HostFacts(system="Darwin", macos_version=macos, arm64_hardware=True, cpu_brand="Apple M1", hypervisor=False)
    interp = InterpreterFacts(executable=PY, version=python, machine=machine, proc_translated=0, env={})
    facts = Facts(
        host=host,
        target=TargetFacts(requested=PY, run=ProbeRun(status="ok", workload="none"), interpreter=interp, torch=torch),
    )
    return {f.id: f for f in diagnose(facts, require=Requirement.MPS).findings}


def torch(version: str, available: bool, error: str | None = None) -> TorchFacts:
    return TorchFacts(installed=True, version=version, mps_built=True, mps_available=available, mps_error=error)


@pytest.mark.parametrize("version", RELEASES)
def test_macos_below_the_floor_fails_and_at_the_floor_passes(version: str) -> None:
    facts = releases.release_facts(version)
    assert facts is not None and facts.macos_floor is not None
    floor = show(facts.macos_floor)
    text = next(t for t in facts.availability_texts if "supported on" in t)
    old = findings(below(facts.macos_floor), torch(version, available=False, error=text + "Current OS version"))
    assert old["macos-version"].status is Status.FAIL
    assert f"older than macOS {floor}" in old["macos-version"].summary
    assert old["mps-available"].status is not Status.FAIL or "sandbox" not in old["mps-available"].summary
    ok = findings(floor, torch(version, available=True))
    assert ok["macos-version"].status in (Status.PASS, Status.WARN)
    assert "floor of" in ok["macos-version"].summary


def test_macos_13_6_with_torch_2_9_0_unavailable_is_the_os_not_a_sandbox() -> None:
    found = findings("13.6.1", torch("2.9.0", False, "The MPS backend is supported on MacOS 14.0+. Current OS"))
    assert found["macos-version"].status is Status.FAIL
    assert "older than macOS 14.0" in found["macos-version"].summary
    assert "'torch<2.9'" in " ".join(found["macos-version"].fix.commands)
    assert found["mps-available"].status is Status.SKIP  # blocked by macos-version, not "a sandbox"


def test_macos_14_6_with_torch_2_15_0() -> None:
    unavailable = findings("14.6", torch("2.15.0", False, "The MPS backend is supported on macOS 15.0+. Current OS"))
    assert unavailable["macos-version"].status is Status.FAIL
    assert "'torch<2.15'" in " ".join(unavailable["macos-version"].fix.commands)
    # 2.15.0's MPSDevice picks a device without an OS check: if MPS reports available, warn, not fail
    available = findings("14.6", torch("2.15.0", True))
    assert available["macos-version"].status is Status.WARN
    assert "does not enforce" in available["macos-version"].summary


def test_a_nightly_newer_than_the_table_uses_the_newest_release_and_says_so() -> None:
    newest = RELEASES[-1]
    floor = floor_for("2.99.0.dev20991231")
    assert floor is not None and floor.release == newest and not floor.exact
    found = findings("26.2", torch("2.99.0.dev20991231", True))
    assert any(f"the facts of {newest} apply" in d for d in found["macos-version"].details)


@pytest.mark.parametrize("version", RELEASES)
def test_each_releases_availability_texts_are_recognised(version: str) -> None:
    facts = releases.release_facts(version)
    assert facts is not None
    for text in facts.availability_texts:
        found = recognise("RuntimeError: " + text + "Current OS version can be queried using `sw_vers`")
        assert found is not None, text
        expected = "intel-mac" if "unified memory" in text else "no-metal-device"
        assert found.cause == expected


@pytest.mark.parametrize("version", RELEASES)
def test_fallback_false_per_release(version: str) -> None:
    reading = read_fallback("false", version)
    if releases.fallback_reader(version) == "stoi":
        assert reading.enabled is None  # std::stoi throws while torch loads
    else:
        assert reading.enabled is True and not reading.exact  # get_env != "0": "false" turns it ON
    assert read_fallback("0", version).enabled is False
    assert read_fallback("1", version).enabled is True


@pytest.mark.parametrize("version", RELEASES)
def test_install_advice_never_names_a_torch_without_a_wheel_for_this_python(version: str) -> None:
    facts = releases.release_facts(version)
    assert facts is not None and facts.macos_floor is not None
    for tag in facts.install:
        python = f"3.{tag[3:]}"
        advice = install_advice(facts.macos_floor, python, "arm64")
        assert advice.newest is not None, (version, python)  # this very release would do
        chosen = releases.release_facts(advice.newest)
        assert chosen is not None and tag in chosen.install, (version, python, advice)
        assert chosen.macos_floor is not None and chosen.macos_floor <= facts.macos_floor
        plain = releases.newest_installable(python, show(facts.macos_floor))
        assert advice.plain == plain
        if advice.spec not in ("torch", None):
            assert plain != advice.newest  # a pin only where a plain install resolves elsewhere


def test_macos_13_pins_below_2_9_and_says_what_a_plain_install_gets() -> None:
    advice = install_advice((13, 6), "3.12", "arm64")
    assert advice.spec == "torch<2.9" and advice.newest == "2.8.0"
    assert advice.plain == "2.11.0" and advice.plain_has_mps is False
    found = findings("13.6", TorchFacts(installed=False), python="3.12.4")
    assert "resolves to torch 2.11.0" in found["torch-import"].fix.summary
    assert found["torch-import"].fix.commands == (f"{PY} -m pip install 'torch<2.9'",)


def test_python_3_14_on_macos_13_gets_no_torch_it_cannot_use() -> None:
    advice = install_advice((13, 6), "3.14", "arm64")
    assert advice.spec is None  # every 3.14 wheel (2.9+) needs macOS 14 for MPS
    found = findings("13.6", TorchFacts(installed=False), python="3.14.0")
    summary = found["torch-import"].fix.summary
    assert "No torch with MPS" in summary and "3.8 - 3.13" in summary


def test_intel_or_rosetta_pins_carry_numpy_below_2() -> None:
    advice = install_advice((14, 5), "3.12", "x86_64")
    assert advice.newest == "2.2.2" and advice.numpy == "numpy<2"
    assert install_advice((14, 5), "3.13", "x86_64").spec is None  # no x86_64 wheel for 3.13
    host = HostFacts(system="Darwin", macos_version="13.5", arm64_hardware=False, cpu_brand="Intel(R) Core(TM) i7")
    interp = InterpreterFacts(executable=PY, version="3.11.9", machine="x86_64", proc_translated=0)
    run = ProbeRun(status="ok", workload="none")
    facts = Facts(host=host, target=TargetFacts(requested=PY, run=run, interpreter=interp, torch=TorchFacts()))
    chip = next(f for f in diagnose(facts, require=Requirement.MPS).findings if f.id == "chip")
    assert chip.fix is not None and "'numpy<2'" in chip.fix.commands[0] and "torch==2.2.2" in chip.fix.commands[0]


@pytest.mark.parametrize("version", [v for v in RELEASES if releases.release_facts(v).macos_floor < (14, 0)])  # type: ignore[union-attr,operator]
def test_macos_13_warns_about_bfloat16_only_where_the_release_gates_it(version: str) -> None:
    found = findings("13.5", torch(version, True))["macos-version"]
    gated = version in releases.text_releases("MPS bfloat16 type is supported on MacOS 14.0 or newer.")
    assert found.status is (Status.WARN if gated else Status.PASS), found.summary
    assert gated == ((2, 3) <= tuple(int(p) for p in version.split("."))[:2] <= (2, 8))


def test_lightning_with_disable_mps_set_will_not_use_mps() -> None:
    host = HostFacts(system="Darwin", macos_version="14.5", arm64_hardware=True, cpu_brand="Apple M1", hypervisor=False)
    interp = InterpreterFacts(
        executable=PY,
        version="3.11.9",
        machine="arm64",
        processor="arm",
        proc_translated=0,
        env={"DISABLE_MPS": "1", "PYTORCH_ENABLE_MPS_FALLBACK": "1"},
        packages={"lightning": "2.5.0"},
    )
    run = ProbeRun(status="ok", workload="none")
    facts = Facts(host=host, target=TargetFacts(requested=PY, run=run, interpreter=interp, torch=torch("2.13.0", True)))
    found = next(f for f in diagnose(facts, require=Requirement.MPS).findings if f.id == "frameworks")
    assert found.status is Status.WARN and "DISABLE_MPS=1" in found.summary
    assert found.fix is not None and found.fix.commands == ("unset DISABLE_MPS",)


@pytest.mark.parametrize(
    ("brand", "version", "ops"),
    [
        ("Apple M1 Pro", "2.13.0", "mm/linear and bmm/einsum"),
        ("Apple M2", "2.14.0", "bmm/einsum"),
        ("Apple M3 Max", "2.13.0", None),
    ],
)
def test_m1_m2_large_inner_dimension_matmul_hazard(brand: str, version: str, ops: str | None) -> None:
    host = HostFacts(system="Darwin", macos_version="14.5", arm64_hardware=True, cpu_brand=brand, hypervisor=False)
    interp = InterpreterFacts(executable=PY, version="3.11.9", machine="arm64", proc_translated=0, env={})
    run = ProbeRun(status="ok", workload="none")
    facts = Facts(host=host, target=TargetFacts(requested=PY, run=run, interpreter=interp, torch=torch(version, True)))
    chip = next(f for f in diagnose(facts, require=Requirement.MPS).findings if f.id == "chip")
    assert chip.status is Status.PASS
    hazard = [d for d in chip.details if "pytorch/pytorch#195163" in d]
    assert (hazard[0].split(" give silently wrong ")[1].split(" results")[0] if hazard else None) == ops


def test_an_x64_self_hosted_runner_is_named_as_the_rosetta_cause() -> None:
    host = HostFacts(system="Darwin", macos_version="14.5", arm64_hardware=True, cpu_brand="Apple M2", hypervisor=False)
    env = {"GITHUB_ACTIONS": "true", "RUNNER_ARCH": "X64", "RUNNER_ENVIRONMENT": "self-hosted", "CI": "true"}
    interp = InterpreterFacts(
        executable=PY, version="3.11.9", machine="x86_64", processor="i386", proc_translated=1, env=env
    )
    run = ProbeRun(status="ok", workload="none")
    facts = Facts(host=host, target=TargetFacts(requested=PY, run=run, interpreter=interp, torch=None))
    arch = next(f for f in diagnose(facts, require=Requirement.MPS).findings if f.id == "python-arch")
    assert arch.status is Status.FAIL and "self-hosted runner installed as x64" in arch.summary
    assert arch.fix is not None and arch.fix.commands[0].startswith("arch -arm64 ")
