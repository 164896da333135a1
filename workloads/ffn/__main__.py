"""``python -m workloads.ffn``: train the ffn workload."""

from workloads.ffn.model import APP
from workloads.runtime.cli import main

if __name__ == "__main__":
    main(APP)
