"""``--describe`` for a TensorFlow app: its parameters (Keras ``count_params``), shapes, recipe,
unit and source; FLOPs are counted on the PyTorch version (runtime/flops.py), which follows
the same original."""

from __future__ import annotations

from typing import Any

from workloads.runtime.contract import (
    batch_size_of,
    model_config,
    recipe_of,
    source_dict,
    with_options,
)

from .backend import load, prepare


def describe(spec: Any, name: str, args: Any = None) -> dict[str, Any]:
    """``args``: the command line, for the app's own options (contract.with_options)."""
    prepare("fp32")
    tf = load().tf
    cfg = with_options(spec.sizes[name], args)
    model = spec.build_model(cfg)
    x, y = tf.function(spec.make_task(cfg))(tf.constant([0, 0], tf.int64), 1)
    units = spec.units_per_sample(cfg) if spec.units_per_sample else 1.0
    return {
        "app": spec.name, "framework": "tensorflow", "config": name,
        "configs": list(spec.sizes), "params": int(model.count_params()),
        "train_flops_per_sample": None,
        "flops_method": "not counted in TensorFlow: python -m workloads."
                        f"{spec.name} --describe (PyTorch) counts the same network",
        "input_shape": list(x.shape[1:]), "input_dtype": x.dtype.name,
        "target_shape": list(y.shape[1:]), "target_dtype": y.dtype.name,
        "batch_size": batch_size_of(spec, name, cfg), "model_config": model_config(cfg),
        "recipe": recipe_of(spec, cfg).as_dict(), "unit": spec.unit,
        "units_per_sample": units, "data_format": "synthetic only",
        "source": source_dict(getattr(spec, "source", None)),
    }
