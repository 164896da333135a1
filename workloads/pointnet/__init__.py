"""The pointnet workload: PointNet point-cloud segmentation (class per point).

Run ``python -m workloads.pointnet --help``; model and synthetic task: ``model.py``.
"""
