"""Each app's default precision on an NVIDIA GPU is its original's: a PyTorch original that
sets no TF32 flag runs its cuDNN convolutions in TF32 (torch.backends.cudnn.allow_tf32 defaults
to True), which the runtime's strict fp32 turns off (measured on an H100: unet3d 3.74x, the
CosmicTagger default 1.45x, resnet50 1.87x slower in fp32; docs/benchmarks.md)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

torch = pytest.importorskip("torch")


def test_pytorch_lets_cudnn_use_tf32_by_default():
    # the premise, on the torch installed here (a fresh process: nothing has changed the flag)
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-c", "import torch; "
                          "print(torch.backends.cudnn.allow_tf32)"],
                         capture_output=True, text=True, check=True).stdout.strip()
    assert out == "True"


@pytest.mark.parametrize(("app", "config"), [("unet3d", "default"), ("cosmictagger", "default"),
                                                  ("resnet50", "default")])
def test_conv_apps_default_to_tf32_on_cuda_only(app, config, monkeypatch):
    import importlib

    spec = importlib.import_module(f"workloads.{app}.model").APP
    monkeypatch.setattr(torch.version, "hip", None)
    cuda = spec.run_defaults(SimpleNamespace(type="cuda"), config)
    assert cuda["precision"][0] == "tf32" and "allow_tf32" in cuda["precision"][1]
    assert "precision" not in spec.run_defaults(SimpleNamespace(type="cpu"), config)
    assert "precision" not in spec.run_defaults(SimpleNamespace(type="xpu"), config)


def test_cosmictagger_a21_keeps_its_mixed_precision():
    from workloads.cosmictagger.model import APP

    assert APP.run_defaults(SimpleNamespace(type="cuda"), "a21")["precision"][0] == "fp16"


def test_the_runtime_fill_keeps_an_explicit_fp32(monkeypatch):
    from workloads.runtime.train import fill_defaults
    from workloads.unet3d.model import APP

    monkeypatch.setattr(torch.version, "hip", None)
    args = SimpleNamespace(precision="fp32", compile=None, optimizer_impl=None, config=None,
                           tiny=False)
    fill_defaults(APP, args, SimpleNamespace(type="cuda"))
    assert args.precision == "fp32"
    args.precision = None
    fill_defaults(APP, args, SimpleNamespace(type="cuda"))
    assert args.precision == "tf32"
