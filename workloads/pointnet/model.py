"""PointNet part segmentation (Qi et al. 2017, charlesq34/pointnet), re-expressed in PyTorch layer
for layer from the TensorFlow original.

``default`` is what the original's ``part_seg/train.py`` trains: ``part_seg/pointnet_part_seg.py``
(8,574,923 trainable variables in its TensorFlow graph): an input T-Net (conv 64-128-1024,
max-pool, FC 128-128, a 3x3 transform), shared MLP 64-128-128, a feature T-Net on the 128
features (conv 256-1024, FC 512-256, a 128x128 transform), shared MLP 512-2048, max-pool; a
classification head (FC 256-256, dropout 0.3, 16 categories) trained with weight 0, and the
segmentation head on [global 2048 + the object's 16-way one-hot, tiled; 64; 128; 128; 512;
2048] -> 256 -> dropout 0.2 -> 256 -> dropout 0.2 -> 128 -> 50 parts. Loss: per-point cross
entropy + 0.001 x ``tf.nn.l2_loss(T T^t - I)`` of the feature transform (half the sum of squares
over the batch). Adam 1e-3, halved every 16881 x 20 samples (staircase) down to 1e-5, batch 32,
2048 points (``RECIPE``; runtime/optim.py sets the rate and the momentum before each step).

``seg`` is ``models/pointnet_seg.py`` (3,558,907): T-Nets with conv 64-128-1024, FC 512-256,
a 3x3 and a 64x64 transform, MLP 64-64 | 64-128-1024, head on [64 + 1024] -> 512-256-128-128
-> 50, no one-hot, no dropout. No script of the original trains it on parts.

As in TensorFlow's ``tf_util``: every convolution and FC layer has a bias even before batch
norm; batch norm has beta and gamma, epsilon 1e-3; weights are Glorot-uniform (Xavier), biases
zero; each transform's last layer starts at zero weights and zero bias, plus the identity.
``bn_decay`` starts at 0.5 (PyTorch momentum 0.5) and rises in a staircase, 1 - 0.5 x 0.5^k after
k x 675,240 samples, to its clip 0.99 (momentum 0.01) from 6 x 675,240 = 4,051,440 samples on;
it moves only the running statistics, which training does not read.

Input per sample: [3 + 16, N] channels-first (xyz, then the object's one-hot repeated over the
points: what the original tiles into its concatenation), [3, N] for ``seg``. Target: [N] part ids.
The model returns (part logits [B, 50, N], category logits or None, feature transform, category);
:func:`loss_fn` takes that tuple. Synthetic task and real data (ShapeNet part HDF5): ``data.py``.
"""

from __future__ import annotations

from typing import Any

import torch
import torch.nn.functional as F
from torch import nn

from workloads.runtime.spec import AppSpec, Recipe, Source

from .data import CATEGORIES, make_task, open_dataset, write_dataset

SOURCE = Source(
    repository="charlesq34/pointnet",
    commit="2618f72bc1a0fd21b074096e748016960d44ef55",
    path="part_seg/pointnet_part_seg.py, part_seg/train.py, models/pointnet_seg.py, "
         "models/transform_nets.py, utils/tf_util.py",
    note="default = part_seg/pointnet_part_seg.py as part_seg/train.py trains it; "
         "preset seg = models/pointnet_seg.py",
)

