"""docs/lint.md, generated from the rule table (`python tools/lint_docs.py` writes it; a test
checks that the page matches)."""

from __future__ import annotations

from .core import RULES, TOPICS, Rule

_INTRO = """# jobgen lint

`jobgen lint SCRIPT` checks a job script, one `jobgen render` wrote or one written by hand,
against a site's rules, and reports each finding with its line, severity, rule, message and
fix. This page is generated from the rule table (`python tools/lint_docs.py`); do not edit it
by hand.

What the sites' guides require, statement by statement, and which rule checks each (or why
none can): [lint coverage of the guides](lint-coverage.md).

```
jobgen lint job.pbs                         # site: header, `# site: NAME`, or its clues
jobgen lint job.slurm --site lumi --min-severity warning
jobgen lint job.pbs --strict                # exit 1 on warnings too
jobgen lint job.pbs --format json
jobgen lint --explain CPU005 --site aurora  # a rule's scope, source, fix and the facts it reads
```

## How far to trust it

Measured on job scripts that users wrote for their own runs, gathered from public repositories
and labelled by two independent readers against the sites' documents before lint ever ran on
them, each set run once, blind, with the lint of its day:

| held-out set | repositories | precision | recall | site told |
|---|---|---|---|---|
| 2026-11-27b, 107 scripts | 56 | 78/89 = 88% (79-93%) | 76/133 = 57% (49-65%) | 98/107 = 92% |
| 2026-11-27c, 70 scripts | 29 | 68/92 = 74% (64-82%) | 48/72 = 67% (55-76%) | 67/70 = 96% |
| 2026-11-27d, 68 scripts | 26 | 40/52 = 77% (64-86%) | 35/70 = 50% (39-61%) | 62/68 = 91% |
| 2026-11-27e, 73 scripts | 26 | 42/72 = 58% (47-69%) | 27/68 = 40% (29-52%) | 58/73 = 79% |
| 2026-11-27f, 62 scripts | 25 | 64/126 = 51% (42-59%) | 39/59 = 66% (53-77%) | 54/62 = 87% |
| 2026-11-27g, 41 scripts | 15 | 14/25 = 56% (37-73%) | 11/26 = 42% (26-61%) | 36/41 = 88% |
| 2026-11-27h, 64 scripts | 26 | 32/55 = 58% (45-70%) | 37/59 = 63% (50-74%) | 61/64 = 95% |
| 2026-11-27i, 64 scripts | 25 | 40/41 = 98% (87-100%) | 39/65 = 60% (48-71%) | 63/64 = 98% |
| 2026-11-27j, 60 scripts | 20 | 17/21 = 81% (60-92%) | 24/49 = 49% (36-63%) | 58/60 = 97% |
| 2026-11-27k, 22 scripts | 8 | 9/9 = 100% (70-100%) | 5/19 = 26% (12-49%) | 19/22 = 86% |
| 2026-11-27l, 21 scripts | 8 | 19/19 = 100% (83-100%) | 13/30 = 43% (27-61%) | 21/21 = 100% |
| 2026-11-27m, 30 scripts | 10 | 7/12 = 58% (32-81%) | 13/32 = 41% (26-58%) | 30/30 = 100% |
| 2026-11-28n, 55 scripts | 26 | 35/44 = 80% (65-89%) | 37/67 = 55% (43-67%) | 55/55 = 100% |
| 2026-11-28p, 34 scripts | 14 | 40/48 = 83% (70-91%) | 32/49 = 65% (51-77%) | 34/34 = 100% |
| 2026-11-28q, 57 scripts | 28 | 22/40 = 55% (40-69%) | 24/69 = 35% (25-47%) | 56/57 = 98% |
| 2026-11-28r, 56 scripts | 18 | 58/64 = 91% (81-96%) | 54/82 = 66% (55-75%) | 55/56 = 98% |
| 2026-11-29t, 56 scripts | 27 | 150/254 = 59% (53-65%) | 52/78 = 67% (56-76%) | 54/56 = 96% |
| 2026-11-29u, 42 scripts | 18 | 33/40 = 82% (68-91%) | 38/76 = 50% (39-61%) | 42/42 = 100% |

(precision: the warnings and errors that were right; recall: the violations the readers found
that lint reported; 95% Wilson intervals in brackets; findings judged unsure are counted in
neither; on 2026-11-27f, 57 of the 62 false findings came from one rule on two workflow scripts,
without which it was 64/69 = 93%.) Each set's false findings and missed violations were then
fixed where the script says enough, so the later figures are no longer blind: 2026-11-27b 99%,
91%, 97%; 2026-11-27c 99%, 96%, 97%; 2026-11-27d 95%, 89%, 100%; 2026-11-27e 100%, 74%, 88%;
2026-11-27f 97%, 88%, 95%; 2026-11-27g 90%, 81%, 88%; 2026-11-27h 100%, 93%, 97%; 2026-11-27i
100%, 94%, 98%; 2026-11-27j 100%, 82%, 97%; 2026-11-27k 100%, 63%, 86%; 2026-11-27l 100%,
90%, 100%; 2026-11-27m 100%, 78%, 100%; 2026-11-28n 98%, 75%, 100%; 2026-11-28p 92%, 84%,
100%; 2026-11-28q 83%, 65%, 98%; 2026-11-28r 98%, 73%, 98%; 2026-11-29t 99%, 85%, 96%;
2026-11-29u 96%, 74%, 100%; on the 120 users' scripts the
rules were developed on (tests/lint_users) 100%, 98%, 97%; all 1165 users' scripts together
(tuned on every one of them) 1383/1412 = 97.9%, 1090/1282 = 85.0% (83.0-86.9%), 1127/1165 =
96.7%. A spot
set of 67 more unseen scripts, each read by one reader only
(tests/lint_users/spotcheck-2026-11-28), gave 28/46 = 61% and 21/33 = 64% blind (Summit 96% and
75%; 12 of the 18 false findings on one repository's jobs whose inputs come from `sbatch
--export`, fixed since). So: on a new set, blind, precision has been 51-100% (33/40 = 82% on
2026-11-29u, the latest; 150/254 = 59% on 2026-11-29t, where three scripts held 94 of the 104
false findings; 22/40 = 55% on 2026-11-28q, where nine of the 18 false findings were a
site fact lint had wrong, Polaris's grand filesystem, which the guide no longer lists but qsub
still took in 2026, a note since) and recall 26-67% (50% on 2026-11-29u, whose largest class of
misses, as on most sets, was CPU-only work on whole GPU nodes; 66% on 2026-11-28r: 12 of its 28
misses had no rule, and three of the 16 others were modules a sourced file loads, which lint
reads only where it lies beside the script; 35% on 2026-11-28q), and a set's first
reading keeps finding kinds of violation no rule covers yet (undefined shell variables and
functions, settings in files lint does not read), while the site goes untold for launch
scripts that carry no clue at all. A
finding is likely, not certainly, real: lint reads the script, the files it sources that
exist beside it (the figures above are of the scripts alone, without them) and the job scripts
it writes from here-documents (a generator's `cat > batch.job <<EOF` with #PBS, #SBATCH or
#BSUB lines: their findings are told on the here-document's lines, with the generator's own
values filled in where lint knows them), and what a wrapper
script, a file it cannot find or your shell profile sets is invisible to it; a clean result does not
mean a script wastes nothing, least of all CPU binding and idle devices on hand-written layouts.

## Severity and exit code

- **error**: the scheduler refuses the job, or the run cannot work (a failed launch, a hang,
  no device, a module that no longer exists). Each names its source.
- **warning**: the job runs, but wastes what it asked for (idle nodes or cores, ranks far from
  their devices) or gives another result than written (a setting the ranks never see, a
  directive the scheduler ignores, a recommendation of the site's documentation left out).
- **info**: something to know or style, such as placeholders left to fill in, settings for
  another vendor's GPUs that do nothing, a superseded module, or what lint can see but not
  judge (data copied into a capped in-memory /tmp, whose size it cannot see).

The 2026-11-26 review checked every rule against these definitions: SCHED001 (another scheduler's
directives), PBS001 (a second select), LSF002 and LSF004 (alloc_flags kept in part), CPU002
(two ranks on one hardware thread) and COPPER001 (ranks on Copper's cores) went from error to
warning, the job runs; VENDOR001-003 from warning to info, the settings do nothing.

A rule's hit is less severe than the rule where the profile says so: a misspelt variable whose
library falls back to a working default (MIOpen's user database) is a warning, and a binding a
site's guide gives on purpose (Polaris `--cpu-bind depth -d 16`) is noted at info with the list
that keeps each rank next to its GPU. What only the program decides is a note (info) too, said
as a condition: the GPU a rank takes where the script names none (CPU007: the frameworks'
usual local rank r on GPU r), how many GPUs one process uses (GPU008: one, unless its code
spreads the work), another site's queue where the site's queue list is not public (QUEUE002
on Sunspot). The severity column shows both.

`jobgen lint` exits 1 when it finds an error (with `--strict`, an error or a warning), 0
otherwise, and 2 on bad input: a file that is not a job script (`train.py`), an unknown site,
or a script whose site it cannot tell (add `--site` or a `# site: NAME` line).

## What lint decides from the script

- **The site**, when `--site` is not given: the jobgen header or a `# site: NAME` line, else
  every clue the script gives, weighed: its directives (a PBS `system=`, a filesystem, a queue
  or partition only one site has, a LUMI `project_46...` account, `#BSUB -nnodes`), its
  launcher (`jsrun`), modules (`frameworks`, `open-ce`, `LUMI/24.03`), paths (`/lus/flare`,
  `/lus/eagle`, `/gpfs/alpine`, `/appl/local`), host names, and a site's name as a word of the
  file's own name (`launch_polaris.sh`, `run_gpu_Sunspot.sh`) or of its comments when they name
  one site only (`# ALCF Polaris`, `# ... does not work on LUMI`; both weak clues, which decide
  a launch script whose code names no site but never outweigh the code; a file name naming
  one site that the code's clues contradict, `train_llama_alcf_aurora.sh` asking
  `filesystems=eagle`, is a conflict: lint asks which was meant). Clues of sites
  jobgen has no profile for (Frontier, Perlmutter, Lassen...) count against a guess. Lint names
  the clues it used, and asks for `--site` only when they are absent or point to several
  sites.
- **The files the script sources**, where they exist beside it: a Slurm or LSF job starts in
  the directory it was submitted from (a PBS job in the home directory, hence its
  `cd $PBS_O_WORKDIR`, PBS009), usually the script's own or its repository's root, so `jobgen lint
  jobs/train.sh` reads `source env/setup.sh` (or `"${SLURM_SUBMIT_DIR}"/env/...`,
  `$PBS_O_WORKDIR/...`, `$(pwd)/...`, `$THIS/...`, or a path through the repository's clone
  elsewhere, by its tail) from the script's directory or up to three above it: its exports,
  assignments and modules are the script's from the `source` line on (an exported
  `CUDA_VISIBLE_DEVICES=0` there narrows the ranks; `RANK=$OMPI_COMM_WORLD_RANK` there is set in
  the batch shell). Its functions are not read; files of at most 256 KiB, two levels deep;
  read, never run. The summary line names each file read (`also read: ...`; `files_read` in
  `--format json`). A documented set of variables (ENV002) stays unreported after a script
  sources a file of its own, read or not: measured in the users' repositories
  (tests/lint_users/inrepo-2026-11-27), reporting it there was wrong 5 times of 9.

Rules apply only where their scope says, decided from the script and the site profile:

- **The kind of script.** A whole batch script (a `#!` line and the site's directives) must
  carry what the site requires (project, walltime, filesystems), and so must a PBS file
  without a `#!` line that starts with its directives, names a project and a walltime and runs
  commands (qsub runs it under the login shell); a fragment (directives without a `#!` line,
  as guides show them), a script run inside a job (no directives), or one
  whose guide elides directives (`#SBATCH ...`) or submits it with options on the command line
  is not held to that.
- **Directives, as the scheduler reads them:** only those before the first command (later
  ones are reported by SCHED005 and otherwise ignored), never from comments.
- **Placeholders** (`<queue>`, `HH:MM:SS`, `...`, a template project such as `YourProject` or
  `project_number`, `VENV=path`) are reported once (TEXT002) and read by no other rule.
- **Every launch separately**, each with the environment it gets (the exports before it, its
  own `--env` and its `VAR=value` prefixes, which bash gives that command only): several `mpiexec`
  lines, each with its own device variable, are several launches. A launch in a shell function is
  read where the function is called (with its arguments, `cmd mpiexec -n "$NRANKS" ...` through
  `time "$@"` too, the names its body assigns from them, `local n=$1`, and the modules and
  exports before the call); a value with a default
  (`PPN=${PPN:-4}`) is its default unless the script sets the name first or the scheduler does;
  `module load $MODULE` loads the module the variable names; one ending in `&` runs beside the
  others (per-node launches are not held to the whole allocation); a quoted string over several
  lines (`srun bash -c '...'`) is one statement; a trailing `# comment` is not part of a value. An
  AI program the batch shell runs itself (`python train.py`) is one process on the job's first node;
  a launch whose ranks per node are known only at run time is named (LAUNCH006), not skipped
  silently. A launch in a `for` loop over words lint knows (literal words, `{1..4}`, `$(seq 4)`, a
  literal array) is read once per value, with the values computed from the loop's variable; a branch
  of an `if` that the script's own constants rule out (`DO_STRONG=false` ... `if [[ $DO_STRONG ==
  true ]]`: a name set once, to a literal, before the test, with no file sourced in between) is not
  read, as bash never runs it, nor is what follows an `exit` at top level (not one in a branch, a
  loop, a function or a `{ }`/`( )` group); `mpiexec --gpu-bind=list:0.0:0.1:...` gives local rank r
  the r-th tile of the list; `srun --cpu-bind=cores` on a node the job holds whole binds each task
  to its -c cores in order, from the cores the job may use (as the LUMI guide's examples show); `$((
  ))` it cannot evaluate is one run-time value and the flags after it are still read; a node count
  read from `$PBS_NODEFILE` (`wc -l <`, `uniq`) or `$SLURM_NNODES` is the directives' node count;
  `eval "$CMD"` and `VAR+=...` are read as bash does. ezpz's launcher (`ezpz launch`, `ezpz-launch`,
  `python -m ezpz.launch`, and its helpers' `launch` once the script sources them) is a launch
  placed as ezpz places it: the sizes it is given, the rest of the job filled. A launch in the
  command string `ssh HOST "..."` runs is read with only what the string itself exports (the remote
  shell gets none of the batch shell's variables, and reads the user's `~/.bashrc`, which lint
  cannot: no documented set is asked of it), on hosts of its own. A script with no directives and no
  launch that reads the rank a launcher gives (`$SLURM_PROCID`) is a per-rank script: the program it
  runs (`python -u "$@"`) is one of the job's ranks. A process substitution (`> >(tee log)`) is a
  file name, not a word of the program.
- **The program**: an AI framework (PyTorch, TensorFlow, vLLM... behind wrappers, `bash -c`
  and containers) and the collectives it uses (oneCCL, NCCL, RCCL), or any other MPI
  program. Device and collective rules apply to AI frameworks only, except CPU009 and GPU008,
  which also hold GPU programs to binding and to the node's devices (a per-rank device
  wrapper, or ranks per node 1-4 times the devices in a script that speaks of GPUs), and
  GPU004, which holds any jsrun resource set that asks for GPUs (`-g`) to one task per GPU
  without MPS. A process told to use one device (`--device xpu`, Python code moving its work
  to `"xpu"`/`"cuda"`) uses the current one, not the node's others (GPU008). A program of the
  user's own that the batch shell runs by its path (`./app`) runs where the batch shell does
  (Summit: the launch node, LAUNCH004). One rank in all (`mpiexec -n 1`) uses no collectives.
  A Python program named for moving or packing data (`pack_hdf5.py`, `test_h5_buffer_io.py`,
  `stage_pack_to_local.py`) is CPU work, not an AI or GPU program; a profiler before the
  program (`nsys profile ... python train.py`) is looked through.
- **The partition family and allocation** (LUMI-G or LUMI-C, whole nodes or shared), with the
  family's own cores and devices; **the device hierarchy** (Aurora FLAT or COMPOSITE: the
  exported variable, else the module that sets it, else the default).
- **SMT siblings**: ranks bound to each other's SMT siblings are intended (the guides fill all
  hardware threads); only ranks bound to the same hardware thread are reported.

The facts come from the site profiles (`site_profiles/*.yaml`), each with its source:
`jobgen lint --explain RULE --site SITE` prints those a rule reads.

## Rules by topic
"""


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _severity(r: Rule) -> str:
    if not r.lowers_to:
        return r.severity
    return f"{r.severity} ({' or '.join(r.lowers_to)} {_cell(r.lowered)})"


def markdown() -> str:
    out = [_INTRO]
    for topic in TOPICS:
        rules = sorted((r for r in RULES.values() if r.topic == topic), key=lambda r: r.id)
        out.append(f"### {topic.capitalize()}\n")
        out.append("| rule | severity | catches | applies to | source | fix |")
        out.append("|---|---|---|---|---|---|")
        out += [f"| {r.id} `{r.name}` | {_severity(r)} | {_cell(r.summary)} | "
                f"{_cell(r.scope)} | {_cell(r.source)} | {_cell(r.fix)} |" for r in rules]
        out.append("")
    return "\n".join(out)
