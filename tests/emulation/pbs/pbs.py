#!/usr/bin/env python3
"""Stand-ins for PBS Pro's qsub, qstat and qdel (tests of `jobgen submit/status/cancel`).

PBS cannot run here, so these answer as OpenPBS does, for what jobgen asks:
- `qsub --version` prints `pbs_version = 2022.1.1` (openpbs src/include/pbs_version.h.in);
- `qsub SCRIPT` records the job and prints its id (`N.pbs01`) alone on stdout;
- `qstat -x -f -F json ID...` prints {"Jobs": {ID: {"job_state": ..., "Exit_status": ...,
  "Job_Name": ..., "Job_Owner": "user@host", "Variable_List": {"PBS_O_WORKDIR": ...}}}}, the
  fields and layout of OpenPBS's JSON (a `qstat -f -F json` answer quoted in PBS users'
  reports shows Job_Name, Job_Owner and Variable_List.PBS_O_WORKDIR so); the name is the
  script's `#PBS -N` (else the script's file name, as qsub(1) says), the directory is qsub's
  working directory (UNCONFIRMED whether real qsub reads it from getcwd() or $PWD: jobgen sets
  both to the same directory);
- `qdel ID...` marks the jobs finished with Exit_status 271 (PBS's "deleted" status).
Failure modes as OpenPBS has them (openpbs/openpbs @ cd7ab5e): `qsub SCRIPT` with no such
file prints `qsub: script file:: No such file or directory` and exits 1, with a directory
`qsub: script not a file` (src/cmds/qsub.c, stat/S_ISREG); `qstat` of an id the server does
not know prints `qstat: Unknown Job Id ID` on stderr (src/lib/Libcmds/err_handling.c
prt_job_err) and exits with PBSE_UNKJOBID, 15001, which the shell sees as 153
(src/cmds/qstat.c exit(any_failed); src/include/pbs_error.h), the known ones still printed.
Jobs run only when a test calls `run_eligible(state, env)` (in-process), one at a time, in
submission order: `bash SCRIPT` in its PBS_O_WORKDIR, output to `NAME.oSEQ` there.
Chains (`jobgen chain`): `qsub -W depend=afterany:ID[:ID...]` and `-v NAME=value,...`, as the
PBS Professional User's Guide describes them ("Using Job Dependencies", UG-107; "Exporting
Specific Environment Variables", UG-126; ALCF UG docs/running-jobs/not_in_nav/
pbs-qsub-options-table.md @ 7d04a3f). A job waiting on a dependency is held (`H`, the state PBS
shows for it) and runs only once every job it depends on has ended (F, a deleted job too:
afterany is "after it ends, whatever its status"); a dependency on a job the server does not
know is refused: `qsub: Unknown Job Id ID`, exit 153 (the message PBSE_UNKJOBID prints; the
exact answer of qsub for a bad dependency is UNCONFIRMED: stricter here). Any other option is
refused (`qsub: invalid option`, exit 2), as qsub's getopt does for unknown letters.
State: $JOBGEN_EMU_PBS (a directory): jobs.json and calls.log (argv per call).
Knob $JOBGEN_EMU_QSUB: ok (default); noise (a latin-1 banner and escape sequences on stderr
besides the id, as a site's submit hook may print); noid (exit 0, no id); fail (refused, exit
1, with an escape sequence in the message); hang (sleeps until killed); limit=N (refuses
beyond N jobs not finished, as a queue's per-user max_queued does).
"""

import json
import os
import pwd
import sys
import time
from pathlib import Path

STATE = Path(os.environ.get("JOBGEN_EMU_PBS", "/nonexistent"))  # imported by tests: unset
JOBS = STATE / "jobs.json"


def jobs() -> dict:
    return json.loads(JOBS.read_text()) if JOBS.exists() else {}


def save(data: dict) -> None:
    JOBS.write_text(json.dumps(data))


