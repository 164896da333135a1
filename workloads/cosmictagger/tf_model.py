"""CosmicTagger in TensorFlow (Keras 2): the UResNet of model.py, channels-last (NHWC).

The same network as the PyTorch version (coreyjadams/CosmicTagger @156c480,
``src/networks/torch/uresnet2D.py``; presets in config.py): each plane goes through one
shared-weight network (the planes ride in the batch dimension, batch norm normalises each plane
with its own statistics, as the original's per-plane calls do), the planes are concatenated at
the deepest level, split again, and end in a 1x1 convolution to 3 classes per plane. Keras'
defaults equal the original's initialisation (Glorot-uniform kernels, zero biases); batch norm
has PyTorch's momentum, epsilon and unbiased running variance, LeakyReLU PyTorch's slope 0.01.

The original's own TensorFlow network (``src/networks/tensorflow/uresnet2D.py``) differs from
its PyTorch one in ways that change the function but not the size: LeakyReLU slope 0.2
(``tf.nn.leaky_relu``), the skip taken after the down blocks, the up blocks before the skip
connection, an L2 penalty ``weight_decay * sqrt(sum of squares)``. Both bundled versions follow
the PyTorch network, so they train the same function.

Loss: the original's ``LossCalculator`` (focal by default). Data: synthetic events drawn as
``events.py`` draws them (the same parameters, TensorFlow's stateless random ops), kept in a
pool on the device.
"""

from __future__ import annotations

import functools
import math
from typing import Any

from workloads.cosmictagger.config import (
    COSMIC_DEDX,
    COSMICS,
    DEFAULT_BATCH_SIZE,
    FLUCTUATION,
    LOSS_BALANCE,
    LR,
    NAME,
    NEUTRINO_DEDX,
    NOISE_EXTEND,
    NOISE_HIGH,
    NOISE_LOW_SHARE,
    NOISE_RATE,
    POOL,
    POOL_SEED,
    PRONGS,
    RECIPE,
    SIZES,
    SOURCE,
    THRESHOLD,
    TINY_BATCH_SIZE,
    UNIT,
    WIDTH,
    units_per_sample,
)
from workloads.tfruntime.backend import load
from workloads.tfruntime.spec import Task, TFAppSpec

SLOPE = 0.01  # torch.nn.functional.leaky_relu's default, which the original uses
LIGHT = (1.0, 1.5, 10.0)


