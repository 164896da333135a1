"""The TensorFlow version's FOV movement (workloads/ffn/tf_moves.py) against google/ffn's own
code, as test_ffn_moves.py checks the PyTorch version's: the numpy transcriptions of
``max_pred_offsets`` / ``get_scored_move_offsets`` / ``fixed_offsets`` (ffn_original.py) on
hand-built prediction volumes, the network replaced by a stub whose update is
``image - seed``; then real TensorFlow runs (loss, resume)."""

from __future__ import annotations

from pathlib import Path

import pytest
from ffn_original import (
    LOGIT_09,
    check_scored_moves,
    hand_built,
    original_fixed_visits,
    original_visits,
    scored_moves_case,
)
from workloads_testlib import TF, TINY, needs_tf, run_app

from workloads.runtime import checkpoint as ckpt

pytestmark = needs_tf

np = pytest.importorskip("numpy")
TIMEOUT = 600


def _trainer(fov_policy: str, fov_moves: int, batch: int = 2):
    from workloads.ffn.config import SIZES
    from workloads.ffn.tf_moves import FOVTrainer

    cfg = dict(SIZES["tiny"], fov_policy=fov_policy, fov_moves=fov_moves)
    return FOVTrainer(cfg, batch, seed=0, rank=0)


def _stub_step(trainer):
    """One step with the stub network: logits = seed + (image - seed), as the runtime's
    tf.function runs select / network / feedback."""
    from workloads.tfruntime.backend import load

    tf = load().tf

    @tf.function
    def step(x):
        net_in, labels, at = trainer.select(x)
        seed = net_in[..., 1:2]
        logits = seed + (net_in[..., 0:1] - seed)
        trainer.feedback(logits, at)
        return at, tf.concat([logits, labels], -1)

    return step


def _x(p: int, seed: int, batch: int = 2):
    return np.ascontiguousarray(hand_built(p, seed, batch).transpose(0, 2, 3, 4, 1))


