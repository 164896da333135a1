"""The anisosgs workload: MLP regressing the anisotropic sub-grid stress tensor from filtered flow
quantities.

Run ``python -m workloads.anisosgs --help``; model and synthetic task: ``model.py``.
"""