# ---------------------------------------------------------------- the network
@functools.cache
def plane_batch_norm() -> Any:
    """The Keras layer of model.py's ``PlaneBatchNorm2d``: batch norm over [B*planes, H, W, C]
    with each plane's own batch statistics in training, the moving statistics updated plane
    after plane (in order, in one op sequence: three calls of one Keras BatchNormalization on
    three branches would update them in whatever order the graph runs them), PyTorch's momentum
    (0.1), epsilon (1e-5) and unbiased moving variance."""
    be = load()
    tf, keras = be.tf, be.keras

    class PlaneBatchNorm(keras.layers.Layer):
        def __init__(self, planes: int = 1, momentum: float = 0.1, epsilon: float = 1e-5,
                     **kw: Any) -> None:
            super().__init__(**kw)
            self.planes, self.momentum, self.epsilon = planes, momentum, epsilon

        def build(self, shape: Any) -> None:
            c = int(shape[-1])
            self.gamma = self.add_weight(name="gamma", shape=(c,), initializer="ones")
            self.beta = self.add_weight(name="beta", shape=(c,), initializer="zeros")
            stat = {"trainable": False, "synchronization": tf.VariableSynchronization.ON_READ,
                    "aggregation": tf.VariableAggregation.MEAN}
            self.moving_mean = self.add_weight(name="moving_mean", shape=(c,),
                                               initializer="zeros", **stat)
            self.moving_variance = self.add_weight(name="moving_variance", shape=(c,),
                                                   initializer="ones", **stat)

        def call(self, x: Any, training: Any = None) -> Any:
            f32 = tf.float32  # statistics in float32 also under a mixed precision policy
            xf = tf.cast(x, f32)
            gamma, beta = tf.cast(self.gamma, f32), tf.cast(self.beta, f32)
            moving_mean = tf.cast(self.moving_mean, f32)
            moving_var = tf.cast(self.moving_variance, f32)
            if not training:
                y = tf.nn.batch_normalization(xf, moving_mean, moving_var, beta, gamma,
                                              self.epsilon)
                return tf.cast(y, self.compute_dtype)
            g, shape = self.planes, tf.shape(xf)
            xs = tf.reshape(xf, tf.concat([[-1, g], shape[1:]], 0))  # [B, g, H, W, C]
            mean, var = tf.nn.moments(xs, axes=[0, 2, 3], keepdims=True)  # [1, g, 1, 1, C]
            y = tf.nn.batch_normalization(xs, mean, var, beta, gamma, self.epsilon)
            n = tf.cast(tf.reduce_prod(tf.shape(xs)[:-1]) // g, f32)
            unbiased = var * n / tf.maximum(n - 1.0, 1.0)
            m = self.momentum
            for p in range(g):
                moving_mean = (1 - m) * moving_mean + m * mean[0, p, 0, 0]
                moving_var = (1 - m) * moving_var + m * unbiased[0, p, 0, 0]
            self.moving_mean.assign(moving_mean)
            self.moving_variance.assign(moving_var)
            return tf.cast(tf.reshape(y, shape), self.compute_dtype)

        def get_config(self) -> dict[str, Any]:
            return {**super().get_config(), "planes": self.planes, "momentum": self.momentum,
                    "epsilon": self.epsilon}

    return PlaneBatchNorm


class _Net:
    """Layer factory. The planes ride in the batch dimension ([B*planes, H, W, C], sample b,
    plane p at b*planes + p) as in model.py, so each layer runs once on all planes: shared
    weights, per-plane batch statistics."""

    def __init__(self, p: dict[str, Any]) -> None:
        self.p = p
        self.layers = load().keras.layers
        self.tf = load().tf
        #: the layers with weights, in the order model.py registers its modules (to compare
        #: the two versions weight for weight)
        self.weighted: list[Any] = []

    def _keep(self, layer: Any) -> Any:
        self.weighted.append(layer)
        return layer

    def _norm(self, planes: int) -> Any:
        if self.p["normalization"] != "batch":
            return None
        return self._keep(plane_batch_norm()(planes))

    def block(self, filters: int, kernel: int = 3, activation: bool = True,
              planes: int | None = None) -> Any:
        conv = self._keep(self.layers.Conv2D(filters, kernel, padding="same",
                                             use_bias=self.p["bias"]))
        norm = self._norm(self.p["planes"] if planes is None else planes)
        act = self.layers.LeakyReLU(SLOPE) if activation else None

        def apply(x: Any) -> Any:
            x = conv(x)
            x = norm(x) if norm is not None else x
            return act(x) if act is not None else x

        return apply

    def series(self, filters: int, n: int, kernel: int = 3, planes: int | None = None) -> Any:
        if self.p["residual"]:
            blocks = [self._residual(filters, kernel, planes) for _ in range(n)]
        else:
            blocks = [self.block(filters, kernel, planes=planes) for _ in range(n)]

        def apply(x: Any) -> Any:
            for b in blocks:
                x = b(x)
            return x

        return apply

    def _residual(self, filters: int, kernel: int, planes: int | None) -> Any:
        one = self.block(filters, kernel, planes=planes)
        two = self.block(filters, kernel, activation=False, planes=planes)
        add, act = self.layers.Add(), self.layers.LeakyReLU(SLOPE)
        return lambda x: act(add([two(one(x)), x]))

    def core(self, depth: int, filters: int) -> Any:
        """``UNetCore``: blocks, down, the next level, up, skip connection, blocks."""
        L, p = self.layers, self.p
        if depth == 0:
            return self._deepest(filters)
        nxt = 2 * filters if p["growth_rate"] == "multiplicative" \
            else filters + p["n_initial_filters"]
        down_blocks = self.series(filters, p["blocks_per_layer"])
        if p["downsampling"] == "convolutional":
            down = self._wrap(L.Conv2D(nxt, 2, strides=2, use_bias=p["bias"]))
        else:
            pool, neck = L.MaxPool2D(2), self.block(nxt, 1)
            down = lambda x: neck(pool(x))  # noqa: E731
        inner = self.core(depth - 1, nxt)
        if p["upsampling"] == "convolutional":
            up = self._wrap(L.Conv2DTranspose(filters, 2, strides=2, use_bias=p["bias"]))
        else:
            bilinear = L.UpSampling2D(2, interpolation="bilinear")
            # resized in float32 and cast back to the input's type (bf16 under a mixed policy):
            # tf.image.resize answers float32, and XLA refuses the gradient that then mixes
            # float32 (ResizeBilinearGrad) and bfloat16
            f32 = self.tf.float32
            resize = L.Lambda(lambda t: self.tf.cast(bilinear(self.tf.cast(t, f32)), t.dtype))
            neck_up = self.block(filters, 1)
            up = lambda x: neck_up(resize(x))  # noqa: E731
        up_blocks = self.series(filters, p["blocks_per_layer"])
        connect = self._connection(filters)
        return lambda x: up_blocks(connect(up(inner(down(down_blocks(x)))), x))

    def _wrap(self, layer: Any) -> Any:
        """A strided / transposed convolution with the block's norm and activation."""
        self._keep(layer)
        norm = self._norm(self.p["planes"])
        act = self.layers.LeakyReLU(SLOPE)

        def apply(x: Any) -> Any:
            x = layer(x)
            return act(norm(x) if norm is not None else x)

        return apply

    def _connection(self, filters: int) -> Any:
        kind = self.p["connections"]
        if kind == "sum":
            add = self.layers.Add()
            return lambda x, r: add([x, r])
        if kind == "concat":
            cat, neck = self.layers.Concatenate(), self.block(filters, 1)
            return lambda x, r: neck(cat([x, r]))
        return lambda x, r: x

    def _deepest(self, filters: int) -> Any:
        """Planes concatenated (plane-major channels, as torch.cat), 1x1 bottleneck, 5x5
        blocks, 1x1 back, split into the planes again (``block_concat``: kept apart)."""
        p, tf = self.p, self.tf
        k, neck, g = p["filter_size_deepest"], p["bottleneck_deepest"], p["planes"]
        apart = p["block_concat"]
        width = filters if apart else g * filters
        bn_planes = g if apart else 1
        bottleneck = self.block(neck, 1, planes=bn_planes)
        blocks = self.series(neck, p["blocks_deepest_layer"], k, planes=bn_planes)
        unbottleneck = self.block(width, 1, planes=bn_planes)
        stack = lambda x: unbottleneck(blocks(bottleneck(x)))  # noqa: E731
        if apart:
            return stack

        def join(x: Any) -> Any:  # [B*g, h, w, c] -> [B, h, w, g*c]
            s = tf.shape(x)
            x = tf.transpose(tf.reshape(x, (-1, g, s[1], s[2], filters)), (0, 2, 3, 1, 4))
            return tf.reshape(x, (-1, s[1], s[2], g * filters))

        def split(x: Any) -> Any:  # [B, h, w, g*c] -> [B*g, h, w, c]
            s = tf.shape(x)
            x = tf.transpose(tf.reshape(x, (-1, s[1], s[2], g, filters)), (0, 3, 1, 2, 4))
            return tf.reshape(x, (-1, s[1], s[2], filters))

        to_joint = self.layers.Lambda(join)
        to_planes = self.layers.Lambda(split)
        return lambda x: to_planes(stack(to_joint(x)))


def build_model(cfg: dict[str, Any]) -> Any:
    return _build(cfg)[0]


def _build(cfg: dict[str, Any]) -> tuple[Any, list[Any]]:
    """The Keras model and its weighted layers in model.py's module order."""
    be = load()
    tf, layers = be.tf, be.keras.layers
    net = _Net(cfg)
    n0, g, h, w = cfg["n_initial_filters"], cfg["planes"], cfg["height"], cfg["width"]
    inputs = layers.Input((h, w, g))
    stem = net.block(n0, 5)
    core = net.core(cfg["depth"], n0)
    final = net.series(n0, cfg["blocks_final"])
    head = net._keep(layers.Conv2D(cfg["classes"], 1, use_bias=cfg["bias"], dtype="float32"))
    fold = layers.Lambda(  # [B, H, W, g] -> [B*g, H, W, 1]
        lambda x: tf.reshape(tf.transpose(x, (0, 3, 1, 2)), (-1, h, w, 1)))
    unfold = layers.Lambda(  # [B*g, H, W, C] -> [B, H, W, g, C]
        lambda x: tf.transpose(tf.reshape(x, (-1, g, h, w, cfg["classes"])), (0, 2, 3, 1, 4)),
        dtype="float32")
    out = unfold(head(final(core(stem(fold(inputs))))))
    return be.keras.Model(inputs, out, name=NAME), net.weighted  # out: [B, H, W, planes, C]


# ---------------------------------------------------------------- the loss
def make_loss(scheme: str = LOSS_BALANCE) -> Any:
    """The original's loss (loss.py has the schemes): logits [B,H,W,P,C], labels [B,H,W,P]."""

    def loss_fn(out: Any, y: Any) -> Any:
        tf = load().tf
        logits = tf.cast(out, tf.float32)
        y = tf.cast(y, tf.int32)
        ce = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits)
        if scheme == "none":
            return tf.reduce_sum(tf.reduce_mean(ce, axis=[0, 1, 2]))
        w = tf.stop_gradient(_weights(tf, scheme, logits, y))
        per_plane = tf.reduce_sum(w * ce, axis=[0, 1, 2]) / tf.reduce_sum(w, axis=[0, 1, 2])
        return tf.reduce_sum(per_plane)

    return loss_fn


