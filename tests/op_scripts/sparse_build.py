"""Builds a sparse COO tensor (a constructor whose layout argument is sparse) and densifies it."""

import torch

indices = torch.tensor([[0, 1], [1, 2]])
values = torch.tensor([3.0, 4.0])
dense = torch.sparse_coo_tensor(indices, values, (3, 3)).to_dense()
print(float(dense.sum()))
