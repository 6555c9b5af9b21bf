"""The bench's answer checks (3.8, stdlib + torch): each workload's result on the device against
the CPU's, on a small instance, before anything is timed.

Matmuls against a float64 product of the same rounded inputs, the copy against its source, and each
model's forward, backward and optimizer step against the same step on the CPU from the same weights.
Only relative errors are reported: the tolerances live in mpscheck/checks/bench.py.
"""

from __future__ import annotations

import copy
import math

from .bench_models import build_model, make_optimizer, sample_batch
from .workload import synchronize


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


def _relative(got, want):
    """||got - want|| / ||want|| in float64; inf when the answer is not finite."""
    got, want = got.detach().cpu().double(), want.detach().cpu().double()  # MPS has no float64: CPU first
    if not bool(got.isfinite().all()):
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
