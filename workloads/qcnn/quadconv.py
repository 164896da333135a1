"""The quadrature convolution (QuadConv) operator, in PyTorch, after the published operator.

Doherty, Simpson, Becker, Doostan, "QuadConv: Quadrature-Based Convolutions with Applications
to Non-Uniform PDE Data Compression" (arXiv:2211.05151), as implemented in
AlgorithmicDataReduction/PyTorch-QuadConv @ c32ba24 (``torch_quadconv/quadconv.py``,
``mesh_handler.py``, ``utils/quadrature.py``; the commit rickybalin/in-situ_ML pins as its
submodule). For every output point ``y`` and output channel ``j``::

    out[b, j, y] = bias[j, y] + sum_{x in support(y)} sum_i  w(x) * G_ij(y - x) * f[b, i, x]

``G(z) = bump(z) * H(z)``: ``H`` a bias-free MLP with sin activations (``filter_seq``, e.g.
3 -> 16 -> 32 -> 32 -> 16 -> C_in*C_out), ``bump(z) = exp(1 - 1/(1 - d*|z|^4))``, ``d`` the
decay parameter; the support is ``d*|z|^4 <= 1`` (radius ``d**-0.25``) and ``w`` are the
input points' quadrature weights (learned: a sigmoid of one parameter per point, as
``MeshHandler`` does when it is given no weights).

Differences from the original that change no result: the point pairs inside the support are
found once, when the layer is built, with a cell list (:func:`support_pairs`, memory linear in
the number of pairs) instead of a dense ``[out_points, in_points, dim]`` tensor (10 GB at
19,456 x 44,121 points), and the offsets ``y - x`` and the bump values, which depend on the
fixed mesh only, are computed once; the learned filter ``H`` is evaluated at every step, as in
the original. Pairs come in the original's order (by output point, then input point), and the
support test is the original's float32 expression, so the pair set is the same.

FLOP accounting (``torch.utils.flop_counter``, which counts matrix products and convolutions
only): per step, the filter MLP on every pair (``2 * pairs * sum(fan_in * fan_out)``, once per
batch, not per sample) and the quadrature contraction (``2 * batch * pairs * C_in * C_out``, a
batched matmul over pairs); the bump, the sin activations, the gathers and the scatter-add are
not counted. The original's ``einsum('n, nij, bin -> bjn')`` runs the same batched matmul, so
the same counter sees the same FLOPs in both.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import torch
from torch import nn

__all__ = ["QuadConv", "bump_radius", "grid_points", "support_pairs"]


def bump_radius(decay: float) -> float:
    """Radius of the filter's support: ``decay * r**4 = 1``."""
    return float(decay) ** -0.25


def grid_points(bbox_min: torch.Tensor, bbox_max: torch.Tensor, num_points: int,
                ratio: Sequence[int]) -> torch.Tensor:
    """``torch_quadconv.utils.quadrature.param_quad``: a uniform grid over the bounding box with
    ``n * ratio[i]`` points along dimension ``i`` (``n = round((num_points / prod(ratio))
    ** (1/dim))``), the first dimension varying slowest (``torch.cartesian_prod``)."""
    dim = bbox_min.numel()
    n = round((num_points / math.prod(ratio)) ** (1 / dim))
    axes = [torch.linspace(float(bbox_min[i]), float(bbox_max[i]), n * int(ratio[i]),
                           device=bbox_min.device) for i in range(dim)]
    pts = torch.cartesian_prod(*axes)
    if pts.shape[0] != num_points:
        raise ValueError(f"a {'x'.join(str(n * r) for r in ratio)} grid has {pts.shape[0]} "
                         f"points, not {num_points}: point_seq and ratio disagree")
    return pts.to(bbox_min.dtype)


def _in_support(out_pts: torch.Tensor, in_pts: torch.Tensor, decay: float) -> torch.Tensor:
    """The original's test, elementwise on pairs: ``|y - x|**4 <= 1/decay`` in float32."""
    return torch.linalg.vector_norm(out_pts - in_pts, dim=-1) ** 4 <= 1 / decay


