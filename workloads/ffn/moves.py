"""FFN's 'max_pred_moves' FOV policy (train.py ``--fov_policy max_pred_moves``), batched on the
device with no host sync.

The original (google/ffn @ 6f61f6e4b1ba09208ecd01bc93fc43aa7437d3fa,
``ffn/training/examples.py`` ``max_pred_offsets`` and ``ffn/inference/movement.py``
``get_scored_move_offsets``), per batch slot: a FIFO queue of xyz offsets starts with the
centre; each pop is dropped when it lies beyond ``max_radius`` (train.py: the training patch's
radius less the FOV's), when its quantized cell ``(offset + deltas / 2) // deltas`` was visited,
when the seed canvas at its voxel is below the threshold (logit 0.9), or when it is not the
centre cell and the labels there are below ``expit(threshold)``; otherwise the cell is marked
visited and the FOV goes there (one training step; its prediction is written into the canvas).
After the step, the six faces of the +-deltas cube around the FOV's centre in the new
prediction each give their maximum voxel (first in C order), kept when it reaches the
threshold; these moves, sorted by (score, z, y, x) descending, join the queue. An empty queue
ends the example.

Here the queue is a fixed-size tensor per slot (``1 + 6 * cells^3`` entries bound what can
ever be pushed: at most 6 per visit, one visit per cell), and a step's pops are evaluated
together: nothing that decides a pop changes between the visits (the canvas changes only at a
visit, the visited cells too), so the slot's next visit is the first acceptable entry after its
head, and the entries before it are dropped as the original drops them. Offsets are zyx.
"""

from __future__ import annotations

import torch

from workloads.ffn.config import MovesGeometry

#: FOVState buffers this policy adds (rank state, checkpointed per rank)
STATE = ("queue", "head", "tail", "done")


class MaxPredMoves(MovesGeometry):
    """The policy's geometry and its two steps: :meth:`select` (the next visit of each slot)
    and :meth:`push` (the moves the new prediction scores)."""

    def reset(self, st: torch.nn.Module, b: int, take: torch.Tensor) -> None:
        """Slots ``take`` start an example: queue [(0, 0, 0)], nothing visited."""
        dev = take.device
        if st.queue.shape[:2] != (b, self.capacity + 1):  # one spare row: pushes that miss
            st.queue = torch.zeros(b, self.capacity + 1, 3, dtype=torch.long, device=dev)
            st.head = torch.zeros(b, dtype=torch.long, device=dev)
            st.tail = torch.ones(b, dtype=torch.long, device=dev)
            st.done = torch.zeros(b, self.cells ** 3, dtype=torch.bool, device=dev)
        t = take.reshape(b, 1)
        st.queue = torch.where(t.reshape(b, 1, 1), 0, st.queue)
        st.head = torch.where(take, 0, st.head)
        st.tail = torch.where(take, 1, st.tail)
        st.done = st.done & ~t

    def _cell(self, off: torch.Tensor) -> torch.Tensor:
        """Index of the quantized cell ``floor((off + d / 2) / d)`` (exact in integers)."""
        q = torch.div(2 * off + self.d, 2 * self.d, rounding_mode="floor") + self.qmax
        return (q[..., 0] * self.cells + q[..., 1]) * self.cells + q[..., 2]

    def acceptable(self, st: torch.nn.Module) -> torch.Tensor:
        """[B, capacity + 1]: entries the original would visit if popped now."""
        b, n = st.queue.shape[:2]
        k = torch.arange(n, device=st.queue.device)
        pending = (k >= st.head[:, None]) & (k < st.tail[:, None])
        inside = (st.queue.abs() <= self.radius).all(-1)
        off = st.queue.clamp(-self.radius, self.radius)
        cell = self._cell(off)
        centre = cell == self._cell(torch.zeros(3, dtype=torch.long, device=off.device))
        t = self.patch // 2 + off
        bi = torch.arange(b, device=off.device).reshape(b, 1)
        valid = st.canvas[bi, t[..., 0], t[..., 1], t[..., 2]] >= self.threshold
        wanted = st.labels[bi, t[..., 0], t[..., 1], t[..., 2]] >= self.label_threshold
        return pending & inside & ~st.done.gather(1, cell) & valid & (wanted | centre)

    def select(self, st: torch.nn.Module, ok: torch.Tensor) -> torch.Tensor:
        """The first acceptable entry of each slot (``ok``: :meth:`acceptable`, after the
        slots without one took a new example): its offset [B, 3]; the head moves past it and
        its cell is visited."""
        b, n = ok.shape
        k = torch.arange(n, device=ok.device)
        first = torch.where(ok, k, n).min(1).values.clamp(max=n - 1)
        bi = torch.arange(b, device=ok.device)
        chosen = st.queue[bi, first]
        st.head = first + 1
        st.done[bi, self._cell(chosen)] = True
        return chosen

    def scored_moves(self, pred: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``get_scored_move_offsets(deltas, pred, threshold)`` sorted as max_pred_offsets sorts
        it: [B, 6, 3] zyx offsets relative to the FOV's centre and [B, 6] which are moves
        (a prefix: the rest fell below the threshold or repeat an earlier face's voxel)."""
        b, d, c = pred.shape[0], self.d, self.fov // 2
        sub = pred[:, c - d:c + d + 1, c - d:c + d + 1, c - d:c + d + 1]
        w = 2 * d + 1
        scores, offs = [], []
        for axis in range(3):
            for sign in (-1, 1):
                face = sub.select(1 + axis, d + sign * d).reshape(b, w * w)
                idx = face.argmax(1)  # the first maximum in C order, as np.argmax
                scores.append(face.gather(1, idx[:, None])[:, 0])
                rel = [idx // w - d, idx % w - d]
                rel.insert(axis, torch.full_like(idx, sign * d))
                offs.append(torch.stack(rel, -1))
        score, off = torch.stack(scores, 1), torch.stack(offs, 1)  # [B, 6], [B, 6, 3]
        same = (off[:, :, None] == off[:, None]).all(-1)  # [B, 6, 6]: the same voxel
        repeat = (same & torch.ones(6, 6, dtype=torch.bool, device=pred.device).tril(-1)).any(2)
        keep = (score >= self.threshold) & ~repeat
        key = torch.where(keep, score, float("-inf"))
        order = torch.arange(6, device=pred.device).expand(b, 6)
        for col in (off[..., 2], off[..., 1], off[..., 0], key):  # x, y, z, then score
            o = torch.sort(col.gather(1, order), dim=1, descending=True, stable=True).indices
            order = order.gather(1, o)
        return off.gather(1, order[..., None].expand(b, 6, 3)), keep.gather(1, order)

    def push(self, st: torch.nn.Module, at: torch.Tensor, pred: torch.Tensor) -> None:
        """Append the moves scored on the FOV's prediction ``pred`` [B, fov^3] (logits),
        relative to the patch centre (``at`` [B, 3], where the FOV was)."""
        off, keep = self.scored_moves(pred)
        b, n = st.queue.shape[:2]
        slot = st.tail[:, None] + torch.arange(6, device=at.device)
        slot = torch.where(keep & (slot < n - 1), slot, n - 1)  # misses go to the spare row
        st.queue.scatter_(1, slot[..., None].expand(b, 6, 3), off + at[:, None])
        st.queue[:, n - 1] = 0
        st.tail = st.tail + keep.sum(1)
