"""The FLOP count a run prints (workloads.runtime.flops.train_flops_at, counted at two batches)
equals the count --describe gives (train_flops, at COUNT_BATCH) at that batch, for every app's
default configuration. pointnet's count failed at every run before (its head's BatchNorm1d
refuses a batch of one sample in training: "Expected more than 1 value per channel"), so its
result line said "not counted at run time (ValueError)" and carried no MFU."""

from __future__ import annotations

import importlib

import pytest

APPS = ["anisosgs", "cosmictagger", "ffn", "gpt", "pointnet", "qcnn", "resnet50", "unet3d"]


@pytest.mark.parametrize("app", APPS)
def test_the_run_time_count_is_describes_count(app):
    from workloads.runtime.flops import COUNT_BATCH, train_flops, train_flops_at

    spec = importlib.import_module(f"workloads.{app}.model").APP
    name = "tiny" if "tiny" in spec.sizes else "default"
    cfg = dict(spec.sizes[name])
    _, described, where = train_flops(spec, cfg, allow_cpu=False)
    assert where == "meta"
    at_run = train_flops_at(spec, cfg, COUNT_BATCH)
    assert at_run > 0
    assert abs(at_run - described) <= 1, (at_run, described)
