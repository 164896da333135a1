"""The cosmictagger workload: UNet-style 2D segmentation of neutrino-detector images (background /
cosmic / neutrino per pixel).

Run ``python -m workloads.cosmictagger --help``; model and synthetic task: ``model.py``.
"""
