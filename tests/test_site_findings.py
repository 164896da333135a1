"""Issue 21's site-fact findings, each against the documentation it cites: the oneCCL tuning
list and the TensorFlow page's CCL setup on Aurora, the Slingshot completion-queue size, LUMI's
current AI-guide environment and its TensorFlow refusal, containers on Aurora and Polaris,
Copper for the bundled package, and JLSE's MPI."""

from __future__ import annotations

import pytest
from helpers import env_of, plan_for

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
