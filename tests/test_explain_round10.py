"""The classes of input the tenth out-of-sample round (2026-11-24, scientific and ML libraries' threads) found
explain missing, each read generally: a library's device table without mps (``KeyError: 'mps'``, DeepSpeed's
half-written ``MPS_Accelerator``); torch's legacy type name ``torch.mps.FloatTensor`` that older ``.type()`` refused;
MPS's missing float64 retold in words ("does not support 64-bit floats", "float64 ... not being supported on MPS");
a framework's log line that it took the CPU (Stable-Baselines3's "Using cpu device", cellpose's "[INFO] >>>> using
CPU"); conda's CUDA packages (pytorch-cuda, cudatoolkit) asked for by name on a Mac; the user's own code calling
.cuda() unguarded.

The texts are lines of the round's threads (tests/corpus names each).
"""

from __future__ import annotations

from mpscheck.checks.causes import explain_text
from mpscheck.knowledge import errors as table
from mpscheck.probes.paste import banner, prose


def _row(line: str) -> str | None:
    hit = table.first(line)
    return hit.row.id if hit else None


def test_a_librarys_device_table_without_mps_is_a_library_without_mps() -> None:
    for line in (
        "KeyError: 'mps'",  # dmlc/dgl#4274: DGLGraph.to('mps')
        "TypeError: Can't instantiate abstract class MPS_Accelerator with abstract methods "
        "handles_memory_backpressure, resolves_data_dependency, use_host_timers",  # deepspeedai/DeepSpeed#5132
    ):
        diagnosis = explain_text(line)
        assert diagnosis.cause.id == "backend-has-no-mps", line
        assert diagnosis.cause.fix is not None and "device='cpu'" in diagnosis.cause.fix.summary
    # another key, or 'mps' inside a longer key, is no device table
    assert _row("KeyError: 'cuda'") is None
    assert _row("KeyError: 'mps_model'") is None
    assert _row("KeyError: 'mps:0'") == "library-device-table-no-mps"


def test_torchs_mps_type_name_refused_by_type_is_fixed_in_a_later_torch() -> None:
    line = "`{ValueError}invalid type: 'torch.mps.FloatTensor'`"  # speechbrain/speechbrain#1794
    diagnosis = explain_text(line)
    assert diagnosis.cause.id == "metal-bug-fixed-later"
    assert diagnosis.cause.fix is not None
    assert any("--upgrade torch" in command for command in diagnosis.cause.fix.commands)
    assert "dtype=x.dtype" in diagnosis.cause.fix.summary
    assert _row("ValueError: invalid type: 'torch.cuda.FloatTensor'") is None  # not an MPS type name


def test_float64_told_in_words_is_float64_unsupported() -> None:
    for line in (
        "I get an error that MPS device does not support 64-bit floats",  # PriorLabs/TabPFN#50
        "The current SAASBO implementation does not support MPS as one of the operations uses float64 instead of "
        "float32, whit the former not being supported on MPS.",  # meta-pytorch/botorch#2724
        "On Apple M1 (mps) `torch.float64` is not supported...",  # rtqichen/torchdiffeq#223
    ):
        assert explain_text(line).cause.id == "float64-unsupported", line
    # float64 named where MPS is not the one refusing it
    assert _row("float64 is not supported on the CPU path either") is None
    assert _row("MPS does support float32 and float16") is None
    assert _row("on mps float32 works; float64 is not supported by numba") is None
    assert _row("float64 is not supported on MPS") != "float64"  # torch's own message keeps its table row


def test_a_frameworks_log_that_it_took_the_cpu_is_the_runs_device() -> None:
    lines = [
        "Using cpu device",  # Stable-Baselines3
        "Using mps device",
        "2026-05-17 23:01:40,132 [INFO] >>>> using CPU",  # MouseLand/cellpose#1455
        "INFO: using the CPU.",
        "I am using CPU for now",  # words, not a log line: prose reads those
        "Using cpu device for the encoder and mps for the rest",
    ]
    read = [(o.fact, o.value, o.line) for o in banner.parse(lines)]
    assert read == [
        ("paste.device_used", "cpu", 1),
        ("paste.device_used", "mps", 2),
        ("paste.device_used", "cpu", 3),
        ("paste.device_used", "cpu", 4),
    ]


def test_conda_cuda_packages_named_on_a_mac_are_cuda_asked_for() -> None:
    text = (  # MouseLand/cellpose#523
        "# user: I'm facing this error: TORCH CUDA version not installed/working.\n"
        "# user: I used `conda install pytorch cudatoolkit=10.1 -c pytorch` but it didn't work.\n"
        "# user: I have a MacBook air M1\n"
    )
    assert explain_text(text).cause.id == "cuda-requested-on-mac"
    asked = [o.line for o in prose.parse(text.splitlines()) if o.fact == "paste.cuda_asked"]
    assert asked == [2]
    said = ["There is no 12.1 or 11.6 versions of pytorch-cuda for MacOS.", "I installed it without cudatoolkit"]
    assert [o.line for o in prose.parse(said) if o.fact == "paste.cuda_asked"] == [1]
    # the same words where no Mac is named ask for CUDA on no Mac
    assert explain_text("# user: I used `conda install pytorch cudatoolkit=10.1`").cause.id != "cuda-requested-on-mac"


def test_an_unguarded_cuda_call_in_the_users_code_on_a_mac_is_cuda_asked_for() -> None:
    text = (  # run-llama/llama_index#1343
        "# user: I tried and failed at:\n"
        "self.model.half().cuda()\n"
        "# user: during instantiation. I am trying this on a M2 Max so I need MPS.\n"
    )
    diagnosis = explain_text(text)
    assert diagnosis.cause.id == "cuda-requested-on-mac"
    assert diagnosis.cause.fix is not None and ".to('mps')" in diagnosis.cause.fix.summary
    lines = [
        "model = model.cuda()",
        "x = x.cuda() if torch.cuda.is_available() else x.to('mps')",  # guarded: asks for nothing
        "if use_gpu: model.cuda()",
        "t.cuda(device)",  # not the bare call
        "net.cuda()  # then train",
        "    model = model.cuda()",  # inside a block, which may test for CUDA
    ]
    asked = [o.line for o in prose.parse(lines) if o.fact == "paste.cuda_asked"]
    assert asked == [1, 5]
    # an error in the paste outranks the call shown
    assert explain_text(text + "TypeError: Cannot convert a MPS Tensor to float64 dtype").cause.id == (
        "float64-unsupported"
    )
