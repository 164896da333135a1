"""The original's loss: ``src/networks/torch/LossCalculator.py`` @156c480.

Per plane, a per-pixel cross-entropy weighted by ``loss_balance_scheme``
(``src/config/optimizer.py``; default ``focal``), normalised by the plane's total weight
(``sum(w * ce) / sum(w)``), and the three planes' losses summed. The weights carry no gradient.

* ``focal``: ``mean over classes of onehot * (1 - softmax)^2`` = ``(1 - p_true)^2 / 3``;
* ``light``: 1 for background, 1.5 for cosmic, 10 for neutrino pixels
  (``example_submission_scripts/run_ct.sh`` trains with it);
* ``even``: ``0.3333 / (count of the pixel's class in the plane + 1)``; the class counts with
  ``bincount`` as the TensorFlow version has it (the torch version's ``torch.unique`` counts
  misalign when a class is absent);
* ``none``: the mean cross-entropy per plane (the TensorFlow version's reading; the torch
  version returns an unreduced tensor there).
"""

from __future__ import annotations

from collections.abc import Callable

import torch
import torch.nn.functional as F

LossFn = Callable[[torch.Tensor, torch.Tensor], torch.Tensor]
LIGHT = (1.0, 1.5, 10.0)


def _weights(scheme: str, logits: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """[B, P, H, W] per-pixel weights for logits [B, C, P, H, W] and labels [B, P, H, W]."""
    if scheme == "focal":
        p_true = torch.softmax(logits, dim=1).gather(1, y.unsqueeze(1)).squeeze(1)
        return (1 - p_true).square() / logits.shape[1]
    if scheme == "light":
        return torch.tensor(LIGHT, device=y.device)[y]
    if scheme == "even":
        classes, planes = logits.shape[1], y.shape[1]
        per_plane = y.transpose(0, 1).reshape(planes, -1)
        offset = torch.arange(planes, device=y.device).unsqueeze(1) * classes
        counts = torch.bincount((per_plane + offset).flatten(), minlength=planes * classes)
        class_w = 0.3333 / (counts.view(planes, classes).float() + 1.0)  # [P, C]
        return class_w[torch.arange(planes, device=y.device).view(1, -1, 1, 1), y]
    raise ValueError(f"unknown loss_balance_scheme {scheme!r}")


def make_loss(scheme: str = "focal") -> LossFn:
    """The original's loss for ``scheme``: logits [B, C, P, H, W], labels [B, P, H, W]."""

    def loss_fn(out: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        logits = out.float()
        ce = F.cross_entropy(logits, y, reduction="none")  # [B, P, H, W]
        if scheme == "none":
            return ce.mean(dim=(0, 2, 3)).sum()
        with torch.no_grad():
            w = _weights(scheme, logits, y)
        per_plane = (w * ce).sum(dim=(0, 2, 3)) / w.sum(dim=(0, 2, 3))
        return per_plane.sum()

    loss_fn.__name__ = f"{scheme}_loss"
    return loss_fn
