"""`jobgen make-data`: the apps' own writers run from the CLI, their files read by the apps'
readers; bad input is one line, exit 2 and nothing written; nothing is overwritten without
--force; a failed writer leaves nothing behind; jobgen itself never imports torch."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT, run_jobgen

from jobgen.cli.makedata import Job, write

APPS = ("anisosgs", "cosmictagger", "ffn", "gpt", "pointnet", "qcnn", "resnet50", "unet3d")


def _reader(app: str, path: Path, config: str):
    """The dataset a run with `--data path` trains on (the app's own reader, inside the
    runtime's GuardedDataset, which turns a sample's read errors into one line)."""
    from workloads.runtime.data import open_data

    spec = importlib.import_module(f"workloads.{app}.model").APP
    return open_data(spec, str(path), dict(spec.sizes[config])).inner


def _tree(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*"))


@pytest.mark.slow
def test_make_data_writes_files_the_apps_read(tmp_path):
    """anisosgs's default and gpt's tiny configuration, written by the CLI, read by the readers
    the runs use: the in-situ driver's .npy rows and nanoGPT's uint16 token file."""
    np = pytest.importorskip("numpy", reason="the workloads extra reads the files back")
    pytest.importorskip("torch", reason="the workloads extra (torch) writes the files")
    res = run_jobgen("make-data", "--app", "anisosgs", "--samples", "64", "--out",
                     str(tmp_path / "sgs"))
    assert res.returncode == 0, res.stderr
    assert res.stdout == "" and f"wrote {tmp_path / 'sgs'}: train.npy" in res.stderr
    assert np.load(tmp_path / "sgs" / "train.npy").shape == (64, 12)
    ds = _reader("anisosgs", tmp_path / "sgs", "default")
    assert type(ds).__name__ == "SGSDataset" and len(ds) == 64
    x, y = ds[5]
    assert x.shape == (6,) and y.shape == (6,)

    res = run_jobgen("make-data", "--app", "gpt", "--config", "tiny", "--samples", "40",
                     "--seed", "3", "--out", str(tmp_path / "gpt"))
    assert res.returncode == 0, res.stderr
    assert _tree(tmp_path / "gpt") == ["train.bin", "val.bin"]
    tokens = np.memmap(tmp_path / "gpt" / "train.bin", dtype=np.uint16, mode="r")
    ds = _reader("gpt", tmp_path / "gpt", "tiny")
    assert type(ds).__name__ == "TokenBinDataset" and len(tokens) == 40 * ds.seq_len + 1
    x, y = ds[0]
    assert x.shape == (ds.seq_len,) and (x[1:] == y[:-1]).all()  # next-token targets
    assert (tmp_path / "gpt").stat().st_mode & 0o777 == 0o777 & ~_umask()  # not mkdtemp's 0700
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def _umask() -> int:
    import os

    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@pytest.mark.slow
def test_make_data_all_writes_every_app_and_each_reader_reads_it(tmp_path):
    pytest.importorskip("torch", reason="the workloads extra (torch) writes the files")
    res = run_jobgen("make-data", "--app", "all", "--config", "tiny", "--samples", "8",
                     "--out", str(tmp_path / "data"), timeout=300)
    assert res.returncode == 0, res.stderr
    assert sorted(p.name for p in (tmp_path / "data").iterdir()) == list(APPS)
    for app in APPS:
        ds = _reader(app, tmp_path / "data" / app, "tiny")
        assert type(ds).__name__ != "ShardDataset", app  # the original's format, not .npy
        assert len(ds) >= 7, app  # gpt: one window fewer than sequences written
        x, _ = ds[len(ds) - 1]
        assert x.numel() > 0, app


@pytest.mark.parametrize("args, message", [
    (["--app", "gtp", "--out", "OUT"], "unknown app 'gtp'. Did you mean gpt?"),
    (["--app", "gpt", "--config", "huge", "--out", "OUT"],
     "gpt has no configuration 'huge': use one of default, gpt2, tiny"),
    (["--app", "all", "--config", "gpt2", "--out", "OUT"], "has no configuration 'gpt2'"),
    (["--app", "gpt", "--out", "missing/OUT"], "its parent directory"),
    (["--app", "gpt", "--out", "file"], "--out file exists and is not a directory"),
    (["--app", "all", "--out", "file"], "--out file is a file"),
    (["--app", "gpt", "--out", "OUT", "--samples", "0"], "Invalid value for '--samples'"),
    (["--out", "OUT"], "Missing option '--app': add --app APP"),
    (["--app", "gpt", "--out", "full"], "--out full is not empty: add --force"),
    (["--app", "all", "--out", "parent"], "--out parent/gpt is not empty: add --force"),
])
def test_bad_input_is_one_line_exit_2_and_nothing_written(tmp_path, args, message):
    (tmp_path / "file").write_text("mine\n")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "train.bin").write_bytes(b"mine")
    (tmp_path / "parent" / "gpt").mkdir(parents=True)
    (tmp_path / "parent" / "gpt" / "notes").write_text("mine\n")
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    res = run_jobgen("make-data", *args, cwd=tmp_path)
    assert res.returncode == 2, res.stderr
    assert res.stdout == "" and len(res.stderr.splitlines()) == 1
    assert res.stderr.startswith("jobgen: error: ") and message in res.stderr
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before
    assert not (tmp_path / "OUT").exists() and not (tmp_path / "missing").exists()


def test_force_replaces_what_the_app_writes_and_keeps_the_rest(tmp_path):
    pytest.importorskip("torch", reason="the workloads extra (torch) writes the files")
    out = tmp_path / "gpt"
    out.mkdir()
    (out / "train.bin").write_bytes(b"old")
    (out / "README").write_text("mine\n")
    refused = run_jobgen("make-data", "--app", "gpt", "--config", "tiny", "--out", str(out))
    assert refused.returncode == 2 and "add --force" in refused.stderr
    assert (out / "train.bin").read_bytes() == b"old"
    res = run_jobgen("make-data", "--app", "gpt", "--config", "tiny", "--samples", "10",
                     "--out", str(out), "--force")
    assert res.returncode == 0, res.stderr
    assert _tree(out) == ["README", "train.bin", "val.bin"]
    assert (out / "train.bin").stat().st_size == (10 * 16 + 1) * 2  # tiny: 16 tokens a row
    assert (out / "README").read_text() == "mine\n"
    assert [p.name for p in tmp_path.iterdir()] == ["gpt"]  # no leftover temporary directory


def test_without_torch_one_line_says_how_to_install_it(tmp_path):
    """The workloads extra missing (torch hidden from this interpreter): exit 2, the pip line."""
    code = ("import sys; sys.modules['torch'] = None\n"
            "from jobgen.cli.main import main\n"
            f"main(['make-data', '--app', 'gpt', '--out', {str(tmp_path / 'd')!r}])")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, timeout=60)
    assert res.returncode == 2
    assert res.stderr == ("jobgen: error: make-data runs the bundled apps, which need torch "
                          "(the workloads extra): pip install 'jobgen[workloads]'\n")
    assert list(tmp_path.iterdir()) == []


def test_jobgen_itself_never_imports_torch(tmp_path):
    pytest.importorskip("torch", reason="the writer needs torch (jobgen does not)")
    code = ("import sys\nfrom jobgen.cli.main import main\n"
            "try:\n"
            f"    main(['make-data', '--app', 'anisosgs', '--samples', '4', '--out', "
            f"{str(tmp_path / 'd')!r}])\n"
            "except SystemExit as exc:\n"
            "    print(exc.code, 'torch' in sys.modules, 'numpy' in sys.modules)\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, timeout=120)
    assert res.stdout.split() == ["0", "False", "False"], res.stderr
    assert (tmp_path / "d" / "train.npy").is_file()


def test_a_failed_writer_leaves_nothing(tmp_path, capsys):
    """The child fails (here: a module that does not exist): its stderr is shown, the reason
    comes back, and neither the target nor the temporary directory is left."""
    job = Job("gpt", "workloads.no_such_app", None, tmp_path / "out")
    failed = write(job, 4, 0)
    assert failed is not None and failed.code == 1
    assert "workloads.no_such_app --make-data failed (exit 1" in failed.message
    assert "No module named workloads.no_such_app" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def _jobgen_cmd(*args: str) -> tuple[list[str], dict[str, str]]:
    import os

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return [sys.executable, "-m", "jobgen", "make-data", *args], env


@pytest.mark.slow
@pytest.mark.parametrize("sig", ["SIGTERM", "SIGHUP", "SIGINT"])
def test_a_signal_stops_the_writer_and_leaves_nothing(tmp_path, sig):
    """Issue 36 (N14): SIGTERM used to leave a 1.2 GB .jobgen-make-data-* directory (the
    cleanup was in a `finally` the default action skips) and the writer running."""
    import signal
    import time

    argv, env = _jobgen_cmd("--app", "qcnn", "--config", "tiny", "--samples", "200000",
                            "--out", str(tmp_path / "q"))
    proc = subprocess.Popen(argv, env=env, cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    fresh = []
    for _ in range(600):  # the writer's directory appears, then its files
        fresh = [p for p in tmp_path.glob(".jobgen-make-data-*") if any(p.iterdir())]
        if fresh or proc.poll() is not None:
            break
        time.sleep(0.1)
    assert fresh, proc.communicate()
    time.sleep(1)
    proc.send_signal(getattr(signal, sig))
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + getattr(signal, sig), err
    assert err.strip().splitlines() == [f"jobgen: stopped by {sig}; nothing written to "
                                        f"{tmp_path / 'q'}"]
    assert list(tmp_path.iterdir()) == []
    ps = subprocess.run(["pgrep", "-f", f"--make-data {tmp_path}"], capture_output=True,
                        text=True)
    assert ps.stdout == "", "the writer is still running"


@pytest.mark.slow
def test_more_samples_than_the_free_space_is_one_line(tmp_path):
    """Issue 36 (N14): --samples was unbounded (10**30 reached the writer, a traceback) and
    never estimated (qcnn wrote 1.2 GB unasked); now bounded, estimated, checked."""
    res = run_jobgen("make-data", "--app", "qcnn", "--samples", "2000000000", "--out",
                     str(tmp_path / "q"), cwd=tmp_path, timeout=300)
    assert res.returncode == 2, res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "--samples 2000000000: about" in lines[0] \
        and "GB free" not in lines[0] and "write fewer samples" in lines[0], lines
    assert f"{tmp_path / 'q'} has" in lines[0]  # the target, not the writer's scratch
    assert list(tmp_path.iterdir()) == []
    res = run_jobgen("make-data", "--app", "gpt", "--samples", "9" * 40, "--out",
                     str(tmp_path / "g"), cwd=tmp_path)
    assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_a_full_disk_is_one_line_and_leaves_nothing(tmp_path):
    """Issue 36 (N14): a full disk printed 20 lines of the writer's traceback. A file-size
    limit stands in for the full disk (RLIMIT_FSIZE: the write fails with EFBIG as a full disk
    fails with ENOSPC; Python ignores SIGXFSZ, so the error reaches the writer)."""
    import resource

    argv, env = _jobgen_cmd("--app", "unet3d", "--out", str(tmp_path / "u"))

    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, 64 * 1024))

    res = subprocess.run(argv, env=env, cwd=tmp_path, capture_output=True, text=True,
                         preexec_fn=small_files, timeout=300)
    assert res.returncode == 2, res.stderr
    assert res.stderr.strip().splitlines() == [
        f"jobgen: error: cannot write {tmp_path / 'u'}: File too large; nothing written to "
        f"{tmp_path / 'u'}"]
    assert list(tmp_path.iterdir()) == []
