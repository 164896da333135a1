"""qcnn (QuadConv autoencoder) and ffn (flood-filling network): the quadrature convolution
against a dense evaluation of its definition, the layer settings the original's config makes,
both apps' readers on the files ``make-data`` writes, and ffn's field-of-view (FOV) training:
moves, prediction feedback and the per-rank examples a checkpoint carries."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from workloads_testlib import TINY, needs_torch, run_app

pytestmark = needs_torch

h5py = pytest.importorskip("h5py", reason="h5py is not installed (pip install h5py)")
torch = pytest.importorskip("torch")


def _cloud(n: int, seed: int) -> torch.Tensor:
    """An irregular 3D point cloud in a 0.1-wide box (support radii 0.01..0.03 reach a few)."""
    g = torch.Generator().manual_seed(seed)
    return torch.rand((n, 3), generator=g) * torch.tensor([0.1, 0.08, 0.05])


def _dense_mask(out_pts: torch.Tensor, in_pts: torch.Tensor, decay: float) -> torch.Tensor:
    """torch_quadconv @ c32ba24 QuadConv._compute_eval_indices: the dense [out, in] test."""
    locs = out_pts.unsqueeze(1) - in_pts.unsqueeze(0)
    return (torch.linalg.vector_norm(locs, dim=2) ** 4 <= 1 / decay)


@pytest.mark.parametrize("decay", [1e7, 5e7, 5e6, 1e5])
@pytest.mark.parametrize("same", [True, False])
def test_support_pairs_are_the_dense_tests_nonzero_entries(decay: float, same: bool) -> None:
    from workloads.qcnn.quadconv import support_pairs

    in_pts = _cloud(700, 1)
    out_pts = in_pts if same else _cloud(300, 2)
    pairs = support_pairs(out_pts, in_pts, decay, max_candidates=5000)  # several chunks
    dense = torch.nonzero(_dense_mask(out_pts, in_pts, decay))
    assert len(dense) > len(out_pts)  # neighbours beyond the point itself
    assert torch.equal(pairs, dense)


def test_quadconv_equals_its_definition_evaluated_densely() -> None:
    """out[b, j, y] = bias[j, y] + sum_x [x in support(y)] w(x) bump(y-x) H(y-x)[i, j] f[b, i, x]
    over every (y, x) pair, against the sparse layer; gradients of the filter MLP too."""
    from workloads.qcnn.quadconv import QuadConv, support_pairs

    torch.manual_seed(0)
    in_pts, out_pts, decay, cin, cout = _cloud(120, 3), _cloud(50, 4), 5e6, 3, 5
    pairs = support_pairs(out_pts, in_pts, decay)
    conv = QuadConv(spatial_dim=3, in_channels=cin, out_channels=cout, out_points=50,
                    filter_seq=[8, 8], decay=decay, pairs=pairs,
                    locs=out_pts[pairs[:, 0]] - in_pts[pairs[:, 1]]).double()
    feats = torch.randn(2, cin, 120, dtype=torch.float64)
    weights = torch.rand(120, dtype=torch.float64)
    sparse = conv(feats, weights)

    locs = out_pts.unsqueeze(1) - in_pts.unsqueeze(0)  # [50, 120, 3], float32 like the mesh
    mask = _dense_mask(out_pts, in_pts, decay)
    arg = torch.linalg.vector_norm(locs, dim=2) ** 4
    bump = torch.where(mask, torch.exp(1 - 1 / (1 - decay * arg)), 0).double()
    h = conv.filter(locs.double().reshape(-1, 3)).reshape(50, 120, cin, cout)
    dense = torch.einsum("yx,yxij,x,bix->bjy", bump, h, weights, feats) + conv.bias
    # float64 sums; the bump is float32 as the mesh (the dense norm may round its last bit
    # differently), hence not 1e-15
    assert torch.allclose(sparse, dense, rtol=1e-7, atol=1e-9)

    g_sparse = torch.autograd.grad(sparse.square().sum(), list(conv.filter.parameters()))
    g_dense = torch.autograd.grad(dense.square().sum(), list(conv.filter.parameters()))
    for a, b in zip(g_sparse, g_dense, strict=True):
        assert torch.allclose(a, b, rtol=1e-7, atol=1e-9)


def test_qcnn_layers_follow_the_original_config() -> None:
    """config.yaml's decay list [1e7, 5e7, 5e7, 5e6, 5e6]: the encoder takes entries 0..2, the
    decoder the list reversed (package_args(mirror=True)); channels 4 -> 16 ... 16 -> 4; the
    grids are the param_quad grids of point_seq with the pooling halving each side."""
    from workloads.qcnn.model import SIZES, build_model

    cfg = SIZES["tiny"]
    model = build_model(cfg)
    convs = {k: m for k, m in model.named_modules() if type(m).__name__ == "QuadConv"}
    decays = {k: m.decay for k, m in convs.items()}
    assert decays == {
        "encoder.init_layer": 1e7,
        "encoder.qcnn.0.conv1": 5e7, "encoder.qcnn.0.conv2": 5e7,
        "encoder.qcnn.1.conv1": 5e7, "encoder.qcnn.1.conv2": 5e7,
        "decoder.qcnn.0.conv1": 5e6, "decoder.qcnn.0.conv2": 5e6,
        "decoder.qcnn.1.conv1": 5e6, "decoder.qcnn.1.conv2": 5e6,
        "decoder.init_layer": 5e7}
    assert (convs["encoder.init_layer"].in_channels, convs["decoder.init_layer"].out_channels) \
        == (4, 4)
    points = [model.mesh.count(k) for k in range(3)]
    assert points == cfg["point_seq"]
    assert convs["decoder.init_layer"].out_points == points[0]
    x = torch.zeros(2, 4, points[0])
    out = model(x)
    assert out.shape == x.shape and float(out.detach().abs().max()) < 1  # tanh output
    assert model.encode(x).shape == (2, cfg["latent_dim"])


def test_qcnn_reader_on_make_data_files(tmp_path: Path) -> None:
    """mesh.hdf5 ``points`` and features.hdf5 ``features`` [samples, points, channels] as
    torch_quadconv's MeshDataModule reads them; normalised per channel as it normalises (zero
    mean, unit largest magnitude over the file)."""
    from workloads.qcnn.model import SIZES, make_mesh, open_dataset, write_dataset

    cfg = SIZES["tiny"]
    write_dataset(str(tmp_path), cfg, 12, 0)
    with h5py.File(tmp_path / "features.hdf5", "r") as fh:
        raw = torch.from_numpy(fh["features"][...])
    with h5py.File(tmp_path / "mesh.hdf5", "r") as fh:
        assert torch.equal(torch.from_numpy(fh["points"][...]), make_mesh(cfg))
    assert raw.shape == (12, cfg["point_seq"][0], 4)
    ds = open_dataset(str(tmp_path), cfg)
    assert len(ds) == 12
    xs = torch.stack([ds[i][0] for i in range(12)])
    assert torch.equal(ds[3][0], ds[3][1])  # autoencoder: the target is the input
    ref = raw.movedim(-1, 1).double()
    mean = ref.mean((0, 2), keepdim=True)
    norm = (ref - mean) / ref.std((0, 2), keepdim=True)
    norm = norm / norm.abs().amax((0, 2), keepdim=True)
    assert torch.allclose(xs.double(), norm, atol=1e-5)
    assert torch.allclose(xs.abs().amax((0, 2)), torch.ones(4), atol=1e-6)

    other = dict(cfg, lattice=[9, 5, 5])
    with pytest.raises(ValueError, match="not the mesh this configuration builds"):
        open_dataset(str(tmp_path), other)


def test_ffn_reader_on_make_data_files(tmp_path: Path) -> None:
    """grayscale_maps.h5:raw (uint8) and groundtruth.h5:stack (int64) as train.py's
    --data_volumes/--label_volumes read them, centres in coords.h5 (x, y, z): a patch is the
    normalised image ((raw - 128) / 33) and the centre object's mask softened to 0.95/0.05."""
    from workloads.ffn.config import SIZES, patch_size
    from workloads.ffn.model import open_dataset, write_dataset

    cfg = SIZES["tiny"]
    write_dataset(str(tmp_path), cfg, 10, 3)
    with h5py.File(tmp_path / "grayscale_maps.h5", "r") as fh:
        raw = torch.from_numpy(fh["raw"][...])
    with h5py.File(tmp_path / "groundtruth.h5", "r") as fh:
        gt = torch.from_numpy(fh["stack"][...])
    with h5py.File(tmp_path / "coords.h5", "r") as fh:
        coords = torch.from_numpy(fh["coords"][...])
    assert raw.dtype == torch.uint8 and gt.dtype == torch.int64 and coords.shape == (10, 3)
    assert len(gt.unique()) > 3  # several objects
    ds = open_dataset(str(tmp_path), cfg)
    p, r, f = patch_size(cfg), patch_size(cfg) // 2, cfg["fov"]
    for i in (0, 7):
        x, y = ds[i]
        assert x.shape == (2, p, p, p) and y.shape == (1, f, f, f)
        cx, cy, cz = (int(v) for v in coords[i])
        img = raw[cz - r:cz + r + 1, cy - r:cy + r + 1, cx - r:cx + r + 1].float()
        lab = gt[cz - r:cz + r + 1, cy - r:cy + r + 1, cx - r:cx + r + 1]
        assert torch.allclose(x[0], (img - 128) / 33)
        inside = lab == gt[cz, cy, cx]
        assert torch.equal(x[1], torch.where(inside, 0.95, 0.05))
        assert float(x[1, r, r, r]) == pytest.approx(0.95)


