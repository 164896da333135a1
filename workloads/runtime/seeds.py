"""Deterministic seeds shared by both frameworks (no framework import)."""

from __future__ import annotations


def mix_seed(seed: int, stream: int, index: int) -> int:
    """A 63-bit seed from three integers (splitmix64-style); deterministic across processes."""
    z = (seed * 0x9E3779B97F4A7C15 + stream * 0xBF58476D1CE4E5B9 + index) & (2**64 - 1)
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & (2**64 - 1)
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & (2**64 - 1)
    return (z ^ (z >> 31)) & (2**63 - 1)