def qsub(args: list[str]) -> int:
    if args == ["--version"]:
        print("pbs_version = 2022.1.1")
        return 0
    knob = os.environ.get("JOBGEN_EMU_QSUB", "ok")
    if knob == "hang":
        time.sleep(600)
        return 1
    if knob == "fail":
        sys.stderr.write("qsub: \x1b[31mUnknown queue\x1b[0m\n")
        return 170
    depend: list[str] = []
    variables: dict[str, str] = {}
    rest = list(args)
    while len(rest) > 1 and rest[0].startswith("-"):
        flag, value = rest[0], rest[1]
        rest = rest[2:]
        if flag == "-W" and value.startswith("depend=afterany:"):
            depend += value[len("depend=afterany:"):].split(":")
        elif flag == "-v":
            for pair in value.split(","):
                name, _, val = pair.partition("=")
                variables[name] = val
        else:
            sys.stderr.write(f"qsub: invalid option -- '{flag.lstrip('-')}'\n")
            return 2
    script = Path(rest[-1]) if rest else None
    if script is None or len(rest) != 1 or not script.exists():
        sys.stderr.write("qsub: script file:: No such file or directory\n")
        return 1
    if not script.is_file():
        sys.stderr.write("qsub: script not a file\n")
        return 1
    data = jobs()
    for dep in depend:
        if dep not in data:
            sys.stderr.write(f"qsub: Unknown Job Id {dep}\n")
            return 153
    if knob.startswith("limit="):
        active = [j for j in data.values() if j["job_state"] != "F"]
        if len(active) >= int(knob.split("=")[1]):
            sys.stderr.write("qsub: would exceed queue generic's per-user limit\n")
            return 38
    job_id = f"{len(data) + 1}.pbs01"
    names = [line.split(None, 2)[2].strip() for line in script.read_text().splitlines()
             if line.startswith("#PBS -N ")]
    data[job_id] = {"job_state": "H" if depend else "Q", "script": str(script.resolve()),
                    "Job_Name": names[-1] if names else script.name,
                    "Job_Owner": f"{pwd.getpwuid(os.getuid()).pw_name}@login01",
                    "Variable_List": {"PBS_O_WORKDIR": os.getcwd(), **variables},
                    "depend": depend}
    save(data)
    if knob == "noid":
        return 0
    if knob == "noise":
        sys.stderr.buffer.write(b"Bienvenue \xe0 PBS \x1b]0;pwned\x07\n")
        sys.stdout.buffer.write(b"\xff\xfe\n")
    print(job_id)
    return 0


def qstat(args: list[str]) -> int:
    ids = [a for a in args if not a.startswith("-") and a not in ("json",)]
    data = jobs()
    out = {"timestamp": int(time.time()), "pbs_version": "2022.1.1", "pbs_server": "pbs01",
           "Jobs": {i: {k: v for k, v in data[i].items() if k not in ("script", "depend")}
                    for i in ids if i in data}}
    print(json.dumps(out, indent=4))
    unknown = [i for i in ids if i not in data]
    for job_id in unknown:
        sys.stderr.write(f"qstat: Unknown Job Id {job_id}\n")
    return 15001 % 256 if unknown else 0


def qdel(args: list[str]) -> int:
    data = jobs()
    for job_id in args:
        if job_id in data and data[job_id]["job_state"] != "F":
            data[job_id].update(job_state="F", Exit_status=271)
    save(data)
    return 0


def run_eligible(state: Path, env: dict[str, str], nodefile: Path) -> list[str]:
    """Run the jobs that may start (queued, or held on dependencies that have all ended), one
    after the other, until none may; the ids run. The job gets PBS's variables and its -v
    list; a qdel while it runs (a chain link cancelling the later ones) is seen."""
    import subprocess

    done = []
    path = state / "jobs.json"
    while True:
        data = json.loads(path.read_text()) if path.exists() else {}
        ready = [i for i, j in data.items() if j["job_state"] in ("Q", "H") and all(
            data.get(d, {}).get("job_state") == "F" for d in j.get("depend", []))]
        if not ready:
            return done
        job_id = min(ready, key=lambda i: int(i.split(".")[0]))
        job = data[job_id]
        job["job_state"] = "R"
        path.write_text(json.dumps(data))
        workdir = job["Variable_List"]["PBS_O_WORKDIR"]
        seq = job_id.split(".")[0]
        with open(Path(workdir) / f"{job['Job_Name']}.o{seq}", "w") as out:
            proc = subprocess.run(["bash", job["script"]], cwd=workdir, stdout=out,
                                  stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                  env={**env, **job["Variable_List"], "PBS_JOBID": job_id,
                                       "PBS_NODEFILE": str(nodefile),
                                       "PBS_ENVIRONMENT": "PBS_BATCH",
                                       "JOBGEN_EMU_PBS": str(state)}, timeout=300)
        data = json.loads(path.read_text())
        data[job_id].update(job_state="F", Exit_status=proc.returncode)
        path.write_text(json.dumps(data))
        done.append(job_id)


def main() -> int:
    STATE.mkdir(parents=True, exist_ok=True)
    name = Path(sys.argv[0]).name
    with open(STATE / "calls.log", "a") as log:
        log.write(json.dumps([name, *sys.argv[1:]]) + "\n")
    return {"qsub": qsub, "qstat": qstat, "qdel": qdel}[name](sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
