#!/usr/bin/env python3
"""Stand-ins for IBM Spectrum LSF's bsub, bjobs and bkill (tests of `jobgen chain` on LSF).

What jobgen asks, answered as LSF 10.1 does (IBM LSF 10.1 command reference: bsub, bjobs -o,
bkill; ibm.com/docs/en/SSWRJV_10.1.0/lsf_command_ref):
- `bsub -V` prints the release ("IBM Spectrum LSF Standard 10.1.0.0") and exits 0;
- `bsub [-w 'ended(ID)'] < SCRIPT` reads the script (and its #BSUB -J name) from stdin and
  prints `Job <N> is submitted to default queue <batch>.`; the job gets bsub's whole
  environment (bsub -env defaults to "all": bsub.env.1.html);
- `-w 'ended(ID)'`: the job waits (PEND) until job ID has ended, DONE or EXIT ("ended": the
  job finished in any state); "If you specify a dependency on a job that LSF cannot find ...
  your job submission fails" (bsub.w.1.html): refused here with `No matching job found. Job
  not submitted.` and exit 255 (the exact message and status are UNCONFIRMED); any other
  option is refused (exit 255, `<option>: Illegal option`);
- `bjobs -a -noheader -o "jobid stat job_name user delimiter='|'" ID...` prints
  `ID|STAT|NAME|USER` per known job, `Job <ID> is not found` on stderr for others (exit 255);
- `bkill ID...`: a pending or running job ends as EXIT (exit code 130: killed by SIGINT...
  UNCONFIRMED which code LSF reports; jobgen shows it, decides nothing on it).
Jobs run only when a test calls `run_eligible`: `bash` with the script on stdin's copy, in the
submit directory, output to the script's `#BSUB -o` (%J the job id) there.
State: $JOBGEN_EMU_LSF (a directory): jobs.json and calls.log.
"""

import json
import os
import pwd
import re
import sys
from pathlib import Path

STATE = Path(os.environ.get("JOBGEN_EMU_LSF", "/nonexistent"))  # imported by tests: unset


def jobs(state: Path = STATE) -> dict:
    path = state / "jobs.json"
    return json.loads(path.read_text()) if path.exists() else {}


def save(data: dict, state: Path = STATE) -> None:
    (state / "jobs.json").write_text(json.dumps(data))


def bsub(args: list[str]) -> int:
    if args == ["-V"]:
        sys.stderr.write("IBM Spectrum LSF Standard 10.1.0.0, Jul 08 2016\n")
        return 0
    depend = []
    rest = list(args)
    while rest:
        flag = rest.pop(0)
        if flag == "-w" and rest:
            m = re.fullmatch(r"ended\(([^()]+)\)", rest.pop(0))
            if not m:
                sys.stderr.write("Bad dependency expression. Job not submitted.\n")
                return 255
            depend.append(m.group(1))
        else:
            sys.stderr.write(f"{flag}: Illegal option. Job not submitted.\n")
            return 255
    text = sys.stdin.read()
    data = jobs()
    for dep in depend:
        if dep not in data:
            sys.stderr.write(f"{dep}: No matching job found. Job not submitted.\n")
            return 255
    names = re.findall(r"^#BSUB -J (\S+)", text, re.M)
    outs = re.findall(r"^#BSUB -o (\S+)", text, re.M)
    job_id = str(len(data) + 1)
    data[job_id] = {"stat": "PEND", "name": names[-1] if names else "NONAME",
                    "user": pwd.getpwuid(os.getuid()).pw_name, "cwd": os.getcwd(),
                    "script": text, "output": outs[-1] if outs else None, "depend": depend,
                    "env": dict(os.environ)}
    save(data)
    print(f"Job <{job_id}> is submitted to default queue <batch>.")
    return 0


def bjobs(args: list[str]) -> int:
    ids = [a for a in args if re.fullmatch(r"\d+", a)]
    data = jobs()
    missing = 0
    for job_id in ids:
        if job_id in data:
            j = data[job_id]
            print(f"{job_id}|{j['stat']}|{j['name']}|{j['user']}")
        else:
            sys.stderr.write(f"Job <{job_id}> is not found\n")
            missing += 1
    return 255 if missing else 0


def bkill(args: list[str]) -> int:
    data = jobs()
    for job_id in args:
        if job_id in data and data[job_id]["stat"] in ("PEND", "RUN"):
            data[job_id].update(stat="EXIT", exit_code=130)
            print(f"Job <{job_id}> is being terminated")
    save(data)
    return 0


def run_eligible(state: Path, env: dict[str, str], hostfile: Path) -> list[str]:
    """Run the pending jobs whose dependencies have all ended, one at a time; the ids run."""
    import subprocess

    done = []
    while True:
        data = jobs(state)
        ready = [i for i, j in data.items() if j["stat"] == "PEND" and all(
            data.get(d, {}).get("stat") in ("DONE", "EXIT") for d in j["depend"])]
        if not ready:
            return done
        job_id = min(ready, key=int)
        job = data[job_id]
        job["stat"] = "RUN"
        save(data, state)
        out = Path(job["cwd"]) / (job["output"] or f"job{job_id}.out").replace("%J", job_id)
        with open(out, "w") as sink:
            proc = subprocess.run(
                ["bash"], input=job["script"].encode(), cwd=job["cwd"], stdout=sink,
                stderr=subprocess.STDOUT, timeout=300,
                env={**job["env"], **env, "LSB_JOBID": job_id, "LS_SUBCWD": job["cwd"],
                     "LSB_DJOB_HOSTFILE": str(hostfile), "JOBGEN_EMU_LSF": str(state)})
        data = jobs(state)
        if data[job_id]["stat"] == "RUN":
            data[job_id].update(stat="DONE" if proc.returncode == 0 else "EXIT",
                                exit_code=proc.returncode)
        save(data, state)
        done.append(job_id)


def main() -> int:
    STATE.mkdir(parents=True, exist_ok=True)
    name = Path(sys.argv[0]).name
    with open(STATE / "calls.log", "a") as log:
        log.write(json.dumps([name, *sys.argv[1:]]) + "\n")
    return {"bsub": bsub, "bjobs": bjobs, "bkill": bkill}[name](sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
