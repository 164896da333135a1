"""FFN configurations and the training recipe of google/ffn, shared by the PyTorch (model.py)
and TensorFlow (tf_model.py) versions. Torch- and TensorFlow-free.

Sources (google/ffn @ 6f61f6e): ``ffn/training/models/convstack_3d.py`` (``depth=9``,
``features=32``: conv0_a, conv0_b and ``depth - 1`` residual modules of two 3^3 convs, 1x1
``conv_lom``; the network's output is added to its seed input, ``update_seed``),
``ffn/training/model.py`` (per-voxel sigmoid cross-entropy times ``loss_weights``, mean;
gradients clipped by value at ``max_gradient_entry_mag=0.7``), ``ffn/training/optimizer.py``
(``--optimizer sgd``, ``--learning_rate 0.001``), ``train.py`` (``--batch_size 4``,
``--seed_pad 0.05``, ``--threshold 0.9``, ``--fov_policy fixed`` (or ``max_pred_moves``),
``--fov_moves 1``, ``--shuffle_moves``, permutable axes y/x and reflectable z/y/x,
``--image_mean`` and ``--image_stddev`` required), ``ffn/training/mask.py`` (``make_seed``:
0.95 at the centre),
``ffn/training/inputs.py`` (``soften_labels``: 0.95 / 0.05), README.md (the example run:
``depth 12, fov_size [33, 33, 33], deltas [8, 8, 8], --image_mean 128 --image_stddev 33``).
"""

from __future__ import annotations

import math
from typing import Any

from workloads.runtime.contract import Recipe, Source

NAME = "ffn"
REPOSITORY = "google/ffn"
COMMIT = "6f61f6e4b1ba09208ecd01bc93fc43aa7437d3fa"
PATHS = ("ffn/training/models/convstack_3d.py, ffn/training/model.py, "
         "ffn/training/optimizer.py, ffn/training/examples.py, ffn/training/inputs.py, "
         "train.py, README.md")

# fov and deltas: convstack_3d has no default for them (the constructor needs both); the
# README's example run sets fov_size 33 and deltas 8, which the default keeps.
SIZES: dict[str, dict[str, Any]] = {
    "default": {"fov": 33, "deltas": 8, "depth": 9, "features": 32, "batch_size": 4},
    "readme": {"fov": 33, "deltas": 8, "depth": 12, "features": 32, "batch_size": 4},
    # tests: at the original's 1e-3 fifty SGD steps barely move the loss of this tiny network
    "tiny": {"fov": 7, "deltas": 2, "depth": 2, "features": 4, "batch_size": 2,
             "recipe": {"lr": 3e-2}},
}
DEFAULT_BATCH_SIZE = 4
TINY_BATCH_SIZE = 2
LR = 1e-3
CLIP_VALUE = 0.7
#: train.py --seed_pad and mask.make_seed's centre value; the seed channel is their logit
SEED_PAD = 0.05
SEED_CENTER = 0.95
#: train.py --threshold: a move is valid where the canvas logit reaches logit(0.9)
MOVE_THRESHOLD = 0.9
#: inputs.soften_labels: the object mask as 0.95 inside, 0.05 outside
LABEL_SOFTNESS = 0.05
#: README example flags --image_mean 128 --image_stddev 33 (train.py requires both)
IMAGE_MEAN = 128.0
IMAGE_STDDEV = 33.0
#: --data synthetic: training patches kept on the device and drawn from at random, rendered
#: before the first step (train.py reads its examples from fixed volumes through a TensorFlow
#: input queue that fills off the training step; rendering fresh Voronoi volumes in every step
#: cost ~7% of the default configuration's step on 2 CPU cores, docs/benchmarks.md)
POOL = 16
POOL_SEED = 20_261_126


def logit(p: float) -> float:
    return math.log(p / (1 - p))


#: train.py --fov_policy choices (its policy_map also has 'no_step', which the flag's enum
#: does not admit)
FOV_POLICIES = ("fixed", "max_pred_moves")


def fov_policy(cfg: dict[str, Any]) -> str:
    """``--fov-policy`` (train.py ``--fov_policy``, default 'fixed')."""
    policy = str(cfg.get("fov_policy") or "fixed")
    if policy not in FOV_POLICIES:
        raise ValueError(f"fov_policy {policy!r}: one of {', '.join(FOV_POLICIES)}")
    return policy


def fov_moves(cfg: dict[str, Any]) -> int:
    """train.py ``fov_moves()``: ``--fov_moves`` (default 1), plus one more move under
    'max_pred_moves' ("to get a better fill of the evaluation area"). Under 'fixed' the moves
    stay the 26 shifts of +-deltas whatever ``--fov_moves`` says (train.py's TODO: "Implement
    fov_moves > 1 for the 'fixed' policy"); the training patch still grows with it."""
    moves = int(cfg.get("fov_moves") or 1)
    if moves < 1:
        raise ValueError(f"fov_moves {moves}: at least 1")
    return moves + 1 if fov_policy(cfg) == "max_pred_moves" else moves


def patch_size(cfg: dict[str, Any]) -> int:
    """train.py ``train_image_size``: the FOV plus ``deltas`` on each side per FOV move
    (:func:`fov_moves`; the label and canvas patches are as large for convstack_3d, whose
    seed and prediction are the FOV's size)."""
    return int(cfg["fov"] + 2 * cfg["deltas"] * fov_moves(cfg))


SOURCE = Source(repository=REPOSITORY, commit=COMMIT, path=PATHS,
                note="FOV movement: train.py's 'fixed' and 'max_pred_moves' policies "
                     "(--fov-policy, --fov-moves) with prediction feedback, run on the device "
                     "(PyTorch: FFNTrainer inside the model; TensorFlow: tf_moves.FOVTrainer in "
                     "the step's tf.function)")
RECIPE = Recipe(optimizer="sgd", lr=LR, clip_grad_value=CLIP_VALUE,
                where="ffn/training/optimizer.py (--optimizer sgd, --learning_rate 0.001: "
                      "GradientDescentOptimizer, no decay flags set); ffn/training/model.py "
                      "set_up_optimizer(max_gradient_entry_mag=0.7): tf.clip_by_value per "
                      "gradient entry; train.py --batch_size 4")


class MovesGeometry:
    """The 'max_pred_moves' policy's geometry, shared by the PyTorch (moves.py) and TensorFlow
    (tf_moves.py) versions: the FOV, ``deltas`` (train.py ``--deltas``), the training patch,
    ``radius`` (train.py ``max_radius``), the quantized cells a slot can visit (``cells`` per
    axis) and the queue's ``capacity`` (at most 6 moves pushed per visit, one visit per cell)."""

    def __init__(self, fov: int, deltas: int, patch: int, threshold: float,
                 label_threshold: float) -> None:
        if fov // 2 < deltas:
            raise ValueError(f"max_pred_moves needs deltas ({deltas}) <= fov // 2 ({fov // 2}):"
                             " the faces at +-deltas lie inside the FOV")
        self.fov, self.d, self.patch = fov, deltas, patch
        self.radius = patch // 2 - fov // 2  # train.py max_radius
        self.qmax = (2 * self.radius + deltas) // (2 * deltas)
        self.cells = 2 * self.qmax + 1
        self.capacity = 1 + 6 * self.cells ** 3
        self.threshold, self.label_threshold = threshold, label_threshold
