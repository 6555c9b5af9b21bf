"""The device workload, run inside the target interpreter (Python 3.8 syntax, stdlib + torch).

Each step does real work on the device and the same work on the CPU, and reports what it observed:
errors against the CPU, counts of mismatching values, losses, timings, torch's own exception text.
It never decides whether that is right: every tolerance and every "expected unsupported" lives in
mpscheck's checks, so a saved report can be re-judged from its numbers. The doctor runs the quick
steps, ``mpscheck smoke-test`` all of them: one workload, two depths.
"""

from __future__ import annotations

import copy
import inspect
import time

QUICK_STEPS = ("allocate", "elementwise")
FULL_STEPS = ("allocate", "elementwise", "matmul", "train", "dtypes", "memory", "fallback")
DTYPES = ("float32", "float16", "bfloat16", "int64", "bool", "complex64", "float64")
BLOCK_BYTES = 64 * 1024 * 1024


def run(torch, device, mode, emit, fallback_env):
    """Run the steps of *mode* on *device*, emitting start/done records for each."""
    names = QUICK_STEPS if mode == "quick" else FULL_STEPS
    for index, name in enumerate(names, 1):
        emit("start", "step:" + name, {"n": index, "of": len(names)})  # its place, for the progress line
        started = time.perf_counter()
        try:
            if name == "fallback":
                outcome = step_fallback(device, fallback_env)
            else:
                outcome = {"outcome": "ran", "values": STEPS[name](torch, device)}
            synchronize(torch, device)
        except Exception as exc:
            outcome = {"outcome": "raised", "error": str(exc)[:2000], "error_type": type(exc).__name__}
        outcome["name"] = name
        outcome["seconds"] = round(time.perf_counter() - started, 4)
        emit("done", "step:" + name, outcome)


def synchronize(torch, device):
    """Wait for queued device work, so timings and errors belong to the step that caused them."""
    module = getattr(torch, device, None)
    sync = getattr(module, "synchronize", None)
    if sync is not None:
        sync()
        return "torch.%s.synchronize" % device
    return None


def _relative_error(got, want):
    got, want = got.double(), want.double()
    scale = max(1.0, float(want.abs().max()))
    return float((got - want).abs().max()) / scale


def step_allocate(torch, device):
    host = torch.arange(4096, dtype=torch.float32)
    on_device = host.to(device)
    back = on_device.cpu()
    mismatches = int((back != host).sum())
    return {"elements": 4096, "mismatches": mismatches, "tensor_device": str(on_device.device)}


def step_elementwise(torch, device):
    gen = torch.Generator().manual_seed(0)
    a = torch.randn(256, 256, generator=gen)
    b = torch.randn(256, 256, generator=gen)

    def ops(x, y):
        return {
            "add": x + y,
            "mul_exp": (x * y).clamp(-10, 10).exp(),
            "softmax": x.softmax(dim=-1),
            "sum": x.sum(),
            "mean": y.mean(dim=0),
            "max": x.max(),
        }

    want = ops(a, b)
    got = ops(a.to(device), b.to(device))
    return {"max_relative_error": {op: _relative_error(got[op].cpu(), want[op]) for op in want}}


def _timed_matmul(torch, device, a, b, min_seconds, max_iterations):
    out = a @ b  # warm-up: kernel selection and first-use costs are not throughput
    synchronize(torch, device)
    iterations, started = 0, time.perf_counter()
    while iterations < max_iterations:
        out = a @ b
        iterations += 1
        synchronize(torch, device)
        if time.perf_counter() - started >= min_seconds and iterations >= 3:
            break
    return out, iterations, time.perf_counter() - started


def step_matmul(torch, device):
    values = {}
    for dtype_name, n, min_seconds, max_iterations in (("float32", 1024, 0.3, 50), ("float16", 512, 0.0, 1)):
        dtype = getattr(torch, dtype_name)
        gen = torch.Generator().manual_seed(1)
        a = torch.randn(n, n, generator=gen).to(dtype)
        b = torch.randn(n, n, generator=gen).to(dtype)
        reference = a.double() @ b.double()  # exact enough to judge both the device and the dtype
        try:
            out, iterations, seconds = _timed_matmul(
                torch, device, a.to(device), b.to(device), min_seconds, max_iterations
            )
        except Exception as exc:
            if dtype_name == "float32":
                raise
            values[dtype_name] = {"n": n, "error": str(exc)[:500], "error_type": type(exc).__name__}
            continue
        values[dtype_name] = {
            "n": n,
            "max_relative_error": _relative_error(out.cpu(), reference),
            "iterations": iterations,
            "seconds": seconds,
            "gflops": round(2.0 * n**3 * iterations / seconds / 1e9, 2) if seconds > 0 else None,
        }
    return values


