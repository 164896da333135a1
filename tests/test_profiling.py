"""Profiling and monitoring (issue 25): --profile on chosen ranks and steps with the site's own
tools, --monitor per node, --tensorboard scalars.

Every emulated site's rendered script runs against stand-ins for its launcher and for the
vendor tools (tests/emulation/bin: nsys, rocprof, rocprofv3, unitrace, vtune record their argv
and run the program they wrap; nvidia-smi, xpu-smi, rocm-smi print samples in the real CSV
layouts): exactly the chosen ranks run under the tool, with the profile's documented flags, and
one monitor starts and stops on every node. On the local site a real run writes one PyTorch
trace, for rank 0, of exactly the chosen steps.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from emulation.harness import REPORT_COMMAND, install_bin, run_script, wrapper_text
from helpers import ROOT, run_jobgen
from test_site_emulation import SITES, app_script, check_cleanup

from jobgen.errors import JobgenError
from jobgen.plan.build import Request, build_plan
from jobgen.plan.profiling import TMPDIR_MAX
from jobgen.profiles.load import load_profile
from jobgen.study.files import SweepDir
from jobgen.study.monitors import summarize
from jobgen.text.render import render
from workloads.runtime.tbevents import EventWriter, crc32c, read_scalars

# every vendor tool of every emulated site's profile
SITE_TOOLS = [("aurora", "unitrace"), ("aurora", "vtune"), ("sunspot", "unitrace"),
              ("polaris", "nsys"), ("jlse-mi250", "rocprof"), ("summit", "nsys"),
              ("lumi", "rocprof"), ("lumi", "rocprofv3")]
CHOSEN = "1,5"  # one rank on each of the two emulated nodes


@pytest.fixture(scope="module")
def emu_bin(tmp_path_factory):
    return install_bin(tmp_path_factory.mktemp("emu-bin"))


def plan_for(site: str, **kw):
    kw.setdefault("command", REPORT_COMMAND)
    return build_plan(load_profile(site), Request(site=site, nodes=2, account="PROJ", **kw))


def profile_tmp(run) -> str:
    """The profiled ranks' TMPDIR parent: /tmp/jobgen-<the job id's first part>."""
    return f"/tmp/jobgen-{run.jobid.split('.')[0]}"


def tool_of(site: str, name: str):
    return next(t for t in load_profile(site).profile.profiling.tools if t.name == name)


def expected_argv(tool, profile_dir: Path, rank: int) -> list[str]:
    """The profile's documented words with OUTPUT as the rank's own path."""
    out = str(profile_dir / f"rank-{rank}")
    return [out + w[len("OUTPUT"):] if w.startswith("OUTPUT") else w for w in tool.command[1:]]


def check_monitors(run, site: str) -> None:
    """One monitor started and stopped on every node: the per-node launch ran one task per
    node that exited after the ranks, each node's sampler started and stopped (or sampled),
    and each node has its own files."""
    hosts = sorted(SITES[site].hosts)
    tasks = [e for e in run.events if e.get("event") == "task-exit" and e["program"] == "bash"]
    assert sorted(e["node"] for e in tasks) == hosts and {e["rc"] for e in tasks} == {0}
    ranks_done = max(e["t"] for e in run.events if e.get("event") == "task-exit"
                     and e["program"] == "rank-wrapper.sh")
    assert min(e["t"] for e in tasks) >= ranks_done, "the monitors ran until the ranks ended"
    tool = load_profile(site).profile.profiling.monitor.gpu.command[0]
    calls = run.calls(tool)
    if tool == "rocm-smi":  # one sample a call, repeated by the monitor
        assert {e["node"] for e in calls} == set(hosts)
    else:
        for event in ("sampler-start", "sampler-stop"):
            got = sorted(e["node"] for e in calls if e["event"] == event)
            assert got == hosts, f"{event} once per node"
    monitor_dir = next((run.workdir / "jobgen-runs").iterdir()) / "monitor"
    short = sorted(h.split(".")[0] for h in hosts)
    assert sorted(p.name for p in monitor_dir.glob("*.cpu.csv")) == [f"{h}.cpu.csv" for h in short]
    gpu_files = sorted(monitor_dir.glob("*.gpu.csv"))
    assert [p.name for p in gpu_files] == [f"{h}.gpu.csv" for h in short]
    assert all(p.read_text().strip() for p in gpu_files), "every node's GPU sampler wrote"
    # what collect reads from them: the stand-ins' values (tests/emulation/bin)
    with SweepDir.open(run.workdir, lock=False) as where:
        found = summarize(where, [""])
    assert found.nodes == 2
    assert (found.gpu_mem_peak_mib, found.gpu_util_mean_pct) == STAND_IN_SAMPLES[tool]
    # rocm-smi --showpower: modules 0-3 at 300-330 W on their first GCDs, N/A on the second
    assert found.gpu_power_mean_w == (315.0 if tool == "rocm-smi" else None)


# peak memory (MiB) and mean utilisation (%) of the samplers' stand-ins: nvidia-smi 4 GPUs at
# 50+5g % and 20000+5g MiB; xpu-smi 6 at 60+d % and 30000+d MiB; rocm-smi 8 at 40+d % and
# (10+d) GiB
STAND_IN_SAMPLES = {"nvidia-smi": (20015.0, 57.5), "xpu-smi": (30005.0, 62.5),
                    "rocm-smi": (17408.0, 43.5)}


@pytest.mark.parametrize("site, name", SITE_TOOLS, ids=[f"{s}-{t}" for s, t in SITE_TOOLS])
def test_only_the_chosen_ranks_run_under_the_sites_profiler(site, name, tmp_path, emu_bin):
    monitor = site != "summit"  # jsrun steps do not share cores (refused, see below)
    plan = plan_for(site, profile=name, profile_ranks=CHOSEN, monitor=monitor)
    run = run_script(render(plan), SITES[site], tmp_path, emu_bin)
    assert run.proc.returncode == 0, run.explain()
    assert sorted(run.reports) == list(range(plan.world_size)), "every rank ran"
    wrapped = [e for e in run.calls(name) if e["event"] == "profile"]
    assert sorted(int(e["rank"]) for e in wrapped) == [1, 5], "exactly the chosen ranks"
    profile_dir = next((run.workdir / "jobgen-runs").iterdir()) / "profile"
    tool = tool_of(site, name)
    for e in wrapped:
        rank = int(e["rank"])
        n = len(e["argv"]) - len(e["command"])
        assert e["argv"][:n] == expected_argv(tool, profile_dir, rank)
        assert e["command"] == list(REPORT_COMMAND)
        # every profiled rank: a short node-local TMPDIR of its own, gone after the job
        assert e["tmpdir"] == f"{profile_tmp(run)}/rank-{rank}"
        assert len(e["tmpdir"]) <= TMPDIR_MAX
        for out in e["outputs"]:
            assert Path(out.rstrip("/")).exists(), f"rank {rank}'s output {out}"
    for rank, report in run.reports.items():
        env = report["env"]
        assert (env.get("JOBGEN_PROFILE_THIS_RANK") == "1") == (rank in (1, 5))
        assert env["JOBGEN_PROFILE_TOOL"] == name and env["JOBGEN_PROFILE_RANKS"] == CHOSEN
    assert not Path(profile_tmp(run)).exists(), "the TMPDIRs are removed at exit"
    if plan.profile.prefix_len:  # LUMI: inside the container, as its workshop runs rocprof
        inner = [e for e in run.calls("singularity") if e["command"][0] == name]
        assert len(inner) == 2
    if tool.module:
        assert ["load", tool.module] in [e["argv"] for e in run.calls("module")]
    if monitor:
        check_monitors(run, site)
    check_cleanup(run)


@pytest.mark.slow
def test_a_bundled_app_is_told_its_steps_and_ranks(tmp_path, emu_bin):
    """LUMI's bundled app: the tool goes after the container's exec, and the app gets the
    chosen ranks, steps and the run's profile directory on its command line."""
    plan = plan_for("lumi", command=(), app="ffn", profile="rocprof", profile_ranks="3",
                    profile_steps="2:6", app_args="--steps 8")
    words = [w if isinstance(w, str) else w.text for w in plan.command]
    i = words.index("--profile")
    assert words[i:i + 8] == ["--profile", "rocprof", "--profile-ranks", "3", "--profile-dir",
                              "${JOBGEN_PROFILE_DIR}", "--profile-steps", "2:6"]
    assert plan.profile.prefix_len == words.index("python")  # the container's exec words
    run = run_script(app_script(plan), SITES["lumi"], tmp_path, emu_bin)
    assert run.proc.returncode == 0, run.explain()
    wrapped = [e for e in run.calls("rocprof") if e["event"] == "profile"]
    assert [e["rank"] for e in wrapped] == ["3"]


