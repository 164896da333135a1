"""unet3d and pointnet are their originals (issue 22): parameters and training FLOPs per sample
of each configuration beside the original's, the readers of the originals' data formats on
files ``--make-data`` wrote, and training on them.

The originals' figures, and how they were counted:

* unet3d: NERSC/sc22-dl-tutorial@21ea7dc ``networks/UNet.py`` built in PyTorch,
  ``UNet(params)`` with ``full_scale`` True / False and ``N_out_channels=5``, at
  [2, 4, 64, 64, 64], counted as ``workloads/runtime/flops.py`` says (the same count on real
  CPU tensors and on the meta device: 80,463,527,936 FLOPs per sample for full_scale). Loading
  the original's state dict into the bundled model gives bit-identical outputs.
* pointnet: charlesq34/pointnet@2618f72 TensorFlow graphs built under ``tf.compat.v1``
  (TensorFlow 2.21, graph mode): ``part_seg/pointnet_part_seg.py`` ``get_model`` (16
  categories, 50 parts, 2048 points) has 8,574,923 trainable variables in 84 tensors,
  ``models/pointnet_seg.py`` 3,558,907 in 82 (the bundled models have the same tensor sizes).
  Training FLOPs: 3 x the graph's forward float operations per sample
  (``tf.compat.v1.profiler`` ``float_operation``, batch 2): 3 x 12,243,146,875 and
  3 x 4,912,304,874 (the profiler also counts bias adds and batch norm, which the PyTorch count
  leaves out: about 1-2% of the forward pass here).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from workloads_testlib import TINY, needs_torch, run_app

pytestmark = needs_torch
needs_h5py = pytest.mark.skipif(importlib.util.find_spec("h5py") is None,
                                reason="h5py is not installed (pip install h5py, in the "
                                "workloads extra) - HDF5 readers not exercised")

SC22 = "NERSC/sc22-dl-tutorial@21ea7dc networks/UNet.py"
POINTNET = "charlesq34/pointnet@2618f72"
#: (app, config) -> (parameters, training FLOPs per sample, what was counted)
ORIGINALS = {
    ("unet3d", "default"): (116_977_029, 80_463_527_936, f"{SC22} full_scale=True"),
    ("unet3d", "full_scale"): (116_977_029, 80_463_527_936, f"{SC22} full_scale=True"),
    ("unet3d", "summit"): (116_977_029, 80_463_527_936, f"{SC22} full_scale=True"),
    ("unet3d", "five_scale"): (66_644_357, 79_456_894_976, f"{SC22} full_scale=False"),
    ("pointnet", "default"): (8_574_923, 3 * 12_243_146_875,
                              f"{POINTNET} part_seg/pointnet_part_seg.py"),
    ("pointnet", "part_seg"): (8_574_923, 3 * 12_243_146_875,
                               f"{POINTNET} part_seg/pointnet_part_seg.py"),
    ("pointnet", "seg"): (3_558_907, 3 * 4_912_304_874, f"{POINTNET} models/pointnet_seg.py"),
}


def _spec(app: str):
    import importlib

    return importlib.import_module(f"workloads.{app}.model").APP


@pytest.mark.parametrize(("app", "config"), sorted(ORIGINALS))
def test_each_configuration_has_the_originals_size_and_cost(app: str, config: str) -> None:
    from workloads.runtime.flops import train_flops

    params, flops, what = ORIGINALS[(app, config)]
    spec = _spec(app)
    got_params, got_flops, _ = train_flops(spec, dict(spec.sizes[config]))
    assert abs(got_params - params) <= 0.01 * params, (what, got_params, params)
    assert abs(got_flops - flops) <= 0.05 * flops, (what, got_flops, flops)


def test_every_non_test_configuration_is_checked_against_an_original() -> None:
    for app in ("unet3d", "pointnet"):
        configs = set(_spec(app).sizes) - {"tiny"}
        assert configs == {c for a, c in ORIGINALS if a == app}, app


def test_unet3d_rotations_are_the_loaders_24_distinct_maps() -> None:
    import numpy as np

    from workloads.unet3d.data import rotate

    cube = np.random.default_rng(0).random((2, 4, 4, 4))
    assert len({rotate(cube, k).tobytes() for k in range(1, 25)}) == 24
    assert np.array_equal(rotate(cube, 24), cube)
    # rand == 4 of RandomRotator: x.transpose([0, 2, 1, 3])[:, ::-1, :, :]
    assert np.array_equal(rotate(cube, 4), cube.transpose(0, 2, 1, 3)[:, ::-1])


@needs_h5py
def test_unet3d_reads_random_crops_of_the_sc22_file(tmp_path: Path) -> None:
    import h5py
    import numpy as np

    from workloads.unet3d.data import rotate

    spec = _spec("unet3d")
    cfg = dict(spec.sizes["tiny"])
    fname = spec.write_dataset(str(tmp_path / "d"), cfg, 12, 3)
    with h5py.File(fname, "r") as f:
        nbody, hydro = f["Nbody"][...], f["Hydro"][...]
    box = cfg["make_data_box"]
    assert nbody.shape == (4, box, box, box) and hydro.shape == (5, box, box, box)
    assert nbody.dtype == hydro.dtype == np.float32
    # normalised as the tutorial's files: log(rho)/14 and the other fields inside tanh's range
    assert np.abs(nbody).max() < 1 and np.abs(hydro).max() < 1
    assert -0.6 < hydro[4].mean() < -0.2  # log(T ~ 10^4 K)/8 - 1.5
    ds = spec.open_dataset(str(tmp_path / "d"), cfg)
    assert len(ds) == 12
    s = cfg["size"]
    for idx in (0, 5, 11):
        x, y = ds[idx]
        cx, cy, cz, k = ds.crop_of(idx)
        assert 0 <= min(cx, cy, cz) and max(cx, cy, cz) < box - s and 1 <= k <= 24
        want_x = rotate(nbody[:, cx:cx + s, cy:cy + s, cz:cz + s], k)
        want_y = rotate(hydro[:, cx:cx + s, cy:cy + s, cz:cz + s], k)
        assert np.array_equal(x.numpy(), want_x) and np.array_equal(y.numpy(), want_y)
    assert all(a.equal(b) for a, b in zip(ds[5], ds[5], strict=True))  # resumable


@needs_h5py
def test_unet3d_refuses_a_file_that_is_not_an_sc22_box(tmp_path: Path) -> None:
    import h5py

    spec = _spec("unet3d")
    with h5py.File(tmp_path / "x.h5", "w") as f:
        f.create_dataset("data", data=[1.0])
    with pytest.raises(ValueError, match="no 'Nbody' dataset"):
        spec.open_dataset(str(tmp_path / "x.h5"), dict(spec.sizes["tiny"]))


@needs_h5py
def test_pointnet_reads_shapenet_part_files(tmp_path: Path) -> None:
    import h5py
    import numpy as np

    from workloads.pointnet.data import CATEGORIES, NPARTS, OFFSETS

    spec = _spec("pointnet")
    cfg = dict(spec.sizes["tiny"])
    out = spec.write_dataset(str(tmp_path / "hdf5_data"), cfg, 40, 1)
    names = (out / "train_hdf5_file_list.txt").read_text().split()
    assert names == ["ply_data_train0.h5"]
    assert len(json.loads((out / "overallid_to_catid_partid.json").read_text())) == 50
    assert len((out / "all_object_categories.txt").read_text().splitlines()) == len(CATEGORIES)
    with h5py.File(out / names[0], "r") as f:
        data, label, pid = f["data"][...], f["label"][...], f["pid"][...]
    assert data.shape == (40, 2048, 3) and label.shape == (40, 1) and pid.shape == (40, 2048)
    assert np.linalg.norm(data, axis=2).max() <= 1 + 1e-5  # in the unit sphere
    for c, parts in zip(label[:, 0], pid, strict=True):  # parts of the object's category
        assert OFFSETS[c] <= parts.min() and parts.max() < OFFSETS[c] + NPARTS[c]
    ds = spec.open_dataset(str(out), cfg)
    assert len(ds) == 40
    x, y = ds[7]
    n = cfg["points"]
    assert tuple(x.shape) == (3 + 16, n) and tuple(y.shape) == (n,)
    assert np.allclose(x[:3].T.numpy(), data[7, :n]) and np.array_equal(y.numpy(), pid[7, :n])
    assert int(x[3:, 0].argmax()) == label[7, 0] and float(x[3:].sum()) == n


def test_pointnet_loss_has_the_orthogonality_term_and_runs_under_bf16() -> None:
    import torch

    spec = _spec("pointnet")
    cfg = dict(spec.sizes["tiny"])
    torch.manual_seed(0)
    model = spec.build_model(cfg)
    x, y = spec.make_task(cfg, torch.device("cpu"))(torch.Generator().manual_seed(0), 4)
    seg, cls, transform, category = model(x)
    k = cfg["mlp1"][-1]
    assert seg.shape == (4, 50, cfg["points"]) and cls.shape == (4, 16)
    assert transform.shape == (4, k, k) and torch.equal(category, x[:, 3:, 0].argmax(1))
    # the feature transform starts at the identity: the regulariser is 0
    ce = torch.nn.functional.cross_entropy(seg, y)
    assert torch.allclose(spec.loss_fn((seg, cls, transform, category), y), ce)
    bent = transform + 0.1
    diff = bent @ bent.transpose(1, 2) - torch.eye(k)
    want = ce + 1e-3 * 0.5 * diff.square().sum()  # tf.nn.l2_loss: half the sum, whole batch
    assert torch.allclose(spec.loss_fn((seg, cls, bent, category), y), want)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        loss = spec.loss_fn(model(x), y)
    assert loss.dtype == torch.float32 and torch.isfinite(loss)
    loss.backward()
    assert all(p.grad is not None for p in model.parameters())  # DDP needs every gradient


@needs_h5py
@pytest.mark.slow  # two real runs, ~7 s each on an idle 2-core machine
@pytest.mark.parametrize("app", ["unet3d", "pointnet"])
def test_windowed_loss_falls_over_50_steps_on_make_data_files(app: str, tmp_path: Path) -> None:
    data = tmp_path / "data"
    made = run_app(app, "--tiny", "--make-data", str(data), "--samples", "64")
    assert made.returncode == 0, made.stderr
    res = run_app(app, *TINY, "--data", str(data), "--steps", "50", "--warmup", "1")
    assert res.returncode == 0, res.stderr
    out = res.result()
    assert out["final_loss_window_mean"] < 0.95 * out["first_loss_window_mean"], out
