"""Launches lint reads in the forms users write them (issue 31): inside `for` loops, with rank
counts computed in `$(( ))`, through ezpz's launcher, behind wrapper scripts and variables."""

from __future__ import annotations

import pytest

from jobgen.profiles.load import load_profile
from jobgen.review.lint import lint
from jobgen.review.lint.context import Context
from jobgen.review.scriptparse import parse_text

HEAD = "#!/bin/bash\n#PBS -A P\n#PBS -l select=4:system=polaris\n"


def argvs(text: str) -> list[list[str]]:
    return [la.argv for la in parse_text(HEAD + text).launches]


def sizes(text: str) -> list[str]:
    return [argv[argv.index("-n") + 1] for argv in argvs(text)]


@pytest.mark.parametrize("loop", [
    "for n in 8 16; do\n  mpiexec -n $n --ppn 4 ./a\ndone\n",
    "for n in 8 16; do mpiexec -n ${n} --ppn 4 ./a; done\n",
    "L=(\n  \"8\"\n  \"16\"\n)\nfor n in \"${L[@]}\"; do\n  mpiexec -n $n --ppn 4 ./a\ndone\n",
    "for k in $(seq 2); do\n  n=$((k * 8))\n  mpiexec -n $n --ppn 4 ./a\ndone\n",
    "for k in {1..2}; do\n  mpiexec -n $(( k * 8 )) --ppn 4 ./a\ndone\n",
])
def test_a_launch_in_a_for_loop_is_read_once_per_value(loop):
    assert sizes(loop) == ["8", "16"]


def test_nested_loops_give_every_combination_and_the_loop_variable_is_unknown_after():
    text = ("n=4\nfor n in 8 16; do\nfor r in a b; do\n  mpiexec -n $n --ppn 4 ./a $r\n"
            "done\ndone\n")
    assert [(a[2], a[-1]) for a in argvs(text)] == [("8", "a"), ("8", "b"), ("16", "a"),
                                                     ("16", "b")]
    # a loop over words lint cannot know: the value before the loop is not used
    assert sizes("n=4\nfor n in $(cat sizes); do\n  mpiexec -n $n --ppn 4 ./a\ndone\n") == ["$n"]


def test_a_launch_after_then_or_do_is_seen():
    assert sizes("if true; then mpiexec -n 8 --ppn 4 ./a; fi\n") == ["8"]
    assert sizes("while true; do mpiexec -n 8 --ppn 4 ./a; break; done\n") == ["8"]


def test_inline_arithmetic_is_one_word_and_the_flags_after_it_stay():
    argv = argvs("mpirun -n $(( $(wc -l < $PBS_NODEFILE) * 12 )) -ppn 12 --cpu-bind list:1:2 "
                 "./gemm gpu\n")[0]
    assert argv[:6] == ["mpirun", "-n", "$ARITH", "-ppn", "12", "--cpu-bind"]
    assert sizes("NNODES=2\nmpiexec -n $(( NNODES * 4 )) --ppn 4 ./a\n") == ["8"]


@pytest.mark.parametrize("line", [
    "ezpz launch -n 8 -ppn 4 -- python3 train.py --lr 1\n",
    "ezpz-launch --np=8 --ppn=4 python3 train.py --lr 1\n",
    "python3 -m ezpz.launch --nproc 8 --nproc_per_node 4 python3 train.py --lr 1\n",
    "python -c 'from ezpz.cli import main; main()' launch --nproc 8 -ppn 4 -- python3 train.py "
    "--lr 1\n",
])
def test_ezpz_launches_are_read_with_their_own_options(line):
    argv = argvs(line)[0]
    assert argv[0] == "ezpz-launch"
    assert argv[1:5] == ["--np", "8", "--ppn", "4"] and argv[5:] == ["python3", "train.py",
                                                                      "--lr", "1"]


def _view(text: str, site: str = "polaris"):
    script = parse_text(HEAD + "#PBS -l walltime=1:00:00\n#PBS -l filesystems=home:eagle\n"
                        "#PBS -q prod\n" + text)
    return Context(script, load_profile(site).profile).launches


def test_ezpz_places_ranks_as_ezpz_infers_them():
    la = _view("ezpz launch -n 8 -ppn 4 -- python3 train.py\n")[0]
    assert (la.dialect, la.total_ranks, la.ranks_per_node, la.nodes) == ("ezpz", 8, 4, 4)
    la = _view("ezpz launch -n 16 -- python3 train.py\n")[0]  # spread over every host
    assert (la.total_ranks, la.ranks_per_node) == (16, 4)
    la = _view("ezpz launch python3 train.py\n")[0]  # fills the job: nothing to hold it to
    assert (la.total_ranks, la.ranks_per_node, la.program) == (None, None, ["python3",
                                                                            "train.py"])


