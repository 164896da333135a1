"""What an app hands to the runtime."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import torch
from torch import nn

#: A synthetic task: (generator, batch size) -> (inputs, targets), created on the task's device.
Task = Callable[[torch.Generator, int], tuple[torch.Tensor, torch.Tensor]]


@dataclass
class AppSpec:
    """Description of one workload app.

    ``sizes`` maps a size name ("default", "tiny") to a config dict passed to ``build_model`` and
    ``make_task``. ``make_task(cfg, device)`` returns a :data:`Task` whose targets are a
    deterministic function of the inputs (so loss falls). ``spatial_dims`` (2 or 3) enables
    ``--channels-last`` for image / volume models.
    """

    name: str
    build_model: Callable[[dict[str, Any]], nn.Module]
    make_task: Callable[[dict[str, Any], torch.device], Task]
    loss_fn: Callable[[torch.Tensor, torch.Tensor], torch.Tensor]
    sizes: dict[str, dict[str, Any]]
    default_batch_size: int
    tiny_batch_size: int
    lr: float = 1e-3
    spatial_dims: int | None = None
    #: optional hook: (path, cfg) -> torch Dataset or None (None = use the generic .npy shards)
    open_dataset: Callable[[str, dict[str, Any]], Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    framework: str = "pytorch"
