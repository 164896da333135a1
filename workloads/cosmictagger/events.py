"""Synthetic CosmicTagger events with the statistics of the original's example data.

An event is 3 wire planes of ``full_height x full_width`` (rows = time ticks, shared by the
planes; columns = wires, each plane its own). Every 3D particle is a straight segment whose rows
are the same in all three planes and whose columns differ per plane (a projection); its charge
falls off across the track (Gaussian, sigma ``WIDTH`` pixels) and fluctuates along it. Cosmic
muons are long segments anywhere in the image; the neutrino interaction is a few short prongs
from one vertex; electronics noise is isolated low hits just over the zero-suppression
threshold, labelled background as in the original's labels. Hits below ``THRESHOLD`` ADC are
zero-suppressed (the example data holds no value below 5.0).

The numbers were measured on coreyjadams/CosmicTagger @156c480 ``example_data/
cosmic_tagging_light.h5`` (5 events, producers ``sbndwire`` and ``sbnd_cosmicseg``), at full
resolution per plane-image (docs/workloads/cosmictagger.md has the table):

* occupancy 0.12-1.03 % (mean 0.70 %); after larcv's 2x2 average downsample (the default's
  640x1024) 0.23-2.47 % (mean 1.69 %);
* hit pixels by label: background 54 %, cosmic 37 %, neutrino 9 % (downsampled: 68/26/6 %);
  per plane, background hits are 0.54, 0.54, 0.057 % of the pixels (plane 2 is quiet);
* ADC of hits: background median 5.7 (95 %: 20.5), cosmic median 42 (5-95 %: 9-128),
  neutrino median 36 (5-95 %: 7-132), maximum ~2800.

``pool`` keeps a fixed set of events on the device and draws from it with random flips, as the
original's synthetic mode draws from a buffer it fills once (``larcv_fetcher.py``), so making a
batch costs a gather, not a render.
"""

from __future__ import annotations

import math
from typing import Any

import torch
import torch.nn.functional as F

from workloads.cosmictagger.config import (  # noqa: F401  (shared with tf_model.py)
    COSMIC_DEDX,
    COSMICS,
    FLUCTUATION,
    NEUTRINO_DEDX,
    NOISE_EXTEND,
    NOISE_HIGH,
    NOISE_LOW_SHARE,
    NOISE_RATE,
    POOL,
    POOL_SEED,
    PRONGS,
    THRESHOLD,
    WIDTH,
)


def _uniform(gen: torch.Generator, shape: tuple[int, ...], lo: float, hi: float,
             device: torch.device) -> torch.Tensor:
    return lo + (hi - lo) * torch.rand(shape, generator=gen, device=device)


def _lognormal(gen: torch.Generator, shape: tuple[int, ...], median: float, sigma: float,
               device: torch.device) -> torch.Tensor:
    return median * torch.exp(sigma * torch.randn(shape, generator=gen, device=device))


