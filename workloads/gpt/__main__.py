"""``python -m workloads.gpt``: train the gpt workload."""

from workloads.gpt.model import APP
from workloads.runtime.cli import main

if __name__ == "__main__":
    main(APP)
