"""FFN in TensorFlow (channels-last, NDHWC): google/ffn ``convstack_3d`` as model.py builds it
(conv0_a, conv0_b, ``depth - 1`` residual modules, 1x1 ``conv_lom``; Glorot-uniform weights
and zero biases, tf_slim's defaults), with ``update_seed`` (the output logits are the seed input
plus the network's update), the seed in logit space and train.py's loss (per-voxel sigmoid
cross-entropy on labels softened to 0.95 / 0.05, mean; loss weights 1).

The training loop's FOV movement with prediction feedback, the permute/reflect augmentation
and ``--fov-policy fixed|max_pred_moves`` / ``--fov-moves N`` are the PyTorch version's
(model.py ``FFNTrainer``, moves.py), in TensorFlow in :mod:`workloads.ffn.tf_moves`, which the
runtime (tfruntime/train.py) runs around each step: the task hands it candidate training
patches (image + soft labels, ``fov + 2 * deltas * fov_moves`` per side) and a batch slot takes
one only when its current example is done.
The recipe is the same (SGD 1e-3, gradients clipped by value at 0.7: Keras ``clipvalue``). The
synthetic volumes are model.py's (jittered Voronoi objects, membranes, per-object brightness,
noise), drawn with TensorFlow's stateless random ops.
"""

from __future__ import annotations

import itertools
from typing import Any

from workloads.ffn.config import (
    DEFAULT_BATCH_SIZE,
    IMAGE_MEAN,
    IMAGE_STDDEV,
    LABEL_SOFTNESS,
    LR,
    NAME,
    RECIPE,
    SIZES,
    SOURCE,
    TINY_BATCH_SIZE,
    patch_size,
)
from workloads.tfruntime.backend import load
from workloads.tfruntime.spec import Task, TFAppSpec


def build_model(cfg: dict[str, Any]) -> Any:
    layers = load().keras.layers
    f, feats = cfg["fov"], cfg["features"]
    inputs = layers.Input((f, f, f, 2))  # image, seed (logits)
    x = layers.Conv3D(feats, 3, padding="same", activation="relu", name="conv0_a")(inputs)
    x = layers.Conv3D(feats, 3, padding="same", name="conv0_b")(x)
    for i in range(1, cfg["depth"]):
        y = layers.Conv3D(feats, 3, padding="same", activation="relu",
                          name=f"conv{i}_a")(layers.ReLU()(x))
        y = layers.Conv3D(feats, 3, padding="same", name=f"conv{i}_b")(y)
        x = layers.Add()([x, y])
    update = layers.Conv3D(1, 1, dtype="float32", name="conv_lom")(layers.ReLU()(x))
    seed = layers.Lambda(lambda t: t[..., 1:], dtype="float32", name="seed")(inputs)
    logits = layers.Add(dtype="float32", name="update_seed")([seed, update])
    return load().keras.Model(inputs, logits, name=NAME)


def _object_cell(cfg: dict[str, Any]) -> int:
    return max(4, round(0.42 * cfg["fov"]))


def make_task(cfg: dict[str, Any]) -> Task:
    """Candidate training patches ``[n, P, P, P, 2]`` (normalised image, soft labels of the
    centre voxel's object; P: config.patch_size) and the centre FOV's labels (the target of a
    fresh example; the FOV trainer trains on the labels of the FOV it chose)."""
    tf, np = load().tf, __import__("numpy")
    f, p, cell = cfg["fov"], patch_size(cfg), _object_cell(cfg)
    grid = [p // cell + 3] * 3
    blocks = np.array(list(itertools.product(*[range(g) for g in grid])), dtype=np.float32)
    vox = np.array(list(itertools.product(range(p), repeat=3)), dtype=np.int64)  # z y x
    near = np.array(list(itertools.product((-1, 0, 1), repeat=3)), dtype=np.int64)
    strides = np.array([grid[1] * grid[2], grid[2], 1], dtype=np.int64)
    cand = tf.constant(((vox // cell + 1)[:, None, :] + near[None]) @ strides)  # [V, 27]
    centre_of_voxel = tf.constant(vox.astype(np.float32) + 0.5)
    lo = p // 2 - f // 2

    def task(seed: Any, n: int) -> tuple[Any, Any]:
        s = tf.random.experimental.stateless_split(seed, 3)
        centres = (blocks - 1 + tf.random.stateless_uniform((n, len(blocks), 3), s[0])) * cell
        bright = 150 + 60 * tf.random.stateless_uniform((n, len(blocks)), s[1])
        pos = tf.gather(centres, cand, axis=1)  # [n, V, 27, 3]
        dist = tf.norm(pos - centre_of_voxel[None, :, None, :], axis=-1)
        neg, k = tf.math.top_k(-dist, 2)
        owner = tf.gather(tf.broadcast_to(cand, (n, *cand.shape)), k[..., 0], batch_dims=2)
        membrane = tf.exp(-(((neg[..., 0] - neg[..., 1]) / 1.2) ** 2))
        image = tf.gather(bright, owner, batch_dims=1) - 110 * membrane
        image += 12 * tf.random.stateless_normal(image.shape, s[2])
        image = tf.round(tf.clip_by_value(image, 0, 255))
        labels = tf.reshape(owner + 1, (n, p, p, p, 1))
        centre = labels[:, p // 2, p // 2, p // 2][:, None, None, None]
        soft = tf.where(labels == centre, 1.0 - LABEL_SOFTNESS, LABEL_SOFTNESS)
        image = tf.reshape((image - IMAGE_MEAN) / IMAGE_STDDEV, (n, p, p, p, 1))
        x = tf.concat([image, soft], axis=-1)
        return x, soft[:, lo:lo + f, lo:lo + f, lo:lo + f]

    return task


def make_trainer(cfg: dict[str, Any], batch: int, seed: int, rank: int) -> Any:
    from workloads.ffn.tf_moves import FOVTrainer

    return FOVTrainer(cfg, batch, seed, rank)


def loss_fn(out: Any, y: Any) -> Any:
    tf = load().tf
    return tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=out))


APP = TFAppSpec(name=NAME, build_model=build_model, make_task=make_task, loss_fn=loss_fn,
                sizes=SIZES, default_batch_size=DEFAULT_BATCH_SIZE,
                tiny_batch_size=TINY_BATCH_SIZE, lr=LR, recipe=RECIPE, source=SOURCE,
                make_trainer=make_trainer)
