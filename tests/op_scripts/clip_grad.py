"""A training step with clip_grad_norm_: on the CPU (and CUDA) torch takes the foreach path
(aten::_foreach_norm.Scalar); on MPS, with foreach unset, it takes the per-tensor path."""

import torch

model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loss = model(torch.randn(4, 8)).sum()
loss.backward()
torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
optimizer.step()
