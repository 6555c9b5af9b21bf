"""Ops in a worker thread, and a backward pass run from another thread: both must be recorded."""

import threading

import torch


def work() -> None:
    torch.ones(2).roll(1)


thread = threading.Thread(target=work)
thread.start()
thread.join()
x = torch.ones(3, requires_grad=True)
backward = threading.Thread(target=lambda: (x * 2).sum().backward())
backward.start()
backward.join()
print("threads done", x.grad.tolist())
