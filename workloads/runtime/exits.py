"""The exit codes of a workload run (workloads/README.md), in a module that imports nothing,
so the step loop and the command line share them without importing each other."""

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_INPUT = 2  # a file the run was handed is refused (runtime/safeio.py), before training
EXIT_NONFINITE = 3  # a non-finite loss stopped the run
# the run-time placement check found a rank not where the plan puts it (runtime/placement.py),
# before training: refused input too, so the same code
EXIT_PLACEMENT = 2
