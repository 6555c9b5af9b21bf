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

import copy
import gc
import math
import time

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
        ahead = _sibling("ahead").Ahead(work)
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


def numerics(torch, device, name, plan, ahead=None):
    """The answer check, in exact float32: TF32 is a precision the user chose, not a wrong kernel.

    *ahead* (agent/ahead.py) has the models' CPU sides made in a thread; without it they are made here.
    """
    with ExactFloat32(torch, device) as exact:
        if name.startswith("matmul-"):
            result = numerics_matmul(torch, device, name.split("-", 1)[1])
        elif name == "copy":
            result = numerics_copy(torch, device)
        elif ahead is None:
            result = numerics_model(torch, device, name, plan)
        else:
            try:
                result = numerics_model(torch, device, name, plan, ahead.take(name))
            finally:
                ahead.release()
    result.setdefault("values", {}).update(exact.changed)
    return result


class ExactFloat32:
    """TF32 off on CUDA while answers are checked, then the process's own settings back.

    With cuDNN's default TF32 convolutions, a ResNet-50 step on an H100 was 1e-2 off the CPU:
    as far off as a small real bug. The timings keep the settings the user's code would get.
    """

    def __init__(self, torch, device):
        self.torch, self.device, self.saved, self.changed = torch, device, None, {}

    def __enter__(self):
        if self.device == "cuda":
            backends = self.torch.backends
            self.saved = (backends.cuda.matmul.allow_tf32, backends.cudnn.allow_tf32)
            backends.cuda.matmul.allow_tf32 = backends.cudnn.allow_tf32 = False
            self.changed = {"checked_without_tf32": True}
        return self

    def __exit__(self, *exc):
        if self.saved is not None:
            self.torch.backends.cuda.matmul.allow_tf32, self.torch.backends.cudnn.allow_tf32 = self.saved
        return False


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


def synchronize(torch, device):
    """Wait for queued device work: a clock read before this measures only the queueing."""
    sync = getattr(getattr(torch, device, None), "synchronize", None)
    if sync is not None:
        sync()


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


# ---- numerics: the device's answer against the CPU, on a small instance ---------------------------


def _relative(got, want):
    """||got - want|| / ||want|| in float64; inf when the answer is not finite."""
    got, want = got.detach().cpu().double(), want.detach().cpu().double()  # MPS has no float64: CPU first
    if not bool(torch_module().isfinite(got).all()):
        return float("inf")
    scale = float(want.norm())
    return float((got - want).norm()) / (scale if scale > 0 else 1.0)


def numerics_matmul(torch, device, dtype_name):
    dtype = getattr(torch, dtype_name)
    gen = torch.Generator().manual_seed(11)
    n = 512
    a = torch.randn(n, n, generator=gen).to(dtype)
    b = torch.randn(n, n, generator=gen).to(dtype)
    reference = a.double() @ b.double()  # exact for the rounded inputs: judges the device and the dtype
    try:
        out = a.to(device) @ b.to(device)
        synchronize(torch, device)
    except Exception as exc:
        return {"status": "unsupported", "error": str(exc)[:1000], "error_type": type(exc).__name__, "size": {"n": n}}
    return {"status": "ok", "errors": {"output": _relative(out, reference)}, "size": {"n": n}}


def numerics_copy(torch, device):
    gen = torch.Generator().manual_seed(12)
    source = torch.randn(1 << 20, generator=gen)
    target = torch.full((1 << 20,), float("nan"), device=device)  # poisoned: an unwritten element shows
    target.copy_(source.to(device))
    synchronize(torch, device)
    back = target.cpu()
    wrong = int((back != source).sum())
    return {"status": "ok", "errors": {"mismatched_elements": wrong}, "size": {"elements": 1 << 20}}


def reference_side(torch, name, plan, with_copy=True):
    """The CPU side of a model's answer check: the model (seeded), its batch, an untouched copy of
    its weights for the device, and its step on the CPU."""
    torch.manual_seed(13)
    width = plan.get("check_width", plan["width"])
    reference = build_model(torch, name, width, dropout=0.0)  # dropout draws differ between devices
    small = dict(plan, image=min(plan["image"], 64), seq=min(plan["seq"], 16))  # a small instance
    inputs, labels = sample_batch(torch, name, 2, small, torch.Generator().manual_seed(14))
    twin = copy.deepcopy(reference) if with_copy else None  # before the step changes the weights
    want = _one_step(torch, reference, name, inputs, labels)
    side = {"reference": reference, "twin": twin, "inputs": inputs, "labels": labels, "want": want}
    return dict(side, small=small, width=width)


