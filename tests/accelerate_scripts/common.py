"""What the two-process tests (`tests/test_accelerate.py`) and the script they launch (`two_processes.py`) share:
a deterministic fake encoder, a tiny trainable model with a token-weighted loss, its data and its config."""
from dataclasses import replace

import torch
from torch import nn

from vlconcepts.probes import ProbeConfig

ITEMS = torch.arange(37, dtype=torch.float32)           # 37 items in chunks of 4: 10 chunks, the last one short
CHUNK_SIZE = 4
TEXTS = [f"a {c} {s} on the {p}" for c in ("red", "blue") for s in ("cube", "sphere", "cylinder", "cone")
         for p in ("left", "right", "top", "bottom")]    # 32 captions for a real model's text features


def fake_features(chunk: torch.Tensor) -> torch.Tensor:
    "A deterministic 'encoder': 3 features per item."
    x = torch.as_tensor(chunk, dtype=torch.float32)[:, None]
    return torch.cat([x, torch.sin(x), x ** 2 / 10], dim=1)


class TokenRegression(nn.Module):
    "Each label token regressed on the inputs: the mean squared error over the label tokens != -100 (every weight gets a real gradient)."
    def __init__(self, d: int = 5, length: int = 7):
        super().__init__()
        self.weight = nn.Parameter(torch.linspace(-1, 1, d * length).reshape(d, length))

    def forward(self, inputs, labels): return ((inputs @ self.weight - labels.float())[labels != -100] ** 2).mean()


def regression_data() -> tuple[torch.Tensor, torch.Tensor]:
    "(inputs [24, 5], labels [24, 7]) with 1 to 7 label tokens per row (-100 after them)."
    labels = torch.randint(0, 4, (24, 7), generator=torch.Generator().manual_seed(1))
    labels[torch.arange(7)[None] >= torch.tensor([1, 7, 2, 5, 3, 6] * 4)[:, None]] = -100
    return torch.randn(24, 5, generator=torch.Generator().manual_seed(0)), labels


# AdamW with a 3-step warm-up then linear decay: the learning rate changes every step, so a schedule stepped
# twice per step (the old two-process bug) shows in the weights. Global batch 8: 4 rows per process in two.
CONFIG = replace(ProbeConfig(), batch_size=8, steps=6, warmup=3, lr=0.02, checkpoint_every=3)
HALF = 3                                                  # the steps run before a run is resumed elsewhere
