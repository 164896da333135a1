"""Shared runtime of the workload apps: device, distributed, precision, data, timing,
checkpointing, command line and the training loop. Import the submodules directly."""
