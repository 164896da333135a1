"""Regenerate examples/: the rendered script of every bundled site x bundled app at 2 nodes.

    python3 examples/regenerate.py          # rewrite the examples
    python3 examples/regenerate.py --check  # exit 1 if any example is stale (the tests do this)

The local site runs on one machine, so its examples use 1 node. A script names the directory of
the installed `workloads` package (it copies it into the job); the examples show
`/path/to/site-packages/workloads` instead of this checkout's, so they read the same from any
clone or install.
"""

from __future__ import annotations

import sys
from pathlib import Path

from jobgen.plan.apps import app_names, workloads_dir
from jobgen.plan.build import Request, build_plan
from jobgen.profiles.load import ProfileFile, bundled_dir, load_profile_file
from jobgen.text.render import render

HERE = Path(__file__).resolve().parent
SUFFIX = {"pbs": "pbs", "slurm": "slurm", "lsf": "lsf", "cobalt": "cobalt", "none": "sh"}
ACCOUNT = "MYPROJECT"
# Sites that provide no PyTorch environment: the examples name one (--python).
SITE_OPTIONS: dict[str, dict] = {"jlse-mi250": {"python": "/home/MYUSER/rocm-torch/bin/python"}}
PACKAGE_PLACEHOLDER = "/path/to/site-packages/workloads"


def portable(text: str) -> str:
    """The script with this install's workloads directory replaced by a placeholder."""
    package = workloads_dir()
    return text.replace(str(package), PACKAGE_PLACEHOLDER) if package else text
# Site extras (render options beyond the basics), one example each: examples/extras/NAME.EXT
EXTRAS: list[tuple[str, dict]] = [
    ("aurora-copper", dict(site="aurora", app="cosmictagger", nodes=8, copper=True,
                           copper_paths=("/lus/flare/projects/MYPROJECT/venv",))),
    ("aurora-ccs-4-ranks-per-tile", dict(site="aurora", app="anisosgs", nodes=2,
                                         ranks_per_device=4)),
    ("aurora-frameworks-2024", dict(site="aurora", app="resnet50", nodes=2,
                                    framework_module="frameworks/2024.2.1_u1")),
    ("aurora-64-nodes", dict(site="aurora", app="cosmictagger", nodes=64)),
    ("aurora-tensorflow", dict(site="aurora", framework="tensorflow", nodes=2,
                               command=("python3", "train_tf.py", "--epochs", "3"))),
    ("aurora-tensorflow-cosmictagger", dict(site="aurora", framework="tensorflow", nodes=2,
                                            app="cosmictagger")),
    ("polaris-tensorflow-ffn", dict(site="polaris", framework="tensorflow", nodes=2, app="ffn")),
    ("summit-tensorflow-ffn", dict(site="summit", framework="tensorflow", nodes=2, app="ffn")),
    ("polaris-mps-2-ranks-per-gpu", dict(site="polaris", app="qcnn", nodes=2,
                                         ranks_per_device=2)),
    ("polaris-mps-4-instances-per-gpu", dict(site="polaris", app="qcnn", nodes=2,
                                            instances_per_device=4)),
    ("polaris-staged-data", dict(site="polaris", app="unet3d", nodes=2,
                                 stage="/eagle/MYPROJECT/unet3d-data.tar")),
    ("summit-gpumps", dict(site="summit", app="pointnet", nodes=2, ranks_per_device=2)),
    ("lumi-own-container", dict(site="lumi", app="gpt", nodes=2,
                                container="/scratch/MYPROJECT/my-pytorch.sif")),
    ("jlse-apptainer", dict(site="jlse-mi250", app="ffn", nodes=1,
                            container="/home/me/rocm-pytorch.sif")),
    # profiling and monitoring (docs/profiling.md)
    ("polaris-nsys-monitor", dict(site="polaris", app="resnet50", nodes=2, profile="nsys",
                                  profile_ranks="0,4", profile_steps="10:20", monitor=True,
                                  tensorboard="tb")),
    ("lumi-rocprof-rank-14", dict(site="lumi", app="gpt", nodes=2, profile="rocprof",
                                  profile_ranks="14", monitor=True)),
    ("aurora-unitrace-monitor", dict(site="aurora", app="cosmictagger", nodes=2,
                                     profile="unitrace", monitor=True)),
    ("local-torch-profile", dict(site="local", app="ffn", nodes=1, account=None,
                                 profile="torch", profile_ranks="0", profile_steps="10:20",
                                 tensorboard="tb")),
]


def expected() -> dict[Path, str]:
    out: dict[Path, str] = {}
    for path in sorted(bundled_dir().glob("*.yaml")):
        loaded = load_profile_file(ProfileFile(path.stem, path, "bundled"))
        p = loaded.profile
        local = p.scheduler.dialect == "none"
        for app in app_names():
            req = Request(
                site=p.name, app=app, nodes=1 if local else 2,
                account=None if local else ACCOUNT, **SITE_OPTIONS.get(p.name, {}),
            )
            text = portable(render(build_plan(loaded, req)))
            out[HERE / p.name / f"{app}.{SUFFIX[p.scheduler.dialect]}"] = text
    for name, kwargs in EXTRAS:
        path = bundled_dir() / f"{kwargs['site']}.yaml"
        loaded = load_profile_file(ProfileFile(path.stem, path, "bundled"))
        kwargs = {"account": ACCOUNT, **kwargs}
        if not kwargs.get("container"):
            kwargs = {**SITE_OPTIONS.get(kwargs["site"], {}), **kwargs}
        text = portable(render(build_plan(loaded, Request(**kwargs))))
        out[HERE / "extras" / f"{name}.{SUFFIX[loaded.profile.scheduler.dialect]}"] = text
    return out


def main(argv: list[str]) -> int:
    want = expected()
    have = {p for p in HERE.glob("*/*") if p.is_file()}
    stale = sorted(p for p in want if not p.exists() or p.read_text() != want[p])
    extra = sorted(have - set(want))
    if "--check" in argv:
        for p in stale + extra:
            print(f"stale: {p.relative_to(HERE.parent)}")
        return 1 if stale or extra else 0
    for p in extra:
        p.unlink()
    for p, text in want.items():
        p.parent.mkdir(exist_ok=True)
        p.write_text(text)
    print(f"{len(want)} examples written, {len(extra)} removed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
