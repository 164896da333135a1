"""The anisosgs workload: the anisoSGS sub-grid stress model of the in-situ ML driver
(SimAI-Bench), 6 flow invariants -> 6 stress components, 266 parameters.

Run ``python -m workloads.anisosgs --help``; model, recipe and data: ``model.py``.
"""
