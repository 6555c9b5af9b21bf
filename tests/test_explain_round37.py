"""The classes of input the 37th out-of-sample round (2026-11-25: vision, NLP, embedding and LLM-app libraries, and
distributed training on a Mac) found explain missing, each read generally: work split over several processes with
its tensors on mps had no cause, and every such paste was read as an MPS crash fixed later. Lightning's DDP
strategies on the MPS accelerator, torch.distributed with no communication backend for mps, and an mps tensor put
in shared memory for other processes are one cause, ``distributed-on-mps``: one process on mps, or the job on the
CPU.

The texts are lines of the round's threads (tests/corpus names each).
"""

from __future__ import annotations

import pytest

from mpscheck.checks.causes import explain_text
from mpscheck.knowledge.errors import BY_ID, first

DDP = (
    "ValueError: You set `strategy=ddp`, but strategies from the DDP family are not supported on the MPS "
    "accelerator. Either explicitly set `accelerator='cpu'` or change the strategy."
)
NO_BACKEND = (
    "E   ValueError: We detected accelerator mps on your machine. But we don't know which communication backend to "
    "use for this accelerator. Please specify the `backend` argument in the `init_process_group` call."
)
SHARE = "Runtimeerror: _share_filename_: only available on CPU"
MARKER = (
    'raise ValueError("Cannot use MPS with torch multiprocessing share_memory.  You have to use CUDA or CPU.  Set '
    'the TORCH_DEVICE environment variable to change the device.")'
)


@pytest.mark.parametrize(
    ("line", "row"),
    [
        (DDP, "ddp-strategy-on-mps"),
        (NO_BACKEND, "no-comm-backend-for-mps"),
        ("RuntimeError: No backend type associated with device type mps", "no-comm-backend-for-mps"),
        (SHARE, "share-memory-on-mps"),
        ("RuntimeError: _share_fd_: only available on CPU", "share-memory-on-mps"),
        (MARKER, "share-memory-on-mps"),
    ],
)
def test_each_distributed_wording_is_its_row_and_the_cause(line: str, row: str) -> None:
    hit = first(line)
    assert hit is not None and hit.row.id == row
    diagnosis = explain_text(line)
    assert diagnosis.cause.id == "distributed-on-mps"
    assert diagnosis.cause.fix is not None
    assert "one process" in diagnosis.cause.fix.summary and "CPU" in diagnosis.cause.fix.summary


def test_the_fix_names_what_each_wording_needs() -> None:
    assert "accelerator='cpu'" in BY_ID["ddp-strategy-on-mps"].fix
    assert "backend='gloo'" in BY_ID["no-comm-backend-for-mps"].fix
    assert "TORCH_DEVICE=cpu" in BY_ID["share-memory-on-mps"].fix


def test_the_ddp_error_quoted_in_prose_is_the_cause() -> None:
    said = (  # chemprop#1261: the error only in the user's sentence, inside double quotes
        '# user: I encounter an error when running "train" or "hpopt" with \'mps\'. The error message states: '
        '"ValueError: You set `strategy=ddp`, but strategies from the DDP family are not supported on the MPS '
        "accelerator. Either explicitly set `accelerator='cpu'` or change the strategy.\""
    )
    assert explain_text(said).cause.id == "distributed-on-mps"


def test_other_backends_and_other_devices_are_not_this_cause() -> None:
    assert explain_text("RuntimeError: Distributed package doesn't have NCCL built in").cause.id == (
        "cuda-requested-on-mac"  # NCCL is the CUDA backend asked for on a Mac: its own cause
    )
    for line in (
        "RuntimeError: No backend type associated with device type npu",  # ms-swift on Ascend, not a Mac
        "We detected accelerator xpu on your machine. But we don't know which communication backend to use",
        "strategies from the DDP family are not supported on the CPU accelerator",
    ):
        assert explain_text(line).cause.id != "distributed-on-mps", line


def _gpu_off(lines: list[str]) -> list[int]:
    from mpscheck.probes.paste import gpu_off

    return [o.line for o in gpu_off.parse(lines) if o.fact == "paste.gpu_off_works"]


