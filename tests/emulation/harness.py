"""Run a rendered job script here, with stand-ins for what its site has (tests only).

`install_bin` copies the stand-ins of `bin/` (launchers, `module`, `conda`, `scontrol`,
`singularity`, Copper and MPS stubs) to a scratch directory with this interpreter in their
`#!` line, and adds `python3`/`python` running this interpreter (the site's Python with
torch); `run_script` writes the scheduler's environment for an emulated allocation (a
`PBS_NODEFILE`, an LSF or Cobalt host list, Slurm's node list), runs the script unchanged with
`bash SCRIPT` in a scratch working directory and the stand-ins first on PATH, and collects what
each rank of `report_rank.py` reported plus the stand-ins' event log.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
BIN = HERE / "bin"
REPORTER = HERE / "report_rank.py"
# The user's program after `--`: the reporter, without site-packages for a fast start.
REPORT_COMMAND = (sys.executable, "-S", str(REPORTER))
MASK_VARIABLES = ("ZE_AFFINITY_MASK", "CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES",
                  "HIP_VISIBLE_DEVICES")
# Job ids unique to this test process: what a script names after its job id on the node's
# /tmp (staged data, MIOpen's cache, the profiled ranks' TMPDIRs) is this machine's /tmp, which
# other test runs share.
JOBID = {"pbs": f"123{os.getpid()}.emu", "slurm": f"4242{os.getpid()}",
         "lsf": f"777{os.getpid()}", "cobalt": f"555{os.getpid()}"}


@dataclass(frozen=True)
class Site:
    """An emulated allocation of one site: its scheduler dialect and its two nodes."""

    name: str
    dialect: str  # pbs, slurm, lsf, cobalt
    hosts: tuple[str, ...]  # node names as the launcher sees them, in allocation order
    master: str  # MASTER_ADDR the site's recipe builds from them
    nodelist: str = ""  # Slurm's compressed SLURM_JOB_NODELIST


@dataclass
class EmuRun:
    proc: subprocess.CompletedProcess[str]
    workdir: Path
    jobid: str
    emu_dir: Path
    reports: dict[int, dict] = field(default_factory=dict)
    events: list[dict] = field(default_factory=list)

    @property
    def jobgen_dir(self) -> Path:
        return self.workdir / ".jobgen" / self.jobid

    def calls(self, tool: str) -> list[dict]:
        return [e for e in self.events if e["tool"] == tool]

    def rank_times(self) -> list[float]:
        return [e["t"] for e in self.calls("report_rank") if e["event"] == "rank"]

    def explain(self) -> str:
        return (f"exit {self.proc.returncode}\n--- stdout\n{self.proc.stdout[-4000:]}\n"
                f"--- stderr\n{self.proc.stderr[-4000:]}")


def install_bin(dest: Path) -> Path:
    """The stand-ins, executable, with this interpreter (no site-packages) in their #! line."""
    dest.mkdir(parents=True, exist_ok=True)
    for src in BIN.iterdir():
        if src.name.startswith((".", "__")):
            continue
        text = src.read_text()
        if text.startswith("#!/usr/bin/env python3"):
            text = f"#!{sys.executable} -S" + text[len("#!/usr/bin/env python3"):]
        target = dest / src.name
        target.write_text(text)
        target.chmod(0o755)
    # The site's Python with its framework (the frameworks / conda / open-ce module's, or the
    # container's): this interpreter, which has torch, so the scripts' preflight really runs.
    for name in ("python3", "python"):
        target = dest / name
        target.write_text(f'#!/bin/sh\nexec {sys.executable} "$@"\n')
        target.chmod(0o755)
    return dest


def scheduler_env(site: Site, workdir: Path, hosts: tuple[str, ...]) -> dict[str, str]:
    jobid = JOBID[site.dialect]
    if site.dialect == "pbs":
        nodefile = workdir.parent / "pbs_nodefile"
        nodefile.write_text("".join(f"{h}\n" for h in hosts))
        return {"PBS_NODEFILE": str(nodefile), "PBS_O_WORKDIR": str(workdir),
                "PBS_JOBID": jobid, "PBS_ENVIRONMENT": "PBS_BATCH"}
    if site.dialect == "slurm":
        return {"SLURM_JOB_NUM_NODES": str(len(hosts)), "SLURM_JOB_NODELIST": site.nodelist,
                "SLURM_NODELIST": site.nodelist, "SLURM_SUBMIT_DIR": str(workdir),
                "SLURM_JOB_ID": jobid, "SLURM_JOBID": jobid}
    if site.dialect == "lsf":
        hostfile = workdir.parent / "lsb_djob_hostfile"
        hostfile.write_text("batch1\n" + "".join(f"{h}\n" * 42 for h in hosts))
        return {"LSB_DJOB_HOSTFILE": str(hostfile), "LS_SUBCWD": str(workdir),
                "LSB_JOBID": jobid, "LSB_HOSTS": " ".join(["batch1", *hosts])}
    if site.dialect == "cobalt":
        nodefile = workdir.parent / "cobalt_nodefile"
        nodefile.write_text("".join(f"{h}\n" for h in hosts))
        return {"COBALT_NODEFILE": str(nodefile), "COBALT_JOBID": jobid,
                "COBALT_JOBSIZE": str(len(hosts))}
    raise ValueError(f"no emulation for dialect {site.dialect!r}")


