"""torch's own SGD and AdamW updates for the bench, without building a torch.optim optimizer.

The first torch.optim optimizer of a process imports torch._dynamo (Optimizer.add_param_group is
wrapped by torch._disable_dynamo): 5.8 s on the project's H100 machine, paid once per process and
saying nothing about the device. The figure bench reports is a training step's steady time, so
the step calls what each optimizer's step() calls after its bookkeeping: torch's functional API
(torch.optim.sgd.sgd, torch.optim.adamw.adamw), which picks the multi-tensor (foreach) kernels by
the same default as the optimizer and, given the same state, computes the same update. A torch
whose functional signature differs gets the optimizer class instead (``make`` returns None).
"""

from __future__ import annotations

import inspect

# The defaults of torch.optim.SGD(lr, momentum=0.9) and torch.optim.AdamW(lr) as bench builds them.
SGD_OPTIONS = {"weight_decay": 0.0, "dampening": 0.0, "nesterov": False, "maximize": False, "has_sparse_grad": False}
ADAMW_OPTIONS = {
    "amsgrad": False,
    "beta1": 0.9,
    "beta2": 0.999,
    "weight_decay": 1e-2,
    "eps": 1e-8,
    "maximize": False,
    "capturable": False,
    "differentiable": False,
    "has_complex": False,
}


def make(torch, params, kind, lr, momentum=0.0):
    """An object with zero_grad() and step() like the optimizer's, or None where torch's functional
    API does not take the arguments used here."""
    params = list(params)
    if kind == "sgd":
        function = _function(torch, "sgd", "sgd")
        options = dict(SGD_OPTIONS, lr=lr, momentum=momentum)
        maker = FunctionalSgd
    else:
        function = _function(torch, "adamw", "adamw")
        options = dict(ADAMW_OPTIONS, lr=lr)
        maker = FunctionalAdamW
    options = _accepted(function, options)
    return None if options is None else maker(torch, params, function, options)


def _function(torch, module, name):
    import importlib

    try:
        return getattr(importlib.import_module("torch.optim." + module), name, None)
    except ImportError:
        return None


def _accepted(function, options):
    """*options* cut to what *function* takes; None when it needs a keyword not given here."""
    if function is None:
        return None
    try:
        accepted = inspect.signature(function).parameters
    except (TypeError, ValueError):
        return None
    required = [p.name for p in accepted.values() if p.kind is p.KEYWORD_ONLY and p.default is p.empty]
    if any(name not in options for name in required):
        return None
    return {key: value for key, value in options.items() if key in accepted}


class _Functional:
    def __init__(self, torch, params, function, options):
        self.torch, self.params, self.function, self.options = torch, params, function, options
        self.name = "%s.%s" % (function.__module__, function.__name__)

    def zero_grad(self, set_to_none=True):
        for param in self.params:
            if set_to_none:
                param.grad = None
            elif param.grad is not None:
                param.grad.detach_()
                param.grad.zero_()

    def with_grads(self):
        """The indexes of the parameters that have a gradient, as the optimizer's _init_group."""
        return [i for i, param in enumerate(self.params) if param.grad is not None]


class FunctionalSgd(_Functional):
    """torch.optim.SGD's step: the momentum buffers start as None and torch fills them in."""

    def __init__(self, torch, params, function, options):
        super().__init__(torch, params, function, options)
        self.buffers = [None] * len(params)

    def step(self):
        chosen = self.with_grads()
        params = [self.params[i] for i in chosen]
        buffers = [self.buffers[i] for i in chosen]
        with self.torch.no_grad():
            self.function(params, [p.grad for p in params], buffers, **self.options)
        for i, buffer in zip(chosen, buffers):
            self.buffers[i] = buffer


class FunctionalAdamW(_Functional):
    """torch.optim.AdamW's step: zeroed moments and a CPU step counter per parameter, made lazily."""

    def __init__(self, torch, params, function, options):
        super().__init__(torch, params, function, options)
        self.state = {}

    def step(self):
        torch = self.torch
        chosen = self.with_grads()
        for i in chosen:
            if i not in self.state:
                param = self.params[i]
                zeros = torch.zeros_like(param, memory_format=torch.preserve_format)
                self.state[i] = (torch.tensor(0.0), zeros, torch.zeros_like(zeros))
        params = [self.params[i] for i in chosen]
        steps, averages, squares = ([self.state[i][k] for i in chosen] for k in range(3))
        with torch.no_grad():
            self.function(params, [p.grad for p in params], averages, squares, [], steps, **self.options)
