"""CosmicTagger beside its original (coreyjadams/CosmicTagger @156c480): the network's size and
cost per preset, per-plane batch norm, the loss, the synthetic events' statistics, the larcv3
files make-data writes and the reader the runs use, and the TensorFlow version computing the
same function."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from workloads_testlib import HAVE_TF, TINY, needs_torch, run_app

pytestmark = needs_torch

torch = pytest.importorskip("torch")
F = torch.nn.functional

from workloads.cosmictagger import events, larcv  # noqa: E402
from workloads.cosmictagger.config import ORIGINAL, SIZES  # noqa: E402
from workloads.cosmictagger.loss import make_loss  # noqa: E402
from workloads.cosmictagger.model import APP, PlaneBatchNorm2d, UResNet  # noqa: E402
from workloads.runtime.data import mix_seed  # noqa: E402


@pytest.fixture
def one_thread():
    """One intra-op thread for in-process training: on a shared 2-core machine more threads
    only contend (the apps' own runs set their threads themselves)."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def _params_and_flops(cfg: dict) -> tuple[int, float]:
    """Parameters, and training FLOPs per sample as the measurements count them: forward +
    loss.backward() under FlopCounterMode on 2 samples, / 2 (on the meta device: no compute)."""
    from torch.utils.flop_counter import FlopCounterMode

    with torch.device("meta"):
        model = UResNet(cfg)
        x = torch.empty(2, cfg["planes"], cfg["height"], cfg["width"])
        y = torch.zeros(2, cfg["planes"], cfg["height"], cfg["width"], dtype=torch.long)
    with FlopCounterMode(display=False) as counter:
        APP.loss_fn(model(x), y).backward()
    return sum(p.numel() for p in model.parameters()), counter.get_total_flops() / 2


@pytest.mark.slow
@pytest.mark.parametrize("preset", sorted(ORIGINAL))
def test_each_preset_has_the_originals_size_and_cost(preset: str) -> None:
    """Counted from the original's source (config.ORIGINAL says how): parameters within 1 %,
    training FLOPs per sample within 5 %, at the input the preset's data path gives."""
    params, flops = _params_and_flops(SIZES[preset])
    want = ORIGINAL[preset]
    assert abs(params / want["params"] - 1) <= 0.01, (params, want)
    assert abs(flops / want["train_flops_per_sample"] - 1) <= 0.05, (flops, want)


def test_presets_follow_the_originals_configuration() -> None:
    """network.py's dataclasses and the yaml files' downsample / batch (config.py cites)."""
    d, a21, polaris = SIZES["default"], SIZES["a21"], SIZES["polaris"]
    assert (d["n_initial_filters"], d["depth"], d["residual"], d["connections"]) == (
        16, 6, True, "concat")
    assert (d["height"], d["width"], d["batch_size"]) == (640, 1024, 2)
    assert (a21["n_initial_filters"], a21["residual"], a21["blocks_final"],
            a21["connections"], a21["batch_size"]) == (8, False, 0, "sum", 8)
    assert (polaris["depth"], polaris["bottleneck_deepest"], polaris["height"],
            polaris["width"]) == (7, 96, 1280, 2048)
    assert APP.recipe is not None and (APP.recipe.optimizer, APP.recipe.lr) == ("adam", 3e-4)
    assert APP.source is not None and APP.source.commit.startswith("156c480")
    assert APP.unit == "events" and APP.units_per_sample is not None
    assert APP.units_per_sample(d) == 1


@pytest.mark.slow
def test_describe_prints_the_originals_counts() -> None:
    res = run_app("cosmictagger", "--describe", "--config", "a21")
    assert res.returncode == 0, res.stderr[-2000:]
    out = res.result()
    assert (out["params"], out["train_flops_per_sample"]) == (
        ORIGINAL["a21"]["params"], ORIGINAL["a21"]["train_flops_per_sample"])
    assert out["input_shape"] == [3, 640, 1024] and out["batch_size"] == 8
    assert out["unit"] == "events" and out["source"]["repository"] == "coreyjadams/CosmicTagger"


def test_h100_figures_of_the_old_network_are_not_applied() -> None:
    """The tuned H100 configuration was measured on the earlier 2D UNet: jobgen renders the
    runtime's defaults for the new network and says why."""
    from jobgen.plan.apps import load_app

    for cls in ("cuda", "xpu"):
        assert load_app("cosmictagger").tuned[cls].startswith(
            "not measured (network changed since the 2026-11-23 H100 measurements)")


@pytest.mark.parametrize("layout", ["contiguous", "channels_last"])
def test_batch_norm_keeps_each_planes_statistics(layout: str) -> None:
    """The original calls each module once per plane: the folded batch norm must give the
    same outputs, gradients and running statistics as three calls of one BatchNorm2d."""
    torch.manual_seed(0)
    x = torch.randn(6, 4, 5, 7, dtype=torch.float64)  # 2 samples x 3 planes
    folded = PlaneBatchNorm2d(4, planes=3).double()
    with torch.no_grad():
        folded.weight.uniform_(0.5, 1.5)
        folded.bias.uniform_(-0.5, 0.5)
    ref = torch.nn.BatchNorm2d(4).double()
    ref.load_state_dict(folded.state_dict())
    xin = x.contiguous(memory_format=torch.channels_last) if layout == "channels_last" else x
    xa, xb = xin.clone().requires_grad_(), x.clone().requires_grad_()
    out = folded(xa)
    want = torch.stack([ref(xb.view(2, 3, 4, 5, 7)[:, p]) for p in range(3)], 1).view(6, 4, 5, 7)
    torch.testing.assert_close(out, want)
    (out * torch.arange(out.numel(), dtype=out.dtype).view_as(out).sin()).sum().backward()
    (want * torch.arange(want.numel(), dtype=want.dtype).view_as(want).sin()).sum().backward()
    torch.testing.assert_close(xa.grad, xb.grad)
    torch.testing.assert_close(folded.weight.grad, ref.weight.grad)
    for name in ("running_mean", "running_var", "num_batches_tracked"):
        torch.testing.assert_close(getattr(folded, name), getattr(ref, name))


def test_planes_go_through_one_shared_network() -> None:
    """One network for all planes (a 1-channel stem; with the planes never joined,
    ``block_concat``, identical planes give identical outputs), joined at the deepest level
    (a change in plane 0 reaches plane 1's output), 3 classes per plane."""
    cfg = SIZES["tiny"]
    h, w = cfg["height"], cfg["width"]
    model = UResNet(cfg).eval()
    stem = model.initial_convolution.conv
    assert stem.in_channels == 1 and stem.kernel_size == (5, 5)
    x = torch.rand(1, 3, h, w)
    out = model(x)
    assert out.shape == (1, 3, 3, h, w)
    moved = x.clone()
    moved[:, 0] = torch.rand(h, w)
    assert not torch.allclose(model(moved)[:, :, 1], out[:, :, 1])
    apart = UResNet({**cfg, "block_concat": True}).eval()
    same = apart(x[:, [0, 0, 0]])
    torch.testing.assert_close(same[:, :, 1], same[:, :, 0])
    torch.testing.assert_close(same[:, :, 2], same[:, :, 0])


def _original_loss(scheme: str, logits: list, labels: list) -> torch.Tensor:
    """LossCalculator.forward @156c480, transcribed (planes as lists, focal and light)."""
    loss = None
    for i in range(3):
        plane = F.cross_entropy(logits[i].float(), labels[i], reduction="none")
        with torch.no_grad():
            if scheme == "focal":
                softmax = F.softmax(logits[i].float(), dim=1)
                onehot = F.one_hot(labels[i], num_classes=3).permute([0, 3, 1, 2])
                weights = torch.mean(onehot * (1 - softmax) ** 2, dim=1)
            else:
                weights = torch.full(labels[i].shape, 1.0)
                weights[labels[i] == 1] = 1.5
                weights[labels[i] == 2] = 10
        plane = torch.sum(weights * plane) / torch.sum(weights)
        loss = plane if loss is None else loss + plane
    assert loss is not None
    return loss


@pytest.mark.parametrize("scheme", ["focal", "light"])
def test_loss_is_the_originals(scheme: str) -> None:
    torch.manual_seed(1)
    out = torch.randn(2, 3, 3, 8, 16, requires_grad=True)  # [B, classes, planes, H, W]
    y = torch.randint(0, 3, (2, 3, 8, 16))
    ours = make_loss(scheme)(out, y)
    theirs = _original_loss(scheme, [out[:, :, p] for p in range(3)],
                            [y[:, p] for p in range(3)])
    torch.testing.assert_close(ours, theirs)
    g1, = torch.autograd.grad(ours, out)
    g2, = torch.autograd.grad(theirs, out)
    torch.testing.assert_close(g1, g2)
    even = make_loss("even")(out, y)
    assert torch.isfinite(even) and even > 0


def test_windowed_loss_falls_over_50_tiny_steps(one_thread: None) -> None:
    """The original's recipe (Adam, lr 3e-4, focal loss) on the synthetic events, batches as
    the runtime draws them: the mean of the last 10 losses is well below the first 10's."""
    cfg = SIZES["tiny"]
    torch.manual_seed(0)
    model = APP.build_model(cfg)
    assert APP.recipe is not None
    opt = torch.optim.Adam(model.parameters(), APP.recipe.lr)
    task = APP.make_task(cfg, torch.device("cpu"))
    gen = torch.Generator()
    losses = []
    for step in range(50):
        gen.manual_seed(mix_seed(0, 0, step))
        x, y = task(gen, APP.tiny_batch_size)
        loss = APP.loss_fn(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    first, last = sum(losses[:10]) / 10, sum(losses[-10:]) / 10
    assert last < 0.9 * first, losses


@pytest.mark.slow
def test_synthetic_events_have_the_example_datas_statistics(one_thread: None) -> None:
    """One full-size event (1280x2048 per plane) beside what the original's example file
    holds (events.py): ~0.7 % occupancy at full resolution, ~1.7 % at the default's
    640x1024, most hits background noise near threshold, a few % neutrino."""
    gen = torch.Generator()
    gen.manual_seed(3)
    adc, label = events.render(gen, 1, SIZES["default"], torch.device("cpu"))
    full = events.occupancy_stats(adc, label)
    assert 0.004 < full["occupancy"] < 0.012, full
    # one event: the example file's events vary as much (its 5 events: 0.12-1.03 %)
    assert 0.4 < full["background"] < 0.8 and 0.15 < full["cosmic"] < 0.5, full
    assert 0.02 < full["neutrino"] < 0.25, full
    assert 5.0 <= full["adc_median"] < 15, full
    assert float(adc[adc > 0].min()) >= 5.0  # zero-suppressed at 5 ADC
    ds = events.occupancy_stats(*events.downsample(adc, label, 2))
    assert 0.01 < ds["occupancy"] < 0.03, ds
    assert bool(((label > 0) <= (adc > 0)).all())  # labels only on hits


def test_synthetic_batches_come_from_the_device_pool() -> None:
    cfg = SIZES["tiny"]
    task = APP.make_task(cfg, torch.device("cpu"))
    gen = torch.Generator()
    gen.manual_seed(5)
    x, y = task(gen, 3)
    assert x.shape == y.shape == (3, 3, cfg["height"], cfg["width"])
    assert x.dtype == torch.float32 and y.dtype == torch.int64
    assert set(y.unique().tolist()) <= {0, 1, 2} and bool(((y > 0) <= (x > 0)).all())
    gen.manual_seed(5)
    x2, y2 = task(gen, 3)
    assert torch.equal(x, x2) and torch.equal(y, y2)  # a function of the generator: resumable


# ---------------------------------------------------------------- larcv3 files
def _tiny_files(tmp_path: Path, samples: int = 5) -> Path:
    return larcv.write_events(tmp_path / "data", SIZES["tiny"], samples, seed=7)


def test_make_data_writes_larcv3s_layout(tmp_path: Path) -> None:
    h5py = pytest.importorskip("h5py")
    f = _tiny_files(tmp_path)
    with h5py.File(f, "r") as h5:
        assert h5["Events/event_id"].shape == (5,)
        for producer in (larcv.IMAGE, larcv.LABEL):
            g = h5[f"Data/sparse2d_{producer}_group"]
            for name, dtype, chunk in larcv.DATASETS:
                assert g[name].dtype == dtype and g[name].chunks == (chunk,)
                assert g[name].compression == "gzip" and g[name].maxshape == (None,)
            assert g["extents"].shape == (5,) and g["voxel_extents"].shape == (15,)
            meta = g["image_meta"][0]
            assert meta["number_of_voxels"].tolist() == [128, 64]  # (wires, ticks)
        img = h5[f"Data/sparse2d_{larcv.IMAGE}_group/voxels"][:]
        lab = h5[f"Data/sparse2d_{larcv.LABEL}_group/voxels"][:]
        assert (img["id"] == lab["id"]).all() and (img["value"] >= 5.0).all()
        assert set(lab["value"].tolist()) <= {0.0, 1.0, 2.0}


def test_reader_gives_what_the_original_densifies(tmp_path: Path) -> None:
    """The round trip through the files equals the events downsampled as larcv3 does
    (average for the image, max for the label) and densified."""
    f = _tiny_files(tmp_path, samples=4)
    cfg = SIZES["tiny"]
    ds = APP.open_dataset(str(f.parent), cfg)
    assert len(ds) == 4
    gen = torch.Generator()
    gen.manual_seed(mix_seed(7, 2_000_000, 0))  # the first chunk write_events drew
    adc, label = events.render(gen, 2, cfg, torch.device("cpu"))
    want_x, want_y = events.downsample(adc, label, 2)
    for i in range(2):
        x, y = ds[i]
        assert x.shape == y.shape == (3, cfg["height"], cfg["width"])
        assert x.dtype == torch.float32 and y.dtype == torch.int64
        torch.testing.assert_close(x, want_x[i])
        assert torch.equal(y, want_y[i].long())
    loader = torch.utils.data.DataLoader(ds, batch_size=2, num_workers=1)
    xb, yb = next(iter(loader))  # through a worker process: the file opens there
    assert xb.shape == (2, 3, cfg["height"], cfg["width"])
    with pytest.raises(ValueError, match="planes of 64x128"):
        APP.open_dataset(str(f), SIZES["default"])


@pytest.mark.slow
def test_training_reads_make_data_files(tmp_path: Path) -> None:
    f = _tiny_files(tmp_path, samples=4)
    res = run_app("cosmictagger", *TINY, "--data", str(f.parent), "--steps", "3",
                  "--warmup", "1")
    assert res.returncode == 0, res.stderr[-3000:]
    out = res.result()
    assert out["data"] == str(f.parent) and out["final_loss"] > 0


@pytest.mark.slow
def test_resume_is_bit_identical(tmp_path: Path) -> None:
    """A run checkpointed at step 4 and continued to 8 ends where an uninterrupted run of 8
    does (pool draws, flips and per-plane running statistics included)."""
    ck = ["--checkpoint-dir", str(tmp_path / "ck"), "--checkpoint-every", "4"]
    base = [*TINY, "--warmup", "1"]
    first = run_app("cosmictagger", *base, "--steps", "4", *ck)
    assert first.returncode == 0, first.stderr[-3000:]
    resumed = run_app("cosmictagger", *base, "--steps", "8", *ck)
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    assert resumed.result()["resumed_from_step"] == 4
    straight = run_app("cosmictagger", *base, "--steps", "8")
    assert resumed.result()["param_sha256"] == straight.result()["param_sha256"]


# ---------------------------------------------------------------- TensorFlow
@pytest.mark.slow
@pytest.mark.skipif(not HAVE_TF, reason="tensorflow is not installed")
def test_tensorflow_version_computes_the_same_function(one_thread: None) -> None:
    """The PyTorch weights copied into the Keras model (layer for layer): the same outputs
    and loss in evaluation and in training mode (per-plane batch statistics), and the same
    running statistics after it."""
    os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
    from workloads.cosmictagger import tf_model
    from workloads.tfruntime.backend import load

    tf = load().tf
    cfg = SIZES["tiny"]
    torch.manual_seed(0)
    tm = UResNet(cfg)
    km, weighted = tf_model._build(cfg)
    mods = [m for m in tm.modules() if isinstance(m, torch.nn.Conv2d | torch.nn.BatchNorm2d)]
    assert len(mods) == len(weighted)
    assert sum(p.numel() for p in tm.parameters()) == sum(
        int(tf.size(v)) for v in km.trainable_variables)
    for m, layer in zip(mods, weighted, strict=True):
        if isinstance(m, torch.nn.Conv2d):
            layer.set_weights([m.weight.detach().permute(2, 3, 1, 0).numpy(),
                               m.bias.detach().numpy()])
        else:
            with torch.no_grad():
                m.weight.uniform_(0.5, 1.5)
                m.bias.uniform_(-0.1, 0.1)
            layer.set_weights([t.detach().numpy() for t in (m.weight, m.bias, m.running_mean,
                                                           m.running_var)])
    h, w = cfg["height"], cfg["width"]
    x = torch.rand(2, 3, h, w) * (torch.rand(2, 3, h, w) < 0.1) * 30
    y = torch.randint(0, 3, (2, 3, h, w))
    for training in (False, True):
        tm.train(training)
        ours = tm(x)
        keras = km(tf.constant(x.permute(0, 2, 3, 1).numpy()), training=training)
        torch.testing.assert_close(torch.from_numpy(keras.numpy()).permute(0, 4, 3, 1, 2),
                                   ours.detach(), atol=2e-3, rtol=1e-3)
        loss_tf = tf_model.make_loss("focal")(keras, tf.constant(y.permute(0, 2, 3, 1).numpy()))
        assert float(loss_tf) == pytest.approx(make_loss("focal")(ours, y).item(), rel=1e-4)
    # one training call: the running statistics moved the same way (plane after plane)
    for m, layer in zip(mods, weighted, strict=True):
        if isinstance(m, torch.nn.BatchNorm2d):
            torch.testing.assert_close(torch.from_numpy(layer.moving_mean.numpy()),
                                       m.running_mean, atol=1e-4, rtol=1e-4)
            torch.testing.assert_close(torch.from_numpy(layer.moving_variance.numpy()),
                                       m.running_var, atol=1e-4, rtol=1e-4)
