"""An app's Recipe as PyTorch objects: the optimizer, the learning-rate schedule and gradient
clipping, with the state a checkpoint needs so that a resumed run stays bit-identical.

Step-based schedules (constant, cosine, warmup_cosine) are pure functions of the step: the rate
of step ``i`` is set before its optimizer step from a table computed once, so a step pays one
list lookup and one assignment per parameter group, and a resumed run needs only the step.
``plateau`` (ReduceLROnPlateau) is driven by the windowed loss, at the loop's host syncs
(runtime/loop.py ``LossTrack``): its state is checkpointed.
"""

from __future__ import annotations

import math
from typing import Any

import torch

from .contract import Recipe

#: ``--optimizer-impl`` -> the optimizer's keyword arguments
IMPL_KWARGS = {"auto": {}, "foreach": {"foreach": True}, "fused": {"fused": True},
               "for-loop": {"foreach": False}}


def param_groups(model_params: Any, recipe: Recipe) -> Any:
    """All parameters in one group, or nanoGPT's two (``decay_1d`` False: no weight decay on
    biases and norm weights, the tensors with fewer than 2 dimensions)."""
    params = [p for p in model_params if p.requires_grad]
    if recipe.decay_1d or not recipe.weight_decay:
        return params
    return [{"params": [p for p in params if p.dim() >= 2], "weight_decay": recipe.weight_decay},
            {"params": [p for p in params if p.dim() < 2], "weight_decay": 0.0}]


def make_optimizer(model_params: Any, recipe: Recipe, lr: float,
                   impl: str) -> torch.optim.Optimizer:
    """The recipe's optimizer at base rate ``lr`` with the ``--optimizer-impl`` switch."""
    kwargs: dict[str, Any] = dict(IMPL_KWARGS[impl])
    groups = param_groups(model_params, recipe)
    if recipe.optimizer == "sgd":
        return torch.optim.SGD(groups, lr=lr, momentum=recipe.momentum,
                               weight_decay=recipe.weight_decay, nesterov=recipe.nesterov,
                               **kwargs)
    cls = torch.optim.AdamW if recipe.optimizer == "adamw" else torch.optim.Adam
    return cls(groups, lr=lr, betas=tuple(recipe.betas), eps=recipe.eps,
               weight_decay=recipe.weight_decay, **kwargs)


def lr_at(recipe: Recipe, base: float, step: int, total: int) -> float:
    """The rate of 0-based step ``step`` of a ``total``-step run (step-based schedules).

    warmup_cosine is nanoGPT's ``get_lr`` (train.py): ``base * (it + 1) / (warmup + 1)`` while
    warming up, then a cosine from ``base`` to ``min_lr`` over ``decay_steps`` (default: the
    run), ``min_lr`` after it."""
    if recipe.schedule in ("constant", "plateau"):
        return base
    warmup = recipe.warmup_steps if recipe.schedule == "warmup_cosine" else 0
    decay = recipe.decay_steps or total
    if step < warmup:
        return base * (step + 1) / (warmup + 1)
    if step > decay:
        return recipe.min_lr
    span = max(decay - warmup, 1)
    ratio = min(max((step - warmup) / span, 0.0), 1.0)
    return recipe.min_lr + 0.5 * (1.0 + math.cos(math.pi * ratio)) * (base - recipe.min_lr)


class Schedule:
    """Sets each step's rate (step-based schedules) or reacts to the windowed loss (plateau).

    ``apply(i)`` is None for a constant rate (nothing to do per step). ``window_loss(mean)``
    feeds plateau. ``state_dict`` / ``load_state_dict`` round-trip through a checkpoint."""

    def __init__(self, optimizer: torch.optim.Optimizer, recipe: Recipe, base: float,
                 total: int, window: int) -> None:
        self.recipe = recipe
        self.base = base
        self.total = total
        self.optimizer = optimizer
        self.plateau: torch.optim.lr_scheduler.ReduceLROnPlateau | None = None
        self.apply = None
        if recipe.schedule == "plateau":
            # patience is in steps; the plateau sees one value per loss window
            patience = math.ceil(max(recipe.patience, 0) / max(window, 1))
            self.plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(
                optimizer, mode="min", factor=recipe.factor, patience=patience,
                min_lr=recipe.min_lr)
        elif recipe.schedule != "constant":
            table = [lr_at(recipe, base, i, total) for i in range(total)]

            def apply(i: int) -> None:
                rate = table[i]
                # looked up each step: load_state_dict replaces the optimizer's group dicts
                for g in optimizer.param_groups:
                    g["lr"] = rate

            self.apply = apply

    @property
    def windowed(self) -> bool:
        """Whether the schedule needs the windowed loss (a host sync every window)."""
        return self.plateau is not None

    def window_loss(self, mean: float) -> None:
        if self.plateau is not None:
            self.plateau.step(mean)

    def current_lr(self) -> float:
        return float(self.optimizer.param_groups[0]["lr"])

    def state_dict(self) -> dict[str, Any]:
        return {"schedule": self.recipe.schedule, "base": self.base, "total": self.total,
                "plateau": self.plateau.state_dict() if self.plateau is not None else None}

    def load_state_dict(self, state: dict[str, Any] | None) -> None:
        if state and self.plateau is not None and state.get("plateau") is not None:
            self.plateau.load_state_dict(state["plateau"])


def make_clipper(params: list[torch.nn.Parameter], recipe: Recipe, impl: str) -> Any:
    """A function that clips the gradients as the recipe says, or None. No host sync: the
    norm stays on the device (``clip_grad_norm_`` multiplies by a clamped coefficient)."""
    foreach = False if impl == "for-loop" else None  # None: torch's choice for the device
    norm, value = recipe.clip_grad_norm, recipe.clip_grad_value
    if not norm and not value:
        return None

    def clip() -> None:
        if value:
            torch.nn.utils.clip_grad_value_(params, value, foreach=foreach)
        if norm:
            torch.nn.utils.clip_grad_norm_(params, norm, foreach=foreach)

    return clip
