"""The framework-free half of the apps' contract (runtime/spec.py re-exports it).

``Source`` and ``Recipe`` are plain dataclasses so that the TensorFlow apps, jobgen and the
docs generator can read them without importing torch. The helpers here turn an app's named
configuration into what a run uses: the config dict (``--config NAME``), its batch size and its
recipe (a config may carry ``"batch_size"`` and ``"recipe"``: a dict of Recipe fields that
override the app's recipe for that configuration, e.g. a shorter warm-up for ``tiny``).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

#: keys of a config dict that belong to the runtime, not to ``build_model``
RUNTIME_KEYS = ("batch_size", "recipe", "grad_accum")
OPTIMIZERS = ("adamw", "adam", "sgd")
SCHEDULES = ("constant", "cosine", "warmup_cosine", "plateau", "staircase", "warmup_flat_decay",
             "sc22_cosine")
LR_SCALINGS = ("none", "linear", "sqrt", "ranks")


@dataclass(frozen=True)
class Source:
    """The public original an app follows: ``repository`` (owner/name), ``commit`` (the one
    read), ``path`` (the file(s) the network and recipe come from)."""

    repository: str
    commit: str
    path: str
    note: str = ""


@dataclass(frozen=True)
class Recipe:
    """An original's training recipe.

    ``optimizer``: "adamw" | "adam" | "sgd"; ``schedule``: "constant" | "cosine" (to
    ``min_lr`` over the run) | "warmup_cosine" (linear warm-up over ``warmup_steps``, then
    cosine to ``min_lr``) | "plateau" (ReduceLROnPlateau on the windowed loss, ``factor``,
    ``patience`` in steps); ``clip_grad_norm``: global-norm clipping (``clip_grad_value``: per
    element, as FFN's ``clip_by_value``); ``where``: the file and lines that say so.

    Added in issue 22 (defaults keep the fields above meaning what they meant):
    ``decay_steps``: length of the cosine decay in steps (0: the run's ``--steps``; nanoGPT's
    ``lr_decay_iters``); ``lr_scaling`` "none" | "linear" | "sqrt" with ``lr_reference_batch``:
    ``lr`` is the rate at that global batch, scaled to the run's global batch (ResNet-50's
    0.1 x batch/256, SC22's sqrt scaling); ``lr_scaling`` "ranks": ``lr`` x the number of
    ranks whatever the batch (SimAI-Bench's ``cfg.learning_rate * comm.size``); ``decay_1d``:
    False applies ``weight_decay`` only to parameters with 2 or more dimensions (nanoGPT's
    ``configure_optimizers``).

    Schedules counted in samples (the optimizer steps done x the samples of one step: the
    global batch, micro-batches included), so a pure function of the step at a given batch:

    * ``staircase`` is TensorFlow's ``exponential_decay(lr, samples, decay_samples,
      decay_rate, staircase=True)`` clipped below at ``min_lr``: ``max(min_lr, lr x
      decay_rate ** (samples // decay_samples))`` (PointNet's part_seg/train.py).
    * ``warmup_flat_decay`` is CosmicTagger's ``trainercore.build_lr_schedule`` default, in
      epochs ``e = step x (global batch / epoch_samples)``: ``numpy.interp`` from ``warmup_lr``
      to ``lr`` over ``warmup_epochs``, ``lr`` for ``flat_epochs``, then ``(lr - min_lr) x
      exp(-decay_rate x (e - warmup_epochs - flat_epochs)) + min_lr``. ``epoch_samples`` is the
      original's data-set size; a run on files replaces it with the files' sample count.
    * ``sc22_cosine`` is the SC22 U-Net's ``utils.lr_schedule`` as its train.py calls it
      (iteration ``it = step + 1``): cosine from the scaled ``lr`` to ``min_lr`` over
      ``tot = decay_epochs x (epoch_samples // global batch)`` steps; when the global batch
      exceeds ``lr_reference_batch`` (and ``lr_scaling`` is not "none") a linear warm-up
      ``it / warmup_steps x lr`` first and the cosine of ``(it - warmup_steps) / tot``.

    Batch-norm momentum (``bn_momentum`` > 0; 0: the modules keep their own): PointNet's
    ``bn_decay``, the decay of TensorFlow's moving averages, ``min(bn_decay_clip, 1 - m)`` with
    ``m = bn_momentum x bn_momentum_decay_rate ** (samples // bn_momentum_decay_samples)``;
    PyTorch's momentum is ``1 - bn_decay``, set on every batch-norm module before each step.
    """

    optimizer: str = "adamw"
    lr: float = 1e-3
    betas: tuple[float, float] = (0.9, 0.999)
    eps: float = 1e-8
    weight_decay: float = 0.0
    momentum: float = 0.0
    nesterov: bool = False
    schedule: str = "constant"
    warmup_steps: int = 0
    min_lr: float = 0.0
    factor: float = 0.5
    patience: int = 10
    clip_grad_norm: float | None = None
    clip_grad_value: float | None = None
    where: str = ""
    decay_steps: int = 0
    lr_scaling: str = "none"
    lr_reference_batch: int = 0
    decay_1d: bool = True
    decay_rate: float = 0.0
    decay_samples: int = 0
    warmup_lr: float = 0.0
    warmup_epochs: float = 0.0
    flat_epochs: float = 0.0
    epoch_samples: int = 0
    bn_momentum: float = 0.0
    bn_momentum_decay_rate: float = 1.0
    bn_momentum_decay_samples: int = 0
    bn_decay_clip: float = 1.0
    decay_epochs: int = 0

    def __post_init__(self) -> None:
        problems = []
        if self.optimizer not in OPTIMIZERS:
            problems.append(f"optimizer {self.optimizer!r} (one of {', '.join(OPTIMIZERS)})")
        if self.schedule not in SCHEDULES:
            problems.append(f"schedule {self.schedule!r} (one of {', '.join(SCHEDULES)})")
        if self.lr_scaling not in LR_SCALINGS:
            problems.append(f"lr_scaling {self.lr_scaling!r} (one of {', '.join(LR_SCALINGS)})")
        if self.lr_scaling in ("linear", "sqrt") and self.lr_reference_batch < 1:
            problems.append("lr_scaling needs lr_reference_batch >= 1")
        if problems:
            raise ValueError("Recipe: unknown " + "; ".join(problems))
        if self.schedule == "staircase" and (self.decay_samples < 1 or self.decay_rate <= 0):
            raise ValueError("Recipe: staircase needs decay_samples >= 1 and decay_rate > 0")
        if self.schedule == "warmup_flat_decay" and self.epoch_samples < 1:
            raise ValueError("Recipe: warmup_flat_decay needs epoch_samples >= 1")
        if self.schedule == "sc22_cosine" and (self.epoch_samples < 1 or self.decay_epochs < 1):
            raise ValueError("Recipe: sc22_cosine needs epoch_samples >= 1 and decay_epochs >= 1")
        if self.bn_momentum and self.bn_momentum_decay_samples < 1:
            raise ValueError("Recipe: a bn_momentum schedule needs bn_momentum_decay_samples >= 1")

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready (the result line and --describe print it)."""
        d = dataclasses.asdict(self)
        d["betas"] = list(self.betas)
        return d

    def scaled_lr(self, global_batch: int, ranks: int = 1) -> float:
        """``lr`` at ``global_batch`` over ``ranks`` ranks under the recipe's scaling rule."""
        if self.lr_scaling == "none":
            return self.lr
        if self.lr_scaling == "ranks":
            return self.lr * ranks
        ratio = global_batch / self.lr_reference_batch
        return self.lr * (ratio if self.lr_scaling == "linear" else math.sqrt(ratio))


def legacy_recipe(lr: float) -> Recipe:
    """What an app without a recipe trains with: AdamW at a constant rate, torch's defaults
    (weight decay 0.01)."""
    return Recipe(optimizer="adamw", lr=lr, weight_decay=0.01,
                  where="runtime default: the app names no recipe")


def config_names(sizes: dict[str, Any]) -> list[str]:
    """The configuration names in the order the app lists them."""
    return list(sizes)


def config_name(tiny: bool, config: str | None) -> str:
    """``--config NAME`` / ``--tiny`` (= ``--config tiny``) / neither (``default``)."""
    if config is not None:
        return config
    return "tiny" if tiny else "default"


def with_options(cfg: dict[str, Any], args: Any) -> dict[str, Any]:
    """``cfg`` with the app's own options (manifest ``options:``, parsed by runtime/cli.py)
    given on the command line; a value equal to the option's default leaves the configuration
    as it is, so a checkpoint or a dataset compares equal with or without it."""
    out = dict(cfg)
    for dest, default in getattr(args, "app_options", ()) or ():
        value = getattr(args, dest, None)
        if value is not None and value != default:
            out[dest] = value
    return out


def model_config(cfg: dict[str, Any]) -> dict[str, Any]:
    """The config without the runtime's keys (what the checkpoint and datasets compare)."""
    return {k: v for k, v in cfg.items() if k not in RUNTIME_KEYS}


def batch_size_of(spec: Any, name: str, cfg: dict[str, Any]) -> int:
    """The configuration's per-rank batch: its ``batch_size``, else the app's default (tiny:
    ``tiny_batch_size``)."""
    if cfg.get("batch_size"):
        return int(cfg["batch_size"])
    return int(spec.tiny_batch_size if name == "tiny" else spec.default_batch_size)


def recipe_of(spec: Any, cfg: dict[str, Any]) -> Recipe:
    """The app's recipe with the configuration's overrides (``cfg["recipe"]``)."""
    base = getattr(spec, "recipe", None) or legacy_recipe(spec.lr)
    overrides = cfg.get("recipe") or {}
    if not overrides:
        return base
    fields = {f.name for f in dataclasses.fields(Recipe)}
    unknown = sorted(set(overrides) - fields)
    if unknown:
        raise ValueError(f"{spec.name}: config recipe overrides unknown fields {unknown}")
    values = dict(overrides)
    if "betas" in values:
        values["betas"] = tuple(values["betas"])
    return dataclasses.replace(base, **values)


def source_dict(source: Source | None) -> dict[str, str] | None:
    return dataclasses.asdict(source) if source is not None else None