def _forced_ffn() -> torch.nn.Module:
    """The tiny FFN with its output bias pushed up: every prediction clears the move
    threshold, so the FOV visits all 27 positions of an example."""
    from workloads.ffn.config import SIZES
    from workloads.ffn.model import build_model

    torch.manual_seed(0)
    model = build_model(SIZES["tiny"])
    with torch.no_grad():
        model.net.conv_lom.bias.fill_(10.0)
    return model


def _patches(n: int, seed: int) -> torch.Tensor:
    from workloads.ffn.config import SIZES
    from workloads.ffn.model import make_task

    return make_task(SIZES["tiny"], torch.device("cpu"))(torch.Generator().manual_seed(seed),
                                                        n)[0]


def test_ffn_fov_visits_the_valid_moves_and_feeds_predictions_back() -> None:
    from workloads.ffn.config import logit

    model = _forced_ffn()
    x = _patches(2, 0)
    p, f = x.shape[-1], model.fov
    out = model(x)  # first move: the centre, with the logit seed
    st = model.fov_state
    c = p // 2
    assert out.shape == (2, 2, f, f, f)
    lo = c - f // 2
    assert torch.equal(st.canvas[:, lo:lo + f, lo:lo + f, lo:lo + f], out[:, 0].detach())
    assert float(st.canvas[0, 0, 0, 0]) == pytest.approx(logit(0.05))  # outside the FOV
    assert torch.equal(out[:, 1], st.labels[:, lo:lo + f, lo:lo + f, lo:lo + f])
    assert torch.equal(st.labels[:, c, c, c], torch.full((2,), 0.95))  # the centre's object
    cursors = [st.cursor.tolist()]
    for _ in range(27):
        model(x)
        cursors.append(st.cursor.tolist())
    assert cursors[:27] == [[k, k] for k in range(1, 28)]  # centre + 26 moves of +-deltas
    assert cursors[27] == [1, 1]  # then a new example at its centre
    assert sorted(map(tuple, model.moves.abs().tolist()))[-1] == (model.deltas,) * 3


