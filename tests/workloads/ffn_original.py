"""numpy transcriptions of google/ffn's FOV movement (google/ffn @
6f61f6e4b1ba09208ecd01bc93fc43aa7437d3fa): ``ffn/inference/movement.py``
``get_scored_move_offsets``, ``ffn/training/examples.py`` ``max_pred_offsets`` and
``get_example``'s loop with ``BatchExampleIter.update_seeds`` (the prediction written into the
seed canvas between moves), ``ffn/training/mask.py`` ``crop_and_pad``, and train.py's
``max_radius``. Shared by the PyTorch (test_ffn_moves.py) and TensorFlow (test_ffn_tf_moves.py)
tests; framework-free.
"""

from __future__ import annotations

import collections
import math

import pytest

np = pytest.importorskip("numpy")

LOGIT_09 = math.log(0.9 / 0.1)


def hand_built(p: int, seed: int, batch: int):  # -> np.ndarray
    """[batch, 2, p, p, p]: logit volumes of whole numbers -1..4 (many ties within and across
    faces; 3 and 4 pass logit(0.9)) and an object mask covering about 70% of the voxels, the
    centre inside."""
    g = np.random.default_rng(seed)
    image = np.round(g.uniform(-1.5, 4.5, (batch, p, p, p))).astype(np.float32)
    labels = np.where(g.uniform(size=(batch, p, p, p)) < 0.7, 0.95, 0.05).astype(np.float32)
    labels[:, p // 2, p // 2, p // 2] = 0.95
    return np.stack([image, labels], 1)


# ----------------------------------------------- the original, transcribed (xyz offsets there)
def crop_and_pad(data, offset, crop_shape):  # mask.crop_and_pad without target_shape
    dim = len(offset)
    shape = np.array(data.shape[-(1 + dim):-1])
    crop_shape = np.array(crop_shape)
    offset = np.array(offset[::-1])
    start = shape // 2 - crop_shape // 2 + offset
    end = start + crop_shape
    num_batch = len(data.shape) - dim - 1
    assert np.all(start >= 0)
    selector = [slice(s, e) for s, e in zip(start, end, strict=True)]
    selector = tuple([slice(None)] * num_batch + selector + [slice(None)])
    return data[selector]


def get_scored_move_offsets(deltas, prob_map, threshold=0.9):  # movement.py
    center = np.array(prob_map.shape) // 2
    subvol_sel = [slice(c - dx, c + dx + 1) for c, dx in zip(center, deltas, strict=True)]
    done = set()
    for axis, axis_delta in enumerate(deltas):
        if axis_delta == 0:
            continue
        for axis_offset in (-axis_delta, axis_delta):
            face_sel = subvol_sel[:]
            face_sel[axis] = axis_offset + center[axis]
            face_prob = prob_map[tuple(face_sel)]
            shape = face_prob.shape
            face_pos = np.unravel_index(face_prob.argmax(), shape)
            score = face_prob[face_pos]
            if score < threshold:
                continue
            relative_pos = [face_pos[0] - shape[0] // 2, face_pos[1] - shape[1] // 2]
            relative_pos.insert(axis, axis_offset)
            ret = (score, tuple(relative_pos))
            if ret not in done:
                done.add(ret)
                yield ret


def _eval_move(seed, labels, off_xyz, seed_threshold, label_threshold):  # examples.py
    valid_move = seed[:, seed.shape[1] // 2 + off_xyz[2], seed.shape[2] // 2 + off_xyz[1],
                      seed.shape[3] // 2 + off_xyz[0], 0] >= seed_threshold
    wanted_move = (labels[:, labels.shape[1] // 2 + off_xyz[2],
                          labels.shape[2] // 2 + off_xyz[1],
                          labels.shape[3] // 2 + off_xyz[0], 0] >= label_threshold)
    return valid_move, wanted_move


def max_pred_offsets(deltas_xyz, pred_mask_size_xyz, seed, labels, threshold, max_radius):
    """examples.max_pred_offsets (the eval tracker left out)."""
    queue = collections.deque([(0, 0, 0)])  # xyz
    done = set()
    label_threshold = 1 / (1 + math.exp(-threshold))  # special.expit
    deltas = np.array(deltas_xyz)
    while queue:
        offset = np.array(queue.popleft())
        if np.any(np.abs(np.array(offset)) > max_radius):
            continue
        quantized_offset = tuple((offset + deltas / 2) // np.maximum(deltas, 1))
        if quantized_offset in done:
            continue
        valid, wanted = _eval_move(seed, labels, tuple(offset), threshold, label_threshold)
        if not valid or (not wanted and quantized_offset != (0, 0, 0)):
            continue
        done.add(quantized_offset)
        yield tuple(offset)
        curr_seed = crop_and_pad(seed, offset, pred_mask_size_xyz[::-1])
        todos = sorted(get_scored_move_offsets(deltas_xyz[::-1], curr_seed[0, ..., 0],
                                               threshold=threshold), reverse=True)
        queue.extend((x[2] + offset[0], x[1] + offset[1], x[0] + offset[2]) for _, x in todos)


def original_visits(image, labels, seed, fov: int, deltas: int,
                    fov_moves: int) -> list[tuple[int, int, int]]:
    """One training example under get_example's loop: the zyx offsets visited, each step's
    prediction (the stub's: seed + (image - seed), float32) written into the seed canvas."""
    patch = image.shape[0]
    max_radius = patch // 2 - fov // 2  # train_image_radius - input_image_radius
    assert patch == fov + 2 * deltas * (fov_moves + 1)  # train.py fov_moves(): one more
    seed, labels, image = (a[None, ..., None].copy() for a in (seed, labels, image))
    out = []
    for off in max_pred_offsets((deltas,) * 3, (fov,) * 3, seed, labels, LOGIT_09,
                                max_radius):
        predicted = crop_and_pad(seed, off, (fov,) * 3)
        assert predicted.base is seed
        img = crop_and_pad(image, off, (fov,) * 3)
        predicted[:] = predicted + (img - predicted)  # update_seeds
        out.append(tuple(int(v) for v in off[::-1]))
    return out


def fixed_offsets(seed, labels, threshold, fov_shifts):  # examples.py (eval tracker left out)
    label_threshold = 1 / (1 + math.exp(-threshold))
    for off in [(0, 0, 0), *fov_shifts]:  # xyz
        valid_move, _ = _eval_move(seed, labels, off, threshold, label_threshold)
        if not valid_move:
            continue
        yield off


def original_fixed_visits(image, labels, seed, fov: int,
                          shifts_xyz: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """get_example's loop under fixed_offsets, each step's prediction (the stub's) written into
    the seed canvas: the zyx offsets visited."""
    seed, labels, image = (a[None, ..., None].copy() for a in (seed, labels, image))
    out = []
    for off in fixed_offsets(seed, labels, LOGIT_09, shifts_xyz):
        predicted = crop_and_pad(seed, off, (fov,) * 3)
        img = crop_and_pad(image, off, (fov,) * 3)
        predicted[:] = predicted + (img - predicted)  # update_seeds
        out.append(tuple(int(v) for v in off[::-1]))
    return out


def scored_moves_case(fov: int, d: int):  # -> np.ndarray [6, fov, fov, fov]
    """Predictions with ties inside faces (first maximum in C order) and between faces (the
    position decides): slot 0 has one move, on the edge of the z = -d and y = -d faces; slot
    1 reaches logit(0.9) nowhere; the rest are random integers around the threshold."""
    g = np.random.default_rng(7)
    preds = np.round(g.uniform(-1.5, 4.5, (6, fov, fov, fov))).astype(np.float32)
    c = fov // 2
    preds[0] = -3.0
    preds[0, c - d, c - d, c + 1] = 5.0  # on the z = -d and y = -d faces: one move
    preds[1] = 2.0  # nothing reaches logit(0.9)
    return preds


def check_scored_moves(preds, off, keep, d: int) -> None:
    """A policy's ``scored_moves`` (offsets and keep mask per slot, numpy or torch) against
    movement.py ``get_scored_move_offsets`` sorted as the original sorts it."""
    for b in range(len(preds)):
        want = sorted(get_scored_move_offsets((d,) * 3, preds[b], threshold=LOGIT_09),
                      reverse=True)
        got = [tuple(o) for o, k in zip(off[b].tolist(), keep[b].tolist(), strict=True) if k]
        assert got == [w[1] for w in want], b
        assert keep[b].tolist() == sorted(keep[b].tolist(), reverse=True)  # a prefix
    assert int(keep[0].sum()) == 1 and int(keep[1].sum()) == 0 and int(keep[2:].sum()) > 8
