"""A generator of hostile input for the study and config readers (issue 36): seeded mutation of
real sweep directories, result lines, manifests, --monitor files, scheduler answers and config
files, in the shapes the adversary of 2026-11-26 found harmful (runs of escaped quotes, deep
nesting, extreme and non-finite numbers, huge digits, links, FIFOs, blank-line floods, foreign
job records, alias bombs), many generated cases per class.

Every case runs under a time cap (SIGALRM, `CAP` s: a hang fails it) and must end with exit
0, 1 or 2; an exit 2 has exactly one `jobgen: error:` line, the last; no traceback (the quick
cases run in this process through helpers.jobgen_here: any exception fails the test); nothing
outside the sweep is read into the results, written or deleted, and the sweep's scripts are
never changed. Scheduler cases also check that `qdel`/`scancel` only ever got the ids of jobs
the scheduler reported as this sweep's (owner, job name, the run's own directory). The slow
test runs a sample of every surface again as a child process under RLIMIT_AS = 1 GiB.

`python3 -m pytest -q -s tests/test_hostile_generator.py` prints the tallies per surface;
JOBGEN_GEN_CASES=N runs N cases per surface (default: CI-sized), JOBGEN_GEN_SEED another seed.
"""

from __future__ import annotations

import json
import os
import pwd
import random
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT, capped, jobgen_here

from jobgen.errors import JobgenError
from jobgen.study import manifest as mf

CAP = 10  # s per case
CASES = int(os.environ.get("JOBGEN_GEN_CASES") or 60)
SEED = int(os.environ.get("JOBGEN_GEN_SEED") or 36)
PBS_STANDIN = ROOT / "tests" / "emulation" / "pbs"
TALLY: dict[str, Counter] = {}
ME = pwd.getpwuid(os.getuid()).pw_name


# ---------------------------------------------------------------- hostile values
def hostile_number(rng: random.Random) -> str:
    return rng.choice([
        "NaN", "Infinity", "-Infinity", "1e400", "-1e400", "1e-320", "1e308", "1.7e308",
        "9" * rng.randint(18, 6000), "-" + "9" * rng.randint(18, 6000), "0", "-1",
        "4.9e-324", "1e12", "1e13", repr(rng.uniform(-1e300, 1e300)), "0.0", "1" + "0" * 300,
    ])


def hostile_string(rng: random.Random) -> str:
    n = rng.choice([1, 10, 200, 2000, 30_000, 100_000])
    return rng.choice([
        '"' + '\\"' * n,  # unterminated, escaped quotes (N3)
        '"' + '\\"' * n + '"',
        '"' + "\\" * (2 * n) + '"',
        '"' + "a" * n + '"',
        '"' + "".join(chr(rng.randint(0, 0x2030)) for _ in range(min(n, 500))).replace(
            "\\", "").replace('"', "") + '"',
        '"../' * 3 + '"', '"/etc/passwd"', '"%j" ', '"{id:>999999999}"',
        '"\\u0000\\u001b[31m"', '"\\ud800"', '"$(touch /tmp/jobgen-canary)"',
    ])


def hostile_json(rng: random.Random, depth: int = 0) -> str:
    kind = rng.randint(0, 6 if depth < 3 else 2)
    if kind == 0:
        return hostile_number(rng)
    if kind == 1:
        return hostile_string(rng)
    if kind == 2:
        return rng.choice(["true", "false", "null", "[]", "{}"])
    if kind == 3:
        n = rng.choice([20, 1000, 50_000])
        return "[" * n + "]" * n if rng.random() < 0.7 else "[" * n
    if kind == 4:
        n = rng.choice([20, 1000, 20_000])
        return '{"a":' * n + "1" + "}" * n
    if kind == 5:
        return "[" + ",".join(hostile_json(rng, depth + 1) for _ in range(rng.randint(0, 4))) + "]"
    return "{" + ",".join(f'"k{i}":{hostile_json(rng, depth + 1)}'
                          for i in range(rng.randint(0, 4))) + "}"


def damage(text: str, rng: random.Random) -> str:
    """One more blow to a text: truncate, repeat, splice bytes, flood with blank lines."""
    kind = rng.randint(0, 4)
    if kind == 0 and text:
        return text[:rng.randint(0, len(text))]
    if kind == 1:
        return text + "\n" * rng.choice([10, 40_000])
    if kind == 2:
        at = rng.randint(0, len(text))
        return text[:at] + hostile_json(rng) + text[at:]
    if kind == 3:
        return "\n".join([text] * rng.randint(2, 50))
    return text