REFUSED = [
    ({"site": "lumi", "profile": "nsys"}, r"^--profile nsys on lumi: nsys profiles NVIDIA GPUs "
     r"and lumi has AMD GPUs; use --profile with one of torch, rocprof, rocprofv3$"),
    ({"site": "polaris", "profile": "unitrace"}, r"unitrace profiles Intel GPUs and polaris "
     r"has NVIDIA GPUs"),
    ({"site": "local", "profile": "nsys"}, r"^--profile nsys on local: local has no GPUs"),
    ({"site": "polaris", "profile": "nsys", "profile_ranks": "8"},
     r"^--profile-ranks 8: rank 8 is outside the job's 8 ranks \(0-7\)$"),
    ({"site": "polaris", "profile": "nsys", "profile_ranks": "0,x"}, r"give ranks like"),
    ({"site": "polaris", "app": "ffn", "profile": "torch", "profile_steps": "90:120"},
     r"^--profile-steps 90:120: the run has 100 steps \(0-99\)"),
    ({"site": "polaris", "app": "ffn", "profile": "torch", "profile_steps": "5:5"},
     r"B must be greater than A"),
    ({"site": "polaris", "profile": "torch"}, r"^--profile torch runs the bundled apps' "
     r"PyTorch profiler: your own program gets no profiler from it"),
    ({"site": "polaris", "profile_ranks": "0"}, r"^--profile-ranks goes with --profile TOOL"),
    ({"site": "summit", "monitor": True}, r"^--monitor on summit: .*jsruns do not share cores"),
    ({"site": "aurora", "app": "ffn", "framework": "tensorflow", "profile": "torch"},
     r"^--profile torch: the bundled apps' PyTorch runtime does it"),
    ({"site": "polaris", "profile": "nsys", "instances_per_device": 2},
     r"^--profile chooses ranks of one data-parallel job"),
]


