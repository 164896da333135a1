"""CosmicTagger: the UResNet of coreyjadams/CosmicTagger, in PyTorch.

Every pixel of every detector plane is background (0), cosmic (1) or neutrino (2). The network
is ``src/networks/torch/uresnet2D.py`` @156c480, module for module (same names, so the
original's state dict loads): each plane goes through ONE shared-weight network (5x5 stem,
recursive ``UNetCore`` of residual or plain blocks with max pooling + 1x1 down and bilinear
upsampling + 1x1 up, additive filter growth, concat or sum skips), the planes are joined only at
the deepest level (concatenated, 1x1 bottleneck, ``blocks_deepest_layer`` 5x5 blocks, split
again), then ``blocks_final`` blocks and a 1x1 convolution to 3 classes per plane.

The original loops over the planes; here, on GPUs, the planes ride in the batch dimension
(one kernel per layer instead of three) and batch norm keeps the original's per-plane statistics
(:class:`PlaneBatchNorm2d`), so training computes the same function; on the CPU the model runs
the original's plane-by-plane layout (``UResNet.layout``: stacked, the same work, was 0.74x
the original there, all of it page faults; docs/benchmarks.md). The loss is the
original's ``LossCalculator`` (``loss.py``); the data: synthetic events with the statistics of
the original's example data (``events.py``) or larcv3 files (``larcv.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch
import torch.nn.functional as F
from torch import nn

from workloads.cosmictagger import events
from workloads.cosmictagger.config import (
    DEFAULT_BATCH_SIZE,
    LOSS_BALANCE,
    LR,
    NAME,
    RECIPE,
    REPOSITORY,
    SIZES,
    SOURCE,
    SOURCE_COMMIT,
    TINY_BATCH_SIZE,
    UNIT,
    units_per_sample,
)
from workloads.cosmictagger.loss import make_loss
from workloads.runtime.spec import AppSpec, Task, conv_tf32_defaults

Activation = Callable[[torch.Tensor], torch.Tensor]


class PlaneBatchNorm2d(nn.BatchNorm2d):
    """``BatchNorm2d`` shared by ``planes`` planes that ride in the batch dimension (sample
    ``b``, plane ``p`` at index ``b * planes + p``), with the statistics the original gets by
    calling the module once per plane: in training each plane is normalised with its own batch
    mean and variance, and the running statistics take the planes' updates in plane order.
    Parameters and buffers are those of ``BatchNorm2d``; evaluation is ``BatchNorm2d``'s."""

    def __init__(self, num_features: int, planes: int = 1) -> None:
        super().__init__(num_features)
        self.planes = planes
        self.stacked = True  # False: called once per plane, as the original (UResNet.layout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        g = self.planes
        if g == 1 or not self.training or not self.stacked:
            return super().forward(x)
        n, c, h, w = x.shape
        b = n // g
        m = self.momentum
        assert m is not None and self.running_mean is not None and self.running_var is not None
        if x.is_contiguous():  # [b*g, c, h, w] is [b, g*c, h, w]: one fused batch norm
            rm, rv = self.running_mean.repeat(g), self.running_var.repeat(g)
            y = F.batch_norm(x.view(b, g * c, h, w), rm, rv, self.weight.repeat(g),
                             self.bias.repeat(g), True, m, self.eps).view(n, c, h, w)
            with torch.no_grad():  # m * (plane statistic) = rm - (1 - m) * old
                dm = (rm - (1 - m) * self.running_mean.repeat(g)).view(g, c)
                dv = (rv - (1 - m) * self.running_var.repeat(g)).view(g, c)
        else:  # channels-last: the same statistics by hand
            xs = x.unflatten(0, (b, g))
            stats = xs.float() if xs.dtype in (torch.float16, torch.bfloat16) else xs
            var, mean = torch.var_mean(stats, dim=(0, 3, 4), keepdim=True, correction=0)
            shape = (1, 1, c, 1, 1)
            scale = torch.rsqrt(var + self.eps) * self.weight.view(shape)
            y = ((xs - mean) * scale + self.bias.view(shape)).to(x.dtype).flatten(0, 1)
            count = b * h * w
            with torch.no_grad():
                dm = m * mean.view(g, c)
                dv = m * var.view(g, c) * (count / max(count - 1, 1))
        with torch.no_grad():
            for p in range(g):
                self.running_mean.mul_(1 - m).add_(dm[p])
                self.running_var.mul_(1 - m).add_(dv[p])
            self.num_batches_tracked.add_(g)
        return y


