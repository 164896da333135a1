"""ResNet-50 as torchvision builds it (v1.5: the stride in the 3x3 convolution; module names,
initialisation and ``zero_init_residual=False`` as ``torchvision/models/resnet.py``), trained
with torchvision's classification reference recipe: SGD, momentum 0.9, weight decay 1e-4,
learning rate 0.1 for 8 GPUs x 32 images (scaled linearly, 0.1 x global batch / 256), 32 images
per GPU, cross-entropy.

Data: ``--make-data DIR`` writes an ImageFolder tree of JPEG files, ``DIR/train/<class>/
<image>.JPEG`` and ``DIR/val/<class>/`` (ImageNet's layout, both folders the reference opens;
images of ImageNet-like sizes, a class pattern plus noise so the classes can be learnt);
``--data DIR`` reads its train/ as the reference's ``torchvision.datasets.ImageFolder`` with
its training transforms: RandomResizedCrop(224), RandomHorizontalFlip, ToTensor,
Normalize(ImageNet mean and std), decoded with Pillow and NumPy on the DataLoader workers
(torchvision does not import beside the torch used here). The random crop and flip of a sample
are drawn from (seed, epoch, index), so a resumed run sees the same images. Synthetic data on
the device: a fixed low-frequency template per class plus noise.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import Dataset

from workloads.runtime.seeds import mix_seed
from workloads.runtime.spec import AppSpec, Recipe, Source, Task, conv_tf32_defaults

SIZES: dict[str, dict[str, Any]] = {
    # resnet50(): Bottleneck, [3, 4, 6, 3], 1000 classes; train.py -b 32 (images per GPU)
    "default": {"layers": [3, 4, 6, 3], "width": 64, "classes": 1000, "image": 224,
                "batch_size": 32},
    # batch 8: batch norm over 2 samples at 1x1 (layer4 of a 32-pixel image) does not learn
    "tiny": {"layers": [1, 1, 1, 1], "width": 4, "classes": 10, "image": 32, "batch_size": 8,
             "recipe": {"lr": 0.01, "lr_scaling": "none"}},
}

SOURCE = Source(
    repository="pytorch/vision",
    commit="054e54c573ba46e5b9c63f1eea3ad4d103afbea2",
    path="torchvision/models/resnet.py (ResNet, Bottleneck, resnet50); references/"
         "classification/train.py at bde124ee2f3419fe31ad79c858af40206e8bf792 (recipe, "
         "transforms)",
    note="v1.5 (stride in the 3x3 conv) as in torchvision 0.29.1 "
         "(1f1a920d685d46dfbe187934b785b7ecb7a182f2), counted the same",
)
RECIPE = Recipe(
    optimizer="sgd", lr=0.1, momentum=0.9, weight_decay=1e-4, schedule="constant",
    lr_scaling="linear", lr_reference_batch=256,
    where="torchvision references/classification/train.py (bde124e): --lr 0.1, --momentum "
          "0.9, --wd 1e-4, -b 32 per GPU on 8 GPUs (README: 8x V100) = 256, StepLR every 30 "
          "epochs (constant within a benchmark); linear scaling to other global batches "
          "(Goyal et al. 2017, the rule the reference's 0.1 per 256 follows)",
)
MEAN = (0.485, 0.456, 0.406)
STD = (0.229, 0.224, 0.225)


class Bottleneck(nn.Module):
    expansion = 4

    def __init__(self, inplanes: int, planes: int, stride: int = 1,
                 downsample: nn.Module | None = None) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(inplanes, planes, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, 3, stride=stride, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.conv3 = nn.Conv2d(planes, planes * self.expansion, 1, bias=False)
        self.bn3 = nn.BatchNorm2d(planes * self.expansion)
        self.relu = nn.ReLU(inplace=True)
        self.downsample = downsample

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        identity = x if self.downsample is None else self.downsample(x)
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        return self.relu(out + identity)


class ResNet(nn.Module):
    def __init__(self, layers: list[int], width: int, classes: int) -> None:
        super().__init__()
        self.inplanes = width
        self.conv1 = nn.Conv2d(3, width, 7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(width)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(3, stride=2, padding=1)
        self.layer1 = self._make_layer(width, layers[0])
        self.layer2 = self._make_layer(width * 2, layers[1], stride=2)
        self.layer3 = self._make_layer(width * 4, layers[2], stride=2)
        self.layer4 = self._make_layer(width * 8, layers[3], stride=2)
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(width * 8 * Bottleneck.expansion, classes)
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
            elif isinstance(m, nn.BatchNorm2d):
                nn.init.constant_(m.weight, 1)
                nn.init.constant_(m.bias, 0)

    def _make_layer(self, planes: int, blocks: int, stride: int = 1) -> nn.Sequential:
        downsample = None
        if stride != 1 or self.inplanes != planes * Bottleneck.expansion:
            downsample = nn.Sequential(
                nn.Conv2d(self.inplanes, planes * Bottleneck.expansion, 1, stride=stride,
                          bias=False),
                nn.BatchNorm2d(planes * Bottleneck.expansion))
        layers = [Bottleneck(self.inplanes, planes, stride, downsample)]
        self.inplanes = planes * Bottleneck.expansion
        layers += [Bottleneck(self.inplanes, planes) for _ in range(1, blocks)]
        return nn.Sequential(*layers)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        return self.fc(torch.flatten(self.avgpool(x), 1))


def build_model(cfg: dict[str, Any]) -> nn.Module:
    return ResNet(cfg["layers"], cfg["width"], cfg["classes"])


def _templates(classes: int, size: int) -> torch.Tensor:
    g = torch.Generator().manual_seed(777)
    return F.interpolate(torch.randn(classes, 3, 4, 4, generator=g), size=(size, size),
                         mode="bilinear", align_corners=False)


def make_task(cfg: dict[str, Any], device: torch.device) -> Task:
    k, s = cfg["classes"], cfg["image"]
    templates = _templates(k, s).to(device)

    def task(gen: torch.Generator, n: int) -> tuple[torch.Tensor, torch.Tensor]:
        y = torch.randint(0, k, (n,), generator=gen, device=device)
        x = templates[y] + 0.5 * torch.randn((n, 3, s, s), generator=gen, device=device)
        return x, y

    return task


def loss_fn(out: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return F.cross_entropy(out.float(), y)


# ---------------------------------------------------------------- ImageFolder of JPEG files
def write_dataset(path: str, cfg: dict[str, Any], samples: int, seed: int) -> None:
    """``samples`` JPEG images in ``path/train/<class>/`` and a tenth as many (at least one a
    class) in ``path/val/<class>/``, the two folders the reference script's ``main`` opens
    (pytorch/vision references/classification/train.py: ``train_dir``, ``val_dir``);
    ImageNet-like sizes (for 224: short side ~N(400, 60), aspect 3:4..4:3; scaled with
    ``image`` for smaller configs)."""
    k, s = cfg["classes"], cfg["image"]
    classes = min(k, max(2, samples // 4))
    rng = np.random.default_rng(seed)
    templates = _templates(classes, 64).numpy()
    _write_split(Path(path) / "train", samples, classes, templates, s, rng)
    _write_split(Path(path) / "val", max(samples // 10, classes), classes, templates, s, rng)


def _write_split(root: Path, samples: int, classes: int, templates: np.ndarray, s: int,
                 rng: np.random.Generator) -> None:
    from PIL import Image

    for c in range(classes):
        (root / f"n{c:08d}").mkdir(parents=True, exist_ok=True)
    scale = s / 224
    for i in range(samples):
        c = i % classes
        short = max(8, int(rng.normal(400, 60) * scale))
        aspect = math.exp(rng.uniform(math.log(3 / 4), math.log(4 / 3)))
        h, w = short, max(8, int(short * aspect))
        base = torch.from_numpy(templates[c:c + 1])
        img = F.interpolate(base, size=(h, w), mode="bilinear", align_corners=False)[0].numpy()
        img = img + 0.5 * rng.normal(size=img.shape)
        pixels = np.clip((img.transpose(1, 2, 0) * 0.25 + 0.5) * 255, 0, 255).astype(np.uint8)
        Image.fromarray(pixels).save(root / f"n{c:08d}" / f"img_{i:07d}.JPEG", quality=90)


def crop_params(rng: np.random.Generator, width: int, height: int,
                scale: tuple[float, float] = (0.08, 1.0),
                ratio: tuple[float, float] = (3 / 4, 4 / 3)) -> tuple[int, int, int, int]:
    """torchvision's ``RandomResizedCrop.get_params``: (top, left, height, width)."""
    area = height * width
    log_ratio = (math.log(ratio[0]), math.log(ratio[1]))
    for _ in range(10):
        target = area * rng.uniform(scale[0], scale[1])
        aspect = math.exp(rng.uniform(log_ratio[0], log_ratio[1]))
        w = int(round(math.sqrt(target * aspect)))
        h = int(round(math.sqrt(target / aspect)))
        if 0 < w <= width and 0 < h <= height:
            return int(rng.integers(0, height - h + 1)), int(rng.integers(0, width - w + 1)), h, w
    in_ratio = width / height  # fallback: the central crop
    if in_ratio < ratio[0]:
        w, h = width, int(round(width / ratio[0]))
    elif in_ratio > ratio[1]:
        h, w = height, int(round(height * ratio[1]))
    else:
        w, h = width, height
    return (height - h) // 2, (width - w) // 2, h, w