# ---------------------------------------------------------------- running a case


def snapshot(root: Path) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if not root.exists():
        return out
    for p in sorted(root.rglob("*")):
        rel = str(p.relative_to(root))
        if p.is_symlink():
            out[rel] = f"-> {os.readlink(p)}"
        elif p.is_file() and not p.is_fifo():
            out[rel] = p.read_bytes()
        else:
            out[rel] = "other"
    return out


def scripts_of(sweep: Path) -> dict[str, bytes]:
    return {str(p.relative_to(sweep)): p.read_bytes() for p in sweep.rglob("job.sh")
            if p.is_file() and not p.is_symlink()}


def run_case(surface: str, args: list[str], *, guard: list[Path] = (), case: str = ""
             ) -> subprocess.CompletedProcess[str]:
    """One command in this process under the cap; the outcome counted under `surface`."""
    before = [snapshot(g) for g in guard]
    with capped(CAP):
        res = jobgen_here(*args)
    where = f"{surface} case {case}: jobgen {' '.join(a[:60] for a in args)}"
    assert res.returncode in (0, 1, 2), f"{where}: exit {res.returncode}: {res.stderr[-2000:]}"
    assert "Traceback" not in res.stderr, f"{where}: {res.stderr[-3000:]}"
    if res.returncode == 2:
        errors = [x for x in res.stderr.splitlines() if x.startswith("jobgen: error: ")]
        assert len(errors) == 1 and res.stderr.strip().splitlines()[-1] == errors[0], \
            f"{where}: {res.stderr[-2000:]}"
    for g, snap in zip(guard, before, strict=True):
        assert snapshot(g) == snap, f"{where}: {g} changed"
    TALLY.setdefault(surface, Counter())[
        {0: "ok", 1: "incomplete", 2: "refused"}[res.returncode]] += 1
    return res


def outside(tmp: Path) -> Path:
    out = tmp / "outside"
    out.mkdir(exist_ok=True)
    (out / "victim.csv").write_text("t,0,50,31337,40000\n")
    (out / "output.txt").write_text('{"app": "qcnn", "samples_per_sec": 31337}\n')
    return out


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    """A local sweep (2 points x 2 repeats, no scheduler) with a result line in every run."""
    out = tmp_path_factory.mktemp("gen") / "s"
    res = jobgen_here("sweep", "--site", "local", "--app", "qcnn", "--precision", "fp32,bf16",
                      "--repeat", "2", "--out", str(out))
    assert res.returncode == 0, res.stderr
    for i, run in enumerate(sorted(out.glob("*/r*"))):
        (run / "output.txt").write_text(f'{{"app": "qcnn", "samples_per_sec": {10 + i}}}\n')
    return out


def fresh(base: Path, tmp: Path, name: str) -> Path:
    dst = tmp / name
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(base, dst, symlinks=True)
    return dst


def tally(surface: str) -> None:
    print(f"\n{surface}: {sum(TALLY[surface].values())} cases, "
          f"{dict(sorted(TALLY[surface].items()))}, 0 tracebacks, 0 hangs, 0 data loss")


# ---------------------------------------------------------------- result lines (collect)
RESULT = {"app": "qcnn", "samples_per_sec": 12.5, "world_size": 2, "precision": "fp32"}


def result_line(rng: random.Random) -> str:
    fields = [f'"{k}": {json.dumps(v)}' for k, v in RESULT.items()]
    for _ in range(rng.randint(1, 2)):
        i = rng.choice([1, 1, 1, 2, 3])
        key = fields[i].split(":", 1)[0]
        plausible = rng.choice(["1e-320", "1e12", "4.9e-324", "0", "7", "1e-300", '"x"',
                                json.dumps("y" * rng.choice([10, 199, 499])), "null"])
        fields[i] = f"{key}: {plausible if rng.random() < 0.6 else hostile_json(rng)}"
    if rng.random() < 0.2:
        fields.append(fields[0])  # a duplicate key
    line = "{" + ", ".join(fields) + "}"
    return damage(line, rng) if rng.random() < 0.3 else line


