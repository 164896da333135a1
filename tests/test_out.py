"""`render --out`: whole or nothing, no planted link followed, no race, devices written through."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from helpers import ROOT, run_jobgen

from jobgen.cli import output
from jobgen.errors import JobgenError

RENDER = ["render", "--site", "local", "--app", "ffn"]


def _one_line_error(res: subprocess.CompletedProcess[str]) -> str:
    assert res.returncode == 2, (res.returncode, res.stdout[-300:], res.stderr[-2000:])
    assert "Traceback" not in res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def _listing(directory: Path) -> dict[str, tuple[int, int]]:
    return {p.name: (p.lstat().st_mode, p.lstat().st_size) for p in directory.iterdir()}


def _expected(*extra: str) -> str:
    res = run_jobgen(*RENDER, *extra)
    assert res.returncode == 0, res.stderr
    return res.stdout


def _popen(*args: str) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, "-m", "jobgen", *args], cwd=ROOT, text=True,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


# ---------------------------------------------------------------- races
@pytest.mark.slow
def test_twenty_concurrent_writers_without_force_exactly_one_succeeds(tmp_path):
    out = tmp_path / "job.sh"
    procs = [_popen(*RENDER, "--job-name", f"w{i}", "--out", str(out)) for i in range(20)]
    results = [(p.wait(timeout=120), *p.communicate()) for p in procs]
    winners = [i for i, (rc, _, _) in enumerate(results) if rc == 0]
    assert len(winners) == 1, [r[0] for r in results]
    for i, (rc, _, err) in enumerate(results):
        if i != winners[0]:
            assert rc == 2 and err.strip() == f"jobgen: error: {out} exists: add --force to " \
                "overwrite it", err
    assert out.read_text() == _expected("--job-name", f"w{winners[0]}")
    assert sorted(os.listdir(tmp_path)) == ["job.sh"]


@pytest.mark.parametrize("unnamed", [True, False], ids=["O_TMPFILE", "named-temp"])
def test_concurrent_writers_in_process_exactly_one_succeeds(tmp_path, monkeypatch, unnamed):
    if not unnamed:
        monkeypatch.setattr(output, "_unnamed_file", lambda dfd: None)
    out = str(tmp_path / "job.sh")
    outcomes: list[str] = []

    def write(i: int) -> None:
        try:
            output.write_script(out, f"writer {i}\n" * 1000, force=False)
            outcomes.append(f"won {i}")
        except JobgenError as exc:
            outcomes.append(str(exc))

    threads = [threading.Thread(target=write, args=(i,)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    won = [o for o in outcomes if o.startswith("won")]
    assert len(won) == 1 and outcomes.count(f"{out} exists: add --force to overwrite it") == 19
    assert Path(out).read_text() == f"writer {won[0].split()[1]}\n" * 1000
    assert os.listdir(tmp_path) == ["job.sh"]
    output.write_script(out, "forced\n", force=True)
    assert Path(out).read_text() == "forced\n" and os.listdir(tmp_path) == ["job.sh"]


# ---------------------------------------------------------------- links
def test_a_symlink_planted_at_the_old_predictable_temp_name_is_not_followed(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    victim.chmod(0o600)
    out = tmp_path / "job.sh"
    # exec keeps the shell's PID, so $$ is the PID the old code put in its temp name
    plant = f'ln -s {victim} {tmp_path}/.job.sh.jobgen-$$ && exec "$0" -m jobgen "$@"'
    res = subprocess.run(["bash", "-c", plant, sys.executable, *RENDER, "--out", str(out)],
                         cwd=ROOT, capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert res.returncode == 0, res.stderr
    assert victim.read_text() == "precious\n" and stat.S_IMODE(victim.stat().st_mode) == 0o600
    assert out.read_text() == _expected() and not out.is_symlink()


def test_a_dangling_symlink_target_counts_as_existing_without_force(tmp_path):
    out = tmp_path / "job.sh"
    out.symlink_to(tmp_path / "elsewhere.sh")
    line = _one_line_error(run_jobgen(*RENDER, "--out", str(out)))
    assert line == f"jobgen: error: {out} exists: add --force to overwrite it"
    assert out.is_symlink() and not (tmp_path / "elsewhere.sh").exists()


def test_force_replaces_a_symlink_itself_never_its_target(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    out = tmp_path / "job.sh"
    out.symlink_to(victim)
    assert run_jobgen(*RENDER, "--out", str(out), "--force").returncode == 0
    assert victim.read_text() == "precious\n"
    assert not out.is_symlink() and out.read_text() == _expected()
    assert stat.S_IMODE(out.stat().st_mode) == 0o755 & ~_umask()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# ---------------------------------------------------------------- devices and FIFOs
def _null_device(tmp_path: Path) -> Path:
    """A character device to write through; never the real /dev/null where old code ran as
    root would replace it."""
    if os.geteuid() != 0:
        return Path("/dev/null")  # nobody but root can replace it
    dev = tmp_path / "null"
    os.mknod(dev, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    return dev


def test_force_writes_through_a_character_device_and_never_replaces_it(tmp_path):
    dev = _null_device(tmp_path)
    before = dev.stat()
    res = run_jobgen(*RENDER, "--out", str(dev), "--force")
    assert res.returncode == 0, res.stderr
    after = dev.stat()
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev
    assert after.st_ino == before.st_ino and after.st_mode == before.st_mode
    assert "exists: add --force" in _one_line_error(run_jobgen(*RENDER, "--out", str(dev)))


def test_force_writes_through_a_fifo_and_a_fifo_without_reader_is_an_error(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    line = _one_line_error(run_jobgen(*RENDER, "--out", str(fifo), "--force", timeout=30))
    assert "no process reads this FIFO" in line
    got: list[bytes] = []
    opened = threading.Event()

    def read() -> None:
        with open(fifo, "rb") as f:
            opened.set()
            got.append(f.read())

    reader = threading.Thread(target=read)
    reader.start()
    proc = _popen(*RENDER, "--out", str(fifo), "--force")
    assert proc.wait(timeout=60) == 0, proc.communicate()
    reader.join(timeout=30)
    assert got and got[0].decode() == _expected()
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


# ---------------------------------------------------------------- names that are not files
@pytest.mark.parametrize("force", [False, True])
@pytest.mark.parametrize("target", [".", "/", "DIR", "DIR/", "LINK"])
def test_a_directory_target_is_refused_without_suggesting_force(tmp_path, target, force):
    (tmp_path / "d").mkdir()
    (tmp_path / "dl").symlink_to(tmp_path / "d")
    out = {"DIR": str(tmp_path / "d"), "DIR/": f"{tmp_path / 'd'}/",
           "LINK": str(tmp_path / "dl")}.get(target, target)
    before = _listing(tmp_path)
    line = _one_line_error(run_jobgen(*RENDER, "--out", out, *(["--force"] if force else []),
                                      cwd=tmp_path / "d"))
    assert "is a directory: give --out a file name" in line and "--force" not in line
    assert _listing(tmp_path) == before and os.listdir(tmp_path / "d") == []


@pytest.mark.parametrize("force", [False, True])
@pytest.mark.parametrize("case,words", [
    ("empty", "--out needs a file name"),
    ("parent is a file", "afile is not a directory"),
    ("no parent", "no directory"),
    ("name over 255 bytes", "the file name is 300 bytes"),
])
def test_unwritable_names_are_one_line_errors_and_write_nothing(tmp_path, case, words, force):
    (tmp_path / "afile").write_text("x")
    out = {"empty": "", "parent is a file": "afile/x.sh", "no parent": "nodir/x.sh",
           "name over 255 bytes": "a" * 300}[case]
    before = _listing(tmp_path)
    line = _one_line_error(run_jobgen(*RENDER, "--out", out, *(["--force"] if force else []),
                                      cwd=tmp_path))
    assert words in line, line
    assert _listing(tmp_path) == before


# ---------------------------------------------------------------- kill -9
_KILLED_WHEN_PUBLISHING = (
    "import os, signal, sys\n"
    "real = {f: getattr(os, f) for f in ('link', 'replace', 'rename')}\n"
    "def dying(name):\n"
    "    def call(*args, **kwargs):\n"
    "        if sys._getframe(1).f_globals['__name__'] in ('jobgen.cli.commands',\n"
    "                                                       'jobgen.cli.output'):\n"
    "            os.kill(os.getpid(), signal.SIGKILL)  # as the script gets its name\n"
    "        return real[name](*args, **kwargs)\n"
    "    return call\n"
    "for name in real:\n"
    "    setattr(os, name, dying(name))\n"
    "from jobgen.cli.main import main\n"
    "main(sys.argv[1:])\n"
)


@pytest.mark.parametrize("existing", [False, True], ids=["new target", "--force over a file"])
def test_kill_9_at_the_last_moment_leaves_no_temp_file(tmp_path, existing):
    out = tmp_path / "job.sh"
    if existing:
        out.write_text("old\n")
    res = subprocess.run([sys.executable, "-c", _KILLED_WHEN_PUBLISHING, *RENDER, "--out",
                          str(out), "--force"], cwd=ROOT, capture_output=True, text=True,
                         timeout=120, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert res.returncode == -signal.SIGKILL, res.stderr
    assert os.listdir(tmp_path) == (["job.sh"] if existing else [])
    if existing:
        assert out.read_text() == "old\n"
