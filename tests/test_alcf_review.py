"""Issue 30, the ALCF review's missing items, nits and risks settled from the sources: above
1024 nodes Aurora says its oneCCL settings are tested only that far (M4); with --container the
host's framework stack stays out of the image (R1 Aurora, R2 Polaris); a profiler's module is
loaded before the framework stack (R3); unitrace's output names (N1); the PALS path (N4)."""

from __future__ import annotations

import pytest
from helpers import jobgen_here, plan_for

from jobgen.plan.build import Request, build_plan
from jobgen.profiles.load import load_profile
from jobgen.review.explain import build_report
from jobgen.review.lint import lint
from jobgen.review.scriptparse import parse_text
from jobgen.text.render import render

ONECCL = "tested up to 1024 nodes only"


def report(site: str, **kw) -> dict:
    loaded = load_profile(site)
    req = Request(site=site, account="p", **kw)
    return build_report(loaded, req, build_plan(loaded, req))


@pytest.mark.parametrize("nodes, said", [(1024, False), (1025, True), (2048, True)])
def test_above_1024_nodes_aurora_says_the_oneccl_settings_are_tested_only_that_far(nodes,
                                                                                   said):
    res = jobgen_here("render", "--site", "aurora", "-A", "p", "--nodes", str(nodes), "--app",
                      "cosmictagger")
    assert res.returncode == 0
    assert (ONECCL in res.stderr) == said and (f"# WARNING: --nodes {nodes}: the oneCCL"
                                               in res.stdout) == said
    warnings = report("aurora", nodes=nodes, app="cosmictagger")["warnings"]
    assert any(ONECCL in w and "oneCCL.md" in w for w in warnings) == said


def _modules_and_exports(text: str) -> tuple[list[str], set[str]]:
    lines = text.splitlines()
    modules = [x for x in lines if x.startswith(("module ", "conda activate"))]
    exports = {x.split("=")[0].removeprefix("export ") for x in lines if x.startswith("export ")}
    return modules, exports


def test_aurora_container_runs_without_the_host_stack_and_its_oneccl_settings():
    host = render(plan_for("aurora", command=("python3", "t.py")))
    image = render(plan_for("aurora", command=("python3", "t.py"),
                            container="/lus/flare/projects/p/img.sif"))
    modules, exports = _modules_and_exports(host)
    assert "module load frameworks" in modules
    assert {"CCL_PROCESS_LAUNCHER", "CCL_KVS_MODE", "CCL_ATL_TRANSPORT",
            "FI_MR_CACHE_MONITOR"} <= exports
    modules, exports = _modules_and_exports(image)
    assert modules == ["module load apptainer"]
    assert not {"CCL_PROCESS_LAUNCHER", "CCL_KVS_MODE", "CCL_ATL_TRANSPORT",
                "FI_MR_CACHE_MONITOR"} & exports
    assert {"APPTAINERENV_CCL_ATL_TRANSPORT", "APPTAINERENV_I_MPI_PMI_LIBRARY"} <= exports
    found = lint(parse_text(image), load_profile("aurora").profile, "warning")
    assert not found, [f.format("job") for f in found]


def test_polaris_container_runs_without_the_host_conda():
    image = render(plan_for("polaris", command=("python3", "t.py"),
                            container="/eagle/p/img.sif"))
    modules, _ = _modules_and_exports(image)
    assert "module load conda" not in modules and "conda activate base" not in modules
    assert modules[:2] == ["module use /soft/modulefiles", "module load spack-pe-base"]
    host_modules, _ = _modules_and_exports(render(plan_for("polaris",
                                                           command=("python3", "t.py"))))
    assert "module load conda" in host_modules and "conda activate base" in host_modules


def test_a_profilers_module_comes_before_the_framework_stack():
    text = render(plan_for("aurora", profile="vtune"))
    assert text.index("module load oneapi") < text.index("module load frameworks")


def test_explain_names_unitraces_own_output_names():
    facts = report("aurora", app="ffn", profile="unitrace")["profiling"]
    assert any("summary.<pid>.<rank>.txt" in f["text"] for f in facts)


def test_polaris_pals_path_of_the_container_page_is_marked_unconfirmed():
    text = render(plan_for("polaris", command=("python3", "t.py"),
                           container="/eagle/p/img.sif"))
    line = next(x for x in text.splitlines() if "pals/1.2.12" in x and x.startswith("#"))
    assert "[unconfirmed:" in line and "cray-pals/1.6.1" in line
