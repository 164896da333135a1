"""FFN's 'max_pred_moves' FOV policy and ``--fov-moves`` against google/ffn's own code.

The expected moves come from numpy transcriptions of the original (google/ffn @
6f61f6e4b1ba09208ecd01bc93fc43aa7437d3fa): ``ffn/inference/movement.py``
``get_scored_move_offsets``, ``ffn/training/examples.py`` ``max_pred_offsets`` and
``get_example``'s loop with ``BatchExampleIter.update_seeds`` (the prediction written into the
seed canvas between moves), ``ffn/training/mask.py`` ``crop_and_pad``, and train.py's
``max_radius`` (``train_image_radius - input_image_radius``). The network is replaced by a stub
whose update is ``image - seed``, so each prediction is a hand-built logit volume (the image
channel) and the policy's choices can be followed step by step.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from ffn_original import (
    LOGIT_09,
    check_scored_moves,
    hand_built,
    original_visits,
    scored_moves_case,
)
from workloads_testlib import TINY, needs_torch, run_app

pytestmark = needs_torch

np = pytest.importorskip("numpy")
torch = pytest.importorskip("torch")


# ------------------------------------------------------------------------------ the bundled
def _stub_model(fov_moves: int) -> torch.nn.Module:
    from workloads.ffn.config import SIZES
    from workloads.ffn.model import build_model

    class ImageIsThePrediction(torch.nn.Module):
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return x[:, 0:1] - x[:, 1:2]

    torch.manual_seed(0)
    model = build_model(dict(SIZES["tiny"], fov_policy="max_pred_moves", fov_moves=fov_moves))
    model.net = ImageIsThePrediction()
    return model


def _hand_built(p: int, seed: int, batch: int) -> torch.Tensor:
    return torch.from_numpy(hand_built(p, seed, batch))


@pytest.mark.parametrize(("fov_moves", "data_seed"), [(1, 0), (1, 1), (2, 2)])
def test_max_pred_moves_visit_what_the_original_visits(fov_moves: int, data_seed: int) -> None:
    model = _stub_model(fov_moves)
    p, fov, d = model.size, model.fov, model.deltas
    x = _hand_built(p, data_seed, 2)
    st = model.fov_state
    model(x)  # each slot's first example, at its centre
    seed0 = torch.full((p, p, p), model.seed_pad)
    seed0[p // 2, p // 2, p // 2] = model.seed_center
    expected = [original_visits(st.image[b].numpy(), st.labels[b].numpy(), seed0.numpy(),
                                fov, d, fov_moves) for b in range(2)]
    assert all(len(e) > 8 for e in expected)  # the hand-built volumes make long walks
    visits: list[list[tuple[int, ...]]] = [[(0, 0, 0)], [(0, 0, 0)]]
    for _ in range(max(map(len, expected)) + 1):
        model(x)
        for b in range(2):
            visits[b].append(tuple(st.queue[b, st.head[b] - 1].tolist()))
    for b in range(2):
        n = len(expected[b])
        assert visits[b][:n] == expected[b], b
        assert visits[b][n] == (0, 0, 0)  # the centre cell again: a new example
    assert int(st.tail.max()) < st.queue.shape[1]  # the queue never filled up


def test_scored_moves_sort_as_the_original_sorts() -> None:
    """Faces with ties inside (first maximum in C order) and between faces (same score: the
    position decides), a voxel on two faces' edge once, moves below the threshold dropped."""
    from workloads.ffn.moves import MaxPredMoves

    fov, d = 9, 3
    policy = MaxPredMoves(fov, d, fov + 4 * d, LOGIT_09, 0.9)
    preds = scored_moves_case(fov, d)
    off, keep = policy.scored_moves(torch.from_numpy(preds))
    check_scored_moves(preds, off, keep, d)


def test_patch_grows_with_fov_moves_as_train_py_sizes_it() -> None:
    """train_image_size = input_image_size + 2 deltas fov_moves(), fov_moves() one more under
    max_pred_moves; the fixed policy keeps its 26 shifts of +-deltas."""
    from workloads.ffn.config import SIZES, patch_size

    tiny = SIZES["tiny"]
    assert patch_size(tiny) == 7 + 2 * 2
    assert patch_size(dict(tiny, fov_moves=2)) == 7 + 2 * 2 * 2
    assert patch_size(dict(tiny, fov_policy="max_pred_moves")) == 7 + 2 * 2 * 2
    assert patch_size(dict(tiny, fov_policy="max_pred_moves", fov_moves=2)) == 7 + 2 * 2 * 3
    with pytest.raises(ValueError, match="fov_policy"):
        patch_size(dict(tiny, fov_policy="no_step"))


