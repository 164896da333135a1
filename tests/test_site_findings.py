"""Issue 21's site-fact findings, each against the documentation it cites: the oneCCL tuning
list and the TensorFlow page's CCL setup on Aurora, the Slingshot completion-queue size, LUMI's
current AI-guide environment and its TensorFlow refusal, containers on Aurora and Polaris,
Copper for the bundled package, and JLSE's MPI."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import env_of, plan_for, run_jobgen

from jobgen.errors import JobgenError
from jobgen.text.render import render

ONECCL_TUNING = {
    "CCL_KVS_CONNECTION_TIMEOUT": "600", "CCL_KVS_USE_MPI_RANKS": "1",
    "CCL_ZE_CACHE_OPEN_IPC_HANDLES_THRESHOLD": "1024",
    "CCL_ALLREDUCE_SCALEOUT": "direct:0-1048576;rabenseifner:1048577-max",
    "CCL_BCAST": "double_tree", "CCL_CONFIGURATION_PATH": "",
    "CCL_CONFIGURATION": "cpu_gpu_dpcpp", "MPI_PROVIDER": "${FI_PROVIDER}",
}
TUNING_UNSETS = ("MPIR_CVAR_CH4_POSIX_COLL_SELECTION_TUNING_JSON_FILE",
                 "MPIR_CVAR_CH4_COLL_SELECTION_TUNING_JSON_FILE",
                 "MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE")
TF_CCL_SETUP = {"CCL_KVS_GET_TIMEOUT": "600", "CCL_ALLREDUCE": "topo"}


# ---------------------------------------------------------------- Aurora oneCCL
@pytest.mark.parametrize("site", ["aurora", "sunspot"])
def test_oneccl_tuning_list_is_whole_from_128_nodes(site):
    """oneCCL.md's tuning list, every line of it (exports and the three unsets), at scale."""
    plan = plan_for(site, nodes=128)
    env = env_of(plan)
    assert {k: env.get(k) for k in ONECCL_TUNING} == ONECCL_TUNING
    unsets = [e.name for e in plan.env if e.action == "unset"]
    assert unsets == list(TUNING_UNSETS)
    text = render(plan)
    for name in TUNING_UNSETS:
        assert f"\nunset {name}\n" in text
    assert "\nexport CCL_CONFIGURATION_PATH=''\n" in text
    assert '\nexport MPI_PROVIDER="${FI_PROVIDER}"\n' in text
    small = env_of(plan_for(site, nodes=64))
    assert not set(ONECCL_TUNING) & set(small) and not set(TUNING_UNSETS) & set(small)


def test_tensorflow_ccl_setup_of_the_512_node_script():
    """tensorflow.md's job script (512 nodes) adds CCL_KVS_GET_TIMEOUT and CCL_ALLREDUCE=topo."""
    tf = env_of(plan_for("aurora", nodes=512, framework="tensorflow"))
    assert {k: tf.get(k) for k in TF_CCL_SETUP} == TF_CCL_SETUP
    assert {k: tf.get(k) for k in ONECCL_TUNING} == ONECCL_TUNING
    pt = env_of(plan_for("aurora", nodes=512))
    assert not set(TF_CCL_SETUP) & set(pt), "the TensorFlow page's additions are TensorFlow's"
    assert not set(TF_CCL_SETUP) & set(env_of(plan_for("aurora", nodes=64,
                                                         framework="tensorflow")))


@pytest.mark.parametrize("nodes", [17, 10624])
def test_cq_size_is_the_documented_value_and_says_how_to_raise_it(nodes):
    """No source gives a larger value or a node count to raise FI_CXI_DEFAULT_CQ_SIZE at:
    the documented 131072 stays, and its reason says how to raise it if overflows persist."""
    plan = plan_for("aurora", nodes=nodes)
    cq = next(e for e in plan.env if e.name == "FI_CXI_DEFAULT_CQ_SIZE")
    assert cq.value == "131072"
    assert "--env FI_CXI_DEFAULT_CQ_SIZE=1048576" in cq.why and "known-issues.md" in cq.source
    raised = plan_for("aurora", nodes=nodes, env=("FI_CXI_DEFAULT_CQ_SIZE=1048576",))
    assert env_of(raised)["FI_CXI_DEFAULT_CQ_SIZE"] == "1048576"