class _Canvas:
    """Charge and label images that segments are drawn into: each segment only in the box of
    pixels it reaches (its rows and columns +- 5 sigma), one event and plane at a time."""

    def __init__(self, n: int, planes: int, h: int, w: int, device: torch.device) -> None:
        self.rows = torch.arange(h, device=device, dtype=torch.float32).view(1, h, 1)
        self.cols = torch.arange(w, device=device, dtype=torch.float32).view(1, 1, w)
        self.charge = torch.zeros((n, planes, h, w), device=device)
        self.label = torch.zeros((n, planes, h, w), device=device, dtype=torch.uint8)
        self.segments: list[tuple[torch.Tensor, ...]] = []
        self.classes: list[int] = []

    def segment(self, y0: torch.Tensor, y1: torch.Tensor, x0: torch.Tensor, x1: torch.Tensor,
                dedx: torch.Tensor, cls: int) -> None:
        """One segment per event: rows ``y0..y1`` [n,1,1,1] (all planes), columns ``x0..x1``
        [n,P,1,1]; ``dedx`` [n,1,1,1] (0 = no segment). Drawn by :meth:`draw`."""
        self.segments.append((y0, y1, x0, x1, dedx))
        self.classes.append(cls)

    def draw(self) -> None:
        if not self.segments:
            return
        pad = math.ceil(5 * WIDTH) + 1
        _, planes, h, w = self.charge.shape
        # every (segment, event)'s rows, dE/dx and columns in one transfer
        rows = torch.stack([torch.stack([s[0].flatten(), s[1].flatten(), s[4].flatten()])
                            for s in self.segments]).cpu()  # [S, 3, n]
        cols = torch.stack([torch.stack([s[2].flatten(1), s[3].flatten(1)])
                            for s in self.segments]).cpu()  # [S, 2, n, P]
        for k, ((y0, y1, x0, x1, dedx), cls) in enumerate(zip(self.segments, self.classes,
                                                             strict=True)):
            for e in range(self.charge.shape[0]):
                a, b, q0 = (float(v) for v in rows[k, :, e])
                r0, r1 = max(0, math.floor(min(a, b)) - pad), min(h, math.ceil(max(a, b)) + pad)
                if q0 <= 0 or r1 <= r0:
                    continue
                for p in range(planes):
                    c, d = float(cols[k, 0, e, p]), float(cols[k, 1, e, p])
                    c0 = max(0, math.floor(min(c, d)) - pad)
                    c1 = min(w, math.ceil(max(c, d)) + pad)
                    if c1 > c0:
                        self._box(e, p, (r0, r1, c0, c1), y0[e, 0, 0], y1[e, 0, 0],
                                  x0[e, p], x1[e, p], dedx[e, 0, 0], cls)

    def _box(self, e: int, p: int, box: tuple[int, int, int, int], y0: torch.Tensor,
             y1: torch.Tensor, x0: torch.Tensor, x1: torch.Tensor, dedx: torch.Tensor,
             cls: int) -> None:
        """The segment's charge in the pixels of ``box`` (rows r0:r1, columns c0:c1) that it
        reaches, on plane ``p`` of event ``e``."""
        r0, r1, c0, c1 = box
        dy, dx = y1 - y0, x1 - x0
        length2 = (dy * dy + dx * dx).clamp_min(1e-6)
        ry, rx = self.rows[0, r0:r1] - y0, self.cols[0, :, c0:c1] - x0
        t = ((ry * dy + rx * dx) / length2).clamp(0.0, 1.0)
        d2 = (ry - t * dy).square() + (rx - t * dx).square()
        q = dedx * torch.exp(d2 * (-0.5 / WIDTH**2))  # [rows, cols]
        self.charge[e, p, r0:r1, c0:c1] += q
        label = self.label[e, p, r0:r1, c0:c1]
        label.copy_(torch.where(q >= THRESHOLD, label.clamp_min(cls), label))


def render(gen: torch.Generator, n: int, cfg: dict[str, Any],
           device: torch.device) -> tuple[torch.Tensor, torch.Tensor]:
    """``n`` events at the full resolution: ADC [n,P,H,W] float32, label [n,P,H,W] uint8."""
    planes, h, w = cfg["planes"], cfg["full_height"], cfg["full_width"]
    area = h * w / (1280 * 2048)
    c = _Canvas(n, planes, h, w, device)
    one, per_plane = (n, 1, 1, 1), (n, planes, 1, 1)
    for _ in range(max(1, round(COSMICS * area))):  # cosmic muons, anywhere
        y0 = _uniform(gen, one, 0, h, device)
        dy = _uniform(gen, one, 0.05, 0.4, device) * h
        y1 = y0 + torch.where(torch.rand(one, generator=gen, device=device) < 0.5, dy, -dy)
        x0 = _uniform(gen, per_plane, 0, w, device)
        x1 = x0 + _uniform(gen, per_plane, -2.0, 2.0, device) * dy
        c.segment(y0, y1, x0, x1, _lognormal(gen, one, *COSMIC_DEDX, device), 1)
    vy = _uniform(gen, one, 0.1 * h, 0.9 * h, device)  # the neutrino vertex
    vx = _uniform(gen, per_plane, 0.1 * w, 0.9 * w, device)
    for k in range(PRONGS):
        reach = _uniform(gen, one, 0.03, 0.25, device) * h
        dy = _uniform(gen, one, -1.0, 1.0, device) * reach
        dx = _uniform(gen, per_plane, -1.0, 1.0, device) * reach
        dedx = _lognormal(gen, one, *NEUTRINO_DEDX, device)
        if k >= 3:  # 3 to PRONGS prongs
            dedx = dedx * (torch.rand(one, generator=gen, device=device) < 0.5)
        c.segment(vy, vy + dy, vx, vx + dx, dedx, 2)
    c.draw()
    on_track = c.charge >= THRESHOLD
    adc = _noise(gen, c.charge.shape, device)
    q = c.charge[on_track]  # fluctuations only where there is a hit (a sparse draw)
    adc[on_track] = q * torch.exp(FLUCTUATION * torch.randn(q.shape, generator=gen,
                                                            device=device))
    adc = torch.where(adc >= THRESHOLD, adc, torch.zeros_like(adc))
    label = torch.where(adc > 0, c.label, torch.zeros_like(c.label))
    return adc, label


