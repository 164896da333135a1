"""``python -m workloads.cosmictagger [--framework pytorch|tensorflow]``: train cosmictagger."""

from workloads.launch import main

if __name__ == "__main__":
    main("cosmictagger")
