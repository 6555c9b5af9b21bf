"""The device workload, run inside the target interpreter next to in_target.py (3.8, stdlib + torch).

Each step does real work on the device and checks it against the CPU; it returns its outcome and
observed values, and the runner times it and turns an exception into a failed step carrying torch's
own error text. The doctor runs the quick steps, ``mpscheck smoke-test`` all of them: one workload,
two depths. Steps never decide what an error means; the checks in mpscheck do that on the facts.
"""

from __future__ import annotations

import copy
import time

QUICK_STEPS = ("allocate", "elementwise")
FULL_STEPS = ("allocate", "elementwise", "matmul", "train", "dtypes", "memory", "fallback")
DTYPES = ("float32", "float16", "bfloat16", "int64", "bool", "complex64", "float64")

# Largest error relative to the reference's magnitude that still counts as right, per dtype.
TOLERANCE = {"float32": 1e-3, "float16": 1e-2}
ELEMENTWISE_TOLERANCE = 1e-4
TRAIN_LOSS_TOLERANCE = 2e-3


def run(torch, device, mode, emit, fallback_env):
    """Run the steps of *mode* on *device*, emitting start/done records for each."""
    names = QUICK_STEPS if mode == "quick" else FULL_STEPS
    for name in names:
        emit("start", "step:" + name)
        started = time.perf_counter()
        try:
            outcome = step_fallback(device, fallback_env) if name == "fallback" else STEPS[name](torch, device)
            synchronize(torch, device)
        except Exception as exc:
            outcome = {"status": "fail", "error": str(exc)[:2000], "error_type": type(exc).__name__}
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


def _outcome(ok, values, problem, note=None):
    out = {"status": "pass" if ok else "fail", "values": values}
    if not ok:
        out["error"] = problem
    if note:
        out["note"] = note
    return out


def _relative_error(got, want):
    got, want = got.double(), want.double()
    scale = max(1.0, float(want.abs().max()))
    return float((got - want).abs().max()) / scale


def step_allocate(torch, device):
    host = torch.arange(4096, dtype=torch.float32)
    on_device = host.to(device)
    back = on_device.cpu()
    values = {"elements": 4096, "tensor_device": str(on_device.device)}
    return _outcome(bool(torch.equal(host, back)), values, "values changed in the round trip to the device")


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
    errors = {op: _relative_error(got[op].cpu(), want[op]) for op in want}
    worst = max(errors, key=lambda op: errors[op])
    values = {"max_relative_error": errors, "tolerance": ELEMENTWISE_TOLERANCE}
    problem = "%s differs from the CPU by %.3g (tolerance %g)" % (worst, errors[worst], ELEMENTWISE_TOLERANCE)
    return _outcome(errors[worst] <= ELEMENTWISE_TOLERANCE, values, problem)


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
    problems = []
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
            values[dtype_name] = {"n": n, "error": str(exc)[:500]}  # the dtype step reports support
            continue
        error = _relative_error(out.cpu(), reference)
        values[dtype_name] = {
            "n": n,
            "max_relative_error": error,
            "tolerance": TOLERANCE[dtype_name],
            "iterations": iterations,
            "gflops": round(2.0 * n**3 * iterations / seconds / 1e9, 2) if seconds > 0 else None,
        }
        if error > TOLERANCE[dtype_name]:
            problems.append("%s %dx%d matmul differs from the CPU by %.3g" % (dtype_name, n, n, error))
    return _outcome(not problems, values, "; ".join(problems))


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
    setup_started = time.perf_counter()
    # The first optimizer in a process pays torch.optim's one-time setup (it imports torch._dynamo):
    # seconds that say nothing about the device, so they are reported apart.
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    optimizer_setup = time.perf_counter() - setup_started
    x, y = inputs.to(device), labels.to(device)
    losses, gradients_finite = [], True
    for _ in range(5):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        gradients_finite = gradients_finite and all(
            bool(torch.isfinite(p.grad).all()) for p in model.parameters() if p.grad is not None
        )
        optimizer.step()
        losses.append(loss.detach().item())
    difference = abs(losses[0] - cpu_first_loss)
    tolerance = TRAIN_LOSS_TOLERANCE * max(1.0, abs(cpu_first_loss))
    finite = all(loss == loss and abs(loss) != float("inf") for loss in losses)
    problems = []
    if not finite:
        problems.append("the loss is not finite: %s" % losses)
    if not gradients_finite:
        problems.append("a gradient is not finite")
    if finite and not losses[-1] < losses[0]:
        problems.append("the loss did not decrease over 5 steps: %s" % losses)
    if difference > tolerance:
        problems.append("first loss %.6f differs from the CPU's %.6f" % (losses[0], cpu_first_loss))
    values = {
        "batch": 64,
        "steps": 5,
        "losses": losses,
        "cpu_first_loss": cpu_first_loss,
        "first_loss_difference": difference,
        "tolerance": tolerance,
        "gradients_finite": gradients_finite,
        "optimizer_setup_seconds": round(optimizer_setup, 4),
    }
    return _outcome(not problems, values, "; ".join(problems))


def step_dtypes(torch, device):
    table = {}
    for name in DTYPES:
        dtype = getattr(torch, name)
        host = (torch.arange(8) % 3).to(dtype)
        try:
            got = (host.to(device) * host.to(device)).cpu()
            right = bool(torch.equal(got, host * host))
            table[name] = {"status": "pass"} if right else {"status": "fail", "error": "wrong values"}
        except Exception as exc:
            status = "expected-unsupported" if (device == "mps" and name == "float64") else "unsupported"
            table[name] = {"status": status, "error": str(exc)[:500], "error_type": type(exc).__name__}
    wrong = sorted(n for n, row in table.items() if row["status"] == "fail")
    problems = ["%s computes wrong values" % ", ".join(wrong)] if wrong else []
    if table["float32"]["status"] != "pass":
        problems.append("float32 does not work on %s" % device)
    return _outcome(not problems, {"dtypes": table}, "; ".join(problems))


def _allocated(torch, device):
    if device == "mps":
        return getattr(torch.mps, "current_allocated_memory", lambda: None)()
    if device == "cuda":
        return torch.cuda.memory_allocated()
    return None  # the CPU allocator keeps no count


def step_memory(torch, device):
    values = {"synchronize": synchronize(torch, device)}
    before = _allocated(torch, device)
    block = torch.empty(16 * 1024 * 1024, dtype=torch.float32, device=device)  # 64 MiB
    block.fill_(1.0)
    synchronize(torch, device)
    after = _allocated(torch, device)
    values.update({"allocated_before": before, "allocated_after": after, "block_bytes": 64 * 1024 * 1024})
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
    ok = float(block[-1]) == 1.0
    accounted = before is None or after is None or after - before >= 64 * 1024 * 1024
    del block
    problem = "the 64 MiB block read back wrong" if not ok else "the allocator did not count the 64 MiB block"
    return _outcome(ok and accounted, values, problem)


def step_fallback(device, fallback_env):
    if device != "mps":
        return {"status": "skip", "note": "PYTORCH_ENABLE_MPS_FALLBACK applies to mps only"}
    try:
        in_effect = fallback_env is not None and int(fallback_env.strip()) != 0
    except ValueError:
        in_effect = None
    return {"status": "pass", "values": {"PYTORCH_ENABLE_MPS_FALLBACK": fallback_env, "in_effect": in_effect}}


STEPS = {
    "allocate": step_allocate,
    "elementwise": step_elementwise,
    "matmul": step_matmul,
    "train": step_train,
    "dtypes": step_dtypes,
    "memory": step_memory,
}
