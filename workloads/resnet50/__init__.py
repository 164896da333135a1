"""The resnet50 workload: torchvision's ResNet-50 with its reference recipe and ImageFolder JPEG
input pipeline, plain PyTorch + Pillow (no torchvision).

Run ``python -m workloads.resnet50 --help``; model, recipe and data: ``model.py``.
"""
