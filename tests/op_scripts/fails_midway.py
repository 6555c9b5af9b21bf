"""Runs two ops, then fails: the report must still list the ops seen before the failure."""

import torch

x = torch.ones(3)
y = torch.roll(x, 1)
raise SystemExit("stopping on purpose after " + str(int(y.sum().item())))
