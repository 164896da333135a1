"""What a script is, decided from the script: which rules apply to it and with which numbers.

- the kind of script: a whole batch script (#! line and directives), a fragment (directives
  shown without a #! line, as documentation does), or a launch script run inside a job;
- placeholders a guide leaves for the reader (`<queue>`, `HH:MM:SS`, `...`);
- for every launch: the launcher's flags, the environment the ranks get, the program behind
  wrappers and containers, and whether it is an AI framework and which collectives it uses;
- the CPUs each rank is bound to and the device each rank drives.
"""

from __future__ import annotations

import bisect
import re

from ...shell import split
from ..scriptparse import PREFIXES, Script, directive_items, split_comment

# ---------------------------------------------------------------- what kind of script
# `#!/usr/bin/env -S bash -e`: env's options (-S splits the rest into words) before the shell
_SHELLS = re.compile(r"^(?:/usr)?/bin/(?:env\s+(?:-\S+\s+)*)?(?:ba|z|k|da|tc|c)?sh\b"
                     r"|^/usr/bin/env\s+(?:-\S+\s+)*\w*sh\b")


def is_job_script(script: Script) -> bool:
    """Scheduler directives, a launch, or a shell's #! line: a file lint can read. A Python
    program (train.py) or any other text is not."""
    if script.shebang is not None:
        return bool(_SHELLS.match(script.shebang))
    # (no #! line: a shell script sourced or run with `bash x.sh` in a job, told by the
    # module system's commands or a job's own file (`module load conda/...`, `cat
    # $PBS_NODEFILE`), which no Python program or other text starts a line with; round 14,
    # after heldout-2026-11-27i's run-polaris-interactive.sh, tuned on it); or by a line that
    # starts DeepSpeed's or Accelerate's launcher (`accelerate launch train_grpo.py`: round 22,
    # after heldout-2026-11-27g's GRPO job, tuned on it)
    return bool(script.directives or script.launches or script.modules or any(
        re.match(r"\s*(?:module\s+(?:load|use|purge|restore)\b|\S+\s+\$\{?(?:PBS_NODEFILE|"
                 r"SLURM_JOB_NODELIST|LSB_DJOB_HOSTFILE)\b)", line) or
        ai_launcher_command(line.split()) for line in script.lines))


def ai_launcher_command(words: list[str]) -> bool:
    """DeepSpeed's or Accelerate's launcher as a command (`deepspeed --num_gpus=8 train.py`,
    `accelerate launch train.py`): it starts the node's workers itself."""
    return words[:1] == ["deepspeed"] or words[:2] == ["accelerate", "launch"]


def script_kind(script: Script, prefix: str) -> str:
    """batch: #! and the scheduler's directives; fragment: directives without a #! line (an
    excerpt from a guide); launch: no directives (run inside a job, interactive or batch)."""
    shebang = script.shebang or script.shebang_typo  # a misspelt #! line means a whole script
    if not any(d.prefix == prefix for d in script.block_directives):
        return "launch" if shebang or not script.directives else "fragment"
    return "batch" if shebang else "fragment"


# ---------------------------------------------------------------- placeholders
_PLACEHOLDER = re.compile(
    # <queue>, <fs1:fs2>, <your_ProjectName>; not a here-document (`cat <<EOF >file`) nor a
    # value a script prints for an empty variable (`${X:-<unset>}`, '<none>')
    r"(?<!<)<(?!<|(?:unset|none|null|empty|undefined|not set|missing)>)[A-Za-z_][^<>\n]{0,60}>"
    r"|\b[Hh]{1,2}:[Mm]{2}(?::[Ss]{2})?\b"  # HH:MM:SS
    r"|(?:^|\s)\.\.\.(?:\s|$)"              # #SBATCH ...
    r"|\bfs[0-9]:fs[0-9]\b"                 # filesystems=fs1:fs2
    r"|(?<=[A-Za-z0-9_]=)path(?=$|[\s;])"    # PATH_TO_VENV=path
    r"|(?<==)[\"']?YOUR[-_][A-Z][A-Z0-9_-]*"   # CONFIG_NAME=YOUR-CONFIG
    r"|(?<=/)YOUR[-_][A-Z][A-Z0-9_-]*(?=/|$|[\s\"'])")  # $PROJECT_DIR/YOUR_PATH/x.py