def _noise(gen: torch.Generator, shape: torch.Size, device: torch.device) -> torch.Tensor:
    """Noise hits: isolated pixels (some also in the next time tick) at rates per plane, ADC
    just over the threshold with a tail (90 %: 5 + Exp(1); 10 %: log-normal, median 15)."""
    rate = torch.tensor(NOISE_RATE[:shape[1]], device=device).view(1, -1, 1, 1)
    hit = torch.rand(shape, generator=gen, device=device) < rate
    n, p, r, col = hit.nonzero(as_tuple=True)
    more = torch.rand(n.shape, generator=gen, device=device) < NOISE_EXTEND
    hit[n[more], p[more], (r[more] + 1) % shape[2], col[more]] = True
    k = int(hit.sum())
    u = torch.rand((k,), generator=gen, device=device)
    low = THRESHOLD - torch.log1p(-torch.rand((k,), generator=gen, device=device))
    high = _lognormal(gen, (k,), *NOISE_HIGH, device)
    out = torch.zeros(shape, device=device)
    out[hit] = torch.where(u < NOISE_LOW_SHARE, low, high)
    return out


def downsample(adc: torch.Tensor, label: torch.Tensor,
               factor: int) -> tuple[torch.Tensor, torch.Tensor]:
    """larcv3 ``Downsample`` as the original's fetcher configures it: the image with
    ``PoolType`` 1 (average: sum / factor^2), the label with ``PoolType`` 2 (max)."""
    if factor == 1:
        return adc, label
    return (F.avg_pool2d(adc, factor),
            F.max_pool2d(label.float(), factor).to(label.dtype))


def events(gen: torch.Generator, n: int, cfg: dict[str, Any], device: torch.device,
           chunk: int = 2) -> tuple[torch.Tensor, torch.Tensor]:
    """``n`` events at the network's resolution: ADC [n,P,h,w] float32, label uint8."""
    xs, ys = [], []
    for lo in range(0, n, chunk):
        adc, label = render(gen, min(chunk, n - lo), cfg, device)
        adc, label = downsample(adc, label, 2 ** cfg["downsample"])
        xs.append(adc)
        ys.append(label)
    return torch.cat(xs), torch.cat(ys)


class Pool:
    """A fixed set of ``size`` events on the device; ``draw`` gathers a batch with random flips
    in time (all planes) and wire order. Events are rendered in pairs, each pair from its own
    seed, the first time a draw needs them (so a ``--describe`` renders two, not sixteen)."""

    def __init__(self, cfg: dict[str, Any], device: torch.device, size: int = POOL) -> None:
        self.cfg, self.device, self.size = cfg, device, size
        shape = (size, cfg["planes"], cfg["height"], cfg["width"])
        self.adc = torch.zeros(shape, device=device)
        self.label = torch.zeros(shape, device=device, dtype=torch.uint8)
        self.missing = set(range(0, size, 2))

    def _fill(self, idx: torch.Tensor) -> None:
        for lo in sorted({i - i % 2 for i in idx.tolist()} & self.missing):
            gen = torch.Generator(device=self.device)
            gen.manual_seed(POOL_SEED + lo)
            hi = min(lo + 2, self.size)
            self.adc[lo:hi], self.label[lo:hi] = events(gen, hi - lo, self.cfg, self.device)
            self.missing.discard(lo)

    def fill(self) -> None:
        """Render every event now (a run's data source does, before its first step: the
        original's synthetic fetcher also makes its array before training)."""
        if self.missing:
            self._fill(torch.tensor(sorted(self.missing)))

    def draw(self, gen: torch.Generator, n: int) -> tuple[torch.Tensor, torch.Tensor]:
        idx = torch.randint(self.size, (n,), generator=gen, device=self.device)
        if self.missing:  # until every pair is there: one host sync per draw
            self._fill(idx)
        flips = torch.rand((2, n, 1, 1, 1), generator=gen, device=self.device) < 0.5
        x, y = self.adc[idx], self.label[idx]
        for dim, flip in ((2, flips[0]), (3, flips[1])):
            x = torch.where(flip, x.flip(dim), x)
            y = torch.where(flip, y.flip(dim), y)
        return x, y.long()


def occupancy_stats(adc: torch.Tensor, label: torch.Tensor) -> dict[str, float]:
    """Occupancy and label shares of the hit pixels (for tests and docs)."""
    hit = adc > 0
    n_hit = max(int(hit.sum()), 1)
    counts = [int(((label == c) & hit).sum()) for c in range(3)]
    per_image = hit.float().mean(dim=(-2, -1)).flatten()
    return {"occupancy": float(hit.float().mean()),
            "occupancy_min": float(per_image.min()), "occupancy_max": float(per_image.max()),
            "background": counts[0] / n_hit, "cosmic": counts[1] / n_hit,
            "neutrino": counts[2] / n_hit,
            "adc_median": float(adc[hit].median()) if n_hit > 1 else math.nan}
