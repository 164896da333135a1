"""The resnet50 workload: ResNet-50 image classification, plain PyTorch (no torchvision).

Run ``python -m workloads.resnet50 --help``; model and synthetic task: ``model.py``.
"""