PART_SEG: dict[str, Any] = {
    "variant": "part_seg", "points": 2048, "categories": len(CATEGORIES), "parts": 50,
    "tnet1_conv": [64, 128, 1024], "tnet1_fc": [128, 128],
    "mlp1": [64, 128, 128],  # out1, out2, out3; the feature transform is mlp1[-1] square
    "tnet2_conv": [256, 1024], "tnet2_fc": [512, 256],
    "mlp2": [512, 2048], "cls_fc": [256, 256], "head": [256, 256, 128],
    "cls_dropout": 0.3, "head_dropout": 0.2, "reg_weight": 1e-3, "seg_weight": 1.0,
}
SEG: dict[str, Any] = {
    "variant": "seg", "points": 2048, "categories": len(CATEGORIES), "parts": 50,
    "tnet1_conv": [64, 128, 1024], "tnet1_fc": [512, 256],
    "mlp1": [64, 64], "tnet2_conv": [64, 128, 1024], "tnet2_fc": [512, 256],
    "mlp2": [64, 128, 1024], "head": [512, 256, 128, 128], "reg_weight": 1e-3,
}
SIZES: dict[str, dict[str, Any]] = {
    "default": {**PART_SEG, "batch_size": 32},
    "part_seg": {**PART_SEG, "batch_size": 32},
    "seg": {**SEG, "batch_size": 32},
    "tiny": {**PART_SEG, "points": 64, "tnet1_conv": [8, 16, 32], "tnet1_fc": [16, 16],
             "mlp1": [8, 16, 16], "tnet2_conv": [16, 32], "tnet2_fc": [16, 16],
             "mlp2": [32, 64], "cls_fc": [16, 16], "head": [64, 64, 64]},
}


def global_max_pool(feat: torch.Tensor) -> torch.Tensor:
    """Max over the points (dim 2), keeping the dim: PointNet's symmetric global feature.

    ``torch.max(dim=...)``, not ``amax``: their backward passes differ. ``max`` sends each
    channel's gradient to the index it picked in the forward pass. ``amax`` spreads it over
    every point equal to the maximum, found again in the backward pass by an exact ``==``
    against the saved maximum, and divides by that tie count. Under ``torch.compile`` with
    bf16 autocast, Inductor can recompute the batch-norm + ReLU producer for that comparison
    without the bf16 rounding of the forward output, so no point equals the saved maximum,
    the count is 0 and the gradients are 0/0 = NaN: the weights are NaN after the first
    optimizer step and the loss at step 2, as measured on the H100
    (docs/measurements/h100-2026-11-23.md). PyTorch tracks this as pytorch/pytorch#195214
    (CUDA bf16 fusion skips the rounding before the equality: zero tie counts) and #186799
    (amax/amin gradients under compile). With torch 2.13 on the CPU, a batch-norm + ReLU
    producer followed by ``amax`` and a concatenation gives non-finite gradients under
    compile and bf16 autocast; this function gives finite ones
    (tests/workloads/test_workloads_fast_defaults.py).
    """
    return torch.max(feat, dim=2, keepdim=True).values


def _bn(c: int) -> nn.BatchNorm1d:
    return nn.BatchNorm1d(c, eps=1e-3, momentum=0.5)


def conv_bn(cin: int, cout: int) -> nn.Sequential:
    """``tf_util.conv2d`` with a [1, 1] (or [1, 3] on xyz) kernel: weights + bias, BN, ReLU."""
    return nn.Sequential(nn.Conv1d(cin, cout, 1), _bn(cout), nn.ReLU(inplace=True))


def fc_bn(cin: int, cout: int) -> nn.Sequential:
    """``tf_util.fully_connected``: weights + bias, BN over the batch, ReLU."""
    return nn.Sequential(nn.Linear(cin, cout), _bn(cout), nn.ReLU(inplace=True))


def _chain(block: Any, cin: int, widths: list[int]) -> nn.Sequential:
    layers = []
    for w in widths:
        layers.append(block(cin, w))
        cin = w
    return nn.Sequential(*layers)