def _weights(tf: Any, scheme: str, logits: Any, y: Any) -> Any:
    classes = logits.shape[-1]
    if scheme == "focal":
        p_true = tf.reduce_sum(tf.nn.softmax(logits) * tf.one_hot(y, classes), axis=-1)
        return tf.square(1.0 - p_true) / classes
    if scheme == "light":
        return tf.gather(tf.constant(LIGHT), y)
    if scheme == "even":
        counts = tf.reduce_sum(tf.one_hot(y, classes), axis=[0, 1, 2])  # [P, C]
        class_w = 0.3333 / (counts + 1.0)
        return tf.reduce_sum(tf.one_hot(y, classes) * class_w, axis=-1)
    raise ValueError(f"unknown loss_balance_scheme {scheme!r}")


# ---------------------------------------------------------------- synthetic events
class _Draw:
    """Stateless random numbers, one new seed per call (events.py's draws, in TensorFlow)."""

    def __init__(self, tf: Any, seed: Any) -> None:
        self.tf, self.seed, self.k = tf, seed, 0

    def _next(self) -> Any:
        self.k += 1
        return self.tf.random.experimental.stateless_fold_in(self.seed, self.k)

    def uniform(self, shape: tuple[int, ...], lo: float = 0.0, hi: float = 1.0) -> Any:
        return self.tf.random.stateless_uniform(shape, self._next(), lo, hi)

    def normal(self, shape: tuple[int, ...]) -> Any:
        return self.tf.random.stateless_normal(shape, self._next())

    def lognormal(self, shape: tuple[int, ...], median: float, sigma: float) -> Any:
        return median * self.tf.exp(sigma * self.normal(shape))


