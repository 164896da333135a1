"""An app's Recipe as PyTorch objects: the optimizer, the learning-rate schedule and gradient
clipping, with the state a checkpoint needs so that a resumed run stays bit-identical.

Step-based schedules (constant, cosine, warmup_cosine; staircase and warmup_flat_decay, counted in
samples = steps x the samples of one step) are pure functions of the step: the rate of step
``i`` is set before its optimizer step from a table computed once, so a step pays one list
lookup and one assignment per parameter group, and a resumed run needs only the step (and the
same batch, which the checkpoint's meta records). A recipe's batch-norm momentum schedule
(PointNet's ``bn_decay``) is set the same way, on the steps where it changes.
``plateau`` (ReduceLROnPlateau) is driven by the windowed loss, at the loop's host syncs
(runtime/loop.py ``LossTrack``): its state is checkpointed.
"""

from __future__ import annotations

import math
from typing import Any

import torch

from .contract import Recipe
from .schedules import bn_momentum_at, lr_at

__all__ = ["IMPL_KWARGS", "Schedule", "bn_momentum_at", "lr_at", "make_clipper",
           "make_optimizer", "param_groups"]

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


class Schedule:
    """Sets each step's rate (step-based schedules) and batch-norm momentum (a recipe with
    ``bn_momentum``), or reacts to the windowed loss (plateau).

    ``apply(i)`` is None when nothing changes per step. ``window_loss(mean)`` feeds plateau.
    ``samples_per_step`` (the global batch, micro-batches included) turns steps into the
    samples staircase, warmup_flat_decay and the momentum schedule count; ``model`` holds the
    batch-norm modules. ``state_dict`` / ``load_state_dict`` round-trip through a checkpoint
    (the step-based values need only the step: they are recomputed from it)."""

    def __init__(self, optimizer: torch.optim.Optimizer, recipe: Recipe, base: float,
                 total: int, window: int, samples_per_step: int = 1,
                 model: torch.nn.Module | None = None) -> None:
        self.recipe = recipe
        self.base = base
        self.total = total
        self.samples_per_step = samples_per_step
        self.optimizer = optimizer
        self.plateau: torch.optim.lr_scheduler.ReduceLROnPlateau | None = None
        self.apply = None
        if recipe.schedule == "plateau":
            # patience is in steps; the plateau sees one value per loss window
            patience = math.ceil(max(recipe.patience, 0) / max(window, 1))
            self.plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(
                optimizer, mode="min", factor=recipe.factor, patience=patience,
                min_lr=recipe.min_lr)
        rates = None
        if recipe.schedule not in ("constant", "plateau"):
            rates = [lr_at(recipe, base, i, total, samples_per_step) for i in range(total)]
        norms = []
        if recipe.bn_momentum and model is not None:
            norms = [m for m in model.modules()
                     if isinstance(m, torch.nn.modules.batchnorm._BatchNorm)]
        momenta = ([bn_momentum_at(recipe, i * samples_per_step) for i in range(total)]
                   if norms else None)
        if rates is not None or momenta is not None:
            self.apply = _applier(optimizer, rates, norms, momenta)

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
                "samples_per_step": self.samples_per_step,
                "epoch_samples": self.recipe.epoch_samples,
                "plateau": self.plateau.state_dict() if self.plateau is not None else None}

    def load_state_dict(self, state: dict[str, Any] | None) -> None:
        if state and self.plateau is not None and state.get("plateau") is not None:
            self.plateau.load_state_dict(state["plateau"])


def _applier(optimizer: torch.optim.Optimizer, rates: list[float] | None,
             norms: list[torch.nn.Module], momenta: list[float] | None) -> Any:
    """``apply(i)``: step ``i``'s rate on every parameter group (looked up each step:
    ``load_state_dict`` replaces the optimizer's group dicts) and, where it changed since the
    last call, its momentum on every batch-norm module (a staircase moves a few times a run;
    under torch.compile each change is one recompile)."""
    last = [None]

    def apply(i: int) -> None:
        if rates is not None:
            rate = rates[i]
            for g in optimizer.param_groups:
                g["lr"] = rate
        if momenta is not None and momenta[i] != last[0]:
            last[0] = momenta[i]
            for m in norms:
                m.momentum = momenta[i]

    return apply


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