def numerics_model(torch, device, name, plan, side=None):
    """One forward, backward and optimizer step on the device and on the CPU from the same weights.

    The step runs with BatchNorm on its running statistics: with batch statistics over 2 samples a
    freshly initialised ResNet-50's gradients are ill-conditioned (float32 on the CPU itself is 2.5%
    off float64 there), which would hide a wrong kernel in rounding noise. The batch-statistics path
    is checked by the forward loss in train mode after the step. *side*: reference_side(), made ahead.
    """
    if device == "cpu":  # the CPU is the reference itself: one step, and whether it stayed finite
        step = reference_side(torch, name, plan, with_copy=False)["want"]
        finite = math.isfinite(step["loss"]) and math.isfinite(step["train_loss"])
        return {"status": "reference", "errors": {}, "values": {"finite": finite, "cpu_loss": step["loss"]}}
    side = side or reference_side(torch, name, plan)
    reference, want, small, width = side["reference"], side["want"], side["small"], side["width"]
    model = side["twin"].to(device)
    got = _one_step(torch, model, name, side["inputs"].to(device), side["labels"].to(device))
    synchronize(torch, device)
    grads = [(p_dev.grad, p_ref.grad) for p_ref, p_dev in zip(reference.parameters(), model.parameters())]
    errors = {
        "loss": _scalar_error(got["loss"], want["loss"]),
        "gradients": _vector_error(torch, grads),
        "update": _vector_error(torch, list(zip(got["updates"], want["updates"]))),
        "train_loss": _scalar_error(got["train_loss"], want["train_loss"]),
    }
    values = {"cpu_loss": want["loss"], "device_loss": got["loss"]}
    size = {"batch": 2, "sequence": small["seq"]} if name == "bert-base" else {"batch": 2, "image": small["image"]}
    size["width"] = width
    return {"status": "ok", "errors": errors, "values": values, "size": size}


def _vector_error(torch, pairs):
    """||got - want|| / ||want|| over many tensors at once, in float64; inf when got is not finite."""
    diff, norm = 0.0, 0.0
    for got, want in pairs:
        if got is None or want is None:
            continue
        got, want = got.detach().cpu(), want.detach()  # MPS has no float64: CPU first
        if not bool(torch.isfinite(got).all()):
            return float("inf")
        diff += _squared_norm(torch, got.double() - want.double() if got.dtype != want.dtype else got - want)
        norm += _squared_norm(torch, want)
    return math.sqrt(diff / norm) if norm > 0 else math.sqrt(diff)


def _squared_norm(torch, tensor):
    """Sum of squares accumulated in float64 without a float64 copy (torch 1.10+), else through one."""
    vector_norm = getattr(getattr(torch, "linalg", None), "vector_norm", None)
    if vector_norm is not None and tensor.dtype in (torch.float32, torch.float64):
        return float(vector_norm(tensor, dtype=torch.float64)) ** 2
    return float(tensor.double().pow(2).sum())


def _scalar_error(got, want):
    if not math.isfinite(got):
        return float("inf")
    return abs(got - want) / max(abs(want), 1e-12)


def _one_step(torch, model, name, inputs, labels):
    loss_fn = torch.nn.CrossEntropyLoss()
    model.eval()  # BatchNorm on running statistics; dropout is off anyway
    before = [p.detach().clone() for p in model.parameters()]
    model.zero_grad(set_to_none=True)
    loss = loss_fn(model(inputs), labels)
    loss.backward()
    optimizer = make_optimizer(torch, model, name)
    optimizer.step()
    updates = [p.detach() - old for p, old in zip(model.parameters(), before)]
    model.train()
    with torch.no_grad():
        train_loss = float(loss_fn(model(inputs), labels).detach().cpu())
    return {"loss": float(loss.detach().cpu()), "updates": updates, "train_loss": train_loss}


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


# ---- the three reference architectures, defined here: no weights, no downloads -------------------


def make_optimizer(torch, model, name):
    """AdamW for BERT, SGD with momentum for the CNNs: torch's own update (agent/updates.py), without
    the seconds torch.optim's first optimizer spends importing torch._dynamo; the class where torch's
    functional API differs."""
    kind, lr, momentum = ("adamw", 1e-4, 0.0) if name == "bert-base" else ("sgd", 0.01, 0.9)
    optimizer = _sibling("updates").make(torch, model.parameters(), kind, lr, momentum)
    if optimizer is not None:
        return optimizer
    if kind == "adamw":
        return torch.optim.AdamW(model.parameters(), lr=lr)
    return torch.optim.SGD(model.parameters(), lr=lr, momentum=momentum)


def _sibling(name):
    """Another module of this folder: through the agent's private package, or by path when this
    file was loaded on its own (benchmarks/bench_bench.py)."""
    import importlib
    import importlib.util
    import os
    import sys

    if __package__:
        return importlib.import_module(__package__ + "." + name)
    key = "_mpscheck_bench_" + name
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, os.path.join(os.path.dirname(__file__), name + ".py"))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules[key] = module
    return sys.modules[key]


def sample_batch(torch, name, batch, plan, gen):
    if name == "bert-base":
        tokens = torch.randint(0, BERT["vocab"], (batch, plan["seq"]), generator=gen)
        return tokens, torch.randint(0, 2, (batch,), generator=gen)
    images = torch.randn(batch, 3, plan["image"], plan["image"], generator=gen)
    return images, torch.randint(0, 1000, (batch,), generator=gen)