def test_generated_result_lines(base, tmp_path):
    rng = random.Random(SEED)
    guard = outside(tmp_path)
    for case in range(CASES):
        sweep = fresh(base, tmp_path, "s")
        scripts = scripts_of(sweep)
        runs = sorted(sweep.glob("*/r*"))
        for run in rng.sample(runs, rng.randint(1, 2)):
            text = "\n".join(result_line(rng) for _ in range(rng.randint(1, 2)))
            data = text.encode("utf-8", "surrogatepass")
            if rng.random() < 0.1:
                data += bytes(rng.randrange(256) for _ in range(200))
            (run / "output.txt").write_bytes(data)
        res = run_case("result lines", ["collect", str(sweep), "--format", "json"],
                       guard=[guard], case=str(case))
        assert scripts_of(sweep) == scripts
        if res.returncode in (0, 1):
            assert "31337" not in (sweep / "results.csv").read_text()
    tally("result lines")


# ---------------------------------------------------------------- manifests
def mutate_manifest(data: Any, rng: random.Random) -> str:
    """The manifest's JSON with one leaf (or branch) replaced, deleted or damaged."""
    path: list[Any] = []
    node = data
    while isinstance(node, (dict, list)) and node and rng.random() < 0.8:
        key = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
        path.append(key)
        node = node[key]
    marker = "\u0000MARK\u0000"
    if not path:
        return hostile_json(rng)
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    if rng.random() < 0.15 and isinstance(parent, dict):
        del parent[path[-1]]
        return json.dumps(data)
    parent[path[-1]] = marker
    text = json.dumps(data).replace(json.dumps(marker), hostile_json(rng), 1)
    return damage(text, rng) if rng.random() < 0.15 else text


def test_generated_manifests(base, tmp_path):
    rng = random.Random(SEED + 1)
    guard = outside(tmp_path)
    original = json.loads((base / "manifest.json").read_text())
    for case in range(CASES):
        sweep = fresh(base, tmp_path, "s")
        scripts = scripts_of(sweep)
        data = json.loads(json.dumps(original))
        if rng.random() < 0.2:
            data["format"] = 1
        (sweep / "manifest.json").write_text(mutate_manifest(data, rng))
        for command in rng.sample(["status", "collect", "cancel", "submit"], 2):
            if command == "submit":
                continue  # runs the scripts (test_study_properties covers submit's paths)
            run_case("manifests", [command, str(sweep)], guard=[guard], case=str(case))
        assert scripts_of(sweep) == scripts
    tally("manifests")


# ---------------------------------------------------------------- --monitor files
def monitor_text(rng: random.Random, kind: str) -> str:
    header = {"gpu": rng.choice(["", "Timestamp, DeviceId, GPU Utilization (%), GPU Memory "
                                     "Used (MiB)\n", "device,GPU use (%),VRAM Total Used "
                                     "Memory (B)\n"]),
              "cpu": "time_s,cpu_busy_pct,mem_used_mib,mem_total_mib\n"}[kind]
    lines = []
    for _ in range(rng.randint(1, 40)):
        cells = [rng.choice(["t", "1", hostile_number(rng)[:50], "N/A", "nan", "inf", "-inf",
                             str(rng.uniform(0, 100)), "1e400", ""])
                 for _ in range(rng.choice([3, 4, 5]))]
        lines.append(",".join(cells))
    text = header + "\n".join(lines) + "\n"
    return damage(text, rng) if rng.random() < 0.3 else text


def test_generated_monitor_files(base, tmp_path):
    rng = random.Random(SEED + 2)
    guard = outside(tmp_path)
    for case in range(CASES):
        sweep = fresh(base, tmp_path, "s")
        run = rng.choice(sorted(sweep.glob("*/r*")))
        mon = run / "jobgen-runs" / f"job.{case}" / "monitor"
        mon.mkdir(parents=True)
        for node in range(rng.randint(1, 3)):
            kind = rng.choice(["gpu", "cpu"])
            target = mon / f"n{node}.{kind}.csv"
            shape = rng.choices(["text", "link-out", "link-in", "fifo", "dev-zero", "sparse",
                                 "dir"], weights=[40, 1, 1, 1, 1, 1, 1])[0]
            if shape == "text":
                target.write_text(monitor_text(rng, kind))
            elif shape == "link-out":
                target.symlink_to(guard / "victim.csv")
            elif shape == "link-in":
                target.symlink_to(run / "output.txt")
            elif shape == "fifo":
                os.mkfifo(target)
            elif shape == "dev-zero":
                target.symlink_to("/dev/zero")
            elif shape == "sparse":
                with open(target, "wb") as fh:
                    fh.truncate(rng.choice([300 << 20, 3 << 30]))
            else:
                target.mkdir()
        res = run_case("monitor files", ["collect", str(sweep), "--format", "json"],
                       guard=[guard], case=str(case))
        if res.returncode in (0, 1):
            assert "31337" not in res.stdout
            for row in json.loads(res.stdout):
                for key in ("gpu_mem_peak_mib", "gpu_util_mean_pct", "cpu_busy_mean_pct",
                            "host_mem_peak_mib"):
                    assert row[key] is None or 0 <= row[key] <= 1e15
    tally("monitor files")


