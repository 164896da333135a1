"""FFN's FOV movement in TensorFlow: train.py's example builder with its 'fixed' and
'max_pred_moves' policies and prediction feedback, as the PyTorch version runs it
(workloads/ffn/model.py ``FFNTrainer``, workloads/ffn/moves.py ``MaxPredMoves``: the same
geometry, queue and visited-cell semantics, op for op; read their docstrings for what the
original does).

:class:`FOVTrainer` keeps each batch slot's example in flight in local ``tf.Variable``s (created
outside any distribution strategy's scope, so each rank keeps its own, as the PyTorch version
keeps its buffers out of DDP): the seed canvas, the training patch (normalised image and soft
labels), the 'fixed' move cursor or the 'max_pred_moves' queue (head, tail, visited cells), and
a draw counter for the permute/reflect augmentation (stateless random ops seeded by the run's
seed, the rank and the counter). The runtime (workloads/tfruntime/train.py) calls
:meth:`select` on the candidate patches before the gradient tape and :meth:`feedback` with the
FOV's logits after it, inside one ``tf.function``; :meth:`state` / :meth:`load_state` travel
in each rank's own checkpoint file, so a resumed run continues the same examples. Offsets are
zyx; volumes are channels-last (``[B, z, y, x]`` here, ``[B, z, y, x, 1]`` at the network).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workloads.ffn.config import (
    MOVE_THRESHOLD,
    SEED_CENTER,
    SEED_PAD,
    MovesGeometry,
    fov_policy,
    logit,
)
from workloads.ffn.config import patch_size as _patch_size
from workloads.tfruntime.backend import load


class MaxPredMovesTF(MovesGeometry):
    """moves.py ``MaxPredMoves`` in TensorFlow: :meth:`acceptable`, :meth:`select`,
    :meth:`scored_moves` and :meth:`push` on the trainer's variables."""

    def variables(self, b: int) -> dict[str, Any]:
        tf = load().tf
        n = self.capacity + 1  # one spare row: pushes that miss
        return {"queue": tf.Variable(tf.zeros((b, n, 3), tf.int64), trainable=False),
                "head": tf.Variable(tf.zeros((b,), tf.int64), trainable=False),
                "tail": tf.Variable(tf.zeros((b,), tf.int64), trainable=False),  # none pending
                "done": tf.Variable(tf.zeros((b, self.cells ** 3), tf.bool), trainable=False)}

    def reset(self, v: dict[str, Any], take: Any) -> None:
        """Slots ``take`` start an example: queue [(0, 0, 0)], nothing visited."""
        tf = load().tf
        v["queue"].assign(tf.where(take[:, None, None], tf.zeros_like(v["queue"]), v["queue"]))
        v["head"].assign(tf.where(take, tf.zeros_like(v["head"]), v["head"]))
        v["tail"].assign(tf.where(take, tf.ones_like(v["tail"]), v["tail"]))
        v["done"].assign(v["done"] & ~take[:, None])

    def _cell(self, off: Any) -> Any:
        tf = load().tf
        q = tf.math.floordiv(2 * off + self.d, 2 * self.d) + self.qmax
        return (q[..., 0] * self.cells + q[..., 1]) * self.cells + q[..., 2]

    def acceptable(self, v: dict[str, Any]) -> Any:
        """[B, capacity + 1]: entries the original would visit if popped now."""
        tf = load().tf
        queue = v["queue"].read_value()
        n = queue.shape[1]
        k = tf.range(n, dtype=tf.int64)[None]
        pending = (k >= v["head"][:, None]) & (k < v["tail"][:, None])
        inside = tf.reduce_all(tf.abs(queue) <= self.radius, -1)
        off = tf.clip_by_value(queue, -self.radius, self.radius)
        cell = self._cell(off)
        centre = cell == self._cell(tf.zeros((3,), tf.int64))
        t = self.patch // 2 + off
        valid = tf.gather_nd(v["canvas"], t, batch_dims=1) >= self.threshold
        wanted = tf.gather_nd(v["labels"], t, batch_dims=1) >= self.label_threshold
        visited = tf.gather(v["done"], cell, batch_dims=1)
        return pending & inside & ~visited & valid & (wanted | centre)

    def select(self, v: dict[str, Any], ok: Any) -> Any:
        """The first acceptable entry of each slot: its offset [B, 3]; the head moves past it
        and its cell is visited."""
        tf = load().tf
        n = ok.shape[1]
        k = tf.range(n, dtype=tf.int64)[None]
        first = tf.minimum(tf.reduce_min(tf.where(ok, k, n), 1), n - 1)
        chosen = tf.gather(v["queue"], first, batch_dims=1)
        v["head"].assign(first + 1)
        b = tf.range(tf.shape(first, out_type=tf.int64)[0], dtype=tf.int64)
        v["done"].assign(tf.tensor_scatter_nd_update(
            v["done"], tf.stack([b, self._cell(chosen)], 1), tf.ones_like(b, tf.bool)))
        return chosen

    def scored_moves(self, pred: Any) -> tuple[Any, Any]:
        """``get_scored_move_offsets`` sorted as max_pred_offsets sorts it: [B, 6, 3] zyx
        offsets relative to the FOV's centre and [B, 6] which are moves (a prefix)."""
        tf = load().tf
        d, c = self.d, self.fov // 2
        sub = pred[:, c - d:c + d + 1, c - d:c + d + 1, c - d:c + d + 1]
        w = 2 * d + 1
        pos = tf.range(w * w, dtype=tf.int64)[None]
        scores, offs = [], []
        for axis in range(3):
            for sign in (-1, 1):
                face = tf.reshape(tf.gather(sub, d + sign * d, axis=1 + axis), (-1, w * w))
                best = tf.reduce_max(face, 1)
                # the first maximum in C order, as np.argmax (tf.argmax leaves ties open)
                idx = tf.reduce_min(tf.where(face == best[:, None], pos, w * w), 1)
                scores.append(best)
                rel = [idx // w - d, idx % w - d]
                rel.insert(axis, tf.fill(tf.shape(idx), tf.constant(sign * d, tf.int64)))
                offs.append(tf.stack(rel, -1))
        score, off = tf.stack(scores, 1), tf.stack(offs, 1)  # [B, 6], [B, 6, 3]
        same = tf.reduce_all(off[:, :, None] == off[:, None], -1)
        lower = tf.constant(np.tril(np.ones((6, 6), bool), -1))
        repeat = tf.reduce_any(same & lower[None], 2)
        keep = (score >= self.threshold) & ~repeat
        key = tf.where(keep, score, float("-inf"))
        order = tf.broadcast_to(tf.range(6, dtype=tf.int64)[None], tf.shape(keep, tf.int64))
        for col in (off[..., 2], off[..., 1], off[..., 0], key):  # x, y, z, then score
            o = tf.argsort(tf.gather(col, order, batch_dims=1), axis=1, direction="DESCENDING",
                           stable=True)
            order = tf.gather(order, o, batch_dims=1)
        return tf.gather(off, order, batch_dims=1), tf.gather(keep, order, batch_dims=1)

    def push(self, v: dict[str, Any], at: Any, pred: Any) -> None:
        """Append the moves scored on the FOV's prediction ``pred`` [B, fov^3] (logits),
        relative to the patch centre (``at`` [B, 3])."""
        tf = load().tf
        off, keep = self.scored_moves(pred)
        n = v["queue"].shape[1]
        slot = v["tail"][:, None] + tf.range(6, dtype=tf.int64)[None]
        slot = tf.where(keep & (slot < n - 1), slot, n - 1)  # misses go to the spare row
        b = tf.broadcast_to(tf.range(tf.shape(slot, tf.int64)[0], dtype=tf.int64)[:, None],
                            tf.shape(slot, tf.int64))
        queue = tf.tensor_scatter_nd_update(v["queue"], tf.stack([b, slot], -1),
                                            off + at[:, None])
        spare = tf.range(n)[None, :, None] == n - 1
        v["queue"].assign(tf.where(spare, tf.zeros_like(queue), queue))
        v["tail"].assign(v["tail"] + tf.reduce_sum(tf.cast(keep, tf.int64), 1))


class FOVTrainer:
    """train.py's example builder and FOV policy for ``batch`` slots (one rank's)."""

    def __init__(self, cfg: dict[str, Any], batch: int, seed: int, rank: int) -> None:
        tf = load().tf
        self.fov, self.deltas = int(cfg["fov"]), int(cfg["deltas"])
        self.size, self.batch = _patch_size(cfg), batch
        d = self.deltas
        shifts = [(dz, dy, dx) for dx in (-d, 0, d) for dy in (-d, 0, d) for dz in (-d, 0, d)
                  if (dx, dy, dz) != (0, 0, 0)]
        order = np.random.default_rng(seed).permutation(len(shifts))  # --shuffle_moves
        self.moves = np.array([(0, 0, 0)] + [shifts[int(i)] for i in order], np.int64)
        self.seed_pad, self.seed_center = logit(SEED_PAD), logit(SEED_CENTER)
        self.threshold = logit(MOVE_THRESHOLD)
        self.max_pred = (MaxPredMovesTF(self.fov, d, self.size, self.threshold, MOVE_THRESHOLD)
                         if fov_policy(cfg) == "max_pred_moves" else None)
        self.aug_seed = (seed & 0x7FFFFFFF, rank)
        p, b = self.size, batch
        with tf.init_scope():
            vol = tf.zeros((b, p, p, p))
            self.v: dict[str, Any] = {
                "canvas": tf.Variable(vol, trainable=False),
                "image": tf.Variable(vol, trainable=False),
                "labels": tf.Variable(vol, trainable=False),
                # past the last move: every slot takes its first example at the first step
                "cursor": tf.Variable(tf.fill((b,), tf.constant(len(self.moves), tf.int64)),
                                      trainable=False),
                "draws": tf.Variable(tf.constant(0, tf.int64), trainable=False)}
            if self.max_pred is not None:
                self.v.update(self.max_pred.variables(b))

    # ------------------------------------------------------------------ checkpoint
    def state(self) -> dict[str, np.ndarray]:
        return {k: np.array(v.numpy()) for k, v in self.v.items()}

    def load_state(self, state: dict[str, Any] | None) -> None:
        want = {k: tuple(v.shape) for k, v in self.v.items()}
        have = {k: tuple(np.shape(a)) for k, a in (state or {}).items()}
        if have != want:
            raise RuntimeError("the checkpoint's FOV state does not match this run (another "
                               "--fov-policy, --fov-moves or batch size, or written before the "
                               "TensorFlow version moved the FOV): resume with the same options "
                               "or start afresh with --no-resume")
        for k, v in self.v.items():
            v.assign(state[k])  # type: ignore[index]

    # ------------------------------------------------------------------ examples
    def _new_examples(self, x: Any, take: Any) -> None:
        """Slots ``take`` start the example in ``x`` ([B, P, P, P, 2]: image, soft labels),
        permuted/reflected (reflect z, y, x; swap y and x), with a fresh seed canvas."""
        tf, v = load().tf, self.v
        b, p = self.batch, self.size
        s = tf.stack([tf.constant(self.aug_seed[0], tf.int64) + v["draws"],
                      tf.constant(self.aug_seed[1], tf.int64)])
        v["draws"].assign_add(1)
        flips = tf.random.stateless_uniform((b, 4), s) < 0.5
        ex = tf.cast(x, tf.float32)
        for axis in range(3):
            ex = tf.where(tf.reshape(flips[:, axis], (b, 1, 1, 1, 1)),
                          tf.reverse(ex, [1 + axis]), ex)
        ex = tf.where(tf.reshape(flips[:, 3], (b, 1, 1, 1, 1)),
                      tf.transpose(ex, [0, 1, 3, 2, 4]), ex)
        t = tf.reshape(take, (b, 1, 1, 1))
        v["image"].assign(tf.where(t, ex[..., 0], v["image"]))
        v["labels"].assign(tf.where(t, ex[..., 1], v["labels"]))
        seed = np.full((p, p, p), self.seed_pad, np.float32)
        seed[p // 2, p // 2, p // 2] = self.seed_center
        v["canvas"].assign(tf.where(t, tf.constant(seed)[None], v["canvas"]))
        v["cursor"].assign(tf.where(take, tf.zeros_like(v["cursor"]), v["cursor"]))
        if self.max_pred is not None:
            self.max_pred.reset(v, take)

    def _next_moves(self, x: Any) -> Any:
        """'fixed': each slot's next valid move (its offset [B, 3]); a slot with none left
        takes its new example at the centre."""
        tf, v, c = load().tf, self.v, self.size // 2
        m = len(self.moves)
        tgt = tf.broadcast_to(tf.constant(c + self.moves)[None], (self.batch, m, 3))
        val = tf.gather_nd(v["canvas"], tgt, batch_dims=1)  # [B, M]
        idx = tf.range(m, dtype=tf.int64)[None]
        ok = (val >= self.threshold) & (idx >= v["cursor"][:, None])
        found = tf.reduce_any(ok, 1)
        self._new_examples(x, ~found)
        move = tf.where(found, tf.reduce_min(tf.where(ok, idx, m), 1), 0)
        v["cursor"].assign(move + 1)
        return tf.gather(tf.constant(self.moves), move)

    def _next_visits(self, x: Any) -> Any:
        """'max_pred_moves': each slot's next offset from its queue; a slot with no acceptable
        entry takes its new example at the centre."""
        tf, policy = load().tf, self.max_pred
        assert policy is not None
        ok = policy.acceptable(self.v)
        found = tf.reduce_any(ok, 1)
        self._new_examples(x, ~found)
        first = tf.range(ok.shape[1])[None] == 0
        return policy.select(self.v, tf.where(found[:, None], ok, first))

    def _index(self, at: Any) -> Any:
        """[B, f, f, f, 4] (slot, z, y, x) of the fov^3 block ``at`` voxels from the centre."""
        tf, b, f = load().tf, self.batch, self.fov
        start = self.size // 2 - f // 2 + at  # [B, 3]
        r = tf.range(f, dtype=tf.int64)
        z = tf.broadcast_to(tf.reshape(start[:, 0, None] + r, (b, f, 1, 1)), (b, f, f, f))
        y = tf.broadcast_to(tf.reshape(start[:, 1, None] + r, (b, 1, f, 1)), (b, f, f, f))
        xx = tf.broadcast_to(tf.reshape(start[:, 2, None] + r, (b, 1, 1, f)), (b, f, f, f))
        bi = tf.broadcast_to(tf.reshape(tf.range(b, dtype=tf.int64), (b, 1, 1, 1)),
                             (b, f, f, f))
        return tf.stack([bi, z, y, xx], -1)

    def select(self, x: Any) -> tuple[Any, Any, Any]:
        """The next FOV of every slot: (network input [B, f, f, f, 2] (image, seed logits),
        its soft labels [B, f, f, f, 1], the offsets [B, 3] for :meth:`feedback`)."""
        tf, v = load().tf, self.v
        at = self._next_moves(x) if self.max_pred is None else self._next_visits(x)
        idx = self._index(at)
        seed = tf.gather_nd(v["canvas"], idx)
        image = tf.gather_nd(v["image"], idx)
        labels = tf.gather_nd(v["labels"], idx)
        return tf.stack([image, seed], -1), labels[..., None], at

    def feedback(self, logits: Any, at: Any) -> None:
        """Prediction feedback: the FOV's logits ([B, f, f, f, 1]) replace the canvas there;
        'max_pred_moves' queues the moves they score."""
        tf, v = load().tf, self.v
        pred = tf.stop_gradient(tf.cast(logits[..., 0], tf.float32))
        v["canvas"].assign(tf.tensor_scatter_nd_update(v["canvas"], self._index(at), pred))
        if self.max_pred is not None:
            self.max_pred.push(v, at, pred)