def test_max_pred_examples_in_flight_resume_from_the_rank_state() -> None:
    """The queue, its head and tail and the visited cells travel in the rank state: a model
    rebuilt from (state dict, rank state, RNG) continues exactly as the first."""
    model = _stub_model(2)
    p = model.size
    for s in range(6):
        model(_hand_built(p, 10 + s, 2))
    own, rng = model.rank_state(), torch.get_rng_state()
    assert {"queue", "head", "tail", "done", "canvas"} <= set(own)
    assert int(model.fov_state.tail.min()) > 1  # moves queued: an example in flight
    cont = [model(_hand_built(p, 20 + s, 2)) for s in range(5)]
    again = _stub_model(2)
    again.load_rank_state(own)
    torch.set_rng_state(rng)
    for s in range(5):
        assert torch.equal(again(_hand_built(p, 20 + s, 2)), cont[s])
    with pytest.raises(ValueError, match="another --fov-policy"):
        _stub_model(1).load_rank_state({k: own[k] for k in ("canvas", "image", "labels",
                                                            "cursor")})


@pytest.mark.slow
def test_fov_moves_2_windowed_loss_falls_over_50_tiny_steps() -> None:
    res = run_app("ffn", *TINY, "--fov-policy", "max_pred_moves", "--fov-moves", "2",
                  "--steps", "50", "--warmup", "1", "--loss-window", "10")
    assert res.returncode == 0, res.stderr[-3000:]
    out = res.result()
    assert out["final_loss_window_mean"] < out["first_loss_window_mean"], out


@pytest.mark.slow
def test_max_pred_resume_is_bit_identical(tmp_path: Path) -> None:
    """A run stopped at step 5 and resumed ends with the weights of an uninterrupted one."""
    ck = ["--checkpoint-dir", str(tmp_path / "ck")]
    base = [*TINY, "--fov-policy", "max_pred_moves", "--warmup", "1", "--sync-every", "3"]
    whole = run_app("ffn", *base, "--steps", "9")
    assert whole.returncode == 0, whole.stderr[-3000:]
    first = run_app("ffn", *base, "--steps", "5", *ck)
    assert first.returncode == 0, first.stderr[-3000:]
    own = torch.load(tmp_path / "ck" / "step_000000005" / "rng_rank0.pt", weights_only=True)
    assert {"queue", "head", "tail", "done"} <= set(own["module"])  # the examples in flight
    resumed = run_app("ffn", *base, "--steps", "9", *ck)
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    assert resumed.result()["resumed_from_step"] == 5
    assert resumed.result()["param_sha256"] == whole.result()["param_sha256"]


def test_options_parse_for_both_frameworks() -> None:
    """``--fov-policy`` / ``--fov-moves`` come from the manifest's ``options:`` (what jobgen
    checks ``--app-args`` with); the TensorFlow version, which moves the FOV too
    (workloads/ffn/tf_moves.py), takes them as well; the default value leaves the
    configuration (and so checkpoints) as it was."""
    from workloads.runtime.cli import check_args
    from workloads.runtime.contract import with_options

    ns, err = check_args("ffn", ["--tiny", "--fov-policy", "max_pred_moves", "--fov-moves", "2"])
    assert err is None and ns is not None
    assert with_options({"fov": 7}, ns) == {"fov": 7, "fov_policy": "max_pred_moves",
                                            "fov_moves": 2}
    ns, err = check_args("ffn", ["--fov-policy", "fixed", "--fov-moves", "1"])
    assert ns is not None and with_options({"fov": 7}, ns) == {"fov": 7}
    for bad, why in ((["--fov-moves", "0"], "not a positive"),
                     (["--fov-policy", "no_step"], "invalid choice")):
        assert why in str(check_args("ffn", bad)[1])
    ns, err = check_args("ffn", ["--fov-policy", "max_pred_moves", "--fov-moves", "2"],
                         "tensorflow")
    assert err is None and ns is not None
    assert with_options({"fov": 7}, ns) == {"fov": 7, "fov_policy": "max_pred_moves",
                                            "fov_moves": 2}
    _, err = check_args("ffn", ["--fov-moves", "0"], "tensorflow")
    assert err is not None and "not a positive" in err
    _, err = check_args("gpt", ["--fov-policy", "fixed"])
    assert err is not None and "unrecognized" in err  # an app without the option


def test_option_one_framework_lacks_is_refused_with_the_manifests_reason(monkeypatch) -> None:
    """An option the manifest lists for some frameworks only (``frameworks:``) is refused on
    the others with the manifest's ``missing`` reason, in one line that names the way out;
    the frameworks it lists take it as usual."""
    import workloads.runtime.cli as cli

    options = {"fov-moves": {"type": "int", "default": 1, "help": "moves",
                             "frameworks": ["pytorch"],
                             "missing": "the TensorFlow loop has no FOV movement"}}
    monkeypatch.setattr(cli, "manifest_options", lambda app: options)
    _, err = cli.check_args("ffn", ["--fov-moves", "2"], "tensorflow")
    assert err is not None and "\n" not in err.strip()
    assert "the tensorflow version of ffn does not have it" in err
    assert "the TensorFlow loop has no FOV movement" in err and "--framework pytorch" in err
    ns, err = cli.check_args("ffn", ["--fov-moves", "2"], "pytorch")
    assert err is None and ns is not None and ns.fov_moves == 2
