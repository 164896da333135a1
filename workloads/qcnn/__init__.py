"""The qcnn workload: Autoencoder compressing CFD solution states to a small latent vector.

Run ``python -m workloads.qcnn --help``; model and synthetic task: ``model.py``.
"""