class TNet(nn.Module):
    """A transform net: shared MLP, max-pool, FC layers, a KxK matrix starting at identity."""

    def __init__(self, cin: int, conv: list[int], fc: list[int], k: int) -> None:
        super().__init__()
        self.k = k
        self.conv = _chain(conv_bn, cin, conv)
        self.fc = _chain(fc_bn, conv[-1], fc)
        self.transform = nn.Linear(fc[-1], k * k)
        self.register_buffer("eye", torch.eye(k).flatten(), persistent=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # x [B, C, N] -> [B, K, K]
        t = self.transform(self.fc(global_max_pool(self.conv(x))[:, :, 0]))
        return (t + self.eye).view(-1, self.k, self.k)


def _apply(transform: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    """The original's ``matmul(points [B, N, K], T)`` on channels-first [B, K, N] features."""
    return torch.bmm(transform.transpose(1, 2), x)


class PointNetPartSeg(nn.Module):
    """``part_seg/pointnet_part_seg.py`` ``get_model``."""

    def __init__(self, cfg: dict[str, Any]) -> None:
        super().__init__()
        self.ncat = cfg["categories"]
        self.tnet1 = TNet(3, cfg["tnet1_conv"], cfg["tnet1_fc"], 3)
        self.mlp1 = nn.ModuleList(_chain(conv_bn, 3, cfg["mlp1"]))
        k = cfg["mlp1"][-1]
        self.tnet2 = TNet(k, cfg["tnet2_conv"], cfg["tnet2_fc"], k)
        self.mlp2 = nn.ModuleList(_chain(conv_bn, k, cfg["mlp2"]))
        g = cfg["mlp2"][-1]
        self.cls = nn.Sequential(_chain(fc_bn, g, cfg["cls_fc"]), nn.Dropout(cfg["cls_dropout"]),
                                 nn.Linear(cfg["cls_fc"][-1], self.ncat))
        cin = g + self.ncat + sum(cfg["mlp1"]) + sum(cfg["mlp2"])
        head: list[nn.Module] = []
        for i, w in enumerate(cfg["head"]):
            head.append(conv_bn(cin, w))
            if i < 2:
                head.append(nn.Dropout(cfg["head_dropout"]))
            cin = w
        self.head = nn.Sequential(*head)
        self.out = nn.Conv1d(cin, cfg["parts"], 1)
        _init(self)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        pts, onehot = x[:, :3], x[:, 3:, 0]
        feats = []
        h = _apply(self.tnet1(pts), pts)
        for layer in self.mlp1:
            h = layer(h)
            feats.append(h)
        transform = self.tnet2(h)
        h = _apply(transform, h)
        for layer in self.mlp2:
            h = layer(h)
            feats.append(h)
        g = global_max_pool(h)[:, :, 0]
        logits_cls = self.cls(g)
        glob = torch.cat([g, onehot.to(g.dtype)], dim=1).unsqueeze(2)
        n = pts.shape[2]
        h = torch.cat([glob.expand(-1, -1, n), *feats], dim=1)
        return self.out(self.head(h)), logits_cls, transform, onehot.argmax(dim=1)


class PointNetSeg(nn.Module):
    """``models/pointnet_seg.py`` ``get_model``: 50 outputs, no one-hot, no dropout."""

    def __init__(self, cfg: dict[str, Any]) -> None:
        super().__init__()
        self.tnet1 = TNet(3, cfg["tnet1_conv"], cfg["tnet1_fc"], 3)
        self.mlp1 = _chain(conv_bn, 3, cfg["mlp1"])
        k = cfg["mlp1"][-1]
        self.tnet2 = TNet(k, cfg["tnet2_conv"], cfg["tnet2_fc"], k)
        self.mlp2 = _chain(conv_bn, k, cfg["mlp2"])
        self.head = _chain(conv_bn, k + cfg["mlp2"][-1], cfg["head"])
        self.out = nn.Conv1d(cfg["head"][-1], cfg["parts"], 1)
        _init(self)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        pts = x[:, :3]
        h = self.mlp1(_apply(self.tnet1(pts), pts))
        transform = self.tnet2(h)
        point_feat = _apply(transform, h)
        g = global_max_pool(self.mlp2(point_feat))
        h = torch.cat([point_feat, g.expand(-1, -1, pts.shape[2])], dim=1)
        return self.out(self.head(h)), None, transform, None


def _init(model: nn.Module) -> None:
    """``tf_util``: Xavier (Glorot-uniform) weights, zero biases; transforms start at zero."""
    for m in model.modules():
        if isinstance(m, nn.Conv1d | nn.Linear):
            nn.init.xavier_uniform_(m.weight)
            nn.init.zeros_(m.bias)
    for m in model.modules():
        if isinstance(m, TNet):
            nn.init.zeros_(m.transform.weight)


def build_model(cfg: dict[str, Any]) -> nn.Module:
    return PointNetPartSeg(cfg) if cfg["variant"] == "part_seg" else PointNetSeg(cfg)


#: the weights part_seg/train.py passes to get_loss: segmentation 1.0, classification 0.0
SEG_WEIGHT = 1.0
REG_WEIGHT = 1e-3


def loss_fn(out: tuple[torch.Tensor, ...], y: torch.Tensor) -> torch.Tensor:
    """``get_loss``: weight x seg CE + (1 - weight) x label CE + 0.001 x l2_loss(T T^t - I).

    The label term has weight 0 in part_seg/train.py; it stays in the graph, as in the
    original, so every parameter has a gradient (DDP expects one for each)."""
    seg, cls, transform, category = out
    loss = F.cross_entropy(seg.float(), y)
    if cls is not None:
        loss = SEG_WEIGHT * loss + (1 - SEG_WEIGHT) * F.cross_entropy(cls.float(), category)
    t = transform.float()
    eye = torch.eye(t.shape[1], device=t.device, dtype=t.dtype)
    diff = torch.bmm(t, t.transpose(1, 2)) - eye
    return loss + REG_WEIGHT * 0.5 * diff.square().sum()


#: charlesq34/pointnet@2618f72 part_seg/train.py, lines 52-62 and 105-121: DECAY_STEP = 16881 * 20,
#: DECAY_RATE = 0.5, LEARNING_RATE_CLIP = 1e-5, BN_INIT_DECAY = 0.5, BN_DECAY_DECAY_RATE = 0.5,
#: BN_DECAY_DECAY_STEP = float(DECAY_STEP * 2), BN_DECAY_CLIP = 0.99, BASE_LEARNING_RATE = 0.001;
#: both decays count ``batch * batch_size``, the samples seen (here steps x the global batch).
DECAY_STEP = 16881 * 20
RECIPE = Recipe(
    optimizer="adam", lr=1e-3, schedule="staircase", decay_rate=0.5, decay_samples=DECAY_STEP,
    min_lr=1e-5, bn_momentum=0.5, bn_momentum_decay_rate=0.5,
    bn_momentum_decay_samples=DECAY_STEP * 2, bn_decay_clip=0.99,
    where="charlesq34/pointnet@2618f72 part_seg/train.py: BASE_LEARNING_RATE 0.001, "
          "tf.train.exponential_decay(lr, batch * batch_size, DECAY_STEP=16881*20, "
          "DECAY_RATE=0.5, staircase=True), clipped at LEARNING_RATE_CLIP 1e-5 (lines 52-55, "
          "106-113); bn_decay = min(BN_DECAY_CLIP 0.99, 1 - exponential_decay(BN_INIT_DECAY "
          "0.5, batch * batch_size, BN_DECAY_DECAY_STEP=2*DECAY_STEP, BN_DECAY_DECAY_RATE 0.5, "
          "staircase=True)) (lines 57-60, 115-121), PyTorch batch-norm momentum 1 - bn_decay; "
          "Adam (TF defaults: betas 0.9/0.999, epsilon 1e-8); weight decay 0 (--wd 0)",
)

APP = AppSpec(name="pointnet", build_model=build_model, make_task=make_task, loss_fn=loss_fn,
              sizes=SIZES, default_batch_size=32, tiny_batch_size=8, lr=1e-3,
              open_dataset=open_dataset, write_dataset=write_dataset, recipe=RECIPE,
              source=SOURCE)
