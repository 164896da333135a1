"""``python -m workloads.resnet50``: train the resnet50 workload."""

from workloads.resnet50.model import APP
from workloads.runtime.cli import main

if __name__ == "__main__":
    main(APP)
