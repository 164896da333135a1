"""The ffn workload: Flood-filling network segmenting 3D electron-microscopy volumes (object mask
per voxel).

Run ``python -m workloads.ffn --help``; model and synthetic task: ``model.py``.
"""