def test_ffn_examples_in_flight_resume_from_the_rank_state() -> None:
    """The FOV state is outside the state dict and travels in each rank's checkpoint file: a
    model rebuilt from (state dict, rank state, RNG) continues exactly as the first."""
    model = _forced_ffn()
    for s in range(5):
        model(_patches(2, s))
    weights, own, rng = model.state_dict(), model.rank_state(), torch.get_rng_state()
    assert not any(k.startswith("fov_state") for k in weights)
    cont = [model(_patches(2, 10 + s)) for s in range(4)]

    again = _forced_ffn()
    again.load_state_dict(weights)
    again.load_rank_state(own)
    torch.set_rng_state(rng)
    for s in range(4):
        assert torch.equal(again(_patches(2, 10 + s)), cont[s])


@pytest.mark.slow
def test_ffn_resume_keeps_each_ranks_examples(tmp_path: Path) -> None:
    """Two ranks: each rank's FOV state lands in its own checkpoint file, and a resumed run
    ends where an uninterrupted one ends."""
    ck = ["--checkpoint-dir", str(tmp_path / "ck")]
    base = [*TINY, "--warmup", "1", "--sync-every", "3"]
    whole = run_app("ffn", *base, "--steps", "9", launcher="torchrun")
    assert whole.returncode == 0, whole.stderr[-3000:]
    first = run_app("ffn", *base, "--steps", "6", *ck, launcher="torchrun")
    assert first.returncode == 0, first.stderr[-3000:]
    own = torch.load(tmp_path / "ck" / "step_000000006" / "rng_rank1.pt", weights_only=True)
    assert set(own["module"]) == {"canvas", "image", "labels", "cursor"}
    resumed = run_app("ffn", *base, "--steps", "9", *ck, launcher="torchrun")
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    out = resumed.result()
    assert out["resumed_from_step"] == 6
    assert out["param_sha256"] == whole.result()["param_sha256"]
    assert math.isfinite(out["final_loss"])


