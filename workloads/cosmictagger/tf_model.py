"""CosmicTagger in TensorFlow: the UNet and synthetic task of model.py, channels-last (NHWC).

Same sizes (config.py), layers (conv + batch norm + LeakyReLU blocks, max pooling, transposed
convolutions, skip connections) and task: a hit pixel is "neutrino" where its 3x3 neighbourhood
(zero-padded, as PyTorch's avg_pool2d counts it) is dense, "cosmic" otherwise.
"""

from __future__ import annotations

from typing import Any

from workloads.cosmictagger.config import (
    DEFAULT_BATCH_SIZE,
    DENSE,
    LR,
    NAME,
    SIZES,
    SLOPE,
    TINY_BATCH_SIZE,
)
from workloads.tfruntime.backend import load
from workloads.tfruntime.spec import Task, TFAppSpec


def _block(layers: Any, x: Any, filters: int) -> Any:
    for _ in range(2):
        x = layers.Conv2D(filters, 3, padding="same", use_bias=False)(x)
        x = layers.BatchNormalization(momentum=0.9, epsilon=1e-5)(x)  # PyTorch's defaults
        x = layers.LeakyReLU(SLOPE)(x)
    return x


def build_model(cfg: dict[str, Any]) -> Any:
    layers = load().keras.layers
    planes, classes, base, levels = cfg["planes"], cfg["classes"], cfg["base"], cfg["levels"]
    chans = [base * 2**i for i in range(levels + 1)]
    inputs = layers.Input((cfg["height"], cfg["width"], planes))
    x, skips = inputs, []
    for c in chans[:-1]:
        x = _block(layers, x, c)
        skips.append(x)
        x = layers.MaxPool2D(2)(x)
    x = _block(layers, x, chans[-1])
    for lo in reversed(chans[:-1]):
        x = layers.Conv2DTranspose(lo, 2, strides=2)(x)
        x = _block(layers, layers.Concatenate()([x, skips.pop()]), lo)
    x = layers.Conv2D(planes * classes, 1, dtype="float32")(x)
    out = layers.Reshape((cfg["height"], cfg["width"], planes, classes), dtype="float32")(x)
    return load().keras.Model(inputs, out, name=NAME)


def make_task(cfg: dict[str, Any]) -> Task:
    tf = load().tf
    shape = (cfg["height"], cfg["width"], cfg["planes"])

    def task(seed: Any, n: int) -> tuple[Any, Any]:
        x = tf.nn.relu(tf.random.stateless_normal((n, *shape), seed) - 0.5)
        hit = x > 0
        padded = tf.pad(tf.cast(hit, tf.float32), [[0, 0], [1, 1], [1, 1], [0, 0]])
        density = tf.nn.avg_pool2d(padded, 3, 1, "VALID")
        y = tf.where(hit, tf.where(density > DENSE, 2, 1), 0)
        return x, y

    return task


def loss_fn(out: Any, y: Any) -> Any:
    tf = load().tf
    return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=out))


APP = TFAppSpec(name=NAME, build_model=build_model, make_task=make_task, loss_fn=loss_fn,
                sizes=SIZES, default_batch_size=DEFAULT_BATCH_SIZE,
                tiny_batch_size=TINY_BATCH_SIZE, lr=LR)
