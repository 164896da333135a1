"""``python -m workloads.anisosgs``: train the anisosgs workload."""

from workloads.anisosgs.model import APP
from workloads.runtime.cli import main

if __name__ == "__main__":
    main(APP)
