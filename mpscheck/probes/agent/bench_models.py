"""The bench's three reference architectures, their batches and their optimizers (3.8, stdlib + torch).

ResNet-50, BERT-base and VGG16 are defined here, in shape, with no weights and no downloads, so the
bench measures the same networks on every machine; ``width`` > 1 divides every channel count (the
answer check's smaller twin, and the tests' shrunken models).
"""

from __future__ import annotations

from . import updates


def make_optimizer(torch, model, name):
    """AdamW for BERT, SGD with momentum for the CNNs: torch's own update (agent/updates.py), without
    the seconds torch.optim's first optimizer spends importing torch._dynamo; the class where torch's
    functional API differs."""
    kind, lr, momentum = ("adamw", 1e-4, 0.0) if name == "bert-base" else ("sgd", 0.01, 0.9)
    optimizer = updates.make(torch, model.parameters(), kind, lr, momentum)
    if optimizer is not None:
        return optimizer
    if kind == "adamw":
        return torch.optim.AdamW(model.parameters(), lr=lr)
    return torch.optim.SGD(model.parameters(), lr=lr, momentum=momentum)


def sample_batch(torch, name, batch, plan, gen):
    if name == "bert-base":
        tokens = torch.randint(0, BERT["vocab"], (batch, plan["seq"]), generator=gen)
        return tokens, torch.randint(0, 2, (batch,), generator=gen)
    images = torch.randn(batch, 3, plan["image"], plan["image"], generator=gen)
    return images, torch.randint(0, 1000, (batch,), generator=gen)


def build_model(torch, name, width, dropout):
    """ResNet-50, BERT-base or VGG16 in shape (width 1); width > 1 divides every channel count."""
    if name == "resnet50":
        return resnet50(torch.nn, width)
    if name == "vgg16":
        return vgg16(torch.nn, width, dropout)
    return bert_classifier(torch, width, dropout)


def resnet50(nn, width):
    """ResNet-50 (He et al. 2015, v1.5 strides as torchvision): bottlenecks [3, 4, 6, 3], 1000 classes."""

    class Bottleneck(nn.Module):
        def __init__(self, inplanes, planes, stride):
            super().__init__()
            out = planes * 4
            self.body = nn.Sequential(
                nn.Conv2d(inplanes, planes, 1, bias=False),
                nn.BatchNorm2d(planes),
                nn.ReLU(inplace=True),
                nn.Conv2d(planes, planes, 3, stride=stride, padding=1, bias=False),
                nn.BatchNorm2d(planes),
                nn.ReLU(inplace=True),
                nn.Conv2d(planes, out, 1, bias=False),
                nn.BatchNorm2d(out),
            )
            self.shortcut = None
            if stride != 1 or inplanes != out:
                self.shortcut = nn.Sequential(
                    nn.Conv2d(inplanes, out, 1, stride=stride, bias=False), nn.BatchNorm2d(out)
                )
            self.relu = nn.ReLU(inplace=True)

        def forward(self, x):
            identity = x if self.shortcut is None else self.shortcut(x)
            return self.relu(self.body(x) + identity)

    stem = 64 // width
    layers = [
        nn.Conv2d(3, stem, 7, stride=2, padding=3, bias=False),
        nn.BatchNorm2d(stem),
        nn.ReLU(inplace=True),
        nn.MaxPool2d(3, stride=2, padding=1),
    ]
    inplanes = stem
    for planes, blocks, stride in ((64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)):
        planes //= width
        for index in range(blocks):
            layers.append(Bottleneck(inplanes, planes, stride if index == 0 else 1))
            inplanes = planes * 4
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(inplanes, 1000)]
    return nn.Sequential(*layers)


def vgg16(nn, width, dropout):
    """VGG16 (configuration D, Simonyan & Zisserman 2014): 13 convolutions, 3 fully connected layers."""
    layers, channels = [], 3
    for item in (64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M", 512, 512, 512, "M"):
        if item == "M":
            layers.append(nn.MaxPool2d(2, 2))
            continue
        layers += [nn.Conv2d(channels, item // width, 3, padding=1), nn.ReLU(inplace=True)]
        channels = item // width
    hidden = 4096 // width
    layers += [
        nn.AdaptiveAvgPool2d(7),
        nn.Flatten(),
        nn.Linear(channels * 49, hidden),
        nn.ReLU(inplace=True),
        nn.Dropout(dropout),
        nn.Linear(hidden, hidden),
        nn.ReLU(inplace=True),
        nn.Dropout(dropout),
        nn.Linear(hidden, 1000),
    ]
    return nn.Sequential(*layers)


# BERT-base (Devlin et al. 2018): 12 layers, hidden 768, 12 heads, feed-forward 3072, WordPiece vocab.
BERT = {"vocab": 30522, "hidden": 768, "layers": 12, "heads": 12, "ffn": 3072, "positions": 512}


def bert_classifier(torch, width, dropout):
    nn = torch.nn
    hidden = BERT["hidden"] // width

    class Bert(nn.Module):
        """Embeddings, a post-norm GELU encoder and a pooled two-class head, as BERT fine-tuning."""

        def __init__(self):
            super().__init__()
            self.tokens = nn.Embedding(BERT["vocab"], hidden)
            self.positions = nn.Embedding(BERT["positions"], hidden)
            self.segments = nn.Embedding(2, hidden)
            self.norm = nn.LayerNorm(hidden, eps=1e-12)
            self.dropout = nn.Dropout(dropout)
            layer = nn.TransformerEncoderLayer(
                hidden,
                BERT["heads"],
                BERT["ffn"] // width,
                dropout=dropout,
                activation="gelu",
                batch_first=True,
                layer_norm_eps=1e-12,
            )
            self.encoder = nn.TransformerEncoder(layer, BERT["layers"], enable_nested_tensor=False)
            self.pooler = nn.Sequential(nn.Linear(hidden, hidden), nn.Tanh())
            self.head = nn.Linear(hidden, 2)

        def forward(self, tokens):
            where = torch.arange(tokens.shape[1], device=tokens.device).unsqueeze(0)
            x = self.tokens(tokens) + self.positions(where) + self.segments(torch.zeros_like(tokens))
            x = self.encoder(self.dropout(self.norm(x)))
            return self.head(self.pooler(x[:, 0]))

    return Bert()