def test_the_ezpz_helpers_launch_alias_is_a_launch_only_after_sourcing_them():
    assert argvs("launch python3 train.py\n") == []
    assert argvs("source ezpz/src/ezpz/bin/utils.sh\nezpz_setup_env\nlaunch python3 train.py\n"
                 ) == [["ezpz-launch", "python3", "train.py"]]
    assert argvs("source ezpz/bin/utils.sh\nlaunch() { echo; }\nlaunch python3 train.py\n") == []


def test_an_ezpz_launch_is_not_a_wrong_launcher_on_a_slurm_site():
    text = ("#!/bin/bash\n#SBATCH --account=project_465000001\n#SBATCH --partition=standard-g\n"
            "#SBATCH --nodes=2\n#SBATCH --time=1:00:00\nezpz launch -- python3 train.py\n")
    assert "LAUNCH001" not in {f.rule for f in lint(parse_text(text),
                                                   load_profile("lumi").profile)}


def test_wrapper_scripts_and_programs_in_variables_are_looked_through():
    la = _view("mpiexec -n 16 --ppn 4 ./set_affinity_gpu_polaris.sh python train.py\n")[0]
    assert la.program == ["python", "train.py"] and la.ai
    la = _view('CMD="python3 train.py --epochs 2"\nmpiexec -n 16 --ppn 4 ./wrap.sh $CMD\n')[0]
    assert la.program == ["python3", "train.py", "--epochs", "2"] and la.ai


def test_a_launch_run_through_eval_is_seen():
    assert sizes('CMD="mpiexec -n 8 --ppn 4 python train.py"\neval "${CMD}" |& tee log\n') == ["8"]
    assert argvs('eval "$(conda shell.bash hook)"\n') == []


def _rules(text: str) -> list[tuple[str, int]]:
    return [(f.rule, f.line) for f in lint(parse_text(HEAD + text), load_profile("polaris").profile)
            if f.rule in ("TEXT004", "TEXT005", "LAUNCH008")]


def test_shell_text_rules_read_functions_and_blank_lines_as_bash_does():
    # a misspelt launcher in a function the script calls (bash: command not found, 127)
    assert _rules("run() {\n  mpiexc -n 4 --ppn 4 ./a\n}\nrun\n") == [("LAUNCH008", 5)]
    # a real launcher of another MPI, a path, a sourced file that may define the name: silent
    assert _rules("prun -n 4 ./a\n./piexec -n 4 ./a\nsource env.sh\nsrn -n 4 ./a\n") == []
    # `\ ` before an empty line: the command ends there either way
    assert _rules("echo a \\  \n\nls\n") == []
    assert _rules("echo a \\  \nls\n") == [("TEXT004", 4)]
    # `\\` at the end is an escaped backslash, not a continuation
    assert _rules("echo a \\\\  \nls\n") == []
    # export of several names is fine; of a program and its script is not
    assert _rules("export A=1 B C\nexport A=1 python3 x.py\n") == [("TEXT005", 5)]
    # continued lines are one statement: more names, or the command on the next line
    assert _rules("export A=1 \\\n  B=2\nexport C=1; python x.py\nexport H=1 \\\n  python t.py\n"
                  ) == [("TEXT005", 7)]


@pytest.mark.parametrize(("head", "count", "total"), [
    ("#PBS -l select=4:system=polaris\n", "`wc -l < $PBS_NODEFILE`", "16"),
    ("#PBS -l select=4\n", '"$(sort -u "${PBS_NODEFILE}" | wc -l)"', "16"),
    ("#PBS -l select=4:mpiprocs=4\n", "$(cat $PBS_NODEFILE | uniq | sed -n $=)", "16"),
    # four lines per node (mpiprocs=4) in a file not made unique: not the node count
    ("#PBS -l select=4:mpiprocs=4\n", "$(cat $PBS_NODEFILE | wc -l)", "$((NNODES*4))"),
    ("#PBS -l select=2+1:ngpus=4\n", "$(wc -l < $PBS_NODEFILE)", "$((NNODES*4))"),
    ("#SBATCH --nodes=4\n", "$SLURM_NNODES", "16"),
    ("#SBATCH --nodes=2-4\n", "$SLURM_NNODES", "$((NNODES*4))"),
])
def test_the_node_count_read_from_the_node_file_is_the_directives(head, count, total):
    # an expression lint cannot compute stays one word, as written without its blanks (diff
    # shows it; it is no number to lint)
    text = f"#!/bin/bash\n{head}NNODES={count}\nmpiexec -n $(( NNODES * 4 )) --ppn 4 ./a\n"
    argv = parse_text(text).launches[0].argv
    assert argv[argv.index("-n") + 1] == total


def test_appending_to_a_variable_keeps_what_it_held():
    text = ('MPI_ARG=" -n 8 --ppn 4 "\nMPI_ARG+=" --cpu-bind list:0:1:2:3 "\n'
            'COMMAND="mpiexec ${MPI_ARG} ./a"\n${COMMAND}\n')
    assert argvs(text) == [["mpiexec", "-n", "8", "--ppn", "4", "--cpu-bind", "list:0:1:2:3",
                            "./a"]]