class Block(nn.Module):
    """conv -> batch norm -> activation (``Block`` of the original)."""

    def __init__(self, *, inplanes: int, outplanes: int, params: dict[str, Any], planes: int,
                 kernel: int | tuple[int, int] = 3, strides: int = 1,
                 padding: int | tuple[int, int] = 1, activation: Activation | None = None
                 ) -> None:
        super().__init__()
        self.conv = nn.Conv2d(inplanes, outplanes, kernel, strides, padding,
                              bias=params["bias"])
        self._do_normalization = params["normalization"] == "batch"
        if self._do_normalization:
            self.norm = PlaneBatchNorm2d(outplanes, planes)
        self.activation = activation or F.leaky_relu

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = self.conv(x)
        if self._do_normalization:
            out = self.norm(out)
        return self.activation(out)


def _identity(x: torch.Tensor) -> torch.Tensor:
    return x


class ResidualBlock(nn.Module):
    def __init__(self, *, inplanes: int, outplanes: int, params: dict[str, Any], planes: int,
                 kernel: int | tuple[int, int] = 3, padding: int | tuple[int, int] = 1) -> None:
        super().__init__()
        kw = {"kernel": kernel, "padding": padding, "params": params, "planes": planes}
        self.convolution_1 = Block(inplanes=inplanes, outplanes=outplanes, **kw)
        self.convolution_2 = Block(inplanes=inplanes, outplanes=outplanes,
                                   activation=_identity, **kw)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = self.convolution_2(self.convolution_1(x))
        return F.leaky_relu(out + x)


class BlockSeries(nn.Module):
    def __init__(self, *, inplanes: int, n_blocks: int, params: dict[str, Any], planes: int,
                 kernel: int | tuple[int, int] = 3, padding: int | tuple[int, int] = 1) -> None:
        super().__init__()
        kind = ResidualBlock if params["residual"] else Block
        self.blocks = nn.ModuleList(
            kind(inplanes=inplanes, outplanes=inplanes, kernel=kernel, padding=padding,
                 params=params, planes=planes) for _ in range(n_blocks))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for block in self.blocks:
            x = block(x)
        return x


