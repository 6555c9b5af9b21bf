"""Run pytorch/examples mnist/main.py unchanged on synthetic images (no torchvision, no download)."""

import os
import runpy
import sys
import tempfile
import types

import torch
from torch.utils.data import Dataset

HERE = os.path.dirname(os.path.abspath(__file__))


class SyntheticMNIST(Dataset):
    """Random 28x28 grey images with labels 0-9, in MNIST's (image, label) shape."""

    def __init__(self, root, train=True, download=False, transform=None):
        generator = torch.Generator().manual_seed(0 if train else 1)
        count = 640 if train else 200
        self.images = torch.rand(count, 28, 28, generator=generator)
        self.labels = torch.randint(0, 10, (count,), generator=generator)
        self.transform = transform

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, index):
        image = self.images[index]
        if self.transform is not None:
            image = self.transform(image)
        return image, int(self.labels[index])


class Compose:
    def __init__(self, steps):
        self.steps = steps

    def __call__(self, value):
        for step in self.steps:
            value = step(value)
        return value


class ToTensor:
    def __call__(self, image):
        return image.unsqueeze(0)  # 1x28x28, already float in [0, 1]


class Normalize:
    def __init__(self, mean, std):
        self.mean, self.std = torch.tensor(mean).view(-1, 1, 1), torch.tensor(std).view(-1, 1, 1)

    def __call__(self, image):
        return (image - self.mean) / self.std


vision = types.ModuleType("torchvision")
vision.datasets = types.SimpleNamespace(MNIST=SyntheticMNIST)
vision.transforms = types.SimpleNamespace(Compose=Compose, ToTensor=ToTensor, Normalize=Normalize)
sys.modules["torchvision"] = vision
os.chdir(tempfile.mkdtemp(prefix="mnist-"))  # main.py names '../data'; nothing is written there
sys.argv = [os.path.join(HERE, "mnist", "main.py"), "--epochs", "1", "--log-interval", "5", *sys.argv[1:]]
runpy.run_path(sys.argv[0], run_name="__main__")