class ImageFolderJPEG(Dataset):
    """``ImageFolder(root/train)`` with the reference's training transforms, in Pillow and
    NumPy: decode, RandomResizedCrop(size) with bilinear resampling, horizontal flip with
    probability 0.5, scale to [0, 1], normalise with the ImageNet mean and std, CHW float."""

    EXTENSIONS = (".jpg", ".jpeg", ".png")

    def __init__(self, root: Path, size: int, classes: int, seed: int = 0) -> None:
        from workloads.runtime.safeio import InputError

        names = sorted(p.name for p in root.iterdir() if p.is_dir())
        if not names:
            raise InputError(f"{root}: no class folders (write some with --make-data)")
        if len(names) > classes:
            raise InputError(f"{root}: {len(names)} classes, the model has {classes}")
        self.samples = []
        for c, name in enumerate(names):
            with os.scandir(root / name) as entries:
                for e in sorted(entries, key=lambda e: e.name):
                    if os.path.splitext(e.name)[1].lower() not in self.EXTENSIONS:
                        continue
                    if not e.is_file():  # d_type (no stat) except for links: then followed
                        raise InputError(f"{e.path}: not a regular file, expected an image")
                    self.samples.append((e.path, c))
        self.size = size
        self.seed = seed
        self.epoch = 0
        self.mean = np.array(MEAN, dtype=np.float32)
        self.std = np.array(STD, dtype=np.float32)

    def set_epoch(self, epoch: int) -> None:
        self.epoch = epoch

    def __len__(self) -> int:
        return len(self.samples)

    def __getitem__(self, i: int) -> tuple[torch.Tensor, torch.Tensor]:
        from PIL import Image

        from workloads.runtime.safeio import InputError, one_line, open_regular

        path, label = self.samples[i]
        rng = np.random.default_rng(mix_seed(self.seed, self.epoch, i))
        try:
            with open_regular(path, "image") as fh, Image.open(fh) as im:
                img = im.convert("RGB")
        except InputError:
            raise
        except Exception as exc:  # noqa: BLE001 - PIL's errors on damaged or huge images
            raise InputError(f"{path}: not an image this reader decodes "
                             f"({type(exc).__name__}: {one_line(exc, 160)})") from None
        top, left, h, w = crop_params(rng, img.width, img.height)
        img = img.resize((self.size, self.size), Image.BILINEAR,
                         box=(left, top, left + w, top + h))
        if rng.random() < 0.5:
            img = img.transpose(Image.FLIP_LEFT_RIGHT)
        arr = (np.asarray(img, dtype=np.float32) / 255.0 - self.mean) / self.std
        return torch.from_numpy(np.ascontiguousarray(arr.transpose(2, 0, 1))), \
            torch.tensor(label, dtype=torch.int64)


