"""40 optimizer steps, then an evaluation with ops the training never ran: the recording pauses once
the op signatures are stable, leaves the dispatch stack empty while paused, and re-arms at eval()."""

import json
import sys

import torch

model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
stack_mid_training = None
for step in range(40):
    loss = model(torch.randn(4, 8)).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step == 30:
        stack_mid_training = torch._C._len_torch_dispatch_stack()
model.eval()
with torch.no_grad():
    top = torch.topk(model(torch.randn(4, 8)), 1).indices
print(json.dumps({"stack_mid_training": stack_mid_training}), file=sys.stdout)
