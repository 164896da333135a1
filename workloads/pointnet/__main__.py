"""``python -m workloads.pointnet``: train the pointnet workload."""

from workloads.pointnet.model import APP
from workloads.runtime.cli import main

if __name__ == "__main__":
    main(APP)
