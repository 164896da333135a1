"""``python -m workloads.cosmictagger``: train the cosmictagger workload."""

from workloads.cosmictagger.model import APP
from workloads.runtime.cli import main

if __name__ == "__main__":
    main(APP)
