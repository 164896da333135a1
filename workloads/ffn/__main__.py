"""``python -m workloads.ffn [--framework pytorch|tensorflow]``: train ffn."""

from workloads.launch import main

if __name__ == "__main__":
    main("ffn")