def support_pairs(out_pts: torch.Tensor, in_pts: torch.Tensor, decay: float,
                  max_candidates: int = 1 << 24) -> torch.Tensor:
    """Index pairs ``[n, 2]`` (output point, input point) with the input point inside the output
    point's filter support, sorted by output then input index (``torch.nonzero`` order of the
    original's dense mask).

    Cell list: input points are binned into cubes of the support radius; an output point's
    candidates are the inputs in the 3^dim cubes around its own, then the exact test keeps the
    pairs. Work and memory are linear in the candidates, processed in chunks of output points
    so that at most about ``max_candidates`` candidate pairs exist at once.
    """
    with torch.device(in_pts.device):  # the points' device, whatever the default device is
        return _support_pairs(out_pts, in_pts, decay, max_candidates)


def _support_pairs(out_pts: torch.Tensor, in_pts: torch.Tensor, decay: float,
                   max_candidates: int) -> torch.Tensor:
    dim = in_pts.shape[1]
    radius = bump_radius(decay) * 1.001  # the exact float32 test below decides; cells are loose
    lo = torch.minimum(in_pts.min(0).values, out_pts.min(0).values)
    cell_in = ((in_pts - lo) / radius).floor().long()
    cell_out = ((out_pts - lo) / radius).floor().long()
    extent = torch.maximum(cell_in.max(0).values, cell_out.max(0).values) + 3
    strides = torch.ones(dim, dtype=torch.long)
    for i in range(dim - 2, -1, -1):
        strides[i] = strides[i + 1] * extent[i + 1]
    strides = strides.to(in_pts.device)
    key_in = ((cell_in + 1) * strides).sum(1)
    order = torch.argsort(key_in, stable=True)  # inputs grouped by cell, index order within
    sorted_keys = key_in[order]
    shifts = torch.cartesian_prod(*[torch.tensor([-1, 0, 1])] * dim).reshape(-1, dim)
    shift_keys = (shifts.to(in_pts.device) * strides).sum(1)  # [3^dim]
    key_out = ((cell_out + 1) * strides).sum(1)

    first_all = torch.searchsorted(sorted_keys, key_out[:, None] + shift_keys[None, :])
    count_all = torch.searchsorted(sorted_keys, key_out[:, None] + shift_keys[None, :],
                                   side="right") - first_all  # [out_points, 3^dim]
    per_out = torch.cumsum(count_all.sum(1), 0)
    pairs: list[torch.Tensor] = []
    start = 0
    while start < len(out_pts):
        done = int(per_out[start - 1]) if start else 0
        stop = int(torch.searchsorted(per_out, done + max_candidates, side="right"))
        stop = min(len(out_pts), max(stop, start + 1))
        pairs.append(_chunk_pairs(out_pts, in_pts, decay, order, start, stop,
                                  first_all[start:stop], count_all[start:stop]))
        start = stop
    if not pairs:
        return torch.zeros((0, 2), dtype=torch.long, device=in_pts.device)
    return torch.cat(pairs)


def _chunk_pairs(out_pts: torch.Tensor, in_pts: torch.Tensor, decay: float,
                 order: torch.Tensor, start: int, stop: int, first: torch.Tensor,
                 count: torch.Tensor) -> torch.Tensor:
    """The support pairs of output points ``start..stop-1``: expand each output point's
    candidate runs (``first``, ``count`` per neighbouring cell in the sorted inputs), test
    them, and sort the kept pairs by (output, input)."""
    dev = in_pts.device
    flat = count.reshape(-1)
    total = int(flat.sum())
    if total == 0:
        return torch.zeros((0, 2), dtype=torch.long, device=dev)
    owner = torch.repeat_interleave(torch.arange(start, stop, device=dev), count.sum(1))
    # input position of candidate t: its run's first index + (t - the run's first candidate)
    shift = first.reshape(-1) - (torch.cumsum(flat, 0) - flat)
    cand_in = order[torch.arange(total, device=dev) + torch.repeat_interleave(shift, flat)]
    keep = _in_support(out_pts[owner], in_pts[cand_in], decay)
    o, i = owner[keep], cand_in[keep]
    perm = torch.argsort(o * len(in_pts) + i)  # the original's (output, input) order
    return torch.stack([o[perm], i[perm]], dim=1)