def build_model(torch, name, width, dropout):
    """ResNet-50, BERT-base or VGG16 in shape (width 1); width > 1 divides every channel count."""
    if name == "resnet50":
        return resnet50(torch.nn, width)
    if name == "vgg16":
        return vgg16(torch.nn, width, dropout)
    return bert_classifier(torch, width, dropout)


def resnet50(nn, width):
    """ResNet-50 (He et al. 2015, v1.5 strides as torchvision): bottlenecks [3, 4, 6, 3], 1000 classes."""

    class Bottleneck(nn.Module):
        def __init__(self, inplanes, planes, stride):
            super().__init__()
            out = planes * 4
            self.body = nn.Sequential(
                nn.Conv2d(inplanes, planes, 1, bias=False),
                nn.BatchNorm2d(planes),
                nn.ReLU(inplace=True),
                nn.Conv2d(planes, planes, 3, stride=stride, padding=1, bias=False),
                nn.BatchNorm2d(planes),
                nn.ReLU(inplace=True),
                nn.Conv2d(planes, out, 1, bias=False),
                nn.BatchNorm2d(out),
            )
            self.shortcut = None
            if stride != 1 or inplanes != out:
                self.shortcut = nn.Sequential(
                    nn.Conv2d(inplanes, out, 1, stride=stride, bias=False), nn.BatchNorm2d(out)
                )
            self.relu = nn.ReLU(inplace=True)

        def forward(self, x):
            identity = x if self.shortcut is None else self.shortcut(x)
            return self.relu(self.body(x) + identity)

    stem = 64 // width
    layers = [
        nn.Conv2d(3, stem, 7, stride=2, padding=3, bias=False),
        nn.BatchNorm2d(stem),
        nn.ReLU(inplace=True),
        nn.MaxPool2d(3, stride=2, padding=1),
    ]
    inplanes = stem
    for planes, blocks, stride in ((64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)):
        planes //= width
        for index in range(blocks):
            layers.append(Bottleneck(inplanes, planes, stride if index == 0 else 1))
            inplanes = planes * 4
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(inplanes, 1000)]
    return nn.Sequential(*layers)


def vgg16(nn, width, dropout):
    """VGG16 (configuration D, Simonyan & Zisserman 2014): 13 convolutions, 3 fully connected layers."""
    layers, channels = [], 3
    for item in (64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M", 512, 512, 512, "M"):
        if item == "M":
            layers.append(nn.MaxPool2d(2, 2))
            continue
        layers += [nn.Conv2d(channels, item // width, 3, padding=1), nn.ReLU(inplace=True)]
        channels = item // width
    hidden = 4096 // width
    layers += [
        nn.AdaptiveAvgPool2d(7),
        nn.Flatten(),
        nn.Linear(channels * 49, hidden),
        nn.ReLU(inplace=True),
        nn.Dropout(dropout),
        nn.Linear(hidden, hidden),
        nn.ReLU(inplace=True),
        nn.Dropout(dropout),
        nn.Linear(hidden, 1000),
    ]
    return nn.Sequential(*layers)


# BERT-base (Devlin et al. 2018): 12 layers, hidden 768, 12 heads, feed-forward 3072, WordPiece vocab.
BERT = {"vocab": 30522, "hidden": 768, "layers": 12, "heads": 12, "ffn": 3072, "positions": 512}


def bert_classifier(torch, width, dropout):
    nn = torch.nn
    hidden = BERT["hidden"] // width

    class Bert(nn.Module):
        """Embeddings, a post-norm GELU encoder and a pooled two-class head, as BERT fine-tuning."""

        def __init__(self):
            super().__init__()
            self.tokens = nn.Embedding(BERT["vocab"], hidden)
            self.positions = nn.Embedding(BERT["positions"], hidden)
            self.segments = nn.Embedding(2, hidden)
            self.norm = nn.LayerNorm(hidden, eps=1e-12)
            self.dropout = nn.Dropout(dropout)
            layer = nn.TransformerEncoderLayer(
                hidden,
                BERT["heads"],
                BERT["ffn"] // width,
                dropout=dropout,
                activation="gelu",
                batch_first=True,
                layer_norm_eps=1e-12,
            )
            self.encoder = nn.TransformerEncoder(layer, BERT["layers"], enable_nested_tensor=False)
            self.pooler = nn.Sequential(nn.Linear(hidden, hidden), nn.Tanh())
            self.head = nn.Linear(hidden, 2)

        def forward(self, tokens):
            where = torch.arange(tokens.shape[1], device=tokens.device).unsqueeze(0)
            x = self.tokens(tokens) + self.positions(where) + self.segments(torch.zeros_like(tokens))
            x = self.encoder(self.dropout(self.norm(x)))
            return self.head(self.pooler(x[:, 0]))

    return Bert()
