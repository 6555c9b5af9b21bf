"""The bench workload, run inside the target interpreter as part of the agent (3.8, stdlib + torch).

It only measures: each workload's answer against the CPU on a small instance first (relative
errors), then its speed (matmul TFLOP/s per dtype, device-to-device copy GB/s, training samples/s
of three reference architectures on the device and on the CPU) and peak memory. Every judgement
(tolerances, % of the chip's peak, what a failure means) is made in mpscheck/checks/bench.py.

Timing: warm-up runs first (kernel selection, allocator growth, lazy optimizer state); each timed
sample synchronises the device before and after reading the clock; the figure is the median of
the samples. Stages: ``bench:info``, then ``bench:numerics:<name>`` for every workload, then
``bench:time:<name>`` (and ``bench:time:<name>:cpu`` for the CPU baseline of a training workload).
"""

from __future__ import annotations

import gc
import math
import time

from .ahead import Ahead
from .bench_models import build_model, make_optimizer, sample_batch
from .bench_numerics import numerics, reference_side
from .workload import synchronize

MATMUL_DTYPES = ("float32", "float16", "bfloat16")
MODELS = ("resnet50", "bert-base", "vgg16")

# Sizes per mode: matmul n, copy elements, training batches on the device and for the CPU
# baseline, warm-up and timed samples. full = the launch benchmark's batch sizes (ResNet-50 128,
# BERT 64, VGG16 64); tiny = shrunken widths, for tests only.
MATMUL_N = {"cuda": 8192, "mps": 4096, "cpu": 1024}  # float16 on a CPU can run below 1 GFLOP/s
COPY_ELEMENTS = {"cuda": 256 * 2**20, "mps": 64 * 2**20, "cpu": 16 * 2**20}
PLANS = {
    "full": {
        "batch": {"resnet50": 128, "bert-base": 64, "vgg16": 64},
        "cpu_batch": {"resnet50": 4, "bert-base": 4, "vgg16": 2},
        "warmup": 2,
        "samples": 5,
        "cpu_samples": 3,
        "width": 1,
        "image": 224,
        "seq": 128,
    },
    "quick": {
        "batch": {"resnet50": 32, "bert-base": 16, "vgg16": 16},
        "cpu_batch": {"resnet50": 1, "bert-base": 1, "vgg16": 1},
        "warmup": 1,
        "samples": 3,
        "cpu_samples": 2,
        "width": 1,
        "check_width": 2,  # the answer check's model: every layer kept, channels halved (params / 4)
        "image": 224,
        "seq": 128,
    },
    "tiny": {
        "batch": {"resnet50": 2, "bert-base": 2, "vgg16": 2},
        "cpu_batch": {"resnet50": 2, "bert-base": 1, "vgg16": 1},  # BatchNorm needs 2 samples
        "warmup": 1,
        "samples": 3,
        "cpu_samples": 3,
        "width": 16,
        "image": 32,
        "seq": 16,
    },
}
SAMPLE_SECONDS = 0.05  # one timed sample repeats the op until it lasts about this long
MAX_REPEATS = 50
WARMUP_SECONDS = 0.3


def run(torch, device, mode, emit, fallback_env=None):
    """Measure everything on *device*, emitting one start/done record per stage (the fallback
    variable, which smoke-test reports, plays no part here)."""
    plan = PLANS[mode]
    names = ["matmul-" + dtype for dtype in MATMUL_DTYPES] + ["copy", *MODELS]
    # torch's own objects stay alive to the end: each stage's collection (_release) then walks only
    # what the stages made, not torch's modules (0.1 s a collection once torch._dynamo is loaded).
    gc.freeze()
    trained = {}  # a device model, handed to its CPU baseline: CPU initialisation costs seconds
    ahead = None  # the answer checks' CPU side, made in a thread while the device side runs
    if device != "cpu":
        work = [(name, lambda n=name: reference_side(torch, n, plan)) for name in MODELS]
        ahead = Ahead(work)
    stages = [("bench:info", "info", device, lambda: info(torch, device))]
    for name in names:
        stages.append(("bench:numerics:" + name, name, device, lambda n=name: numerics(torch, device, n, plan, ahead)))
    for name in names:
        stages.append(("bench:time:" + name, name, device, lambda n=name: timing(torch, device, n, mode, trained)))
        if name in MODELS and device != "cpu":
            cpu_stage = "bench:time:%s:cpu" % name
            stages.append((cpu_stage, name, "cpu", lambda n=name: timing(torch, "cpu", n, mode, trained, True)))
    for index, (stage, name, where, measure) in enumerate(stages, 1):
        if ahead is not None and stage.startswith("bench:time:"):  # no thread may run beside a timed loop
            ahead.join()
            ahead = None
        _stage(emit, stage, name, where, measure, {"n": index, "of": len(stages)})


