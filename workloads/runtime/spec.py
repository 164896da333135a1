"""What an app hands to the runtime.

The contract every bundled app follows (issue 22: the apps are the study's apps):

* ``sizes`` are the app's named configurations: ``"default"`` is the public original's own
  default, layer for layer; ``"tiny"`` is for tests and CI; any other key is a named preset
  the study or a tutorial ran (``--config NAME``), e.g. CosmicTagger ``a21`` and ``polaris``.
  A config dict may carry ``"batch_size"`` (the original's per-rank batch for that preset),
  which then wins over ``default_batch_size``, and ``"recipe"``, a dict of Recipe fields that
  override the app's recipe for that configuration (e.g. a short warm-up for ``tiny``); both
  are the runtime's keys (``contract.model_config`` drops them where configs are compared).
  The manifest's ``sizes:`` lists the same names, in the same order, with a line each.
* ``recipe`` is the original's training recipe (optimizer, schedule, clipping); ``None`` keeps
  the runtime's AdamW at a constant ``lr``.
* ``source`` names the public original (repository, commit, path) that ``--describe`` prints
  and the fidelity tests cite.
* ``unit``/``units_per_sample`` give the original's throughput unit besides samples/s
  (tokens/s for GPT: ``units_per_sample(cfg) = block size``; events/s for CosmicTagger).
* ``open_dataset(path, cfg)`` reads the original's data format (a torch Dataset of (input,
  target) pairs; None: the generic .npy shards); a dataset with ``set_epoch(epoch)`` hears of
  each epoch before its workers start (draw augmentations from ``mix_seed(seed, epoch,
  index)`` and a resumed run reads the same). ``write_dataset(path, cfg, samples, seed)``
  writes small files in that format with the original's statistics into the existing
  directory ``path`` (``make-data``), so tests run the real reading code.

``Recipe`` and ``Source`` live in ``contract.py`` (no torch import), re-exported here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import torch
from torch import nn

from .contract import Recipe, Source

__all__ = ["AppSpec", "Recipe", "Source", "Task"]

#: A synthetic task: (generator, batch size) -> (inputs, targets), created on the task's device.
Task = Callable[[torch.Generator, int], tuple[torch.Tensor, torch.Tensor]]


@dataclass
class AppSpec:
    """Description of one workload app.

    ``sizes`` maps a configuration name ("default", "tiny", presets) to a config dict passed to
    ``build_model`` and ``make_task``. ``make_task(cfg, device)`` returns a :data:`Task` whose
    targets are a deterministic function of the inputs (so loss falls). ``spatial_dims`` (2 or
    3) enables ``--channels-last`` for image / volume models.
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
    #: optional hook: (path, cfg, samples, seed) -> None, files in the original's data format
    write_dataset: Callable[[str, dict[str, Any], int, int], Any] | None = None
    recipe: Recipe | None = None
    source: Source | None = None
    #: the original's throughput unit besides samples ("tokens", "events"), and how many per sample
    unit: str = "samples"
    units_per_sample: Callable[[dict[str, Any]], float] | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    framework: str = "pytorch"
    #: optional hook: (device, config name) -> {"precision" | "compile" | "optimizer_impl":
    #: (value, why)}, the original's own defaults on that device for that configuration, for
    #: the options the command line leaves unset (runtime/train.py ``fill_defaults``); the
    #: runtime's are fp32, off, auto
    run_defaults: Callable[[Any, str], dict[str, tuple[Any, str]]] | None = None


#: on an NVIDIA GPU, each app's measured speed-up of tf32 over fp32 at its default
#: configuration (benchmarks/gpu_apps.sh and docs/benchmarks.md, one H100, 2026-11-27, one run
#: each of 30 timed steps: not repeated)
TF32_MEASURED = {"unet3d": "3.74x (654 vs 175 samples/s)",
                 "cosmictagger": "1.45x (10.1 vs 7.0 samples/s)",
                 "resnet50": "1.87x (1348 vs 722 samples/s)"}


def conv_tf32_defaults(app: str, dev: Any) -> dict[str, tuple[Any, str]]:
    """tf32 as the default precision of a convolutional app on an NVIDIA GPU, where the
    original's PyTorch script sets no TF32 flag and so runs its cuDNN convolutions in TF32:
    ``torch.backends.cudnn.allow_tf32`` defaults to True (pytorch/pytorch
    docs/source/notes/cuda.rst, "TensorFloat-32 (TF32) on Ampere (and later) devices"; True on
    torch 2.13 here), while the runtime's fp32 turns it off. (tf32 also lets matmuls use TF32,
    which PyTorch's default does not: these apps' matmuls are their last layers.)"""
    if getattr(dev, "type", "cpu") != "cuda" or torch.version.hip:
        return {}
    return {"precision": ("tf32", "the original's PyTorch runs cuDNN convolutions in TF32 by "
                          "default (torch.backends.cudnn.allow_tf32 = True); measured on an "
                          f"H100: tf32 {TF32_MEASURED[app]} fp32")}
