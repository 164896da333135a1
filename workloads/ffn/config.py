"""FFN sizes and defaults, shared by the PyTorch (model.py) and TensorFlow (tf_model.py)
versions so both train the same network on the same task."""

from __future__ import annotations

from typing import Any

NAME = "ffn"
SIZES: dict[str, dict[str, Any]] = {
    "default": {"fov": 33, "depth": 8, "filters": 32},
    "tiny": {"fov": 7, "depth": 1, "filters": 4},
}
DEFAULT_BATCH_SIZE = 16
TINY_BATCH_SIZE = 2
LR = 1e-3
#: the object mask input (POM): this value everywhere, SEED_POM at the centre voxel
POM = 0.05
SEED_POM = 0.95