def _adam_update(torch, device):
    """Adam's update kernels without torch.optim's one-time setup, which imports torch._dynamo.

    Constructing the first optimizer in a process costs seconds (6 s on an H100 machine) that say
    nothing about the device. torch's own update function is called directly: the multi-tensor
    (foreach) path where torch uses it by default for this device, else the single-tensor one. A
    torch whose private signature differs falls back to torch.optim.Adam, and says so.
    """
    import torch.optim.adam as adam_module

    supported = ["cuda"]
    try:
        from torch.utils._foreach_utils import _get_foreach_kernels_supported_devices

        supported = list(_get_foreach_kernels_supported_devices())
    except Exception:
        pass
    name = "_multi_tensor_adam" if device in supported else "_single_tensor_adam"
    function = getattr(adam_module, name, None)
    if function is None:
        return None, "torch.optim.Adam"
    accepted = inspect.signature(function).parameters
    options = {
        "amsgrad": False,
        "has_complex": False,
        "beta1": 0.9,
        "beta2": 0.999,
        "lr": 1e-3,
        "weight_decay": 0.0,
        "eps": 1e-8,
        "maximize": False,
        "capturable": False,
        "differentiable": False,
        "decoupled_weight_decay": False,
        "foreach": name == "_multi_tensor_adam",
    }
    required = [p.name for p in accepted.values() if p.kind is p.KEYWORD_ONLY and p.default is p.empty]
    if any(r not in options for r in required):
        return None, "torch.optim.Adam"
    options = {k: v for k, v in options.items() if k in accepted}
    state = {}

    def step(params):
        if not state:
            state["exp_avg"] = [torch.zeros_like(p) for p in params]
            state["exp_avg_sq"] = [torch.zeros_like(p) for p in params]
            state["steps"] = [torch.tensor(0.0) for _ in params]
        with torch.no_grad():
            function(
                list(params),
                [p.grad for p in params],
                state["exp_avg"],
                state["exp_avg_sq"],
                [],
                state["steps"],
                None,
                None,
                **options,
            )

    return step, "torch.optim.adam." + name


def step_train(torch, device):
    nn = torch.nn
    torch.manual_seed(0)
    model = nn.Sequential(
        nn.Conv2d(3, 16, kernel_size=3, padding=1),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Flatten(),
        nn.Linear(16 * 16 * 16, 10),
    )
    gen = torch.Generator().manual_seed(2)
    inputs = torch.randn(64, 3, 32, 32, generator=gen)
    labels = torch.randint(0, 10, (64,), generator=gen)
    loss_fn = nn.CrossEntropyLoss()
    with torch.no_grad():
        cpu_first_loss = loss_fn(copy.deepcopy(model)(inputs), labels).item()

    model = model.to(device)
    params = [p for p in model.parameters()]
    setup_started = time.perf_counter()
    update, optimizer_name = _adam_update(torch, device)
    if update is None:
        optimizer = torch.optim.Adam(params, lr=1e-3)
        update = lambda _params: optimizer.step()  # noqa: E731
    optimizer_setup = time.perf_counter() - setup_started
    x, y = inputs.to(device), labels.to(device)
    losses, gradients_finite = [], True
    for _ in range(5):
        for p in params:
            p.grad = None
        loss = loss_fn(model(x), y)
        loss.backward()
        gradients_finite = gradients_finite and all(
            bool(torch.isfinite(p.grad).all()) for p in params if p.grad is not None
        )
        update(params)
        losses.append(loss.detach().item())
    return {
        "batch": 64,
        "steps": 5,
        "losses": losses,
        "cpu_first_loss": cpu_first_loss,
        "gradients_finite": gradients_finite,
        "optimizer": optimizer_name,
        "optimizer_setup_seconds": round(optimizer_setup, 4),
    }


def step_dtypes(torch, device):
    table = {}
    for name in DTYPES:
        dtype = getattr(torch, name)
        host = (torch.arange(8) % 3).to(dtype)
        try:
            got = (host.to(device) * host.to(device)).cpu()
            table[name] = {"result": "ran", "mismatches": int((got != host * host).sum())}
        except Exception as exc:
            table[name] = {"result": "raised", "error": str(exc)[:500], "error_type": type(exc).__name__}
    return {"dtypes": table}


def _allocated(torch, device):
    if device == "mps":
        return getattr(torch.mps, "current_allocated_memory", lambda: None)()
    if device == "cuda":
        return torch.cuda.memory_allocated()
    return None  # the CPU allocator keeps no count


def step_memory(torch, device):
    values = {"synchronize": synchronize(torch, device)}
    before = _allocated(torch, device)
    block = torch.empty(BLOCK_BYTES // 4, dtype=torch.float32, device=device)
    block.fill_(1.0)
    synchronize(torch, device)
    after = _allocated(torch, device)
    values.update(
        {"allocated_before": before, "allocated_after": after, "block_bytes": BLOCK_BYTES, "readback": float(block[-1])}
    )
    if device == "mps":
        for key, attr in (
            ("driver_allocated", "driver_allocated_memory"),
            ("recommended_max", "recommended_max_memory"),
        ):
            if hasattr(torch.mps, attr):  # recommended_max_memory: torch 2.5+
                values[key] = getattr(torch.mps, attr)()
    elif device == "cuda":
        free, total = torch.cuda.mem_get_info()
        values.update({"free": free, "total": total})
    del block
    return values


def step_fallback(device, fallback_env):
    """The fallback variable as this process started with it; what torch made of it is the checks' call."""
    if device != "mps":
        return {"outcome": "skipped", "note": "PYTORCH_ENABLE_MPS_FALLBACK applies to mps only"}
    return {"outcome": "ran", "values": {"value": fallback_env}}


STEPS = {
    "allocate": step_allocate,
    "elementwise": step_elementwise,
    "matmul": step_matmul,
    "train": step_train,
    "dtypes": step_dtypes,
    "memory": step_memory,
}
