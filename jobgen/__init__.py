"""jobgen: correct, fast batch job scripts for AI training on supercomputers."""

__version__ = "0.1.0"
