"""A small transformer encoder and one AdamW training step: a golden op list."""

import torch
from torch import nn

torch.manual_seed(0)
embed = nn.Embedding(50, 16)
layer = nn.TransformerEncoderLayer(16, 2, 32, dropout=0.1, batch_first=True)
head = nn.Linear(16, 50)
params = list(embed.parameters()) + list(layer.parameters()) + list(head.parameters())
optimizer = torch.optim.AdamW(params, lr=1e-3)
tokens = torch.randint(0, 50, (2, 6))
logits = head(layer(embed(tokens)))
loss = nn.functional.cross_entropy(logits.reshape(-1, 50), tokens.reshape(-1))
optimizer.zero_grad()
loss.backward()
optimizer.step()
print(f"transformer loss {loss.item():.4f}")