@pytest.mark.slow
@pytest.mark.parametrize("app", ["qcnn", "ffn"])
def test_make_data_files_train_through_loader_workers(app: str, tmp_path: Path) -> None:
    """``--make-data`` writes the original's format; a run reads it in two DataLoader workers."""
    data = tmp_path / "data"
    made = run_app(app, "--tiny", "--make-data", str(data), "--samples", "16")
    assert made.returncode == 0, made.stderr[-3000:]
    res = run_app(app, *TINY[:3], "--workers", "2", "--data", str(data), "--steps", "6",
                  "--warmup", "1")
    assert res.returncode == 0, res.stderr[-3000:]
    out = res.result()
    assert out["data"] == str(data) and math.isfinite(out["final_loss"])


def test_ffn_synthetic_patches_are_made_before_the_first_step() -> None:
    """train.py's examples come from fixed volumes through an input queue off the training
    step; the bundled data source renders its patch pool when it is built, and a step's batch
    is drawn from it (fresh Voronoi volumes in every step cost ~7% of the default step)."""
    from workloads.ffn.config import SIZES
    from workloads.ffn.model import make_task
    from workloads.runtime.data import SyntheticSource

    task = make_task(dict(SIZES["tiny"]), torch.device("cpu"))
    pool = task.prefill.__self__
    assert pool.missing
    source = SyntheticSource(task, 3, 0, 0, torch.device("cpu"))
    assert not pool.missing
    before = pool.x.clone()
    x, y = source.get(0)
    assert torch.equal(pool.x, before) and x.shape == (3, *before.shape[1:])
    assert all(any(torch.equal(row, p) for p in before) for row in x)
    again, _ = SyntheticSource(task, 3, 0, 0, torch.device("cpu")).get(0)
    assert torch.equal(again, x)  # the same batch for the same (seed, rank, step)


def test_ffn_synthetic_volumes_use_no_integer_matmul() -> None:
    """CUDA has no integer matrix product: on an H100 (torch 2.11) `make_task` failed with
    "addmv_impl_cuda" not implemented for 'Long' before the first step. The volumes are made
    on the run's device, so their arithmetic must avoid it; checked here on the CPU by refusing
    any matmul of integer tensors while a volume is rendered."""
    from torch.overrides import TorchFunctionMode

    from workloads.ffn.model import voronoi_volumes

    matmuls = {torch.matmul, torch.Tensor.matmul, torch.Tensor.__matmul__, torch.mm, torch.mv,
               torch.Tensor.__rmatmul__, torch.bmm, torch.addmv, torch.addmm}

    class NoIntegerMatmul(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            if func in matmuls and any(isinstance(a, torch.Tensor) and not a.is_floating_point()
                                       for a in args):
                raise AssertionError(f"integer {func.__name__} (CUDA has none)")
            return func(*args, **(kwargs or {}))

    gen = torch.Generator().manual_seed(0)
    with NoIntegerMatmul():
        image, labels = voronoi_volumes((9, 9, 9), 4, gen, 1, torch.device("cpu"))
    assert image.shape == (1, 9, 9, 9) and labels.min() >= 1