def _segment(tf: Any, box: tuple[int, int, int, int], ends: tuple[float, ...],
             shape: tuple[int, int]) -> tuple[Any, Any]:
    """events._Canvas._box: one segment's charge and reach in its box, padded to ``shape``."""
    r0, r1, c0, c1 = box
    y0, y1, x0, x1, dedx = ends
    dy, dx = y1 - y0, x1 - x0
    ry = tf.reshape(tf.range(r0, r1, dtype=tf.float32), (-1, 1)) - y0
    rx = tf.reshape(tf.range(c0, c1, dtype=tf.float32), (1, -1)) - x0
    t = tf.clip_by_value((ry * dy + rx * dx) / max(dy * dy + dx * dx, 1e-6), 0.0, 1.0)
    q = dedx * tf.exp((tf.square(ry - t * dy) + tf.square(rx - t * dx)) * (-0.5 / WIDTH**2))
    pads = [[r0, shape[0] - r1], [c0, shape[1] - c1]]
    return tf.pad(q, pads), tf.pad(q >= THRESHOLD, pads)


def _render(tf: Any, seed: Any, n: int, cfg: dict[str, Any]) -> tuple[Any, Any]:
    """events.render: ``n`` events at full resolution, ADC and label [n, P, H, W] (eager:
    each segment is computed in the box of pixels it reaches)."""
    planes, h, w = cfg["planes"], cfg["full_height"], cfg["full_width"]
    r = _Draw(tf, seed)
    segments: list[tuple[Any, ...]] = []  # (y0 [n], y1 [n], x0 [n,P], x1 [n,P], dedx [n], cls)
    for _ in range(max(1, round(COSMICS * h * w / (1280 * 2048)))):
        y0, dy = r.uniform((n,), 0, h), r.uniform((n,), 0.05, 0.4) * h
        y1 = y0 + tf.where(r.uniform((n,)) < 0.5, dy, -dy)
        x0 = r.uniform((n, planes), 0, w)
        x1 = x0 + r.uniform((n, planes), -2.0, 2.0) * dy[:, None]
        segments.append((y0, y1, x0, x1, r.lognormal((n,), *COSMIC_DEDX), 1))
    vy, vx = r.uniform((n,), 0.1 * h, 0.9 * h), r.uniform((n, planes), 0.1 * w, 0.9 * w)
    for k in range(PRONGS):
        reach = r.uniform((n,), 0.03, 0.25) * h
        dy, dx = r.uniform((n,), -1.0, 1.0) * reach, r.uniform((n, planes), -1.0, 1.0)
        dedx = r.lognormal((n,), *NEUTRINO_DEDX)
        if k >= 3:
            dedx *= tf.cast(r.uniform((n,)) < 0.5, tf.float32)
        segments.append((vy, vy + dy, vx, vx + dx * reach[:, None], dedx, 2))
    pad = math.ceil(5 * WIDTH) + 1
    charge, label = [], []
    for e in range(n):
        for p in range(planes):
            q_sum, lab = tf.zeros((h, w)), tf.zeros((h, w), tf.uint8)
            for y0, y1, x0, x1, dedx, cls in segments:
                ends = tuple(float(v) for v in (y0[e], y1[e], x0[e, p], x1[e, p], dedx[e]))
                box = (max(0, math.floor(min(ends[:2])) - pad),
                       min(h, math.ceil(max(ends[:2])) + pad),
                       max(0, math.floor(min(ends[2:4])) - pad),
                       min(w, math.ceil(max(ends[2:4])) + pad))
                if ends[4] <= 0 or box[1] <= box[0] or box[3] <= box[2]:
                    continue
                q, reached = _segment(tf, box, ends, (h, w))
                q_sum += q
                lab = tf.maximum(lab, tf.cast(reached, tf.uint8) * cls)
            charge.append(q_sum)
            label.append(lab)
    shape = (n, planes, h, w)
    charge = tf.reshape(tf.stack(charge), shape)
    labels = tf.reshape(tf.stack(label), shape)
    adc = charge * tf.exp(FLUCTUATION * r.normal(shape))
    rate = tf.reshape(tf.constant(NOISE_RATE[:planes]), (1, planes, 1, 1))
    seeds = r.uniform(shape) < rate
    hit = seeds | (tf.roll(seeds, 1, axis=2) & (r.uniform(shape) < NOISE_EXTEND))
    noise = tf.where(r.uniform(shape) < NOISE_LOW_SHARE,
                     THRESHOLD - tf.math.log1p(-r.uniform(shape)),
                     r.lognormal(shape, *NOISE_HIGH))
    adc = tf.where(charge >= THRESHOLD, adc, tf.where(hit, noise, 0.0))
    adc = tf.where(adc >= THRESHOLD, adc, 0.0)
    return adc, tf.where(adc > 0, labels, tf.zeros_like(labels))