# ---------------------------------------------------------------- LUMI
LUMI_TF_IMAGE = ("/appl/local/containers/sif-images/"
                 "lumi-tensorflow-rocm-6.2.0-python-3.10-tensorflow-2.16.1-horovod-0.28.1.sif")


def test_lumi_follows_the_current_ai_guide_environment():
    """LAG cdff56d removed NCCL_NET_GDR_LEVEL (RCCL's default from ROCm 6.2) from the guide
    (NCCL_SOCKET_IFNAME: tests/test_lumi_summit_jlse.py); every guide script puts TORCH_HOME
    on the project's scratch and makes it: so does every job."""
    for plan in (plan_for("lumi", nodes=2), plan_for("lumi", command=("python", "train.py"))):
        env = {e.name: e for e in plan.env}
        assert "NCCL_NET_GDR_LEVEL" not in env
        home = env["TORCH_HOME"]
        assert home.value == "/scratch/${SLURM_JOB_ACCOUNT}/${USER}/torch_home" and home.expand
        text = render(plan)
        export = 'export TORCH_HOME="/scratch/${SLURM_JOB_ACCOUNT}/${USER}/torch_home"\n'
        assert export + 'mkdir -p "${TORCH_HOME}"\n' in text
        assert text.index(export) < text.index("srun ")
        cleanup = text.split("jobgen_cleanup() {")[1].split("\n}")[0]
        assert "TORCH_HOME" not in cleanup, "the shared cache is kept"


def test_lumi_beyond_standard_g_names_the_full_machine_route():
    """partitions.md: bench, all nodes, 6 h, for full-machine runs by request (hero-runs.md)."""
    with pytest.raises(JobgenError) as err:
        plan_for("lumi", nodes=2000)
    msg = str(err.value)
    assert "standard-g: 1-1024 nodes" in msg and "bench: 1-2978 nodes, 06:00:00" in msg
    assert "LUMI helpdesk" in msg and "last Sunday" in msg and "\n" not in msg
    plan = plan_for("lumi", nodes=2000, queue="bench")
    assert plan.queue == "bench"
    with pytest.raises(JobgenError, match=r"^--nodes 2979: lumi has 2978 nodes .*use --nodes "
                       "2978 or less$"):
        plan_for("lumi", nodes=2979)  # larger than the machine (the machine-size check)


def test_lumi_refuses_a_tensorflow_program_in_the_pytorch_image():
    """A user's TensorFlow program would run in the PyTorch-only AI Factory image: refused in
    one line naming LUMI's TensorFlow image; with --container it runs in the image given."""
    with pytest.raises(JobgenError) as err:
        plan_for("lumi", framework="tensorflow", command=("python", "train.py"))
    msg = str(err.value)
    assert "no TensorFlow" in msg and f"--container {LUMI_TF_IMAGE}" in msg
    assert "$WITH_CONDA" in msg and "\n" not in msg
    plan = plan_for("lumi", framework="tensorflow", container=LUMI_TF_IMAGE,
                    command=("bash", "-c", "$WITH_CONDA && exec python3 train.py"))
    assert plan.command[:3] == ("singularity", "exec", LUMI_TF_IMAGE)


def test_lumi_refusal_from_the_command_line_is_one_line_and_writes_nothing(tmp_path):
    out = tmp_path / "job.sh"
    res = run_jobgen("render", "--site", "lumi", "-A", "project_465000001", "--framework",
                     "tensorflow", "--out", str(out), "--", "python", "train.py")
    assert res.returncode == 2 and not out.exists() and res.stdout == ""
    errors = [ln for ln in res.stderr.splitlines() if ln.startswith("jobgen: error")]
    assert len(errors) == 1 and "--container" in errors[0] and "Traceback" not in res.stderr