def test_the_gpu_turned_off_as_the_cure_is_read() -> None:
    said = [
        "# title: 1.7.1, Macbook M1 silicon, default Reader cannot read text, have to disable GPU to fix issue",
        "# user: Must specify `gpu=False` to make code work.",  # EasyOCR#1136
        "# user: The CPU works well, but the GPU has some problems！",  # EasyOCR#1182
        "# user: it works fine with use_gpu=False",
        "# user: disabling the GPU fixes it",
    ]
    assert _gpu_off(said) == [1, 2, 3, 4, 5]


def test_a_gpu_setting_or_a_gpu_alone_is_not_the_cure() -> None:
    assert _gpu_off(["reader = easyocr.Reader(['de'], gpu=False)"]) == []  # code: a setting, no outcome
    assert _gpu_off(["# user: the GPU has some problems"]) == []  # no CPU set against it
    assert _gpu_off(["# user: the CPU works, but I want the GPU"]) == []  # nothing fails on the GPU
    assert _gpu_off(["# user: I need to enable the GPU"]) == []
    assert _gpu_off(["# user: regpu=False works"]) == []  # not the switch's name


def test_the_gpu_off_cure_on_an_apple_silicon_mac_is_a_bug_of_mps() -> None:
    paste = "# title: Macbook M1 silicon, default Reader cannot read text, have to disable GPU to fix issue\n"
    diagnosis = explain_text(paste)
    assert diagnosis.cause.id == "metal-bug-fixed-later"
    assert "turned off" in diagnosis.cause.summary


def test_the_gpu_off_cure_elsewhere_is_not_read_as_mps() -> None:
    said = "# user: have to disable GPU to fix issue"
    assert explain_text(said).cause.id != "metal-bug-fixed-later"  # no Mac shown: the GPU may be anyone's
    intel = "# user: on my Intel MacBook Pro with a Radeon, have to disable GPU to fix issue"
    assert explain_text(intel).cause.id != "metal-bug-fixed-later"
    cuda = "# user: on my Mac, have to disable GPU to fix issue\nAssertionError: Torch not compiled with CUDA enabled"
    assert explain_text(cuda).cause.id == "cuda-requested-on-mac"


def test_a_compiled_extensions_cpu_only_kernel_on_mps_is_its_missing_op() -> None:
    line = (  # rusty1s/pytorch_scatter#464
        'RuntimeError: src.device().is_cpu() INTERNAL ASSERT FAILED at "csrc/cpu/scatter_cpu.cpp":11, please report '
        "a bug to PyTorch. src must be CPU tensor"
    )
    hit = first(line)
    assert hit is not None and hit.row.id == "library-op-missing" and hit.groups["op"] == "scatter"
    diagnosis = explain_text(line)
    assert diagnosis.cause.id == "op-not-implemented"
    assert diagnosis.cause.summary.startswith("scatter (a compiled op of the library")
    assert first('x.is_cpu() INTERNAL ASSERT FAILED at "csrc/cpu/scatter_cpu.cpp":11') is None  # no .device()


def test_gloo_handed_an_mps_tensor_is_this_cause() -> None:
    line = (  # ultralytics/ultralytics#15701, rank 1 of DDP on a Mac
        "[rank1]: RuntimeError: ProcessGroupGloo::allgather: invalid tensor type at index 0 (expected "
        "TensorOptions(dtype=long long, device=cpu, layout=Strided), got TensorOptions(dtype=long long, "
        "device=mps:0, layout=Strided"
    )
    hit = first(line)
    assert hit is not None and hit.row.id == "no-comm-backend-for-mps"
    assert explain_text(line).cause.id == "distributed-on-mps"
    cuda = line.replace("device=mps:0", "device=cuda:0")  # a CUDA tensor handed to gloo: not the Mac's trouble
    assert first(cuda) is None or first(cuda).row.id != "no-comm-backend-for-mps"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "said",
    [
        "# user: When using the `c10d` operators on MPS, PyTorch raises an exception that they are not implemented",
        "# user: To resolve that I had force CPU accelerator (MPS + DDP is unsupported) by modifying the train.py",
        "# user: is torch.distributed supported with mps at all?",
        "# user: wrapping the model in DistributedDataParallel on the mps device hangs",
    ],
)
def test_distributed_use_on_mps_told_in_words_is_this_cause(said: str) -> None:
    hit = first(said)
    assert hit is not None and hit.row.id == "distributed-on-mps-told"
    assert explain_text(said).cause.id == "distributed-on-mps"


