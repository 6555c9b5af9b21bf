"""A DataLoader with shuffle=True feeding a small model, then metrics on .cpu() results.

The DataLoader seeds its sampler with ``torch.empty((), dtype=torch.int64).random_()`` and shuffles
with ``randperm`` (torch/utils/data/dataloader.py, sampler.py): CPU work on a Mac too, never an MPS
problem. ``torch.empty(...).random_()`` below is the same op in the script's own compute.
"""

import torch
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
data = TensorDataset(torch.randn(32, 4), torch.randint(0, 2, (32,)))
loader = DataLoader(data, batch_size=8, shuffle=True)
model = torch.nn.Linear(4, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for x, y in loader:
    optimizer.zero_grad()
    torch.nn.functional.cross_entropy(model(x), y).backward()
    optimizer.step()
with torch.no_grad():
    scores = model(x).cpu()
    best = scores.argmax(1)
own = torch.empty((), dtype=torch.int64).random_()
