"""Issue 33: what make-data writes is read by the originals' own training scripts' readers
(transcribed): PointNet's part_seg/train.py (charlesq34/pointnet@2618f72) and torchvision's
classification reference (pytorch/vision references/classification/train.py) with
``torchvision.datasets.ImageFolder`` (torchvision/datasets/folder.py)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from workloads_testlib import needs_torch

pytestmark = needs_torch


# ---------------------------------------------------------------- PointNet part_seg/train.py
def _part_seg_train_files(hdf5_data_dir: str) -> dict:
    """part_seg/train.py lines 26, 35-46, 67-68, 190-192 and the loop's reads (lines 205-208,
    296-299) through provider.py ``getDataFiles`` (lines 87-88) and
    ``load_h5_data_label_seg`` (lines 99-104), transcribed; h5py.File opened read-only (the
    h5py of 2017 defaulted to 'a')."""
    import h5py

    def getDataFiles(list_filename):  # noqa: N802 - the original's name
        return [line.rstrip() for line in open(list_filename)]

    def load_h5_data_label_seg(h5_filename):
        f = h5py.File(h5_filename, 'r')
        data = f['data'][:]
        label = f['label'][:]
        seg = f['pid'][:]
        return (data, label, seg)

    color_map_file = os.path.join(hdf5_data_dir, 'part_color_mapping.json')
    color_map = json.load(open(color_map_file))

    all_obj_cats_file = os.path.join(hdf5_data_dir, 'all_object_categories.txt')
    fin = open(all_obj_cats_file)
    lines = [line.rstrip() for line in fin.readlines()]
    all_obj_cats = [(line.split()[0], line.split()[1]) for line in lines]
    fin.close()

    all_cats = json.load(open(os.path.join(hdf5_data_dir, 'overallid_to_catid_partid.json')))
    NUM_PART_CATS = len(all_cats)  # noqa: N806

    TRAINING_FILE_LIST = os.path.join(hdf5_data_dir, 'train_hdf5_file_list.txt')  # noqa: N806
    TESTING_FILE_LIST = os.path.join(hdf5_data_dir, 'val_hdf5_file_list.txt')  # noqa: N806
    train_file_list = getDataFiles(TRAINING_FILE_LIST)
    test_file_list = getDataFiles(TESTING_FILE_LIST)
    train = [load_h5_data_label_seg(os.path.join(hdf5_data_dir, name))
             for name in train_file_list]
    test = [load_h5_data_label_seg(os.path.join(hdf5_data_dir, name))
            for name in test_file_list]
    return {"color_map": color_map, "all_obj_cats": all_obj_cats,
            "NUM_PART_CATS": NUM_PART_CATS, "train": train, "test": test}


def test_pointnet_make_data_is_read_by_part_seg_train(tmp_path: Path) -> None:
    pytest.importorskip("h5py")
    from workloads.pointnet.model import APP

    out = tmp_path / "hdf5_data"
    APP.write_dataset(str(out), dict(APP.sizes["tiny"]), 40, 1)
    files = _part_seg_train_files(str(out))
    assert files["NUM_PART_CATS"] == 50 and len(files["all_obj_cats"]) == 16
    # test.py lines 61-66: color_map[part id] gives three numbers for the .obj colour
    assert len(files["color_map"]) == 50
    assert all(len(c) == 3 and all(0 <= v <= 1 for v in c) for c in files["color_map"])
    (data, label, seg), = files["train"]
    (vdata, vlabel, vseg), = files["test"]
    assert data.shape == (40, 2048, 3) and label.shape == (40, 1) and seg.shape == (40, 2048)
    assert vdata.shape == (4, 2048, 3) and vlabel.shape == (4, 1) and vseg.shape == (4, 2048)
    assert int(seg.max()) < 50 and int(vseg.max()) < 50 and int(label.max()) < 16
    # the bundled reader still reads the training files only
    assert len(APP.open_dataset(str(out), dict(APP.sizes["tiny"]))) == 40


# ---------------------------------------------------------------- torchvision reference
IMG_EXTENSIONS = (".jpg", ".jpeg", ".png", ".ppm", ".bmp", ".pgm", ".tif", ".tiff", ".webp")


def _image_folder(directory: str) -> tuple[list[str], list[tuple[str, int]]]:
    """torchvision/datasets/folder.py ``find_classes`` and ``make_dataset`` (allow_empty
    False), transcribed: (classes, samples); an empty class or no class folder raises
    FileNotFoundError as ImageFolder does."""
    classes = sorted(entry.name for entry in os.scandir(directory) if entry.is_dir())
    if not classes:
        raise FileNotFoundError(f"Couldn't find any class folder in {directory}.")
    class_to_idx = {cls_name: i for i, cls_name in enumerate(classes)}
    instances = []
    available_classes = set()
    for target_class in sorted(class_to_idx.keys()):
        class_index = class_to_idx[target_class]
        target_dir = os.path.join(directory, target_class)
        if not os.path.isdir(target_dir):
            continue
        for root, _, fnames in sorted(os.walk(target_dir, followlinks=True)):
            for fname in sorted(fnames):
                path = os.path.join(root, fname)
                if path.lower().endswith(IMG_EXTENSIONS):
                    instances.append((path, class_index))
                    available_classes.add(target_class)
    empty_classes = set(class_to_idx.keys()) - available_classes
    if empty_classes:
        raise FileNotFoundError(f"Found no valid file for the classes "
                                f"{', '.join(sorted(empty_classes))}. ")
    return classes, instances


def test_resnet50_make_data_has_the_train_and_val_the_reference_opens(tmp_path: Path) -> None:
    """references/classification/train.py ``main``: ``train_dir = os.path.join(
    args.data_path, "train")``, ``val_dir = os.path.join(args.data_path, "val")``, both
    through ``load_data`` as ``torchvision.datasets.ImageFolder``; images through
    ``pil_loader`` (``Image.open(f).convert("RGB")``)."""
    from PIL import Image

    from workloads.resnet50.model import APP

    APP.write_dataset(str(tmp_path), dict(APP.sizes["tiny"]), 16, 0)
    train_dir = os.path.join(tmp_path, "train")
    val_dir = os.path.join(tmp_path, "val")
    classes, train = _image_folder(train_dir)
    val_classes, val = _image_folder(val_dir)
    assert len(classes) == 4 and len(train) == 16
    assert val_classes == classes and len(val) == 4 and {c for _, c in val} == {0, 1, 2, 3}
    with open(val[0][0], "rb") as f:
        assert Image.open(f).convert("RGB").mode == "RGB"
