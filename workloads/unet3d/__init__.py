"""The unet3d workload: 3D U-Net mapping dark-matter density to hydrodynamic gas fields (SC22 DL
tutorial).

Run ``python -m workloads.unet3d --help``; model and synthetic task: ``model.py``.
"""