class QuadConv(nn.Module):
    """One quadrature convolution from a fixed input point set to a fixed output point set.

    ``pairs`` [n, 2] (output, input) indices and ``locs`` [n, dim] (output - input point) come
    from :func:`support_pairs` on the mesh; ``forward(x, weights)`` takes features ``[B, C_in,
    in_points]`` and the input points' quadrature weights ``[in_points]``."""

    def __init__(self, *, spatial_dim: int, in_channels: int, out_channels: int,
                 out_points: int, filter_seq: Sequence[int], decay: float,
                 pairs: torch.Tensor, locs: torch.Tensor, bias: bool = True) -> None:
        super().__init__()
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.out_points = out_points
        self.decay = float(decay)
        spec = (spatial_dim, *filter_seq, in_channels * out_channels)
        layers: list[nn.Module] = []
        for i in range(len(spec) - 2):
            layers += [nn.Linear(spec[i], spec[i + 1], bias=False), _Sin()]
        layers.append(nn.Linear(spec[-2], spec[-1], bias=False))
        self.filter = nn.Sequential(*layers)
        if bias:
            b = torch.empty(1, out_channels, out_points)
            self.bias = nn.Parameter(nn.init.xavier_uniform_(b, gain=2))
        else:
            self.register_parameter("bias", None)
        # fixed by the mesh: rebuilt with the model, not saved in checkpoints; computed where
        # the pairs are (the CPU), kept on the default device (``meta`` for a FLOP count)
        dev = torch.empty(0).device
        arg = torch.linalg.vector_norm(locs, dim=1) ** 4
        bump = torch.exp(1 - 1 / (1 - self.decay * arg)).reshape(-1, 1, 1)
        self.register_buffer("out_idx", pairs[:, 0].contiguous().to(dev), persistent=False)
        self.register_buffer("in_idx", pairs[:, 1].contiguous().to(dev), persistent=False)
        self.register_buffer("locs", locs.contiguous().to(dev), persistent=False)
        self.register_buffer("bump", bump.to(dev), persistent=False)

    @property
    def pairs(self) -> int:
        return int(self.out_idx.numel())

    def forward(self, x: torch.Tensor, weights: torch.Tensor) -> torch.Tensor:
        n = self.out_idx.numel()
        filt = self.bump * self.filter(self.locs).reshape(n, self.in_channels,
                                                          self.out_channels)
        # points-major layout: every gather, the batched matmul and the scatter-add work on
        # contiguous [batch, channels] rows
        w = weights.to(x.dtype).reshape(-1, 1, 1)
        xw = (x.permute(2, 0, 1) * w).contiguous()  # [in_points, B, C_in], weighted
        feats = xw.index_select(0, self.in_idx)  # [n, B, C_in]
        # the quadrature sum over pairs as one batched matmul: [n, B, C_in] @ [n, C_in, C_out]
        values = torch.bmm(feats, filt.to(feats.dtype))  # [n, B, C_out]
        out = values.new_zeros(self.out_points, x.shape[0], self.out_channels)
        out.index_add_(0, self.out_idx, values)
        out = out.permute(1, 2, 0)  # [B, C_out, out_points]
        if self.bias is not None:
            out = out + self.bias
        return out

    def extra_repr(self) -> str:
        return (f"{self.in_channels}->{self.out_channels} channels, {self.out_points} points, "
                f"{self.pairs} pairs, decay {self.decay:g}")


class _Sin(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sin(x)