def _events(tf: Any, cfg: dict[str, Any], size: int) -> tuple[Any, Any]:
    """The pool: ``size`` events at the network's resolution, NHWC: ADC float32, label."""
    factor = 2 ** cfg["downsample"]
    xs, ys = [], []
    for lo in range(0, size, 2):
        seed = tf.constant([POOL_SEED, lo], tf.int64)
        adc, label = _render(tf, seed, min(2, size - lo), cfg)
        adc = tf.transpose(adc, (0, 2, 3, 1))  # NHWC
        label = tf.transpose(label, (0, 2, 3, 1))
        if factor > 1:  # larcv3 Downsample: average (image), max (label)
            adc = tf.nn.avg_pool2d(adc, factor, factor, "VALID")
            label = tf.cast(tf.nn.max_pool2d(tf.cast(label, tf.float32), factor, factor,
                                              "VALID"), tf.uint8)
        xs.append(adc)
        ys.append(label)
    return tf.concat(xs, 0), tf.concat(ys, 0)


def make_task(cfg: dict[str, Any]) -> Task:
    tf = load().tf
    adc, label = _events(tf, cfg, POOL)

    def task(seed: Any, n: int) -> tuple[Any, Any]:
        r = _Draw(tf, seed)
        idx = tf.random.stateless_uniform((n,), r._next(), 0, POOL, tf.int32)
        x, y = tf.gather(adc, idx), tf.cast(tf.gather(label, idx), tf.int32)
        for axis in (1, 2):  # time (all planes), wire order
            flip = tf.reshape(r.uniform((n,)) < 0.5, (n, 1, 1, 1))
            x = tf.where(flip, tf.reverse(x, [axis]), x)
            y = tf.where(flip, tf.reverse(y, [axis]), y)
        return x, y

    return task


APP = TFAppSpec(name=NAME, build_model=build_model, make_task=make_task,
                loss_fn=make_loss(LOSS_BALANCE), sizes=SIZES,
                default_batch_size=DEFAULT_BATCH_SIZE, tiny_batch_size=TINY_BATCH_SIZE, lr=LR,
                recipe=RECIPE, source=SOURCE, unit=UNIT, units_per_sample=units_per_sample)