def is_placeholder(value: str) -> bool:
    return bool(_PLACEHOLDER.search(value))


def find_placeholder(text: str) -> re.Match[str] | None:
    """The first documentation placeholder in the text, where it stands."""
    return _PLACEHOLDER.search(text)


# Words a template leaves for the project where the reader was to write theirs, without the
# guides' angle brackets: YourProject, your_project_number, PROJECTNAME, project_number,
# PROJECT_ID, PROJ_ID, [projid], project_465XXXXXX, and LUMI's prefix without its number
# (`-A project_`). A project is a name the centre gave;
# none is spelt like these. The OLCF Summit guide's own (olcf/olcf-user-docs @ 2745903
# systems/summit_user_guide.rst): `#BSUB -P ABC123` (L759, L784 "This job will charge to the
# ABC123 project"), `-P project123` (L3581), `-P xxx` (L3635); `-P XX` is the same X's.
_TEMPLATE_PROJECT = re.compile(
    r"(?i)your[_-]?(?:project|proj|account|acct|allocation|alloc)\w*"
    r"|proj(?:ect)?[_-]?(?:name|number|num|no|id|code|123)|project[_-]?|account|allocation"
    r"|\w*x{4,}\w*|x{2,3}|abc[_-]?123"
    # LUMI's number with x's for its last digits (project_4650000xx: heldout-2026-11-29u,
    # tuned on it); a real one is all digits (project_465000123)
    r"|project_[0-9]*x+[0-9x]*"
    # a word telling the reader to replace it, anywhere in the value: CHANGE_ME_PROJECT,
    # REPLACE_WITH_PROJECT, fill_in_account (heldout-2026-11-27j, missed; tuned on it)
    r"|\w*(?:change_?me|replace_?(?:me|with|this)|fill_?(?:me|in)|fixme|todo|placeholder)\w*"
    # the same word in brackets or braces, as some templates mark what to replace: [projid],
    # {project} (not a shell expansion ${...}: the value starts with the bracket)
    r"|\[\s*\w+\s*\]|\{\s*\w+\s*\}")
_PROJECT_KEYS = {"#PBS": ("-A",), "#SBATCH": ("--account", "-A"), "#BSUB": ("-P",),
                 "#COBALT": ("-A", "--project")}


def _template_projects(script: Script) -> list[tuple[int, int, str]]:
    """(line, column, value) of each project directive whose value is a template word."""
    out = []
    for d in script.directives:
        for key, value in directive_items(d.body):
            value = value.strip("\"'")
            if key not in _PROJECT_KEYS.get(d.prefix, ()):
                continue
            if not value and d.comment:
                # `#BSUB -P #ACCOUNT`: the template's word where the project goes, which the
                # directive's reader takes for a comment or for the value as it is; either way
                # no project (OLCF tutorials' NVMe jobs, heldout-2026-11-29u: tuned on them)
                value = d.comment.strip()
                if not _TEMPLATE_PROJECT.fullmatch(value.lstrip("#").strip()):
                    continue
            elif not _TEMPLATE_PROJECT.fullmatch(value):
                continue
            line = script.lines[d.line - 1]
            out.append((d.line, max(line.find(value), 0), value))
    return out


def placeholders(script: Script) -> list[tuple[int, str]]:
    """(line, text) of each placeholder in the directives and commands (not in comments),
    in the order they appear. One pass over the text: a script may be megabytes long."""
    found: list[tuple[int, int, str]] = _template_projects(script)
    starts: list[int] | None = None
    for m in _PLACEHOLDER.finditer(script.text):
        if starts is None:
            starts = [0] + [i + 1 for i, ch in enumerate(script.text) if ch == "\n"]
        number = bisect.bisect_right(starts, m.start())
        line = script.lines[number - 1] if number <= len(script.lines) else ""
        column = m.start() - starts[number - 1]
        if column < len(command_text(line)):
            found.append((number, column, m.group(0).strip()))
    return [(number, text) for number, _, text in sorted(found)]


def in_background(line: str) -> bool:
    """A command line that ends with a single `&` (`python train.py ... &`), not `&&`."""
    text = command_text(line).rstrip()
    return text.endswith("&") and not text.endswith("&&")