# ---------------------------------------------------------------- containers on ALCF machines
def test_aurora_container_lines_are_the_documented_recipe():
    plan = plan_for("aurora", nodes=2, container="/lus/flare/projects/p/xpu.sif",
                    command=("python3", "train.py"))
    assert plan.command[:6] == ("apptainer", "exec", "-B",
                                "/usr/lib64/libpmix.so.2:/hostlib/libpmix.so.2", "-B",
                                "/usr/lib64:/hostevent")
    assert "module load apptainer" in [m.text for m in plan.modules]
    env = env_of(plan)
    # the host's oneCCL minimal set stays out: the recipe sets none of it (issue 30, R1)
    assert env["APPTAINERENV_CCL_ATL_TRANSPORT"] == "ofi" and "CCL_ATL_TRANSPORT" not in env
    assert env["APPTAINERENV_I_MPI_PMI_LIBRARY"] == "/hostlib/libpmix.so.2"
    assert "APPTAINERENV_ZE_FLAT_DEVICE_HIERARCHY" not in env, "the host's hierarchy passes in"
    assert any("one node" in w and "tcp" in w for w in plan.warnings)
    for e in plan.env:
        if e.name.startswith("APPTAINERENV_"):
            assert "test_container.sh" in e.source


def test_polaris_container_lines_are_the_documented_recipe():
    plan = plan_for("polaris", nodes=2, container="/lus/eagle/projects/p/ngc.sif",
                    command=("python3", "train.py"))
    assert plan.command[:9] == ("apptainer", "exec", "--fakeroot", "--nv", "-B", "/opt", "-B",
                                "/var/run/palsd/", "-B")
    assert "#PBS -l singularity_fakeroot=true" in [d.text for d in plan.directives]
    assert [m.text for m in plan.modules][-3:] == [
        "module load spack-pe-base", "module load apptainer", "module load cray-mpich-abi"]
    env = {e.name: e for e in plan.env}
    lib = env["APPTAINERENV_LD_LIBRARY_PATH"]
    assert lib.expand and lib.value.endswith(":/opt/cray/pe/pals/1.2.12/lib")
    assert env["APPTAINER_TMPDIR"].make_dir and env["APPTAINER_CACHEDIR"].make_dir
    text = render(plan)
    assert text.count("shellcheck disable=SC2153") == 1  # CRAY_LD_LIBRARY_PATH: the module's
    assert not plan_for("polaris", nodes=2).directives[-1].text.endswith("fakeroot=true")


def test_container_flags_and_settings_are_explained_with_their_sources():
    res = run_jobgen("explain", "--site", "polaris", "-A", "p", "--nodes", "2", "--container",
                     "/lus/eagle/projects/p/ngc.sif", "--", "python3", "train.py")
    assert res.returncode == 0, res.stderr
    out = res.stdout
    for line in ("#PBS -l singularity_fakeroot=true", "module load cray-mpich-abi",
                 "export APPTAINERENV_LD_LIBRARY_PATH="):
        at = out.index(line)
        assert "docs/polaris/containers/containers.md" in out[at:at + 600] or \
            "docs/running-jobs/index.md" in out[at:at + 600], line