# ---------------------------------------------------------------- scheduler answers
def fake_scheduler(tmp: Path, rng: random.Random, dialect: str, legit: dict[str, tuple]
                   ) -> tuple[dict[str, str], Path]:
    """qsub/qstat/qdel (PBS) or sbatch/squeue/scancel (Slurm) answering generated text; the
    cancel command logs its argv. `legit` holds the ids submitted and their true records."""
    bin_dir = tmp / "bin"
    if bin_dir.exists():
        shutil.rmtree(bin_dir)
    bin_dir.mkdir()
    log = tmp / "cancel.log"
    log.unlink(missing_ok=True)
    answers = tmp / "answers"
    answers.mkdir(exist_ok=True)
    blank = "\n" * rng.choice([0, 3, 40_000])
    job = rng.randint(1, 10**6)
    if dialect == "pbs":
        submit_out = rng.choice([f"{blank}{job}.pbs01\n", f"{blank}queued\n", "\x1b]0;x\x07\n",
                                 f"{job}.pbs01\r\n", "\xff\xfe\n", f"{job}.pbs01 extra\n",
                                 "-rf\n", f"{job}.{'a' * 300}\n"])
        probe = 'echo "pbs_version = 2022.1"'
        names = ("qsub", "qstat", "qdel")
    else:
        submit_out = rng.choice([f"{blank}Submitted batch job {job}\n", f"{blank}queued\n",
                                 f"Submitted batch job {job};touch x\n", "\x00\x1b[2J\n"])
        probe = 'echo "slurm 23.02.7"'
        names = ("sbatch", "squeue", "scancel")
    (answers / "submit").write_text(submit_out, encoding="utf-8", errors="surrogateescape")
    submit, query, cancel = names
    for name, body in (
        (submit, f'[ "$1" = --version ] && {{ {probe}; exit 0; }}\ncat {answers}/submit\n'
                 f"exit {rng.choice([0, 0, 0, 1])}"),
        (query, f"cat {answers}/query"),
        (cancel, f'echo "$@" >> {log}\nexit {rng.choice([0, 0, 1])}'),
    ):
        (bin_dir / name).write_text(f"#!/bin/sh\n{body}\n")
        (bin_dir / name).chmod(0o755)
    return {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}, log


def query_answer(rng: random.Random, dialect: str, records: dict[str, tuple]) -> str:
    """What qstat/squeue says of the sweep's ids: the truth, a foreign owner, name or
    directory, or garbage; the ids whose record is the truth are returned by `legit`."""
    if rng.random() < 0.15:
        return rng.choice(["", "\n" * 40_000, hostile_json(rng), "\x00" * 1000,
                           '{"Jobs": {"1": {"job_state": "' + '\\"' * 40_000])
    if dialect == "pbs":
        jobs = {}
        for job_id, (name, owner, workdir) in records.items():
            jobs[job_id] = {"job_state": rng.choice(["Q", "R", "H", "F", "X", "?"]),
                            "Job_Name": name, "Job_Owner": f"{owner}@login",
                            "Variable_List": {"PBS_O_WORKDIR": workdir}}
            if rng.random() < 0.2:
                jobs[job_id]["Exit_status"] = json.loads(rng.choice(["0", "271", "null", "1e5"]))
        text = json.dumps({"Jobs": jobs})
        return damage(text, rng) if rng.random() < 0.1 else text
    lines = [f"{job_id}|{rng.choice(['PENDING', 'RUNNING', 'COMPLETED', 'WEIRD'])}|{name}|"
             f"{owner}|{workdir}" for job_id, (name, owner, workdir) in records.items()]
    return "\n".join(lines) + "\n"


def foreign(rng: random.Random, record: tuple, sweep: Path) -> tuple:
    name, owner, workdir = record
    which = rng.randrange(4)
    if which == 0:
        return record  # the truth
    if which == 1:
        return (name, "someoneelse", workdir)
    if which == 2:
        return (name + "x", owner, workdir)
    return (name, owner, str(sweep.parent / "s2" / Path(workdir).relative_to(sweep)))


