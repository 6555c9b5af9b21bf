"""A small CNN and one training step (forward, backward, SGD with momentum): a golden op list."""

import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1),
    nn.BatchNorm2d(8),
    nn.ReLU(),
    nn.MaxPool2d(2),
    nn.Flatten(),
    nn.Linear(8 * 8 * 8, 10),
)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
images, labels = torch.randn(4, 3, 16, 16), torch.randint(0, 10, (4,))
loss = nn.functional.cross_entropy(model(images), labels)
optimizer.zero_grad()
loss.backward()
optimizer.step()
print(f"cnn loss {loss.item():.4f}")
