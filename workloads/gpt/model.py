"""A small decoder-only (GPT-style) language model trained on tokens.

Data: synthetic token streams (default), a workloads .npy dataset (``--make-data``), or any text
file (``--data corpus.txt``: byte-level tokens, the vocabulary grows to 256 if smaller).
Synthetic task: each next token is a fixed permutation of the current one, so the next token is
a deterministic function of the context and the loss falls towards zero.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import Dataset

from workloads.runtime.spec import AppSpec, Task

SIZES: dict[str, dict[str, Any]] = {
    "default": {"vocab": 50304, "seq_len": 1024, "layers": 12, "heads": 12, "dim": 768,
                "dropout": 0.0},
    "tiny": {"vocab": 64, "seq_len": 16, "layers": 2, "heads": 2, "dim": 32, "dropout": 0.0},
}


class Block(nn.Module):
    def __init__(self, dim: int, heads: int, dropout: float) -> None:
        super().__init__()
        self.heads = heads
        self.dropout = dropout
        self.ln1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.ln2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim),
                                 nn.Dropout(dropout))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, c = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(c, dim=2)
        q, k, v = (z.view(b, t, self.heads, c // self.heads).transpose(1, 2) for z in (q, k, v))
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True,
                                           dropout_p=self.dropout if self.training else 0.0)
        x = x + self.proj(a.transpose(1, 2).reshape(b, t, c))
        return x + self.mlp(self.ln2(x))


class GPT(nn.Module):
    def __init__(self, vocab: int, seq_len: int, layers: int, heads: int, dim: int,
                 dropout: float) -> None:
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(seq_len, dim)
        self.drop = nn.Dropout(dropout)
        self.blocks = nn.ModuleList(Block(dim, heads, dropout) for _ in range(layers))
        self.ln_f = nn.LayerNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)
        self.lm_head.weight = self.tok.weight  # weight tying
        self.apply(self._init)
        for name, p in self.named_parameters():
            if name.endswith("proj.weight"):
                nn.init.normal_(p, std=0.02 / math.sqrt(2 * layers))

    @staticmethod
    def _init(m: nn.Module) -> None:
        if isinstance(m, (nn.Linear, nn.Embedding)):
            nn.init.normal_(m.weight, std=0.02)
        if isinstance(m, nn.Linear) and m.bias is not None:
            nn.init.zeros_(m.bias)

    def forward(self, idx: torch.Tensor) -> torch.Tensor:
        t = idx.shape[1]
        pos = torch.arange(t, device=idx.device)
        x = self.drop(self.tok(idx) + self.pos(pos))
        for blk in self.blocks:
            x = blk(x)
        return self.lm_head(self.ln_f(x))


def build_model(cfg: dict[str, Any]) -> nn.Module:
    return GPT(cfg["vocab"], cfg["seq_len"], cfg["layers"], cfg["heads"], cfg["dim"],
               cfg["dropout"])


def make_task(cfg: dict[str, Any], device: torch.device) -> Task:
    vocab, t = cfg["vocab"], cfg["seq_len"]
    g = torch.Generator().manual_seed(99)
    perm = torch.randperm(vocab, generator=g)
    # powers[j][v] = perm applied j times to v, so a whole sequence is one gather
    powers = [torch.arange(vocab)]
    for _ in range(t):
        powers.append(perm[powers[-1]])
    table = torch.stack(powers, dim=0).to(device)  # [t+1, vocab]

    def task(gen: torch.Generator, n: int) -> tuple[torch.Tensor, torch.Tensor]:
        start = torch.randint(0, vocab, (n,), generator=gen, device=device)
        seq = table[:, start].T  # [n, t+1]
        return seq[:, :-1].contiguous(), seq[:, 1:].contiguous()

    return task


class TextDataset(Dataset):
    """Byte-level tokens of a text file in non-overlapping windows of seq_len + 1."""

    def __init__(self, path: str, seq_len: int) -> None:
        self.data = np.fromfile(path, dtype=np.uint8)
        self.seq_len = seq_len
        self.n = (len(self.data) - 1) // seq_len
        if self.n < 1:
            raise ValueError(f"{path}: too short for sequence length {seq_len}")

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> tuple[torch.Tensor, torch.Tensor]:
        w = torch.from_numpy(self.data[i * self.seq_len: (i + 1) * self.seq_len + 1]
                             .astype(np.int64))
        return w[:-1], w[1:]


def open_dataset(path: str, cfg: dict[str, Any]) -> Dataset | None:
    if Path(path).is_file():
        cfg["vocab"] = max(cfg["vocab"], 256)
        return TextDataset(path, cfg["seq_len"])
    return None  # a directory: the generic .npy shard format


def loss_fn(out: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return F.cross_entropy(out.float().reshape(-1, out.shape[-1]), y.reshape(-1))


APP = AppSpec(name="gpt", build_model=build_model, make_task=make_task, loss_fn=loss_fn,
              sizes=SIZES, default_batch_size=8, tiny_batch_size=2, lr=3e-3,
              open_dataset=open_dataset)