def timing(torch, device, name, mode, trained=None, baseline=False):
    if name.startswith("matmul-"):
        return time_matmul(torch, device, name.split("-", 1)[1], mode)
    if name == "copy":
        return time_copy(torch, device, mode)
    return time_model(torch, device, name, PLANS[mode], baseline, trained)


def _stage(emit, stage, name, device, measure, place=None):
    """Run one measurement; an exception becomes an observation carrying torch's own text.

    *place* (``{"n": 2, "of": 18}``) rides on the start record for the progress line.
    """
    emit("start", stage, place)
    started = time.perf_counter()
    try:
        data = measure()
    except Exception as exc:
        data = {"status": "error", "error": str(exc)[:2000], "error_type": type(exc).__name__}
    data["name"] = name
    data["device"] = device
    data["seconds"] = round(time.perf_counter() - started, 4)
    _release(torch_module(), device)
    emit("done", stage, data)


def torch_module():
    import sys

    return sys.modules.get("torch")


def _release(torch, device):
    """Hand the device's cached blocks back, so one workload's memory does not squeeze the next.

    Only the device in use: a cache call into a backend that is not available can abort.
    """
    gc.collect()
    empty = getattr(getattr(torch, device, None), "empty_cache", None) if device in ("cuda", "mps") else None
    if empty is not None:
        empty()


def info(torch, device):
    settings = {"threads": torch.get_num_threads()}
    out = {"status": "ok", "device_name": None, "core_count": None, "settings": settings}
    if device == "cuda":
        props = torch.cuda.get_device_properties(torch.cuda.current_device())
        out["device_name"] = torch.cuda.get_device_name()
        out["core_count"] = int(props.multi_processor_count)
        settings["cuda_matmul_allow_tf32"] = bool(torch.backends.cuda.matmul.allow_tf32)
        settings["cudnn_allow_tf32"] = bool(torch.backends.cudnn.allow_tf32)
    elif device == "mps":
        mps = torch.backends.mps
        out["device_name"] = mps.get_name() if hasattr(mps, "get_name") else None
        out["core_count"] = mps.get_core_count() if hasattr(mps, "get_core_count") else None
    settings["float32_matmul_precision"] = torch.get_float32_matmul_precision()
    return out


# ---- timing ---------------------------------------------------------------------------------------


