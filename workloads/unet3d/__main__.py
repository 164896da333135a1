"""``python -m workloads.unet3d``: train the unet3d workload."""

from workloads.runtime.cli import main
from workloads.unet3d.model import APP

if __name__ == "__main__":
    main(APP)
