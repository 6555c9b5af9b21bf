"""torch.compile under recording: a custom backend that counts its calls, and inductor when asked.

Prints one JSON line: how often the backend compiled, the compiled results (exact hex), and the
length of the dispatch-mode stack at the end. Recording must change none of them (issue 18 item 7).
"""

import json
import sys

import torch

calls = []


def counting_backend(graph_module, example_inputs):
    calls.append(len(list(graph_module.graph.nodes)))
    return graph_module.forward


def f(x, y):
    return torch.sin(x) * torch.cos(y) + x.exp().log1p()


torch.manual_seed(0)
x, y = torch.randn(64), torch.randn(64)
custom = torch.compile(f, backend=counting_backend)
for _ in range(3):
    out = custom(x, y)
result = {"backend_calls": len(calls), "custom": out.sum().item().hex()}
if "--inductor" in sys.argv:
    result["inductor"] = torch.compile(f)(x, y).sum().item().hex()
result["dispatch_stack"] = torch._C._len_torch_dispatch_stack()
print(json.dumps(result))