def _seed0(trainer):
    p = trainer.size
    seed0 = np.full((p, p, p), trainer.seed_pad, np.float32)
    seed0[p // 2, p // 2, p // 2] = trainer.seed_center
    return seed0


@pytest.mark.parametrize(("fov_moves", "data_seed"), [(1, 0), (1, 1), (2, 2)])
def test_max_pred_moves_visit_what_the_original_visits(fov_moves: int, data_seed: int) -> None:
    tr = _trainer("max_pred_moves", fov_moves)
    step, x = _stub_step(tr), _x(tr.size, data_seed)
    visits = [[tuple(a)] for a in step(x)[0].numpy().tolist()]  # each slot's first example
    assert visits == [[(0, 0, 0)], [(0, 0, 0)]]
    expected = [original_visits(tr.v["image"][b].numpy(), tr.v["labels"][b].numpy(),
                                _seed0(tr), tr.fov, tr.deltas, fov_moves) for b in range(2)]
    assert all(len(e) > 8 for e in expected)  # the hand-built volumes make long walks
    for _ in range(max(map(len, expected)) + 1):
        for b, at in enumerate(step(x)[0].numpy().tolist()):
            visits[b].append(tuple(at))
    for b in range(2):
        n = len(expected[b])
        assert visits[b][:n] == expected[b], b
        assert visits[b][n] == (0, 0, 0)  # the centre cell again: a new example
    assert int(tr.v["tail"].numpy().max()) < tr.v["queue"].shape[1]  # never filled up


@pytest.mark.parametrize("fov_moves", [1, 2])
def test_fixed_policy_visits_what_fixed_offsets_visits(fov_moves: int) -> None:
    """The centre, then the 26 shifts of +-deltas in the run's shuffled order, each taken when
    the canvas there (updated by the earlier moves' predictions) reaches logit(0.9)."""
    tr = _trainer("fixed", fov_moves)
    assert tr.size == tr.fov + 2 * tr.deltas * fov_moves
    step, x = _stub_step(tr), _x(tr.size, 5)
    visits = [[tuple(a)] for a in step(x)[0].numpy().tolist()]
    shifts = [tuple(int(v) for v in m[::-1]) for m in tr.moves[1:]]  # xyz
    expected = [original_fixed_visits(tr.v["image"][b].numpy(), tr.v["labels"][b].numpy(),
                                      _seed0(tr), tr.fov, shifts) for b in range(2)]
    assert all(len(e) > 5 for e in expected)
    for _ in range(max(map(len, expected)) + 1):
        for b, at in enumerate(step(x)[0].numpy().tolist()):
            visits[b].append(tuple(at))
    for b in range(2):
        n = len(expected[b])
        assert visits[b][:n] == expected[b], b
        assert visits[b][n] == (0, 0, 0)


def test_scored_moves_sort_as_the_original_sorts() -> None:
    """Ties inside a face (first maximum in C order) and between faces (the position decides),
    a voxel on two faces' edge once, moves below the threshold dropped."""
    from workloads.ffn.tf_moves import MaxPredMovesTF

    fov, d = 9, 3
    policy = MaxPredMovesTF(fov, d, fov + 4 * d, LOGIT_09, 0.9)
    preds = scored_moves_case(fov, d)
    off, keep = (t.numpy() for t in policy.scored_moves(preds))
    check_scored_moves(preds, off, keep, d)


def test_examples_in_flight_resume_from_the_trainer_state() -> None:
    """The canvas, patch, queue (head, tail, visited cells) and augmentation counter travel
    in the state: a trainer rebuilt from it continues exactly as the first."""
    tr = _trainer("max_pred_moves", 2)
    step = _stub_step(tr)
    for s in range(6):
        step(_x(tr.size, 10 + s))
    own = tr.state()
    assert {"queue", "head", "tail", "done", "canvas", "draws"} <= set(own)
    assert int(own["tail"].min()) > 1  # moves queued: an example in flight
    cont = [step(_x(tr.size, 20 + s))[1].numpy() for s in range(5)]
    again = _trainer("max_pred_moves", 2)
    again.load_state(own)
    step2 = _stub_step(again)
    for s in range(5):
        assert np.array_equal(step2(_x(tr.size, 20 + s))[1].numpy(), cont[s])
    with pytest.raises(RuntimeError, match="another --fov-policy"):
        _trainer("fixed", 2).load_state(own)


@pytest.mark.slow
def test_fov_moves_2_runs_and_windowed_loss_falls_over_50_tiny_steps() -> None:
    fixed = run_app("ffn", *TF, *TINY, "--fov-moves", "2", "--steps", "3", "--warmup", "1",
                    timeout=TIMEOUT)
    assert fixed.returncode == 0, fixed.stderr[-3000:]
    assert fixed.result()["final_loss"] > 0
    res = run_app("ffn", *TF, *TINY, "--fov-policy", "max_pred_moves", "--fov-moves", "2",
                  "--steps", "50", "--warmup", "1", "--loss-window", "10", timeout=TIMEOUT)
    assert res.returncode == 0, res.stderr[-3000:]
    out = res.result()
    assert out["final_loss_window_mean"] < out["first_loss_window_mean"], out


@pytest.mark.slow
def test_max_pred_resume_is_bit_identical(tmp_path: Path) -> None:
    """A run stopped at step 5 and resumed ends with the weights of an uninterrupted one."""
    ck = ["--checkpoint-dir", str(tmp_path / "ck")]
    base = [*TF, *TINY, "--fov-policy", "max_pred_moves", "--warmup", "1", "--sync-every", "3"]
    whole = run_app("ffn", *base, "--steps", "9", timeout=TIMEOUT)
    assert whole.returncode == 0, whole.stderr[-3000:]
    first = run_app("ffn", *base, "--steps", "5", *ck, timeout=TIMEOUT)
    assert first.returncode == 0, first.stderr[-3000:]
    own = ckpt.NPZ.load(tmp_path / "ck" / "step_000000005" / "rank0.npz")
    assert {"queue", "head", "tail", "done"} <= set(own["trainer"])  # the examples in flight
    resumed = run_app("ffn", *base, "--steps", "9", *ck, timeout=TIMEOUT)
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    assert resumed.result()["resumed_from_step"] == 5
    assert resumed.result()["param_sha256"] == whole.result()["param_sha256"]
    other = run_app("ffn", *TF, *TINY, "--warmup", "1", "--steps", "9", *ck, timeout=TIMEOUT)
    assert other.returncode != 0  # another --fov-policy: refused, and the reason named
    assert "configuration differs in fov_policy: fov_policy='max_pred_moves' there, None here" \
        in other.stderr, other.stderr[-3000:]