# ---------------------------------------------------------------- JLSE's mpirun
def test_jlse_checks_for_mpirun_before_any_rank(tmp_path):
    """No public JLSE source loads an MPI module for the MI250 nodes: the script checks that
    mpirun is on PATH before the launch and says what to load (exit 78), instead of failing
    with `mpirun: command not found` after the job waited in the queue."""
    import shutil

    from emulation.harness import REPORT_COMMAND, Site, install_bin, run_script

    plan = plan_for("jlse-mi250", nodes=2, command=REPORT_COMMAND)
    check = plan.program.checks[0]
    assert check.words == ("command", "-v", "mpirun")
    assert "documents no MPI module" in check.failure
    emu = install_bin(tmp_path / "emu-bin")
    for name in ("mpirun", "mpiexec"):
        (emu / name).unlink()
    system = tmp_path / "system-bin"  # the system's tools, without any MPI launcher
    system.mkdir()
    for d in ("/usr/local/bin", "/usr/bin", "/bin"):
        for tool in Path(d).iterdir():
            if not tool.name.startswith(("mpirun", "mpiexec", "orterun")) and \
                    not (system / tool.name).exists():
                (system / tool.name).symlink_to(tool)
    site = Site("jlse-mi250", "cobalt", ("amdgpu01", "amdgpu04"), "amdgpu01")
    run = run_script(render(plan), site, tmp_path / "job", emu,
                     env={"PATH": f"{emu}:{system}"})
    assert run.proc.returncode == 78, run.proc.stderr
    assert "cannot start the program: the launcher mpirun is not on PATH" in run.proc.stderr
    assert not run.reports
    assert shutil.which("mpirun", path=f"{emu}:{system}") is None


# ---------------------------------------------------------------- explain
def _explain(*args: str) -> dict:
    import json

    res = run_jobgen("explain", "--format", "json", *args)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def _facts(data: dict) -> list[dict]:
    return [f for key in ("directives", "modules", "environment", "program", "steps")
            for f in data[key]]


@pytest.mark.parametrize(("args", "lines"), [
    (("--site", "aurora", "-A", "p", "--nodes", "128", "--app", "ffn"),
     ["unset MPIR_CVAR_CH4_POSIX_COLL_SELECTION_TUNING_JSON_FILE",
      "export CCL_CONFIGURATION=cpu_gpu_dpcpp", 'export MPI_PROVIDER="${FI_PROVIDER}"']),
    (("--site", "aurora", "-A", "p", "--nodes", "512", "--framework", "tensorflow",
      "--app", "ffn"), ["export CCL_KVS_GET_TIMEOUT=600", "export CCL_ALLREDUCE=topo"]),
    (("--site", "aurora", "-A", "p", "--nodes", "2", "--app", "ffn", "--copper",
      "--copper-path", "/lus/flare/projects/p/venv"),
     ["$JOBGEN_DIR/python (the bundled package) read through /tmp/${USER}/copper by every "
      "rank"]),
    (("--site", "lumi", "-A", "p", "--", "python", "t.py"),
     ['export TORCH_HOME="/scratch/${SLURM_JOB_ACCOUNT}/${USER}/torch_home"; '
      'mkdir -p "${TORCH_HOME}"']),
    (("--site", "polaris", "-A", "p", "--container", "/x/i.sif", "--", "python3", "t.py"),
     ["#PBS -l singularity_fakeroot=true", "module load apptainer",
      "apptainer exec --fakeroot --nv -B /opt -B /var/run/palsd/ -B /soft /x/i.sif"]),
    (("--site", "aurora", "-A", "p", "--container", "/x/i.sif", "--", "python3", "t.py"),
     ["module load apptainer", "export APPTAINERENV_CCL_ATL_TRANSPORT=ofi"]),
    (("--site", "local", "--framework", "tensorflow", "--app", "ffn"),
     ["python3 -m workloads.spawn"]),
    (("--site", "jlse-mi250", "-A", "p", "--nodes", "2", "--", "/x/python", "t.py"),
     ["the launcher mpirun is not on PATH: JLSE documents no MPI module"]),
])
def test_explain_shows_each_new_line_with_its_reason_and_source(args, lines):
    facts = _facts(_explain(*args))
    for line in lines:
        hits = [f for f in facts if f["text"].startswith(line)]
        assert hits, f"{line!r} not in explain"
        assert all(f["why"] and f["source"] for f in hits), hits
