"""Issue 21's site-fact findings, each against the documentation it cites: the oneCCL tuning
list and the TensorFlow page's CCL setup on Aurora, the Slingshot completion-queue size, LUMI's
current AI-guide environment and its TensorFlow refusal, containers on Aurora and Polaris,
Copper for the bundled package, and JLSE's MPI."""

from __future__ import annotations

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
    """LAG cdff56d removed NCCL_SOCKET_IFNAME and NCCL_NET_GDR_LEVEL from the guide; every
    guide script puts TORCH_HOME on the project's scratch and makes it: so does every job."""
    for plan in (plan_for("lumi", nodes=2), plan_for("lumi", command=("python", "train.py"))):
        env = {e.name: e for e in plan.env}
        assert "NCCL_SOCKET_IFNAME" not in env and "NCCL_NET_GDR_LEVEL" not in env
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
    with pytest.raises(JobgenError, match="exceed every queue on lumi .the largest takes 2978"):
        plan_for("lumi", nodes=2979)


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
