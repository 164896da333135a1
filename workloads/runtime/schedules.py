"""The recipes' learning-rate and batch-norm momentum schedules as pure functions of the step,
framework-free (numpy only), so the PyTorch runtime (optim.py ``Schedule``) and the TensorFlow
runtime (tfruntime/train.py ``_rate``) compute the same numbers. contract.Recipe says what each
schedule's fields mean."""

from __future__ import annotations

import math

import numpy as np

from .contract import Recipe


def lr_at(recipe: Recipe, base: float, step: int, total: int,
          samples_per_step: int = 1) -> float:
    """The rate of 0-based step ``step`` of a ``total``-step run (step-based schedules).

    warmup_cosine is nanoGPT's ``get_lr`` (train.py): ``base * (it + 1) / (warmup + 1)`` while
    warming up, then a cosine from ``base`` to ``min_lr`` over ``decay_steps`` (default: the
    run), ``min_lr`` after it. staircase and warmup_flat_decay count the samples before the
    step, ``step * samples_per_step`` (contract.Recipe says their formulas)."""
    if recipe.schedule in ("constant", "plateau"):
        return base
    if recipe.schedule == "staircase":
        return staircase_lr(recipe, base, step * samples_per_step)
    if recipe.schedule == "warmup_flat_decay":
        return warmup_flat_decay_lr(recipe, base, step, samples_per_step)
    if recipe.schedule == "sc22_cosine":
        return sc22_cosine_lr(recipe, base, step, samples_per_step)
    warmup = recipe.warmup_steps if recipe.schedule == "warmup_cosine" else 0
    decay = recipe.decay_steps or total
    if step < warmup:
        return base * (step + 1) / (warmup + 1)
    if step > decay:
        return recipe.min_lr
    span = max(decay - warmup, 1)
    ratio = min(max((step - warmup) / span, 0.0), 1.0)
    return recipe.min_lr + 0.5 * (1.0 + math.cos(math.pi * ratio)) * (base - recipe.min_lr)


def staircase_lr(recipe: Recipe, base: float, samples: int) -> float:
    """charlesq34/pointnet@2618f72 part_seg/train.py (lines 106-113):
    ``tf.maximum(tf.train.exponential_decay(BASE_LEARNING_RATE, batch * batch_size,
    DECAY_STEP, DECAY_RATE, staircase=True), LEARNING_RATE_CLIP)``, i.e. ``base *
    rate ** floor(samples / DECAY_STEP)`` clipped below. (TensorFlow computes it in float32;
    for rate 0.5 the float32 of this float64 value is the same number.)"""
    return max(recipe.min_lr, base * recipe.decay_rate ** (samples // recipe.decay_samples))


def warmup_flat_decay_lr(recipe: Recipe, base: float, step: int, samples_per_step: int) -> float:
    """coreyjadams/CosmicTagger@156c480 src/utils/core/trainercore.py ``build_lr_schedule``
    (lines 143-208) with its default stages (warm_up linear from 1e-4 over epoch [0, 1), flat
    over [1, 21), decay from 21 on: ``(rate - floor) * exp(-(decay_rate * (x - 21))) + floor``),
    evaluated as ``lr_calculator`` evaluates it: ``x = step * (minibatch_size /
    _train_data_size)`` in epochs, ``numpy.interp`` and ``numpy.exp`` in float64. The torch
    trainer gives Adam a base rate of 1.0 and this as LambdaLR's factor, so it is the rate."""
    x = step * (samples_per_step / recipe.epoch_samples)
    flat_from = recipe.warmup_epochs
    decay_from = recipe.warmup_epochs + recipe.flat_epochs
    if x < 0:
        return 0.0  # numpy.piecewise's value where no stage holds (never for a step >= 0)
    if x < flat_from:
        return float(np.interp(x, [0, flat_from], [recipe.warmup_lr, base]))
    if x < decay_from:
        return base
    floor = recipe.min_lr
    return float((base - floor) * np.exp(-(recipe.decay_rate * (x - decay_from))) + floor)


def sc22_cosine_lr(recipe: Recipe, base: float, step: int, samples_per_step: int) -> float:
    """NERSC/sc22-dl-tutorial@21ea7dc utils/__init__.py ``lr_schedule`` (lines 15-31) as
    train.py calls it: ``iters += 1`` before the call (so iteration ``step + 1``),
    ``tot_steps = num_epochs * (Nsamples // global_batch_size)`` (line 73). ``base`` is the
    scaled ``init_lr``; the warm-up applies only when the global batch exceeds the base batch
    and the rate is scaled; the cosine is not clamped (as the original's)."""
    it = step + 1
    tot = max(recipe.decay_epochs * (recipe.epoch_samples // samples_per_step), 1)
    end = recipe.min_lr
    warmup = recipe.warmup_steps
    if samples_per_step > recipe.lr_reference_batch and recipe.lr_scaling != "none" and warmup:
        if it < warmup:
            return it / warmup * base
        return end + 0.5 * (base - end) * (1 + math.cos(math.pi * (it - warmup) / tot))
    return end + 0.5 * (base - end) * (1 + math.cos(math.pi * it / tot))


def bn_momentum_at(recipe: Recipe, samples: int) -> float:
    """PyTorch's batch-norm momentum at ``samples`` under the recipe's ``bn_decay`` schedule:
    charlesq34/pointnet@2618f72 part_seg/train.py (lines 115-121) ``bn_momentum =
    exponential_decay(BN_INIT_DECAY, batch * batch_size, BN_DECAY_DECAY_STEP,
    BN_DECAY_DECAY_RATE, staircase=True); bn_decay = minimum(BN_DECAY_CLIP, 1 - bn_momentum)``;
    ``utils/tf_util.py`` ``batch_norm_template`` gives ``bn_decay`` to
    ``ExponentialMovingAverage(decay=bn_decay)`` (average = decay x average + (1 - decay) x
    batch statistic), which is PyTorch's ``momentum = 1 - bn_decay``."""
    m = recipe.bn_momentum * recipe.bn_momentum_decay_rate ** (
        samples // recipe.bn_momentum_decay_samples)
    return 1.0 - min(recipe.bn_decay_clip, 1.0 - m)