@pytest.fixture(scope="module")
def scheduled(tmp_path_factory) -> dict[str, Path]:
    out = {}
    for dialect, site in (("pbs", "polaris"), ("slurm", "local-slurm")):
        sweep = tmp_path_factory.mktemp(dialect) / "s"
        args = ["sweep", "--site", site, "--app", "qcnn", "--repeat", "2", "--out", str(sweep)]
        if dialect == "pbs":
            args += ["-A", "p"]
        res = jobgen_here(*args)
        assert res.returncode == 0, res.stderr
        out[dialect] = sweep
    return out


def test_generated_scheduler_answers(scheduled, tmp_path, monkeypatch):
    rng = random.Random(SEED + 3)
    guard = outside(tmp_path)
    for case in range(CASES * 2 // 3):  # three commands a case
        dialect = rng.choice(["pbs", "slurm"])
        sweep = fresh(scheduled[dialect], tmp_path, "s")
        env, log = fake_scheduler(tmp_path, rng, dialect, {})
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        run_case("scheduler answers", ["submit", str(sweep)], guard=[guard], case=str(case))
        try:
            m = mf.load(sweep)
        except JobgenError:  # a refused manifest: nothing was submitted
            continue
        truth = {r.job_id: (r.job_name, ME, str((sweep / r.dir).resolve()))
                 for p in m.valid_points for r in p.runs if r.job_id}
        told = {job_id: foreign(rng, rec, sweep) for job_id, rec in truth.items()}
        if rng.random() < 0.2 and truth:  # another sweep's job listed under a sweep's id
            told[rng.choice(list(truth))] = ("other-name", ME, str(guard))
        (tmp_path / "answers" / "query").write_text(query_answer(rng, dialect, told))
        for command in ("status", "cancel"):
            run_case("scheduler answers", [command, str(sweep)], guard=[guard], case=str(case))
        sent = log.read_text().split() if log.exists() else []
        ours = {job_id for job_id, rec in told.items() if rec == truth[job_id]}
        assert set(sent) <= ours, f"case {case}: cancelled {sent}, only {ours} are the sweep's"
    tally("scheduler answers")


# ---------------------------------------------------------------- config files
def config_text(rng: random.Random) -> tuple[str, str]:
    if rng.random() < 0.5:
        kind = rng.randrange(6)
        if kind == 0:
            n = rng.randint(2, 12)
            lines = [f"  - &a0 [{','.join(['lol'] * n)}]"] + [
                f"  - &a{i} [{','.join([f'*a{i - 1}'] * n)}]" for i in range(1, rng.randint(2, 9))]
            return "config.yaml", "defaults:\n  python:\n" + "\n".join(lines) + "\n"
        if kind == 1:
            n = rng.choice([20, 40, 10_000])
            return "config.yaml", "[" * n + "]" * n
        if kind == 2:
            return "config.yaml", "defaults:\n  python: a\n  python: b\n"
        if kind == 3:
            return "config.yaml", f"defaults:\n  python: {hostile_json(rng)}\n"
        if kind == 4:
            return "config.yaml", rng.choice(["!!python/object/apply:os.system ['true']",
                                              "defaults: !!binary AAAA", "\t: :", "&a [*a]"])
        return "config.yaml", damage("defaults:\n  python: /usr/bin/python3\n", rng)
    kind = rng.randrange(4)
    if kind == 0:
        return "config.toml", f"a = {'9' * rng.choice([10, 4000, 4301, 5000])}\n"
    if kind == 1:
        n = rng.choice([20, 40, 100_000])
        return "config.toml", "a = " + "[" * n + "]" * n + "\n"
    if kind == 2:
        return "config.toml", f"[defaults]\npython = {hostile_json(rng)}\n"
    return "config.toml", damage('[defaults]\npython = "/usr/bin/python3"\n', rng)


def test_generated_config_files(tmp_path, monkeypatch):
    rng = random.Random(SEED + 4)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("JOBGEN_NO_CACHE", "1")
    for case in range(CASES):
        folder = tmp_path / "xdg" / "jobgen"
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        name, text = config_text(rng)
        (folder / name).write_text(text, encoding="utf-8", errors="surrogateescape")
        run_case("config files", ["render", "--site", "local", "--app", "qcnn"],
                 case=str(case))
    tally("config files")


# ---------------------------------------------------------------- options and directories
def option_case(rng: random.Random, tmp: Path) -> list[str]:
    digits = "9" * rng.choice([5, 10, 13, 4300, 5000])
    kind = rng.randrange(5)
    if kind == 0:
        return [rng.choice(["render", "explain"]), "--site", "local", "--app", "qcnn",
                "--profile", "torch", "--profile-ranks",
                rng.choice([digits, f"0-{digits}", f"{digits},0", "0-" * 50 + "1"])]
    if kind == 1:
        return [rng.choice(["render", "explain"]), "--site", "local", "--app", "qcnn",
                "--profile", "torch", "--profile-steps",
                rng.choice([f"0:{digits}", f"{digits}:{digits}1", ":" * 100])]
    if kind == 2:
        return ["sweep", "--site", "local", "--out", str(tmp / "o"), "--", "python3", "-c",
                "print(1)", "a" * rng.choice([100, 19_000, 25_000])]
    if kind == 3:
        return ["sweep", "--site", "local", "--app", "qcnn", "--out",
                rng.choice(["/proc/jobgen-x", "/proc/self/x", str(tmp / "file" / "x"),
                            "/dev/null/x"])]
    return ["render", "--site", "local", "--app", "qcnn", "--out",
            rng.choice(["/proc/x.sh", "/proc/self/x.sh", str(tmp / "file" / "x.sh"),
                        "/sys/x.sh"])]


def test_generated_options_and_targets(tmp_path):
    rng = random.Random(SEED + 5)
    (tmp_path / "file").write_text("a file, not a directory")
    guard = outside(tmp_path)
    for case in range(CASES):
        shutil.rmtree(tmp_path / "o", ignore_errors=True)
        args = option_case(rng, tmp_path)
        res = run_case("options and targets", args, guard=[guard, tmp_path / "file"],
                       case=str(case))
        if args[0] == "sweep" and res.returncode == 2:
            assert not (tmp_path / "o").exists(), "a refused sweep left its directory"
    tally("options and targets")


# ---------------------------------------------------------------- the same, as a child process
@pytest.mark.slow
def test_generated_cases_in_a_child_under_1_gib(base, scheduled, tmp_path):
    """A sample of each surface through a real `jobgen` process under RLIMIT_AS = 1 GiB and a
    time cap: memory that the in-process runner cannot bound."""
    import resource

    rng = random.Random(SEED + 6)

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_CONFIG_HOME": str(tmp_path / "xdg"),
           "JOBGEN_NO_CACHE": "1"}
    cases: list[tuple[str, list[str]]] = []
    for i in range(8):
        sweep = fresh(base, tmp_path, f"r{i}")
        run = rng.choice(sorted(sweep.glob("*/r*")))
        (run / "output.txt").write_text(result_line(rng))
        mon = run / "jobgen-runs" / "j.1" / "monitor"
        mon.mkdir(parents=True)
        (mon / "n.gpu.csv").write_text(monitor_text(rng, "gpu") * rng.choice([1, 1000]))
        cases.append(("collect", ["collect", str(sweep)]))
        sweep = fresh(base, tmp_path, f"m{i}")
        data = json.loads((sweep / "manifest.json").read_text())
        (sweep / "manifest.json").write_text(mutate_manifest(data, rng))
        cases.append(("status", ["status", str(sweep)]))
    for i in range(6):
        folder = tmp_path / "xdg" / "jobgen"
        name, text = config_text(rng)
        cases.append(("config", ["render", "--site", "local", "--app", "qcnn"]))
        cases[-1] = (f"config:{name}:{i}", cases[-1][1])
        (tmp_path / f"config{i}").write_text(text)
    for _ in range(6):
        cases.append(("options", option_case(rng, tmp_path)))
    for label, args in cases:
        if label.startswith("config:"):
            _, name, i = label.split(":")
            folder = tmp_path / "xdg" / "jobgen"
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(parents=True)
            shutil.copy(tmp_path / f"config{i}", folder / name)
        res = subprocess.run([sys.executable, "-m", "jobgen", *args], capture_output=True,
                             text=True, env=env, cwd=tmp_path, timeout=60, preexec_fn=limit)
        assert res.returncode in (0, 1, 2), f"{label}: {res.stderr[-2000:]}"
        assert "Traceback" not in res.stderr and "MemoryError" not in res.stderr, \
            f"{label}: {res.stderr[-3000:]}"
        if res.returncode == 2:
            assert res.stderr.count("jobgen: error: ") == 1, res.stderr[-2000:]
        TALLY.setdefault("child under 1 GiB", Counter())[
            {0: "ok", 1: "incomplete", 2: "refused"}[res.returncode]] += 1
    tally("child under 1 GiB")
