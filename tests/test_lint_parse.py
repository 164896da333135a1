"""How lint reads hand-written statements (issue 31): comments, quotes over lines, prefix
assignments, functions, background launches, arithmetic on names, programs in variables.
Each case but the program in a variable (which already worked; kept because the issue names
it) fails on the code before issue 31 (the comment one since the first lint, 7df69d7)."""

from __future__ import annotations

from jobgen.review.scriptparse import parse_text


def test_a_trailing_comment_is_not_part_of_an_assignment_or_a_launch():
    s = parse_text("#!/bin/bash\nNRANKS=28 # ranks per node\nX=$'it\\'s' # a quote\n"
                   "mpiexec -n $((2*NRANKS)) --ppn ${NRANKS} ./a.out # go\n")
    assert s.variables["NRANKS"] == "28" and s.variables["X"] == "it's"
    assert s.launches[0].argv == ["mpiexec", "-n", "56", "--ppn", "28", "./a.out"]


def test_a_quoted_string_over_several_lines_is_one_statement():
    s = parse_text("#!/bin/bash\nsrun -N2 --ntasks-per-node=1 bash -c '\n  cd run\n"
                   "  torchrun --nnodes=2 --nproc_per_node=8 train.py\n'\necho done\n")
    assert [la.argv[0] for la in s.launches] == ["srun"]
    assert "torchrun" in s.launches[0].argv[-1]


def test_prefix_assignments_go_to_the_command_not_the_shell():
    s = parse_text("#!/bin/bash\nOMP_NUM_THREADS=7 FOO=1 srun -n 8 ./a.out\nA=1 B=2\n")
    assert s.launches[0].env == {"OMP_NUM_THREADS": "7", "FOO": "1"}
    assert "OMP_NUM_THREADS" not in s.variables and s.variables["A"] == "1"
    assert [name for _, name, _ in s.assignments] == []  # A=1 B=2 is not one NAME=value


def test_a_launch_in_a_function_is_read_where_the_function_is_called():
    s = parse_text("#!/bin/bash\nrun() {\n  mpiexec -n 8 --ppn 4 python train.py \"$@\"\n}\n"
                   "export X=1\nrun --epochs 3\ncleanup() { srun rm -rf /tmp/x; }\n"
                   "trap cleanup EXIT\n")
    assert len(s.launches) == 1
    launch = s.launches[0]
    assert launch.line == 3 and launch.at == 6
    assert launch.argv[-2:] == ["--epochs", "3"]


def test_background_launches_and_bare_names_in_arithmetic():
    s = parse_text("#!/bin/bash\nNNODES=4\nPPN=4\nN=$(( NNODES * PPN ))\n"
                   "mpiexec -n $N --ppn $PPN --hosts x1 ./a.out &\nwait\n")
    assert s.variables["N"] == "16"
    assert s.launches[0].background and s.launches[0].argv[:3] == ["mpiexec", "-n", "16"]


def test_a_program_in_a_variable_behind_a_wrapper():
    s = parse_text("#!/bin/bash\nEXE=\"python train.py --epochs 3\"\n"
                   "WRAPPER=./set_affinity_gpu_polaris.sh\n"
                   "mpiexec -n 8 --ppn 4 ${WRAPPER} ${EXE}\n")
    assert s.launches[0].argv[-5:] == ["./set_affinity_gpu_polaris.sh", "python", "train.py",
                                       "--epochs", "3"]


def test_jsrun_latency_priority_takes_a_value():
    from jobgen.review.scriptparse import launcher_items

    items, program = launcher_items(["jsrun", "-n12", "-l", "CPU-CPU", "-b", "packed:7",
                                     "python", "t.py"])
    assert ("-l", "CPU-CPU") in items and ("-b", "packed:7") in items
    assert program == ["python", "t.py"]


def test_a_misspelt_shebang_is_seen():
    assert parse_text("#/bin/bash\n#PBS -A x\n").shebang_typo == "#/bin/bash"
    assert parse_text("#!/bin/bash\n#PBS -A x\n").shebang_typo is None
    assert parse_text("# a comment about /bin/bash\n#PBS -A x\n").shebang_typo is None
