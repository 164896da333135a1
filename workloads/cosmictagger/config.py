"""CosmicTagger configurations, shared by the PyTorch (model.py) and TensorFlow (tf_model.py)
versions so both train the same network on the same data.

The network follows coreyjadams/CosmicTagger @156c480 (``SOURCE_COMMIT``):
``src/networks/torch/uresnet2D.py`` with the dataclasses of ``src/config/network.py``:

* ``default``: ``Network``/``UResNet`` (the repository's default, ``config.yaml``), at
  ``data.downsample: 1`` (``src/config/data.py``): 3 planes of 640x1024.
  ``run.minibatch_size: 2`` (``src/config/config.py``).
* ``a21``: ``A21`` (the Aurora acceptance model; ``src/config/a21.yaml`` sets
  ``downsample: 1``); the docstring says 8,510,547 parameters in PyTorch. Batch 8 per rank:
  ``LOCAL_BATCH_SIZE=8`` in ``example_submission_scripts/run_ct.sh`` (the Polaris/Aurora launch
  script, ``MODEL=a21`` by default) and ``sunspot/train_pt_single_tile.sh``; its precision is
  that script's ``PRECISION=mixed`` too (fp16 autocast on CUDA, fp32 elsewhere: model.py
  ``run_defaults``; the TensorFlow version runs fp32 unless ``--precision`` says otherwise).
* ``polaris``: ``Polaris`` with ``src/config/polaris.yaml``: ``downsample: 0``, i.e. the full
  1280x2048 resolution (depth 7 brings it to 10x16 at the deepest level, as depth 6 does for the
  default at 640x1024). No batch is set there: the ``Run`` default, 2.
* ``tiny``: the same structure, small, for tests and CI.

Keys: the ``Network`` dataclass fields (enums as their names), plus ``planes``, ``classes``,
``height``/``width`` (the network's input = ``FULL_*`` / 2**``downsample``), ``downsample``
and ``full_height``/``full_width`` (the resolution the larcv files hold).
"""

from __future__ import annotations

from typing import Any

from workloads.runtime.contract import Recipe, Source

NAME = "cosmictagger"
REPOSITORY = "coreyjadams/CosmicTagger"
SOURCE_COMMIT = "156c480a6433e3a0f491be5a958d88f1a51788c3"
SOURCE_PATH = ("src/networks/torch/uresnet2D.py, src/config/network.py, "
               "src/networks/torch/LossCalculator.py, src/utils/core/larcvio/larcv_fetcher.py")

#: larcv_fetcher.FULL_RESOLUTION_H / _W: the detector images as stored (rows = time ticks,
#: columns = wires; the neutrino's rows agree across planes in the example data)
FULL_HEIGHT, FULL_WIDTH = 1280, 2048

#: src/config/network.py: class Network (the defaults every preset starts from)
NETWORK: dict[str, Any] = {
    "bias": True,
    "normalization": "batch",
    "n_initial_filters": 16,
    "blocks_per_layer": 2,
    "blocks_deepest_layer": 5,
    "blocks_final": 5,
    "depth": 6,
    "filter_size_deepest": 5,
    "bottleneck_deepest": 256,
    "residual": True,
    "block_concat": False,
    "connections": "concat",
    "growth_rate": "additive",
    "downsampling": "max_pooling",
    "upsampling": "interpolation",
}