def site_root(tmp: Path, site: Site, files: tuple[str, ...] = ()) -> Path:
    """The emulated site's filesystem for the container stand-ins: the image the site's
    profile runs by default, the bind sources its container recipe names (the host libraries
    a real node has), and `files` (a user's own images)."""
    from jobgen.profiles.load import load_profile

    profile = load_profile(site.name).profile
    default = profile.python.container
    present = [default.image] if default else []
    rt = profile.containers
    for bind in rt.binds if rt else ():
        present.append(bind.split(":")[0])
    root = tmp / "site"
    for path in (*present, *files):
        target = root / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        if path.endswith("/") or not Path(path).suffix:
            target.mkdir(parents=True, exist_ok=True)  # a directory (/opt, /var/run/palsd/)
        else:
            target.touch()
    return root


def start_script(text: str, site: Site, tmp: Path, bin_dir: Path,
                 env: dict[str, str] | None = None, site_files: tuple[str, ...] = ()
                 ) -> tuple[subprocess.Popen[str], EmuRun]:
    """Start `text` as the batch script of a job on `site`'s emulated nodes; `finish` collects.
    `site_files`: paths the site has beside its own images (a user's image)."""
    workdir = tmp / "work"
    emu = tmp / "emu"
    for d in (workdir, emu / "out", emu / "state", tmp / "home"):
        d.mkdir(parents=True, exist_ok=True)
    root = site_root(tmp, site, site_files)
    script = workdir / "job.sh"
    script.write_text(text)
    full_env = {
        "PATH": f"{bin_dir}:/usr/local/bin:/usr/bin:/bin",
        "HOME": str(tmp / "home"), "USER": "emu", "LOGNAME": "emu", "LANG": "C.UTF-8",
        "SHELL": "/bin/bash",
        "JOBGEN_EMU_OUT": str(emu / "out"), "JOBGEN_EMU_LOG": str(emu / "events.jsonl"),
        "JOBGEN_EMU_STATE": str(emu / "state"), "JOBGEN_EMU_SITE_ROOT": str(root),
        **scheduler_env(site, workdir, site.hosts),
        **(env or {}),
    }
    proc = subprocess.Popen(["bash", str(script)], cwd=workdir, env=full_env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return proc, EmuRun(subprocess.CompletedProcess(proc.args, -1), workdir,
                        JOBID[site.dialect], emu_dir=emu)


def finish(proc: subprocess.Popen[str], run: EmuRun, timeout: float = 60) -> EmuRun:
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        err += f"\n(emulation: killed after {timeout} s)"
    run.proc = subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
    for path in sorted((run.emu_dir / "out").glob("rank-*.json")):
        run.reports[int(path.stem.split("-")[1])] = json.loads(path.read_text())
    log = run.emu_dir / "events.jsonl"
    if log.exists():
        run.events = [json.loads(line) for line in log.read_text().splitlines()]
    return run


def run_script(text: str, site: Site, tmp: Path, bin_dir: Path, env: dict[str, str] | None = None,
               timeout: float = 60, site_files: tuple[str, ...] = ()) -> EmuRun:
    """Run `text` as the batch script of a job on `site`'s emulated nodes, to the end."""
    proc, run = start_script(text, site, tmp, bin_dir, env, site_files)
    return finish(proc, run, timeout)


def wrapper_text(script: str) -> str:
    """The per-rank wrapper the script writes with its quoted here-document."""
    start = script.index("<<'JOBGEN_EOF'\n") + len("<<'JOBGEN_EOF'\n")
    return script[start:script.index("\nJOBGEN_EOF\n", start) + 1]


def run_wrapper(script: str, tmp: Path, env: dict[str, str],
                command: tuple[str, ...] = ("true",)) -> subprocess.CompletedProcess[str]:
    """Run the script's rank wrapper directly, as one rank with `env`."""
    path = tmp / "rank-wrapper.sh"
    path.write_text(wrapper_text(script))
    path.chmod(0o755)
    base = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    return subprocess.run([str(path), *command], env={**base, **env}, text=True,
                          capture_output=True, timeout=30)
