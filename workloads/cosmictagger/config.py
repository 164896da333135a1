"""CosmicTagger sizes and defaults, shared by the PyTorch (model.py) and TensorFlow
(tf_model.py) versions so both train the same network on the same task."""

from __future__ import annotations

from typing import Any

NAME = "cosmictagger"
SIZES: dict[str, dict[str, Any]] = {
    "default": {"planes": 3, "height": 640, "width": 1024, "base": 16, "levels": 4,
                "classes": 3},
    "tiny": {"planes": 3, "height": 16, "width": 16, "base": 4, "levels": 2, "classes": 3},
}
DEFAULT_BATCH_SIZE = 8
TINY_BATCH_SIZE = 2
LR = 2e-3
#: a hit pixel is "neutrino" where more than this share of its 3x3 neighbourhood is hit
DENSE = 0.4
#: LeakyReLU slope
SLOPE = 0.1