class DeepestBlock(nn.Module):
    """Joins the planes (concatenated channels; ``block_concat``: kept apart), a 1x1
    bottleneck, ``blocks_deepest_layer`` blocks of ``filter_size_deepest``, a 1x1 back."""

    def __init__(self, *, inplanes: int, params: dict[str, Any], planes: int) -> None:
        super().__init__()
        self.block_concat = params["block_concat"]
        self.planes = planes
        # block_concat: the planes stay apart (in the batch dimension, per-plane statistics)
        width = inplanes if self.block_concat else planes * inplanes
        kw = {"params": params, "planes": planes if self.block_concat else 1}
        neck = params["bottleneck_deepest"]
        k = params["filter_size_deepest"]
        self.bottleneck = Block(inplanes=width, outplanes=neck, kernel=1, padding=0, **kw)
        self.blocks = BlockSeries(inplanes=neck, kernel=k, padding=(k - 1) // 2,
                                  n_blocks=params["blocks_deepest_layer"], **kw)
        self.unbottleneck = Block(inplanes=neck, outplanes=width, kernel=1, padding=0, **kw)

    def forward_planes(self, x: tuple[torch.Tensor, ...]) -> tuple[torch.Tensor, ...]:
        """The original's forward on a tuple of planes."""
        if self.block_concat:
            return tuple(self.unbottleneck(self.blocks(self.bottleneck(p))) for p in x)
        y = self.unbottleneck(self.blocks(self.bottleneck(torch.cat(x, dim=1))))
        return torch.chunk(y, chunks=self.planes, dim=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.block_concat:
            return self.unbottleneck(self.blocks(self.bottleneck(x)))
        n, c, h, w = x.shape
        # torch.cat(planes, dim=1): plane-major channels, i.e. [b, g*c, h, w]
        x = x.reshape(n // self.planes, self.planes * c, h, w)
        x = self.unbottleneck(self.blocks(self.bottleneck(x)))
        return x.reshape(n, c, h, w)  # torch.chunk(x, planes, dim=1)


class SumConnection(nn.Module):
    def forward(self, x: torch.Tensor, residual: torch.Tensor) -> torch.Tensor:
        return x + residual


class NoConnection(nn.Module):
    def forward(self, x: torch.Tensor, residual: torch.Tensor) -> torch.Tensor:
        return x


class ConcatConnection(nn.Module):
    def __init__(self, *, inplanes: int, params: dict[str, Any], planes: int) -> None:
        super().__init__()
        self.bottleneck = Block(inplanes=2 * inplanes, outplanes=inplanes, kernel=1, padding=0,
                                params=params, planes=planes)

    def forward(self, x: torch.Tensor, residual: torch.Tensor) -> torch.Tensor:
        return self.bottleneck(torch.cat((x, residual), dim=1))


class MaxPooling(nn.Module):
    def __init__(self, *, inplanes: int, outplanes: int, params: dict[str, Any],
                 planes: int) -> None:
        super().__init__()
        self.pool = nn.MaxPool2d(stride=2, kernel_size=2)
        self.bottleneck = Block(inplanes=inplanes, outplanes=outplanes, kernel=1, padding=0,
                                params=params, planes=planes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.bottleneck(self.pool(x))


class InterpolationUpsample(nn.Module):
    def __init__(self, *, inplanes: int, outplanes: int, params: dict[str, Any],
                 planes: int) -> None:
        super().__init__()
        self.up = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False)
        self.bottleneck = Block(inplanes=inplanes, outplanes=outplanes, kernel=1, padding=0,
                                params=params, planes=planes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.bottleneck(self.up(x))


class ConvolutionUpsample(nn.Module):
    def __init__(self, *, inplanes: int, outplanes: int, params: dict[str, Any],
                 planes: int) -> None:
        super().__init__()
        self.conv = nn.ConvTranspose2d(inplanes, outplanes, 2, stride=2, bias=params["bias"])
        self._do_normalization = params["normalization"] == "batch"
        if self._do_normalization:
            self.norm = PlaneBatchNorm2d(outplanes, planes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = self.conv(x)
        if self._do_normalization:
            out = self.norm(out)
        return F.leaky_relu(out)


class UNetCore(nn.Module):
    """One level: blocks, down, the next level, up, skip connection, blocks."""

    def __init__(self, *, depth: int, inplanes: int, params: dict[str, Any],
                 planes: int) -> None:
        super().__init__()
        self.depth = depth
        if depth == 0:
            self.main_module: nn.Module = DeepestBlock(inplanes=inplanes, params=params,
                                                       planes=planes)
            return
        kw = {"params": params, "planes": planes}
        n_layers = params["blocks_per_layer"]
        self.down_blocks = BlockSeries(inplanes=inplanes, n_blocks=n_layers, **kw)
        if params["growth_rate"] == "multiplicative":
            nxt = 2 * inplanes
        else:
            nxt = inplanes + params["n_initial_filters"]
        if params["downsampling"] == "convolutional":
            self.downsample: nn.Module = Block(inplanes=inplanes, outplanes=nxt, strides=2,
                                               padding=0, kernel=2, **kw)
        else:
            self.downsample = MaxPooling(inplanes=inplanes, outplanes=nxt, **kw)
        self.main_module = UNetCore(depth=depth - 1, inplanes=nxt, **kw)
        up = ConvolutionUpsample if params["upsampling"] == "convolutional" \
            else InterpolationUpsample
        self.upsample = up(inplanes=nxt, outplanes=inplanes, **kw)
        self.up_blocks = BlockSeries(inplanes=inplanes, n_blocks=n_layers, **kw)
        if params["connections"] == "sum":
            self.connection: nn.Module = SumConnection()
        elif params["connections"] == "concat":
            self.connection = ConcatConnection(inplanes=inplanes, **kw)
        else:
            self.connection = NoConnection()

    def forward_planes(self, x: tuple[torch.Tensor, ...]) -> tuple[torch.Tensor, ...]:
        """The original's forward on a tuple of planes (uresnet2D.py UNetCore.forward)."""
        if self.depth == 0:
            return self.main_module.forward_planes(x)
        residual = x
        x = tuple(self.downsample(self.down_blocks(p)) for p in x)
        x = self.main_module.forward_planes(x)
        x = tuple(self.upsample(p) for p in x)
        x = tuple(self.connection(p, r) for p, r in zip(x, residual, strict=True))
        return tuple(self.up_blocks(p) for p in x)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.depth == 0:
            return self.main_module(x)
        residual = x
        x = self.downsample(self.down_blocks(x))
        x = self.upsample(self.main_module(x))
        x = self.connection(x, residual)
        return self.up_blocks(x)


class UResNet(nn.Module):
    """Input [B, planes, H, W] -> logits [B, classes, planes, H, W]."""

    def __init__(self, params: dict[str, Any]) -> None:
        super().__init__()
        g = self.planes = params["planes"]
        n0 = params["n_initial_filters"]
        self.initial_convolution = Block(inplanes=1, outplanes=n0, kernel=5, padding=2,
                                         params=params, planes=g)
        self.net_core = UNetCore(depth=params["depth"], inplanes=n0, params=params, planes=g)
        self.final_layer = BlockSeries(inplanes=n0, n_blocks=params["blocks_final"],
                                       params=params, planes=g)
        self.bottleneck = nn.Conv2d(n0, params["classes"], 1, bias=params["bias"])
        for m in self.modules():  # the original's initialisation
            if isinstance(m, nn.Conv2d):
                nn.init.xavier_uniform_(m.weight.data)
                if m.bias is not None:
                    nn.init.constant_(m.bias.data, 0)
            elif isinstance(m, nn.BatchNorm2d):
                nn.init.constant_(m.weight, 1)
                nn.init.constant_(m.bias, 0)

    #: "stacked": the planes in the batch dimension; "split": a tuple of planes through each
    #: module, as the original; "auto": split on the CPU, stacked elsewhere (set_layout)
    layout = "auto"
    _norms_stacked = True

    def set_layout(self, layout: str) -> UResNet:
        if layout not in ("auto", "stacked", "split"):
            raise ValueError(f"layout {layout!r}: auto, stacked or split")
        self.layout = layout
        return self

    def _split(self, x: torch.Tensor) -> bool:
        """Whether this forward runs plane by plane. On the CPU the original's layout is the
        faster: glibc maps every block above 32 MiB afresh (mallopt(3)
        DEFAULT_MMAP_THRESHOLD_MAX), so a21's stacked activations (3 planes x 21 MB) page
        in on every step (1.1-1.8 million minor faults, 2.5-4 s of system time a step beside
        4 s of compute) where one plane's are reused (docs/benchmarks.md)."""
        split = self.layout == "split" or (self.layout == "auto" and x.device.type == "cpu")
        if split == self._norms_stacked:  # the batch norms follow the layout
            for m in self.modules():
                if isinstance(m, PlaneBatchNorm2d):
                    m.stacked = not split
            self._norms_stacked = not split
        return split

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self._split(x):
            return self.forward_planes(x)
        b, g, h, w = x.shape
        x = x.reshape(b * g, 1, h, w)  # torch.chunk(x, 3, dim=1), planes into the batch
        x = self.initial_convolution(x)
        x = self.net_core(x)
        x = self.bottleneck(self.final_layer(x))  # [b*g, classes, h, w]
        return x.unflatten(0, (b, g)).transpose(1, 2)

    def forward_planes(self, x: torch.Tensor) -> torch.Tensor:
        """uresnet2D.py UResNet.forward: ``torch.chunk`` into planes, every module called once
        per plane, the planes joined only in the deepest block; stacked as ``forward``."""
        planes = torch.chunk(x, chunks=self.planes, dim=1)
        planes = tuple(self.initial_convolution(p) for p in planes)
        planes = self.net_core.forward_planes(planes)
        planes = tuple(self.bottleneck(self.final_layer(p)) for p in planes)
        return torch.stack(planes, dim=2)  # [b, classes, planes, h, w]


def build_model(cfg: dict[str, Any]) -> nn.Module:
    return UResNet(cfg)


def make_task(cfg: dict[str, Any], device: torch.device) -> Task:
    """Synthetic events made on the device (``events.py``), drawn from a fixed pool."""
    pool = events.Pool(cfg, device)

    def task(gen: torch.Generator, n: int) -> tuple[torch.Tensor, torch.Tensor]:
        return pool.draw(gen, n)

    task.prefill = pool.fill  # type: ignore[attr-defined] - runtime/data.py SyntheticSource
    return task


def open_dataset(path: str, cfg: dict[str, Any]) -> Any:
    from workloads.cosmictagger.larcv import LarcvDataset

    return LarcvDataset(path, cfg)


def write_dataset(path: str, cfg: dict[str, Any], samples: int, seed: int) -> Any:
    from workloads.cosmictagger.larcv import write_events

    return write_events(path, cfg, samples, seed)


def run_defaults(dev: Any, config: str) -> dict[str, tuple[Any, str]]:
    """a21 runs at example_submission_scripts/run_ct.sh's ``PRECISION=mixed`` (lines 23-25,
    passed as ``run.precision``): the torch trainer's ``torch.cuda.amp.autocast()`` with a
    ``GradScaler`` only when ``compute_mode == GPU`` (src/utils/torch/trainer.py lines
    150-151, 201-202, 743-744, 782-784), i.e. fp16 on CUDA; fp32 elsewhere. Its other
    configurations run the repository's float32 with no TF32 flag set (`git grep allow_tf32`
    finds none), i.e. PyTorch's default numerics: cuDNN convolutions in TF32 on NVIDIA GPUs."""
    if config != "a21":
        return conv_tf32_defaults("cosmictagger", dev)
    if getattr(dev, "type", "cpu") != "cuda":
        return {}
    return {"precision": ("fp16", f"{REPOSITORY}@{SOURCE_COMMIT[:7]} run_ct.sh PRECISION=mixed: "
                                  "torch.cuda.amp autocast + GradScaler on GPUs")}


APP = AppSpec(
    name=NAME, build_model=build_model, make_task=make_task, loss_fn=make_loss(LOSS_BALANCE),
    sizes=SIZES, default_batch_size=DEFAULT_BATCH_SIZE, tiny_batch_size=TINY_BATCH_SIZE, lr=LR,
    spatial_dims=2, open_dataset=open_dataset, write_dataset=write_dataset, recipe=RECIPE,
    source=SOURCE, unit=UNIT, units_per_sample=units_per_sample, run_defaults=run_defaults,
)
