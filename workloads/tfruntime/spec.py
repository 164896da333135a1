"""What a TensorFlow app hands to the runtime (the counterpart of runtime/spec.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from workloads.runtime.contract import Recipe, Source

#: A synthetic task: (seed, batch size) -> (inputs, targets), where seed is a shape-[2] int64
#: tensor for TensorFlow's stateless random ops; targets are a deterministic function of inputs.
Task = Callable[[Any, int], tuple[Any, Any]]


@dataclass(frozen=True)
class TFAppSpec:
    """One app's TensorFlow version. ``build_model(cfg)`` returns a Keras 2 model whose output
    layer computes in float32; ``loss_fn(out, y)`` the mean loss as a float32 scalar. Both
    import TensorFlow through ``backend.load()`` when called, not when the app is imported.

    ``sizes``, ``recipe``, ``source``, ``unit`` and ``units_per_sample`` mean what they mean in
    the PyTorch AppSpec (runtime/spec.py; Recipe and Source from runtime/contract.py, which
    imports no framework): ``--config NAME`` picks a size, the recipe's optimizer (Keras
    Adam / AdamW / SGD), schedule and clipping (``global_clipnorm`` / ``clipvalue``) apply.

    ``make_trainer(cfg, batch, seed, rank)``, when given, builds an object that turns the
    task's inputs into the network's each step, keeping state across steps (ffn's FOV
    movement, workloads/ffn/tf_moves.py): ``select(x) -> (net_in, y, ctx)`` before the
    gradient tape, ``feedback(out, ctx)`` after it (both inside the step's tf.function),
    ``state()`` / ``load_state(dict)`` for each rank's own checkpoint file."""

    name: str
    build_model: Callable[[dict[str, Any]], Any]
    make_task: Callable[[dict[str, Any]], Task]
    loss_fn: Callable[[Any, Any], Any]
    sizes: dict[str, dict[str, Any]]
    default_batch_size: int
    tiny_batch_size: int
    lr: float = 1e-3
    framework: str = "tensorflow"
    recipe: Recipe | None = None
    source: Source | None = None
    unit: str = "samples"
    units_per_sample: Callable[[dict[str, Any]], float] | None = None
    make_trainer: Callable[[dict[str, Any], int, int, int], Any] | None = None