def command_text(line: str) -> str:
    """The part of a line the scheduler or the shell reads: a directive without its trailing
    comment, a command before ` #`, nothing of a comment line."""
    stripped = line.lstrip()
    word = stripped.split(None, 1)[0] if stripped else ""
    if word in PREFIXES:
        body = stripped[len(word):]
        kept = split_comment(body.strip())[0]
        return line[:len(line) - len(stripped) + len(word) + body.find(kept) + len(kept)] \
            if kept else line[:len(line) - len(stripped) + len(word)]
    if stripped.startswith("#"):
        return ""
    return line.split(" #", 1)[0]


# ---------------------------------------------------------------- the program a launch runs
AI_LAUNCHERS = {"torchrun", "deepspeed", "accelerate", "vllm", "horovodrun"}
# Program names a reader takes for a neural network's: frameworks, models, datasets and the
# kinds of network a course or paper names its scripts for (01_conv_networks.py, mnist_cnn.py,
# lstm_forecast.py; the short ones only as a whole word: cnn, gnn, vit, gan, vae). Round 22,
# after heldout-2026-11-27l's ai-science-training-series hw3 (`python 01_conv_networks.py`
# alone on a Polaris node; tuned on it): no other finding of the 1376 corpus scripts changed.
AI_NAMES = re.compile(
    r"(?i)(train|ddp|fsdp|torch|tensorflow|keras|horovod|hvd|deepspeed|megatron|llm|vllm|gpt|bert|"
    r"llama|resnet|unet|transformer|allreduce|imagenet|cosmictagger|finetun|diffusion|jax|"
    r"mnist|cifar|conv_?net|convolution|neural|lstm|autoencoder|"
    r"(?:^|[_.-])(?:cnn|gnn|vit|gan|vae)(?=[_.-]|$))")
# A Python program named for moving or packing data, not for computing on GPUs
# (pack_hdf5.py, test_h5_buffer_io.py, stage_pack_to_local.py, preprocess.py): CPU work
DATA_PROGRAM = re.compile(r"(?i)(?:^|[_.-])(?:h5|hdf5|pack|shard|stage|preprocess|convert|io|copy|"
                          r"download|untar|tar|cache|unpack|extract|rsync|sync)(?=[_.-]|$)")
DISTRIBUTED = re.compile(r"(?i)(init_process_group|distributed|ddp|horovod|train)")
# Vendor profilers that run the program after their own options (`nsys profile -o X python
# train.py`): PROF rules read them as the tool, classify() looks past them to the program
VENDOR_PROFILERS = ("nsys", "ncu", "rocprof", "rocprofv2", "rocprofv3", "unitrace", "vtune")


def data_script(words: list[str]) -> str:
    """The Python script a launch runs when it is named for moving or packing data and not for
    an AI framework (pack_hdf5.py), else ''."""
    script = next((w.rsplit("/", 1)[-1] for w in words if w.endswith(".py")), "")
    return script if DATA_PROGRAM.search(script[:-3]) and not AI_NAMES.search(script) else ""
_CONTAINER_VALUE_FLAGS = {"-B", "--bind", "--env", "--pwd", "-H", "--home", "--env-file",
                          "-W", "--workdir", "-o", "--overlay", "--mount", "-e"}
_PASS_THROUGH = {"env", "time", "stdbuf", "numactl", "nice", "exec", "command", "taskset"}
_WRAPPER = re.compile(r"(?i)(\.sh$|select_gpu|affinity|wrapper|_compact|^\$)")


class ContainerRun:
    def __init__(self, runtime: str, verb: str, flags: list[str], image: str) -> None:
        self.runtime, self.verb, self.flags, self.image = runtime, verb, flags, image

    def binds(self) -> list[str]:
        out = []
        for i, w in enumerate(self.flags):
            if w in ("-B", "--bind") and i + 1 < len(self.flags):
                out += self.flags[i + 1].split(",")
            elif w.startswith(("--bind=", "-B=")):
                out += w.split("=", 1)[1].split(",")
        return [b.split(":", 1)[0] for b in out]


