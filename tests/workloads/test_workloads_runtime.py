"""Fast checks of the package layout, manifests, launcher detection and checkpoint files."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from workloads_testlib import HAVE_TORCH, REPO, base_env, free_port, listening_on, needs_torch

import workloads

MANIFEST_KEYS = {"name", "description", "module", "frameworks", "model", "default_batch_size",
                 "default_args", "sizes", "tuned"}


def test_package_import_and_manifests_do_not_import_torch() -> None:
    code = ("import sys, workloads\n"
            "ms = [workloads.load_manifest(a) for a in workloads.APPS]\n"
            "assert 'torch' not in sys.modules and 'numpy' not in sys.modules\n"
            "print(len(ms))")
    p = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=base_env(),
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == str(len(workloads.APPS))


def test_shared_runtime_and_tensorflow_apps_import_no_framework() -> None:
    """The loop, checkpoint directories, rank discovery, command line and the TensorFlow app
    specs import neither torch nor TensorFlow (TensorFlow loads when a run starts)."""
    code = ("import sys\n"
            "import workloads.launch, workloads.tfruntime, workloads.tfruntime.train\n"
            "from workloads.runtime import checkpoint, cli, loop, ranks, seeds, timing\n"
            "import workloads.cosmictagger.tf_model, workloads.ffn.tf_model\n"
            "assert 'torch' not in sys.modules, 'torch'\n"
            "assert 'tensorflow' not in sys.modules, 'tensorflow'\n")
    p = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=base_env(),
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr


@pytest.mark.parametrize("app", workloads.APPS)
def test_manifest_format(app: str) -> None:
    m = workloads.load_manifest(app)
    assert set(m) - {"options"} == MANIFEST_KEYS
    for name, opt in (m.get("options") or {}).items():  # the app's own flags (runtime/cli.py)
        assert name.replace("-", "").isalpha() and opt["help"] and "default" in opt, name
        assert opt.get("type", "str") in ("str", "int"), name
        assert set(opt.get("frameworks", m["frameworks"])) <= set(m["frameworks"]), name
    assert m["name"] == app and m["module"] == f"workloads.{app}"
    # the study ran CosmicTagger and FFN in TensorFlow too (issue 13)
    tf = ["tensorflow"] if m["name"] in ("cosmictagger", "ffn") else []
    assert m["frameworks"] == ["pytorch", *tf]
    assert isinstance(m["default_batch_size"], int) and m["default_args"] == []
    # default (the original's), tiny (tests) and the named presets (--config NAME), each
    # described in a line (jobgen apps shows them; check_args takes the names from here)
    assert {"default", "tiny"} <= set(m["sizes"])
    assert all(isinstance(v, str) and v for v in m["sizes"].values())
    # one entry per device class: a measured configuration, or why there is none
    assert set(m["tuned"]) == {"cuda", "xpu", "cpu"}
    for cls, entry in m["tuned"].items():
        if isinstance(entry, dict):
            keys = {"measured_on", "precision", "channels_last", "compile", "evidence"}
            assert keys <= set(entry)
            assert set(entry["evidence"]) == {"precision", "channels_last", "compile"}
        else:
            assert entry.startswith("not measured"), (cls, entry)
    pkg = Path(workloads.__file__).parent / app
    for f in ("__init__.py", "__main__.py", "model.py"):
        assert (pkg / f).is_file()


@needs_torch
def test_manifest_batch_sizes_and_configurations_match_code() -> None:
    import importlib

    from workloads.runtime.contract import batch_size_of

    for app in workloads.APPS:
        spec = importlib.import_module(f"workloads.{app}.model").APP
        manifest = workloads.load_manifest(app)
        assert spec.name == app
        assert list(spec.sizes) == list(manifest["sizes"]), app  # the names --config takes
        assert batch_size_of(spec, "default", spec.sizes["default"]) == \
            manifest["default_batch_size"], app


LAUNCHER_ENVS = [
    ({}, (0, 0, 1, 1, "none")),
    ({"RANK": "3", "LOCAL_RANK": "1", "WORLD_SIZE": "8", "LOCAL_WORLD_SIZE": "4",
      "PMI_RANK": "0", "PMI_SIZE": "8", "SLURM_PROCID": "0"}, (3, 1, 8, 4, "torchrun")),
    ({"PALS_RANKID": "5", "PALS_LOCAL_RANKID": "1", "PMI_RANK": "5", "PMI_LOCAL_RANK": "1",
      "PMI_SIZE": "8", "PMI_LOCAL_SIZE": "4"}, (5, 1, 8, 4, "pals")),
    ({"PMI_RANK": "3", "PMI_SIZE": "4", "MPI_LOCALRANKID": "1", "MPI_LOCALNRANKS": "2",
      "SLURM_PROCID": "0", "SLURM_NTASKS": "4"}, (3, 1, 4, 2, "mpich")),
    ({"OMPI_COMM_WORLD_RANK": "6", "OMPI_COMM_WORLD_LOCAL_RANK": "0",
      "OMPI_COMM_WORLD_SIZE": "12", "OMPI_COMM_WORLD_LOCAL_SIZE": "6"}, (6, 0, 12, 6, "openmpi")),
    ({"SLURM_PROCID": "9", "SLURM_LOCALID": "1", "SLURM_STEP_NUM_TASKS": "16",
      "SLURM_STEP_TASKS_PER_NODE": "4(x4)", "SLURM_NTASKS": "16"}, (9, 1, 16, 4, "slurm")),
    # batch-script environment without srun: not a distributed launch
    ({"SLURM_PROCID": "0", "SLURM_LOCALID": "0", "SLURM_NTASKS": "16"}, (0, 0, 1, 1, "none")),
]


@needs_torch
@pytest.mark.parametrize(("env", "expected"), LAUNCHER_ENVS)
def test_detect_dist_env(env: dict[str, str], expected: tuple) -> None:
    from workloads.runtime.distributed import detect_dist_env

    d = detect_dist_env(env)
    assert (d.rank, d.local_rank, d.world_size, d.local_world_size, d.launcher) == expected
    assert all(name in env for name in d.variables)
    assert len(d.variables) == (0 if d.launcher == "none" else 4)


STARTERS = [
    ({}, "none"),
    ({"RANK": "0", "WORLD_SIZE": "1"}, "unknown"),
    # the jobgen wrapper exports torch's names under every launcher: the launcher is still known
    ({"RANK": "1", "PMI_RANK": "1", "MPI_LOCALRANKID": "1", "PMI_FD": "6"}, "mpich"),
    ({"RANK": "1", "PALS_RANKID": "1", "PMI_RANK": "1"}, "pals"),
    ({"RANK": "1", "TORCHELASTIC_RUN_ID": "x"}, "torchrun"),
    ({"OMPI_COMM_WORLD_RANK": "3"}, "openmpi"),
    ({"JSM_NAMESPACE_RANK": "3", "OMPI_COMM_WORLD_RANK": "3"}, "openmpi"),
    ({"SLURM_PROCID": "2", "SLURM_STEP_NUM_TASKS": "4"}, "srun"),
    ({"SLURM_PROCID": "0", "SLURM_NTASKS": "4"}, "none"),  # a batch script, no srun step
    ({"SLURM_STEP_NUM_TASKS": "2", "MPI_LOCALRANKID": "0"}, "mpich"),  # hydra over srun
]


@needs_torch
@pytest.mark.parametrize(("env", "expected"), STARTERS)
def test_started_by_names_the_launcher_not_the_variables(env: dict[str, str],
                                                           expected: str) -> None:
    from workloads.runtime.distributed import started_by

    assert started_by(env) == expected


@pytest.mark.parametrize(("argv", "error"), [
    (["--tiny", "--batch-size", "auto", "--no-compile", "--optimizer-impl", "fused"], None),
    (["--config", "tiny", "--trials", "--loss-window", "5"], None),
    (["--config", "default", "--describe"], None),
    (["--config", "nope"], "argument --config: invalid choice: 'nope' (choose from "),
    (["--tiny", "--config", "default"], "--tiny means --config tiny; it conflicts with --config"),
    (["--mode", "bench"], "argument --mode: invalid choice: 'bench'"),
    (["--bogus-flag"], "unrecognized arguments: --bogus-flag"),
    (["--batch-size", "-3"], "argument --batch-size: -3 is not a positive batch size"),
    (["--optimizer-impl", "adam"], "argument --optimizer-impl: invalid choice: 'adam'"),
    (["--version"], "unrecognized arguments: --version"),
    (["-h"], "--help and --version print and exit"),
])
def test_check_args_parses_like_the_app_without_torch(argv: list[str], error: str | None) -> None:
    code = ("import sys, json\n"
            "from workloads.runtime.cli import check_args\n"
            f"ns, err = check_args('qcnn', {argv!r})\n"
            "print(json.dumps([err, 'torch' in sys.modules]))\n")
    p = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=base_env(),
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    err, torch_loaded = __import__("json").loads(p.stdout)
    assert torch_loaded is False
    assert (err is None) if error is None else (error in err), err


@needs_torch
def test_auto_batch_fills_the_budget_in_rounded_steps() -> None:
    from workloads.runtime.memory import choose_batch

    mib = 2**20
    # 1000 MiB fixed, 100 MiB per sample, 8000 MiB budget: 70 samples, rounded down to 64
    assert choose_batch(1000 * mib, 100 * mib, 8000 * mib, 8) == 64
    assert choose_batch(1000 * mib, 2000 * mib, 8000 * mib, 8) == 8  # never below the default
    assert choose_batch(0, 0, 8000 * mib, 8) == 8
    assert choose_batch(0, 1000 * mib, 7000 * mib, 2) == 7  # small batches are not rounded


@needs_torch
@pytest.mark.parametrize(("env", "count", "expected"), [
    # every device visible (Aurora with the frameworks module): LOCAL_RANK // ranks per device
    ({"JOBGEN_RANKS_PER_DEVICE": "1"}, 12, list(range(12))),
    ({"JOBGEN_RANKS_PER_DEVICE": "2"}, 12, [r // 2 for r in range(24)]),
    ({"JOBGEN_RANKS_PER_DEVICE": "4"}, 12, [r // 4 for r in range(48)]),
    ({}, 6, list(range(6))),
    # a wrapper narrowed the rank to one device (Polaris, LUMI, CCS masks): device 0
    ({"JOBGEN_RANKS_PER_DEVICE": "2"}, 1, [0] * 8),
    ({}, 1, [0] * 4),
])
def test_device_index_is_the_one_the_site_plans(env: dict[str, str], count: int,
                                                expected: list[int]) -> None:
    from workloads.runtime.device import device_index

    assert [device_index(r, count, env) for r in range(len(expected))] == expected


@pytest.mark.parametrize(("env", "joinable"), [
    ({}, False),
    ({"RANK": "0", "WORLD_SIZE": "2", "LOCAL_RANK": "0"}, False),  # torchrun / the wrapper
    ({"RANK": "1", "PMI_RANK": "1", "PMI_SIZE": "2"}, True),  # MPICH hydra, Cray PALS
    ({"PALS_RANKID": "3"}, True),
    ({"OMPI_COMM_WORLD_RANK": "5", "JSM_NAMESPACE_RANK": "5"}, True),  # jsrun (Spectrum MPI)
    ({"HOROVOD_RANK": "1", "HOROVOD_SIZE": "2"}, True),  # horovodrun (Gloo)
    ({"SLURM_PROCID": "0", "SLURM_STEP_ID": "0"}, False),  # srun without PMI
])
def test_horovod_is_used_only_where_it_can_join_the_launch(env: dict[str, str],
                                                           joinable: bool) -> None:
    from workloads.runtime.ranks import horovod_joinable

    assert horovod_joinable(env) is joinable


def _tf_configs(world: int, local_world: int, environ: dict[str, str]) -> list[dict]:
    """tf_config on ``world`` ranks at once (threads: it is a collective), in rank order."""
    import json
    from concurrent.futures import ThreadPoolExecutor

    from workloads.runtime.ranks import DistEnv
    from workloads.tfruntime.distributed import tf_config

    def one(rank: int) -> dict:
        denv = DistEnv(rank, rank % local_world, world, local_world, "torchrun")
        return json.loads(tf_config(denv, 30.0, environ))

    with ThreadPoolExecutor(world) as pool:
        return list(pool.map(one, range(world)))


@pytest.mark.parametrize("local_world", [4, 1], ids=["one-host", "four-hosts"])
def test_multiworker_tf_config_uses_ports_the_kernel_says_are_free(local_world: int) -> None:
    """Every worker reserves a free port (bind to 0) and the ranks exchange them: no port is
    derived from MASTER_PORT, whose neighbours anything on the host may hold (the CI run that
    failed with "Could not start gRPC server"). One host meets over an abstract Unix socket
    and leaves MASTER_PORT to the launcher; several meet at MASTER_ADDR:MASTER_PORT."""
    port = free_port()
    # held where the old MASTER_PORT+1+i scheme put the workers
    with listening_on(port + 1, port + 2):
        cfgs = _tf_configs(4, local_world, {"MASTER_ADDR": "127.0.0.1",
                                            "MASTER_PORT": str(port)})
    workers = cfgs[0]["cluster"]["worker"]
    assert [c["cluster"]["worker"] for c in cfgs] == [workers] * 4  # all agree
    assert [c["task"] for c in cfgs] == [{"type": "worker", "index": r} for r in range(4)]
    hosts, ports = zip(*(w.rsplit(":", 1) for w in workers), strict=True)
    assert set(hosts) == {"127.0.0.1"} and len(set(ports)) == 4
    assert not {int(p) for p in ports} & {port, port + 1, port + 2}


def test_one_host_meeting_point_fits_the_kernel_limit_for_any_master_addr() -> None:
    """A Unix socket name holds 107 bytes: a long MASTER_ADDR (a fully qualified high-speed
    network name) is hashed, and the workers still meet and agree."""
    from workloads.tfruntime.rendezvous import local_socket_name

    addr = "x3006c0s13b0n0.hsn.cm.polaris.alcf.anl.gov" + ".x" * 40
    assert len(local_socket_name(addr, 29500).encode()) <= 100
    assert local_socket_name(addr, 29500) != local_socket_name(addr + "y", 29500)
    cfgs = _tf_configs(3, 3, {"MASTER_ADDR": addr, "MASTER_PORT": str(free_port())})
    workers = cfgs[0]["cluster"]["worker"]
    assert [c["cluster"]["worker"] for c in cfgs] == [workers] * 3
    assert all(w.startswith(addr + ":") for w in workers)


def test_multiworker_tf_config_of_one_rank_needs_no_peer() -> None:
    cfgs = _tf_configs(1, 1, {"MASTER_ADDR": "10.0.0.7", "MASTER_PORT": "29500"})
    [worker] = cfgs[0]["cluster"]["worker"]
    assert worker.startswith("10.0.0.7:") and cfgs[0]["task"]["index"] == 0


@needs_torch
def test_atomic_write_and_incomplete_checkpoints(tmp_path: Path) -> None:
    from workloads.runtime.checkpoint import CheckpointManager, atomic_write

    target = tmp_path / "f.bin"
    atomic_write(target, lambda fh: fh.write(b"good"))
    with pytest.raises(RuntimeError):
        atomic_write(target, lambda fh: (fh.write(b"half"), (_ for _ in ()).throw(
            RuntimeError("killed mid-write"))))
    assert target.read_bytes() == b"good"
    assert [p.name for p in tmp_path.iterdir()] == ["f.bin"]  # no temp file left behind

    mgr = CheckpointManager(tmp_path / "ck", rank=0, keep=2)
    for step in (2, 4, 6):
        mgr.save(step, {"model": {}, "step": step}, {"rng": step}, lambda: None, {})
    assert mgr.complete_steps() == [6, 4]  # pruned to keep=2
    (tmp_path / "ck" / "step_000000008").mkdir()  # crashed before COMPLETE
    step, state, rng = mgr.load_latest()  # type: ignore[misc]
    assert (step, state["step"], rng) == (6, 6, {"rng": 6})


def test_timing_percentile_matches_numpy_convention() -> None:
    if not HAVE_TORCH:
        pytest.skip("torch is not installed")
    from workloads.runtime.timing import percentile

    assert percentile([], 50) is None
    assert percentile([4.0, 1.0, 3.0, 2.0], 50) == 2.5
    assert percentile([1.0, 2.0, 3.0, 4.0, 5.0], 90) == pytest.approx(4.6)
