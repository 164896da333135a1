"""``python -m workloads.qcnn``: train the qcnn workload."""

from workloads.qcnn.model import APP
from workloads.runtime.cli import main

if __name__ == "__main__":
    main(APP)