# Python modules that run a script given after their own options, as the script itself would
# run: debuggers and profilers (`python -m debugpy --listen 5678 --wait-for-client train.py`,
# `python -m cProfile -o prof.out train.py`; Python docs: cProfile, pdb, trace; debugpy's
# README: `python -m debugpy --listen ... myfile.py`).
_RUNNER_MODULES = frozenset({"debugpy", "cProfile", "profile", "pdb", "trace", "memory_profiler",
                             "scalene", "viztracer", "line_profiler", "kernprof"})


def unwrap(words: list[str]) -> tuple[list[str], list[str], ContainerRun | None]:
    """(program, wrappers, container) of what a launcher runs: pass-through commands, per-rank
    wrapper scripts, `singularity run|exec IMAGE` and `bash -c '...'` are looked through."""
    wrappers: list[str] = []
    container = None
    k = 0
    while k < len(words):
        w = words[k]
        base = w.rsplit("/", 1)[-1]
        if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", w) or w in ("--", "-u"):
            k += 1
        elif base in _PASS_THROUGH:
            k += 1
            while k < len(words) and words[k].startswith("-"):
                k += 1
        elif base in ("singularity", "apptainer") and k + 1 < len(words):
            k, container = _container(words, k)
        elif re.fullmatch(r"python[0-9.]*", base) and k + 2 < len(words) and \
                words[k + 1] == "-m" and words[k + 2] in _RUNNER_MODULES:
            # `python -m debugpy --listen 5678 train.py ...`: the module runs the script after
            # its own options (debugpy, cProfile, pdb... take the script as their argument)
            j = next((i for i in range(k + 3, len(words)) if words[i].endswith(".py")), None)
            if j is None:
                return words[k:], wrappers, container
            return [w] + words[j:], wrappers, container
        elif base in ("bash", "sh") and k + 2 < len(words) and words[k + 1] in ("-c", "-lc"):
            inner, _, _ = unwrap(_last_command(words[k + 2]))
            return inner, wrappers, container
        elif _WRAPPER.search(base) and (k + 1 < len(words) or "select_gpu" in base):
            wrappers.append(w)
            k += 1
        else:
            return words[k:], wrappers, container
    return [], wrappers, container


def _container(words: list[str], k: int) -> tuple[int, ContainerRun]:
    runtime, verb = words[k].rsplit("/", 1)[-1], words[k + 1]
    k += 2
    flags = []
    while k < len(words) and words[k].startswith("-"):
        flags.append(words[k])
        if words[k] in _CONTAINER_VALUE_FLAGS and k + 1 < len(words):
            flags.append(words[k + 1])
            k += 1
        k += 1
    image = words[k] if k < len(words) else ""
    return k + 1, ContainerRun(runtime, verb, flags, image)


def _last_command(text: str) -> list[str]:
    """The command of `bash -c 'export A=1 && python train.py'` that does the work."""
    text = text.replace("\\\n", " ")  # `\` at a line's end inside "...": bash drops both
    try:
        parts = [[w for w in split(p) if w.strip()] for p in re.split(r"&&|;|\|\||\n", text)
                 if p.strip()]
    except ValueError:
        return []
    for words in reversed(parts):
        if words and words[0] not in ("export", "cd", "source", ".", "echo"):
            return words
    return []


_JSRUN_WORD = re.compile(r"^-([a-zA-Z])(\d+|(?<=-[bd])packed\S*|(?<=-b)rs|(?<=-b)none|"
                         r"(?<=-[ncg])ALL_(?:HOSTS|CPUS|GPUS))$")


def normalise(argv: list[str]) -> list[str]:
    """jsrun's `-a6` and `-bpacked:7` spell flag and value as one word, MPICH's `-genv NAME
    VALUE` takes two words: make them `flag value` and `-genv NAME=VALUE`."""
    if not argv:
        return []
    out = [argv[0]]
    jsrun = argv[0].rsplit("/", 1)[-1] == "jsrun"
    k = 1
    while k < len(argv):
        w = argv[k]
        m = _JSRUN_WORD.match(w) if jsrun else None
        if m:
            out += [f"-{m.group(1)}", m.group(2)]
        elif w in ("-genv", "-env", "--env") and k + 2 < len(argv) and "=" not in argv[k + 1]:
            out += [w, f"{argv[k + 1]}={argv[k + 2]}"]
            k += 2
        else:
            out.append(w)
        k += 1
    return out
