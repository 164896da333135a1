"""A real single-host Slurm for the tests: slurmctld plus one slurmd per emulated node.

Debian's slurm-wlm (installed by .ci/run) with a generated slurm.conf in a temporary directory:
no systemd, no cgroups, no munge (auth/none), each slurmd on its own port. The cluster is
started once per test session, waited for until every node is idle, and stopped by PID.

The same cluster for trying `--site local-slurm` by hand (a developer tool, not part of the
jobgen package), from the repository root:

    eval "$(python3 -m tests.slurm_cluster start)"   # prints `export SLURM_CONF=...`
    python3 -m tests.slurm_cluster status
    python3 -m tests.slurm_cluster stop
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

NODES = ("jgn1", "jgn2")
REQUIRED = ("slurmctld", "slurmd", "sbatch", "scontrol", "sinfo", "scancel")


def missing_tools() -> list[str]:
    return [t for t in REQUIRED if shutil.which(t) is None]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _names_resolve() -> bool:
    try:
        return all(socket.gethostbyname(n) == "127.0.0.1" for n in NODES)
    except OSError:
        return False


def _private_hosts_work() -> bool:
    """Can a daemon get a private /etc/hosts (a mount namespace of its own, as root)?"""
    if shutil.which("unshare") is None or shutil.which("mount") is None:
        return False
    with tempfile.NamedTemporaryFile("w", suffix=".hosts") as f:
        f.write(f"127.0.0.1 localhost {' '.join(NODES)}\n")
        f.flush()
        res = subprocess.run(["unshare", "-m", "sh", "-c",
                              f'mount --bind "$1" /etc/hosts && getent hosts {NODES[0]}',
                              "sh", f.name], capture_output=True, text=True)
    return res.returncode == 0


def ensure_node_names() -> str | None:
    """The emulated node names must resolve to this host inside the jobs. Where they do not
    already, the daemons (and so every job step) run in a mount namespace of their own whose
    /etc/hosts adds them: the machine's /etc/hosts is never edited. None, or why not."""
    if _names_resolve() or _private_hosts_work():
        return None
    return (f"{', '.join(NODES)} do not resolve to 127.0.0.1 and no private /etc/hosts can "
            "be mounted (needs root and unshare -m)")


@dataclass
class Job:
    id: str
    state: str
    fields: dict[str, str] = field(default_factory=dict)