def _preset(downsample: int, full: tuple[int, int] = (FULL_HEIGHT, FULL_WIDTH),
            batch_size: int | None = None, **network: Any) -> dict[str, Any]:
    unknown = set(network) - set(NETWORK)
    assert not unknown, unknown
    cfg: dict[str, Any] = {**NETWORK, **network, "planes": 3, "classes": 3,
                           "full_height": full[0], "full_width": full[1],
                           "downsample": downsample,
                           "height": full[0] // 2**downsample, "width": full[1] // 2**downsample}
    if batch_size is not None:
        cfg["batch_size"] = batch_size
    return cfg


SIZES: dict[str, dict[str, Any]] = {
    # class UResNet(Network): the defaults
    "default": _preset(1, batch_size=2),
    # class A21(Network)
    "a21": _preset(1, batch_size=8, n_initial_filters=8, filter_size_deepest=5, residual=False,
                   block_concat=False, blocks_final=0, growth_rate="additive",
                   connections="sum"),
    # class Polaris(Network) with polaris.yaml's data.downsample: 0
    "polaris": _preset(0, batch_size=2, bias=True, blocks_deepest_layer=2, blocks_final=2,
                       depth=7, bottleneck_deepest=96, residual=False, connections="sum"),
    # tests and CI: every kind of block the default has, 3 planes of 32x64
    "tiny": _preset(1, full=(64, 128), batch_size=2, n_initial_filters=4, blocks_per_layer=1,
                    blocks_deepest_layer=1, blocks_final=1, depth=2, filter_size_deepest=3,
                    bottleneck_deepest=16),
}
DEFAULT_BATCH_SIZE = 2
TINY_BATCH_SIZE = 2
#: src/config/optimizer.py: Adam, learning_rate 0.0003, loss_balance_scheme focal
LR = 3e-4
LOSS_BALANCE = "focal"
LOSS_SCHEMES = ("focal", "light", "even", "none")
#: src/utils/core/larcvio/larcv_fetcher.py line 88: the synthetic sample's size, the
#: ``_train_data_size`` the schedule's epochs count (a run on files counts the files' events)
SYNTHETIC_EPOCH_EVENTS = 1_000_000
RECIPE = Recipe(
    optimizer="adam", lr=LR, schedule="warmup_flat_decay", warmup_lr=1e-4, warmup_epochs=1,
    flat_epochs=20, decay_rate=0.999, min_lr=1e-4, epoch_samples=SYNTHETIC_EPOCH_EVENTS,
    where="src/config/optimizer.py (Adam, learning_rate 0.0003); src/utils/torch/trainer.py "
          "init_optimizer (torch.optim.Adam at 1.0, no weight decay, no clipping; LambdaLR of "
          "lr_calculator, stepped after each optimizer step); src/utils/core/trainercore.py "
          "build_lr_schedule (lines 143-208), its default: warm_up linear from 1e-4 to the "
          "rate over epoch [0, 1), flat over [1, 21), then (rate - 1e-4) x exp(-0.999 (x - 21)) "
          "+ 1e-4, in epochs x = step x minibatch_size / _train_data_size (global batch over "
          "the training file's events; synthetic: 1e6, larcv_fetcher.py line 88)")
SOURCE = Source(REPOSITORY, SOURCE_COMMIT, SOURCE_PATH,
                note="UResNet 2D (planes through one shared-weight network), "
                     "loss_balance_scheme focal, larcv3 sparse2d data")
UNIT = "events"


def units_per_sample(cfg: dict[str, Any]) -> float:
    """One event (3 planes) per sample."""
    return 1.0

#: The original's parameters and training FLOPs per sample (forward + loss.backward() under
#: torch.utils.flop_counter.FlopCounterMode on 2 samples, / 2; matmul and convolution only),
#: counted from its source @156c480 (uresnet2D.UResNet with network.py's dataclasses, hydra
#: stubbed, on the meta device) at each preset's input. Tests hold the bundled network to
#: these: parameters within 1 %, FLOPs within 5 %. (Polaris at 640x1024: 397,574,307,840.)
ORIGINAL: dict[str, dict[str, int]] = {
    "default": {"params": 18_382_131, "train_flops_per_sample": 967_413_104_640},
    "a21": {"params": 8_510_547, "train_flops_per_sample": 94_308_802_560},
    "polaris": {"params": 1_926_403, "train_flops_per_sample": 1_590_297_231_360},
}


# ---------------------------------------------------------------- synthetic events
# events.py (PyTorch) and tf_model.py (TensorFlow) draw events with these; the numbers were
# fitted to the original's example data (events.py says what was measured).
THRESHOLD = 5.0  # ADC zero-suppression (no hit below 5.0 in the example data)
WIDTH = 0.7  # Gaussian sigma of a track's charge across it, pixels at full resolution
#: per plane: probability that a pixel is a noise hit (before the short vertical extension)
NOISE_RATE = (0.0037, 0.0037, 0.0004)
NOISE_EXTEND = 0.45  # chance that a noise hit also fills the next time tick
NOISE_LOW_SHARE = 0.9  # noise ADC: this share 5 + Exp(1), the rest log-normal NOISE_HIGH
NOISE_HIGH = (15.0, 0.6)
COSMICS = 6  # long segments per full-size (1280x2048) event, scaled with the image area
PRONGS = 5  # neutrino prongs (3 to 5)
#: per-track dE/dx: log-normal (median ADC, sigma of the log)
COSMIC_DEDX = (75.0, 0.4)
NEUTRINO_DEDX = (65.0, 0.6)
FLUCTUATION = 0.25  # per-pixel log-normal sigma along a track
POOL = 16  # events kept on the device for --data synthetic
POOL_SEED = 20_241_125