def test_distributed_words_without_mps_are_not_told_as_this_cause() -> None:
    for said in (
        "# user: DDP on my 4 A100s works fine",
        "# user: torch.distributed with NCCL on the cluster",
        "# user: the mps device works, and my DDP job runs elsewhere",  # mps before DDP, not DDP on mps
    ):
        hit = first(said)
        assert hit is None or hit.row.id != "distributed-on-mps-told", said


def test_a_run_said_to_abort_on_mps_is_a_crash_not_a_healthy_banner() -> None:
    paste = (  # chemprop#1351: Lightning's banner shows mps in use, the words say the process aborts there
        "# user: training can abort the Python process when Lightning auto-selects the mps accelerator.\n"
        "GPU available: True (mps), used: True\n"
        "# user: and training aborts.\n"
    )
    diagnosis = explain_text(paste)
    assert diagnosis.cause.id == "metal-bug-fixed-later"
    assert "crashes on mps" in diagnosis.cause.summary
    assert explain_text("GPU available: True (mps), used: True\n").cause.id == "healthy"  # the banner alone


def test_a_line_without_gpu_or_mps_costs_no_pattern() -> None:
    from mpscheck.probes.paste import gpu_off

    assert _gpu_off(["# user: I need to disable the thing to fix it, but the CPU works"]) == []
    assert gpu_off.GPU_OFF_FIXES.search("have to disable mps to fix it")  # mps counts as the GPU too


def _device(line: str) -> list[object]:
    from mpscheck.probes.paste import prose

    return [o.value for o in prose.parse([line]) if o.fact == "paste.device_used"]


@pytest.mark.parametrize(
    "said",
    [
        "# user: no Apple Silicon a separação de vozes roda inteira em CPU",  # ScribaDev#203, Portuguese
        "# user: el modelo se ejecuta en la CPU",
        "# user: ça tourne sur le CPU",
        "# user: usa solo la CPU",
        "# user: il utilise uniquement le CPU",
    ],
)
def test_the_run_on_the_cpu_told_in_portuguese_spanish_or_french_is_read(said: str) -> None:
    assert _device(said) == ["cpu"]


def test_other_devices_and_infinitives_in_those_languages_are_not_the_cpu_run() -> None:
    assert _device("# user: corre en la GPU") == []
    assert _device("# user: rodar em CPU é lento?") == []  # to run, not runs: a question, no run shown
    assert _device("# user: usa la CPU para el preprocesado") == []  # no "only": the CPU beside the GPU


def test_a_mac_whose_diarization_runs_on_the_cpu_told_in_portuguese_never_asked_for_mps() -> None:
    paste = (
        "# user: Na 1.4.20, macOS 26.4.1, Apple M5 Pro (18 núcleos), torch 2.14.0, pyannote.audio 4.0.7.\n"
        "# user: `diarize.py` só tem o ramo `cuda`, então no Apple Silicon a separação de vozes roda inteira em CPU.\n"
    )
    assert explain_text(paste).cause.id == "mps-not-requested"


@pytest.mark.parametrize(
    "said",
    [
        "# user: covering the Apple-Silicon `MPS Tensor to float64` error a user just hit",  # zotero-docling#36
        "# user: it hard-codes `dtype=torch.float64` for the position-embedding tensor, which PyTorch's MPS backend "
        "cannot represent.",
    ],
)
def test_float64_told_in_words_or_cut_to_its_middle_is_float64(said: str) -> None:
    hit = first(said)
    assert hit is not None and hit.row.id == "float64-told"
    assert explain_text(said).cause.id == "float64-unsupported"


def test_float64_beside_an_mps_that_works_is_not_float64() -> None:
    for said in (
        "# user: float64 on the CPU, and the MPS backend cannot handle my 8 GB model",  # another sentence's MPS
        "# user: torch.float64. The MPS backend cannot use more memory",
    ):
        hit = first(said)
        assert hit is None or hit.row.id != "float64-told", said
