#!/usr/bin/env python3
"""Stand-ins for Cobalt's qsub, qstat and qdel (tests of `jobgen chain` on JLSE's Cobalt).

As ALCF's Cobalt pages describe them (argonne-lcf/user-guides @ 64c21ae^, ThetaGPU's
docs/sophia/not_in_nav/queueing-and-running-jobs/job-and-queue-scheduling.md):
- `qsub [--dependencies ID[:ID]] [--env VAR=1:VAR2=2] SCRIPT` prints the job id alone;
  "Jobs submitted with dependencies will remain in the state dep_hold until all the
  dependencies are fulfilled ... In the event any of the dependencies do not complete
  successfully (nonzero exit status), the job will instead go into the state dep_fail" (it
  never runs here: releasing it is `qrls --dependencies`, not imitated). A dependency on a job
  Cobalt does not know: refused here (exit 1, UNCONFIRMED what Cobalt prints). Any other
  option: refused (exit 1);
- `qsub --version` prints a version line, exit 0 (UNCONFIRMED, as in jobgen's own note);
- `qstat ID...` the table `JobID User WallTime Nodes State Location` of the jobs still known
  (a finished job leaves the table, as Cobalt's qstat shows only queued and running jobs);
- `qdel ID...` removes the jobs.
Jobs run only when a test calls `run_eligible`: `bash SCRIPT` in the submit directory, with
COBALT_JOBID, output to `ID.output` there (Cobalt's default name). The exit status each job
ended with is kept in `ended.json` (what decides dep_fail).
State: $JOBGEN_EMU_COBALT (a directory): jobs.json, ended.json and calls.log.
"""

import json
import os
import pwd
import sys
from pathlib import Path

STATE = Path(os.environ.get("JOBGEN_EMU_COBALT", "/nonexistent"))  # imported by tests: unset


def load(name: str, state: Path = STATE) -> dict:
    path = state / name
    return json.loads(path.read_text()) if path.exists() else {}


def save(name: str, data: dict, state: Path = STATE) -> None:
    (state / name).write_text(json.dumps(data))


def qsub(args: list[str]) -> int:
    if args == ["--version"]:
        print("Cobalt version 1.0.32")
        return 0
    depend: list[str] = []
    env: dict[str, str] = {}
    rest = list(args)
    while len(rest) > 1 and rest[0].startswith("-"):
        flag, value = rest.pop(0), rest.pop(0)
        if flag == "--dependencies":
            depend += value.split(":")
        elif flag == "--env":
            for pair in value.split(":"):
                name, _, val = pair.partition("=")
                env[name] = val
        else:
            sys.stderr.write(f"qsub: unknown option {flag}\n")
            return 1
    if len(rest) != 1 or not Path(rest[0]).is_file():
        sys.stderr.write("qsub: script not found\n")
        return 1
    data, ended = load("jobs.json"), load("ended.json")
    for dep in depend:
        if dep not in data and dep not in ended:
            sys.stderr.write(f"qsub: dependency {dep} not found\n")
            return 1
    job_id = str(100 + len(data) + len(ended))
    data[job_id] = {"state": "dep_hold" if depend else "queued", "depend": depend,
                    "user": pwd.getpwuid(os.getuid()).pw_name, "cwd": os.getcwd(),
                    "script": str(Path(rest[0]).resolve()), "env": env}
    save("jobs.json", data)
    print(job_id)
    return 0


def qstat(args: list[str]) -> int:
    data = load("jobs.json")
    print("JobID  User  WallTime  Nodes  State  Location")
    print("=" * 48)
    for job_id in args:
        if job_id in data:
            print(f"{job_id}  {data[job_id]['user']}  00:30:00  1  {data[job_id]['state']}  None")
    return 0


def qdel(args: list[str]) -> int:
    data = load("jobs.json")
    for job_id in args:
        data.pop(job_id, None)
    save("jobs.json", data)
    return 0


def run_eligible(state: Path, env: dict[str, str], nodefile: Path) -> list[str]:
    """Run the jobs whose dependencies all ended with status 0, one at a time; a job whose
    dependency ended otherwise goes to dep_fail. The ids run."""
    import subprocess

    done = []
    while True:
        data, ended = load("jobs.json", state), load("ended.json", state)
        for job in data.values():
            if job["state"] == "dep_hold" and any(ended.get(d, 0) != 0 for d in job["depend"]
                                                  if d in ended):
                job["state"] = "dep_fail"
        ready = [i for i, j in data.items() if j["state"] in ("queued", "dep_hold")
                 and all(ended.get(d) == 0 for d in j["depend"])]
        save("jobs.json", data, state)
        if not ready:
            return done
        job_id = min(ready, key=int)
        job = data[job_id]
        job["state"] = "running"
        save("jobs.json", data, state)
        with open(Path(job["cwd"]) / f"{job_id}.output", "w") as sink:
            proc = subprocess.run(["bash", job["script"]], cwd=job["cwd"], stdout=sink,
                                  stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                  timeout=300,
                                  env={**env, **job["env"], "COBALT_JOBID": job_id,
                                       "COBALT_NODEFILE": str(nodefile),
                                       "COBALT_JOBSIZE": "1",
                                       "JOBGEN_EMU_COBALT": str(state)})
        data, ended = load("jobs.json", state), load("ended.json", state)
        data.pop(job_id, None)
        ended[job_id] = proc.returncode
        save("jobs.json", data, state)
        save("ended.json", ended, state)
        done.append(job_id)


def main() -> int:
    STATE.mkdir(parents=True, exist_ok=True)
    name = Path(sys.argv[0]).name
    with open(STATE / "calls.log", "a") as log:
        log.write(json.dumps([name, *sys.argv[1:]]) + "\n")
    return {"qsub": qsub, "qstat": qstat, "qdel": qdel}[name](sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