def images_per_sample(cfg: dict[str, Any]) -> float:
    return 1.0  # the reference logs img/s


def open_dataset(path: str, cfg: dict[str, Any]) -> Dataset | None:
    p = Path(path)
    root = p / "train" if (p / "train").is_dir() else p
    if (p / "meta.json").is_file() or not root.is_dir():
        return None  # the generic .npy shards
    return ImageFolderJPEG(root, cfg["image"], cfg["classes"])


def run_defaults(dev: Any, config: str) -> dict[str, tuple[Any, str]]:
    """The recipe's script (pytorch/vision references/classification/train.py at bde124ee) sets
    no TF32 flag, only ``torch.backends.cudnn.benchmark = True``, and trains in fp32 unless
    --apex is given: on an NVIDIA GPU it runs PyTorch's default numerics, cuDNN convolutions
    in TF32."""
    return conv_tf32_defaults("resnet50", dev)


APP = AppSpec(name="resnet50", build_model=build_model, make_task=make_task, loss_fn=loss_fn,
              sizes=SIZES, default_batch_size=32, tiny_batch_size=8, lr=RECIPE.lr,
              spatial_dims=2, open_dataset=open_dataset, write_dataset=write_dataset,
              recipe=RECIPE, source=SOURCE, unit="images", units_per_sample=images_per_sample,
              run_defaults=run_defaults)
