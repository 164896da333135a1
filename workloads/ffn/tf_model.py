"""FFN in TensorFlow: the flood-filling network and synthetic task of model.py, channels-last
(NDHWC): image and object mask (POM) in, per-voxel object logit out, residual conv3d modules.
The target is where the 3x3x3-smoothed image (zero-padded, as PyTorch counts it) is positive.
"""

from __future__ import annotations

from typing import Any

from workloads.ffn.config import DEFAULT_BATCH_SIZE, LR, NAME, POM, SEED_POM, SIZES, TINY_BATCH_SIZE
from workloads.tfruntime.backend import load
from workloads.tfruntime.spec import Task, TFAppSpec


def build_model(cfg: dict[str, Any]) -> Any:
    layers = load().keras.layers
    f, filters = cfg["fov"], cfg["filters"]
    inputs = layers.Input((f, f, f, 2))
    x = layers.Conv3D(filters, 3, padding="same", activation="relu")(inputs)
    x = layers.Conv3D(filters, 3, padding="same")(x)
    for _ in range(cfg["depth"]):
        y = layers.Conv3D(filters, 3, padding="same")(layers.ReLU()(x))
        y = layers.Conv3D(filters, 3, padding="same")(layers.ReLU()(y))
        x = layers.Add()([x, y])
    out = layers.Conv3D(1, 1, dtype="float32")(layers.ReLU()(x))
    return load().keras.Model(inputs, out, name=NAME)


def make_task(cfg: dict[str, Any]) -> Task:
    tf = load().tf
    f = cfg["fov"]
    c = f // 2
    pom = tf.tensor_scatter_nd_update(tf.fill((f, f, f, 1), POM), [[c, c, c, 0]], [SEED_POM])

    def task(seed: Any, n: int) -> tuple[Any, Any]:
        img = tf.random.stateless_normal((n, f, f, f, 1), seed)
        padded = tf.pad(img, [[0, 0], [1, 1], [1, 1], [1, 1], [0, 0]])
        smooth = tf.nn.avg_pool3d(padded, 3, 1, "VALID")
        x = tf.concat([img, tf.broadcast_to(pom, (n, f, f, f, 1))], axis=-1)
        return x, tf.cast(smooth > 0, tf.float32)

    return task


def loss_fn(out: Any, y: Any) -> Any:
    tf = load().tf
    return tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=out))


APP = TFAppSpec(name=NAME, build_model=build_model, make_task=make_task, loss_fn=loss_fn,
                sizes=SIZES, default_batch_size=DEFAULT_BATCH_SIZE,
                tiny_batch_size=TINY_BATCH_SIZE, lr=LR)
