"""The gpt workload: Small decoder-only language model trained on tokens (synthetic, or a text
file).

Run ``python -m workloads.gpt --help``; model and synthetic task: ``model.py``.
"""
