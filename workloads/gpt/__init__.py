"""The gpt workload: GPT-2 124M as nanoGPT trains it (synthetic tokens, nanoGPT's token .bin
files, or a text file).

Run ``python -m workloads.gpt --help``; model, recipe and data: ``model.py``.
"""