def timed_samples(torch, device, op, samples, budget):
    """Median-ready per-op seconds: warm-up, calibrate repeats, then synchronised samples.

    On a GPU the warm-up lasts WARMUP_SECONDS, long enough for its clocks to leave idle.
    """
    started = time.perf_counter()
    op()
    synchronize(torch, device)
    while device != "cpu" and time.perf_counter() - started < WARMUP_SECONDS:
        op()
        synchronize(torch, device)
    started = time.perf_counter()
    op()
    synchronize(torch, device)
    once = max(time.perf_counter() - started, 1e-9)
    repeats = int(min(MAX_REPEATS, max(1, math.ceil(SAMPLE_SECONDS / once))))
    if once * samples > budget:  # a slow op (float16 on some CPUs): fewer samples, never a hang
        samples = max(1, min(samples, int(budget // once)))
    seconds = []
    for _ in range(samples):
        synchronize(torch, device)
        started = time.perf_counter()
        for _ in range(repeats):
            op()
        synchronize(torch, device)
        seconds.append((time.perf_counter() - started) / repeats)
    return seconds, repeats


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2.0


def _size_for(table, device, mode):
    if mode == "tiny":
        return 64 if table is MATMUL_N else 1 << 16
    if mode == "quick" and device == "cpu":
        return table[device] // 2
    return table[device]


def time_matmul(torch, device, dtype_name, mode):
    dtype = getattr(torch, dtype_name)
    n = _size_for(MATMUL_N, device, mode)
    a, b = _random((n, n), dtype, device, 21), _random((n, n), dtype, device, 22)  # never zeros: they run faster
    samples = PLANS[mode]["samples"]
    budget = 10.0 if device == "cpu" else 20.0
    seconds, repeats = timed_samples(torch, device, lambda: torch.matmul(a, b), samples, budget)
    flops = 2.0 * n**3
    return _timing(seconds, repeats, flops / median(seconds) / 1e12, "TFLOP/s", {"n": n, "flops": flops}, device)


def _random(shape, dtype, device, seed):
    """Normal random data made where it is used (CUDA's generator) or moved there once."""
    torch = torch_module()
    if device == "cuda":
        gen = torch.Generator(device="cuda").manual_seed(seed)
        return torch.randn(shape, device="cuda", dtype=dtype, generator=gen)
    return torch.randn(shape, generator=torch.Generator().manual_seed(seed)).to(dtype).to(device)


def time_copy(torch, device, mode):
    elements = _size_for(COPY_ELEMENTS, device, mode)
    source = _random((elements,), torch.float32, device, 23)
    target = torch.empty_like(source)
    seconds, repeats = timed_samples(torch, device, lambda: target.copy_(source), PLANS[mode]["samples"], 20.0)
    moved = 2.0 * elements * source.element_size()  # each byte read once and written once
    size = {"elements": elements, "bytes_per_copy": moved, "counted": "read + write"}
    return _timing(seconds, repeats, moved / median(seconds) / 1e9, "GB/s", size, device)


def time_model(torch, device, name, plan, baseline, trained=None):
    """Training samples/s; *trained* (a dict) passes the device's model on to its CPU baseline."""
    batch = plan["cpu_batch" if baseline or device == "cpu" else "batch"][name]
    samples = plan["cpu_samples" if baseline or device == "cpu" else "samples"]
    model = _model_for(torch, device, name, plan, trained.pop(name, None) if baseline and trained else None)
    optimizer = make_optimizer(torch, model, name)
    loss_fn = torch.nn.CrossEntropyLoss()
    inputs, labels = sample_batch(torch, name, batch, plan, torch.Generator().manual_seed(32))
    inputs, labels = inputs.to(device), labels.to(device)
    peak = PeakMemory(torch, device)
    model.train()

    def step():
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(inputs), labels)
        peak.sample()
        loss.backward()
        optimizer.step()
        peak.sample()

    for _ in range(plan["warmup"]):
        step()
    synchronize(torch, device)
    seconds = []
    for _ in range(samples):
        synchronize(torch, device)
        started = time.perf_counter()
        step()
        synchronize(torch, device)
        seconds.append(time.perf_counter() - started)
    size = {"batch": batch}
    size.update({"image": plan["image"]} if name != "bert-base" else {"sequence": plan["seq"]})
    result = _timing(seconds, 1, batch / median(seconds), "samples/s", size, device)
    result["warmup"] = plan["warmup"]
    result.update(peak.result())
    if trained is not None and not baseline and device != "cpu":
        model.zero_grad(set_to_none=True)
        trained[name] = model
    return result


def _model_for(torch, device, name, plan, trained):
    """The model to time: the device's own, moved, for a CPU baseline (the same architecture and
    kind of weights; a CPU initialisation of VGG16 and BERT costs seconds), else a new one."""
    if trained is not None:
        return trained.to(device)
    torch.manual_seed(31)
    with _made_on(torch, device):  # initialised where it trains: a CPU init of VGG16 costs ~0.5 s
        return build_model(torch, name, plan["width"], dropout=0.1).to(device)


def _made_on(torch, device):
    """torch.device as a context (torch 2.0+) makes new parameters on *device*; else a no-op."""
    import contextlib

    place = torch.device(device)
    return place if device != "cpu" and hasattr(place, "__enter__") else contextlib.nullcontext()


def _timing(seconds, repeats, value, unit, size, device):
    return {
        "status": "ok",
        "device": device,
        "value": value,
        "unit": unit,
        "sample_seconds": seconds,
        "repeats": repeats,
        "size": size,
    }


class PeakMemory:
    """The workload's peak memory: the allocator's own peak on CUDA, samples of it on MPS."""

    def __init__(self, torch, device):
        self.torch, self.device, self.seen = torch, device, None
        if device == "cuda":
            torch.cuda.reset_peak_memory_stats()

    def sample(self):
        if self.device == "mps" and hasattr(self.torch.mps, "current_allocated_memory"):  # torch 2.1+
            now = self.torch.mps.current_allocated_memory()
            self.seen = now if self.seen is None else max(self.seen, now)

    def result(self):
        if self.device == "cuda":
            return {"peak_memory_bytes": int(self.torch.cuda.max_memory_allocated()), "memory_note": "allocator peak"}
        if self.device == "mps":
            return {"peak_memory_bytes": self.seen, "memory_note": "largest allocation seen after forward and step"}
        return {"peak_memory_bytes": None, "memory_note": "the CPU allocator keeps no count"}
