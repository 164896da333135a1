"""``python -m workloads.<app> --describe [--config NAME]``: what a configuration is, in one
JSON line, without training: parameters and training FLOPs per sample (counted as
runtime/flops.py says), the per-sample input and target, the batch, the recipe, the unit and
the original it follows."""

from __future__ import annotations

from typing import Any

import torch

from .contract import batch_size_of, model_config, recipe_of, source_dict, with_options
from .flops import METHOD, sample_batch, train_flops


def _shape(t: torch.Tensor) -> list[int]:
    return list(t.shape[1:])


def describe(spec: Any, name: str, args: Any = None) -> dict[str, Any]:
    """``args``: the command line, for the app's own options (contract.with_options)."""
    cfg = with_options(spec.sizes[name], args)
    x, y = sample_batch(spec, cfg)
    params, flops, where = train_flops(spec, cfg, batch=(x, y))
    recipe = recipe_of(spec, cfg)
    units = spec.units_per_sample(cfg) if spec.units_per_sample else 1.0
    return {
        "app": spec.name, "framework": "pytorch", "config": name, "configs": list(spec.sizes),
        "params": params, "train_flops_per_sample": flops,
        "flops_method": f"{METHOD}; counted on {where}",
        "input_shape": _shape(x), "input_dtype": str(x.dtype).removeprefix("torch."),
        "target_shape": _shape(y), "target_dtype": str(y.dtype).removeprefix("torch."),
        "batch_size": batch_size_of(spec, name, cfg),
        "grad_accum": int(cfg.get("grad_accum") or 1), "model_config": model_config(cfg),
        "recipe": recipe.as_dict(), "unit": spec.unit, "units_per_sample": units,
        "data_format": "own reader/writer" if spec.write_dataset else "npy shards",
        "source": source_dict(spec.source),
    }