@dataclass
class SlurmCluster:
    root: Path
    conf: Path = field(init=False)
    env: dict[str, str] = field(init=False)

    def __post_init__(self) -> None:
        self.conf = self.root / "slurm.conf"
        self.env = dict(os.environ, SLURM_CONF=str(self.conf))

    def write_config(self) -> None:
        r = self.root
        (r / "state").mkdir(parents=True, exist_ok=True)
        (r / "spool").mkdir(exist_ok=True)
        host = socket.gethostname().split(".")[0]
        nodes = "\n".join(
            f"NodeName={n} NodeAddr=127.0.0.1 Port={_free_port()} CPUs=2 RealMemory=1000"
            for n in NODES
        )
        self.conf.write_text(f"""\
ClusterName=jobgen
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort={_free_port()}
SlurmUser=root
SlurmdUser=root
AuthType=auth/none
CredType=cred/none
# Job credentials live 10 s instead of 120: a requeued job may start again after that long.
AuthInfo=cred_expire=10
# Look at pending jobs every 2 s (default 60 s), so a released requeued job starts promptly.
SchedulerParameters=sched_interval=2,bf_interval=2
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
StateSaveLocation={r}/state
SlurmdSpoolDir={r}/spool/%n
SlurmctldPidFile={r}/slurmctld.pid
SlurmdPidFile={r}/slurmd-%n.pid
SlurmctldLogFile={r}/slurmctld.log
SlurmdLogFile={r}/slurmd-%n.log
JobCompType=jobcomp/filetxt
JobCompLoc={r}/jobcomp.txt
MinJobAge=600
KillWait=5
{nodes}
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
""")

    def _daemon(self, *argv: str) -> None:
        """Start a Slurm daemon; where the node names do not resolve, inside a private mount
        namespace whose /etc/hosts adds them (the daemon, and every job it starts, keep it)."""
        if _names_resolve():
            subprocess.run(list(argv), env=self.env, check=True)
            return
        hosts = self.root / "hosts"
        if not hosts.exists():
            try:
                base = Path("/etc/hosts").read_text(encoding="utf-8")
            except OSError:
                base = "127.0.0.1 localhost\n"
            hosts.write_text(base.rstrip("\n") + f"\n127.0.0.1 {' '.join(NODES)}\n",
                             encoding="utf-8")
        subprocess.run(["unshare", "-m", "sh", "-c", 'mount --bind "$1" /etc/hosts && shift '
                        '&& exec "$@"', "sh", str(hosts), *argv], env=self.env, check=True)

    def start(self, timeout: float = 60) -> None:
        self.write_config()
        self._daemon("slurmctld", "-f", str(self.conf))
        for n in NODES:
            self._daemon("slurmd", "-f", str(self.conf), "-N", n)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            res = subprocess.run(["sinfo", "-h", "-o", "%T %D"], env=self.env,
                                 capture_output=True, text=True)
            if res.returncode == 0 and res.stdout.split() == ["idle", str(len(NODES))]:
                return
            time.sleep(0.5)
        raise RuntimeError(f"Slurm nodes not idle after {timeout}s: {self.log_tail()}")

    def log_tail(self) -> str:
        log = self.root / "slurmctld.log"
        return log.read_text()[-2000:] if log.exists() else "(no slurmctld log)"

    def stop(self) -> None:
        pids = []
        for pidfile in self.root.glob("*.pid"):
            try:
                pids.append(int(pidfile.read_text().strip()))
            except (OSError, ValueError):
                continue
        for pid in pids:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + 15
        for pid in pids:
            while time.monotonic() < deadline:
                try:
                    os.kill(pid, 0)
                except ProcessLookupError:
                    break
                time.sleep(0.2)
            else:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass

    # ------------------------------------------------------------ jobs
    def submit(self, script: Path) -> str:
        res = subprocess.run(["sbatch", "--parsable", str(script)], env=self.env,
                             cwd=script.parent, capture_output=True, text=True, check=True)
        return res.stdout.strip().split(";")[0]

    def job(self, job_id: str) -> Job:
        res = subprocess.run(["scontrol", "show", "job", "-o", job_id], env=self.env,
                             capture_output=True, text=True, check=True)
        fields = dict(
            item.split("=", 1) for item in res.stdout.split() if "=" in item
        )
        return Job(job_id, fields.get("JobState", "UNKNOWN"), fields)

    def wait(self, job_id: str, timeout: float = 180, until: tuple[str, ...] = (
            "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY")) -> Job:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            job = self.job(job_id)
            if job.state in until:
                return job
            time.sleep(0.5)
        raise TimeoutError(f"job {job_id} still {self.job(job_id).state} after {timeout}s")

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(list(args), env=self.env, capture_output=True, text=True)


# ---------------------------------------------------------------- by hand: start, status, stop
def default_root() -> Path:
    return Path(tempfile.gettempdir()) / f"jobgen-slurm-{os.getuid()}"


def _running(root: Path) -> list[int]:
    """PIDs of this cluster's daemons that are alive."""
    alive = []
    for pidfile in sorted(root.glob("*.pid")):
        try:
            pid = int(pidfile.read_text().strip())
            os.kill(pid, 0)
        except (OSError, ValueError):
            continue
        alive.append(pid)
    return alive


def cli(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python3 -m tests.slurm_cluster",
        description="Start, inspect or stop the single-host test Slurm (slurmctld and "
                    f"{len(NODES)} slurmd) that --site local-slurm scripts run on.")
    parser.add_argument("action", choices=("start", "status", "stop"))
    parser.add_argument("--dir", type=Path, default=default_root(),
                        help="state directory (default: %(default)s)")
    opts = parser.parse_args(argv)
    cluster = SlurmCluster(opts.dir.resolve())
    if opts.action == "status":
        alive = _running(cluster.root)
        if not alive:
            print(f"not running (state in {cluster.root})", file=sys.stderr)
            return 1
        print(f"export SLURM_CONF={cluster.conf}")
        res = cluster.run("sinfo")
        print(res.stdout + res.stderr, end="", file=sys.stderr)
        return 0
    if opts.action == "stop":
        alive = _running(cluster.root)
        cluster.stop()
        print(f"stopped {len(alive)} daemon(s)", file=sys.stderr)
        return 0
    missing = missing_tools()
    if missing:
        print(f"Slurm is not installed ({', '.join(missing)} missing): "
              "apt-get install slurm-wlm", file=sys.stderr)
        return 2
    if _running(cluster.root):
        print(f"already running: stop it first (state in {cluster.root})", file=sys.stderr)
        return 2
    problem = ensure_node_names()
    if problem:
        print(problem, file=sys.stderr)
        return 2
    cluster.start()
    print(f"export SLURM_CONF={cluster.conf}")
    print(f"# test Slurm up: {len(NODES)} nodes, partition debug; stop with "
          "python3 -m tests.slurm_cluster stop", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(cli())