@pytest.mark.parametrize("kw, message", REFUSED, ids=[str(i) for i in range(len(REFUSED))])
def test_bad_combinations_are_one_line(kw, message):
    kw = dict(kw)
    site = kw.pop("site")
    if "app" not in kw:
        kw["command"] = ("python3", "train.py")
    if kw.get("instances_per_device"):
        kw["dist_backend"] = None
    with pytest.raises(JobgenError, match=message) as info:
        build_plan(load_profile(site), Request(site=site, nodes=2 if site != "local" else 1,
                                               account="PROJ", **kw))
    assert "\n" not in str(info.value)


def test_cli_refuses_with_exit_2_and_writes_nothing(tmp_path):
    out = tmp_path / "job.sh"
    res = subprocess.run([sys.executable, "-m", "jobgen", "render", "--site", "lumi", "--app",
                          "ffn", "-A", "P", "--profile", "nsys", "--out", str(out)],
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert res.returncode == 2 and not out.exists()
    assert res.stderr.count("\n") == 1 and "nsys profiles NVIDIA GPUs" in res.stderr


def test_explain_names_every_profiling_line_and_the_output_size():
    from jobgen.review.explain import build_report

    loaded = load_profile("polaris")
    req = Request(site="polaris", nodes=2, account="P", app="ffn", profile="nsys",
                  profile_ranks="0,4", monitor=True, tensorboard="tb")
    report = build_report(loaded, req, build_plan(loaded, req))
    texts = [f["text"] for f in report["profiling"]]
    for name in ("JOBGEN_PROFILE_TOOL", "JOBGEN_PROFILE_RANKS", "JOBGEN_PROFILE_DIR",
                 "JOBGEN_PROFILE_STEPS", "JOBGEN_MONITOR_DIR", "JOBGEN_TENSORBOARD_DIR",
                 "JOBGEN_RUN_ID"):
        assert any(name in t for t in texts), name
    assert any(t.startswith("nsys profile") and "around rank(s) 0,4" in t for t in texts)
    assert any(t.startswith("nvidia-smi --query-gpu") for t in texts)
    assert any(t.startswith("profile output:") and " MB in all" in t for t in texts)
    assert all(f["why"] and f["source"] for f in report["profiling"])


def test_diff_shows_profiling_as_its_own_layer_and_verify_accepts_it(tmp_path):
    from jobgen.review.scriptparse import parse_text
    from jobgen.review.semantic import compare, from_plan, from_script
    from jobgen.review.verify import verify

    plain = plan_for("aurora", app="ffn", command=())
    profiled = plan_for("aurora", app="ffn", command=(), profile="unitrace", monitor=True)
    changes = compare(from_script(parse_text(render(plain))),
                      from_script(parse_text(render(profiled))))
    groups = {c.group for c in changes}
    assert "profiling" in groups and "environment" not in groups
    keys = {c.key for c in changes if c.group == "profiling"}
    assert {"JOBGEN_PROFILE_TOOL", "wrapped ranks", "profiler", "monitor"} <= keys
    plan_side = from_plan(profiled)["profiling"]
    script_side = from_script(parse_text(render(profiled)))["profiling"]
    assert plan_side == script_side
    path = tmp_path / "job.pbs"
    path.write_text(render(profiled))
    assert verify(path).up_to_date


@pytest.mark.slow
def test_event_writer_round_trips_and_tensorflow_reads_it(tmp_path):
    assert crc32c(b"123456789") == 0xE3069283  # the CRC-32C check value
    w = EventWriter(tmp_path)
    w.scalar("loss/train", 0.5, 7)
    w.scalar("time/step_ms", 12.25, 8)
    w.close()
    assert read_scalars(w.path) == [(7, "loss/train", 0.5), (8, "time/step_ms", 12.25)]
    tf = pytest.importorskip("tensorflow", reason="TensorFlow reads the event file back")
    read = [(e.step, v.tag, v.simple_value)
            for e in tf.compat.v1.train.summary_iterator(str(w.path)) for v in e.summary.value]
    assert read == [(7, "loss/train", 0.5), (8, "time/step_ms", 12.25)]


@pytest.mark.slow
def test_local_torch_profile_of_rank_0_covers_exactly_the_chosen_steps(tmp_path):
    """A rendered local script, run for real (torchrun, 2 ranks, gloo): one PyTorch trace, for
    rank 0, holding steps 10-19 and their data, forward, backward and optimizer ranges; the
    TensorBoard scalars of rank 0 and the monitor's CPU samples beside them."""
    res = subprocess.run(
        [sys.executable, "-m", "jobgen", "render", "--site", "local", "--app", "ffn",
         "--app-args", "--tiny --steps 22 --warmup 2 --sync-every 5", "--profile", "torch",
         "--profile-ranks", "0", "--profile-steps", "10:20", "--monitor", "--tensorboard",
         "tb", "--out", str(tmp_path / "job.sh")], capture_output=True, text=True, cwd=ROOT,
        timeout=60)
    assert res.returncode == 0, res.stderr
    run = subprocess.run(["bash", "job.sh"], cwd=tmp_path, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    traces = list((tmp_path / "jobgen-runs").glob("*/profile/*.pt.trace.json"))
    assert len(traces) == 1 and traces[0].name.startswith("rank-0."), traces
    events = json.loads(traces[0].read_text())["traceEvents"]
    steps = sorted(int(e["name"].split("#")[1]) for e in events
                   if e.get("name", "").startswith("ProfilerStep#"))
    assert steps == list(range(10, 20))
    phases = [e["name"] for e in events if e.get("name") in ("data", "forward", "backward",
                                                               "optimizer")]
    assert {p: phases.count(p) for p in set(phases)} == {
        "data": 10, "forward": 10, "backward": 10, "optimizer": 10}
    # the phases per step on stderr, and the trace's path in the result line
    table = [ln.split()[3:] for ln in run.stderr.splitlines()
             if ln.startswith("[workloads rank 0]   ")]
    assert [row[0] for row in table] == ["data", "forward", "backward", "optimizer", "step"]
    assert all(float(row[1]) >= 0 for row in table)
    result = json.loads(next(ln for ln in run.stdout.splitlines() if ln.startswith("{")))
    assert (tmp_path / result["profile_trace"]).resolve() == traces[0].resolve()
    assert f"profile trace: {result['profile_trace']}" in run.stderr
    events_files = list((tmp_path / "tb").glob("*/events.out.tfevents.*"))
    assert len(events_files) == 1
    scalars = read_scalars(events_files[0])
    assert sorted(s for s, t, _ in scalars if t == "loss/train") == list(range(1, 23))
    assert {t for _, t, _ in scalars} == {"loss/train", "time/step_ms",
                                          "throughput/samples_per_sec"}
    cpu = list((tmp_path / "jobgen-runs").glob("*/monitor/*.cpu.csv"))
    assert len(cpu) == 1
    rows = cpu[0].read_text().splitlines()
    assert rows[0] == "time_s,cpu_busy_pct,mem_used_mib,mem_total_mib" and len(rows) >= 2


@pytest.mark.slow
def test_collect_reads_the_monitors_into_the_study_table(tmp_path):
    """A local sweep with --monitor, submitted and collected: the row has the CPU monitor's
    mean busy share and peak host memory (the local site has no GPU sampler)."""
    from jobgen.study.collect import collect

    out = tmp_path / "s"
    res = subprocess.run([sys.executable, "-m", "jobgen", "sweep", "--site", "local", "--app",
                          "qcnn", "--app-args", "--tiny --steps 60 --warmup 2",
                          "--ranks-per-node", "1", "--monitor", "--out", str(out), "--submit"],
                         capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    [row] = collect([out]).rows
    assert row.status == "ok"
    assert 0 <= row.cpu_busy_mean_pct <= 100 and row.host_mem_peak_mib > 0
    assert row.gpu_mem_peak_mib is None and row.gpu_util_mean_pct is None
    # and the printed table shows them (a wide terminal: at 80 columns they go first)
    shown = run_jobgen("collect", str(out), env={"COLUMNS": "250"})
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    header = next(line for line in lines if line.startswith("site"))
    first = lines[lines.index(header) + 1]
    cells = dict(zip(re.split(r"\s{2,}", header), re.split(r"\s{2,}", first), strict=True))
    assert cells["GPU mem"] == cells["GPU use"] == "-"
    assert cells["CPU use"] == f"{row.cpu_busy_mean_pct:.0f}%"
    assert cells["host mem"] == f"{row.host_mem_peak_mib / 1024:.1f}GiB"


def _heredoc(text: str, after: str) -> str:
    start = text.index("<<'JOBGEN_EOF'\n", text.index(after)) + len("<<'JOBGEN_EOF'\n")
    return text[start:text.index("\nJOBGEN_EOF\n", start) + 1]


@pytest.mark.parametrize("site, name", [("polaris", "nsys"), ("lumi", "rocprof")])
def test_the_wrapper_and_the_node_monitor_pass_shellcheck(site, name, tmp_path):
    """The two scripts the job writes with quoted here-documents are data to the batch
    script's shellcheck: check them on their own."""
    from test_render import _shellcheck

    text = render(plan_for(site, app="ffn", command=(), profile=name, profile_ranks="1",
                           monitor=True))
    for what, marker in (("rank-wrapper.sh", 'JOBGEN_WRAPPER="$JOBGEN_DIR/rank-wrapper.sh"'),
                         ("node-monitor.sh", 'JOBGEN_MONITOR="$JOBGEN_DIR/node-monitor.sh"')):
        path = tmp_path / what
        path.write_text(_heredoc(text, marker))
        res = subprocess.run([_shellcheck(), "-s", "bash", str(path)], capture_output=True,
                             text=True, timeout=60)
        assert res.returncode == 0, res.stdout


@pytest.mark.slow
def test_real_slurm_monitors_run_beside_the_ranks_and_stop(slurm, tmp_path):
    """The test Slurm (tests/slurm_cluster.py), 2 nodes: the monitors' srun --overlap runs
    beside the ranks' srun (without --overlap the ranks' step would wait for it), each node's
    monitor writes its CPU samples, and the job ends when the ranks do."""
    from test_e2e import TINY, submit_and_wait
    from test_e2e import render as render_script

    script = render_script(tmp_path, "--site", "local-slurm", "--app", "gpt", "--nodes", "2",
                           "--app-args", TINY, "--job-name", "mon", "--monitor")
    job, out = submit_and_wait(slurm, script)
    assert job.state == "COMPLETED", out[-3000:]
    assert "not every node's monitor started" not in out
    monitor = tmp_path / "jobgen-runs" / f"mon.{job.id}" / "monitor"
    assert sorted(p.name for p in monitor.glob("*.cpu.csv")) == ["jgn1.cpu.csv", "jgn2.cpu.csv"]
    assert sorted(p.name for p in monitor.glob("*.started")) == ["jgn1.started", "jgn2.started"]


# The longest job ids the schedulers hand out: a Polaris PBS id (UG docs/polaris/
# performance-tools/NVIDIA-Nsight.md: 308834.polaris-pbs-01.hsn.cm.polaris.alcf.anl.gov) with
# ten digits, Slurm's 32-bit ids, LSF's and Cobalt's; a local script's $$ is at most pid_max
# (2^22, 7 digits). RANK 9999999 is more ranks than any machine has.
LONG_JOB_IDS = {"pbs": {"PBS_JOBID": "1234567890.polaris-pbs-01.hsn.cm.polaris.alcf.anl.gov"},
                "slurm": {"SLURM_JOB_ID": "4294967295"}, "lsf": {"LSB_JOBID": "4294967295"},
                "cobalt": {"COBALT_JOBID": "4294967295"}, "none": {}}


def every_site_profiler():
    from jobgen.profiles.load import bundled_dir

    for path in sorted(bundled_dir().glob("*.yaml")):
        profiling = load_profile(path.stem).profile.profiling
        for name in ("torch", *(t.name for t in (profiling.tools if profiling else ()))):
            yield path.stem, name


@pytest.mark.parametrize("site, name", list(every_site_profiler()))
def test_every_profiled_rank_gets_a_short_tmpdir(site, name, tmp_path):
    """Issue 30 D2: on every site and for every profiler, a profiled rank's TMPDIR leaves room
    for Python's multiprocessing sockets (TMPDIR/pymp-XXXXXXXX/listener-XXXXXXXX, 32 more
    characters, within the 107 of a Unix socket path), with the scheduler's longest job id:
    the script's own lines, run by bash."""
    loaded = load_profile(site)
    python = None if loaded.profile.python.provides_framework else "/env/bin/python"
    plan = build_plan(loaded, Request(site=site, account="PROJ", app="ffn", profile=name,
                                      python=python))
    text = render(plan)
    lines = [next(line for line in text.splitlines() if line.startswith(start))
             for start in ("JOBGEN_JOB_ID=", "export JOBGEN_PROFILE_TMP=")]
    wrapper = [line.strip() for line in wrapper_text(text).splitlines()]
    lines.append(next(line for line in wrapper if line.startswith("export TMPDIR=")))
    snippet = "\n".join(["set -e -u", *lines, 'printf %s "$TMPDIR"'])
    env = {"PATH": "/usr/bin:/bin", "RANK": "9999999", **LONG_JOB_IDS[plan.dialect]}
    out = subprocess.run(["bash", "-c", snippet], env=env, capture_output=True, text=True,
                         check=True).stdout
    assert out.startswith("/tmp/jobgen-") and out.endswith("/rank-9999999")
    assert len(out) <= TMPDIR_MAX and len(out) + 32 <= 107, out


def test_unitrace_stand_in_fails_as_pti_gpu_0_17_does_without_its_directory(tmp_path, emu_bin):
    """pti-gpu <= 0.17.0 tools/utils/logger.h: the traced process prints `[ERROR] Failed to
    open file ... for writing` and exits -1 (255) when the output directory is missing; with
    the directory it writes summary.<pid>.<rank>.txt and <program>.<pid>.<rank>.json."""
    out = tmp_path / "rank-3"
    argv = [str(emu_bin / "unitrace"), "--chrome-itt-logging", "--output-dir-path", str(out),
            "--output", f"{out}/summary.txt", "true"]
    env = {"PATH": "/usr/bin:/bin", "PMI_RANK": "3"}
    failed = subprocess.run(argv, env=env, capture_output=True, text=True)
    assert failed.returncode == 255 and not out.exists()
    assert re.fullmatch(rf"\[ERROR\] Failed to open file {re.escape(str(out))}/summary\.[0-9]+"
                        r"\.3\.txt for writing\. Do you have the right permission\?\n",
                        failed.stderr)
    out.mkdir()
    assert subprocess.run(argv, env=env).returncode == 0
    names = sorted(p.name for p in out.iterdir())
    assert [re.sub(r"\.[0-9]+\.3\.", ".PID.3.", n) for n in names] == ["summary.PID.3.txt",
                                                                        "true.PID.3.json"]
