"""The wheel ships every package: the explicit list in pyproject.toml must be whole."""

from __future__ import annotations

import sys

import pytest
from helpers import ROOT

tomllib = pytest.importorskip("tomllib") if sys.version_info >= (3, 11) else None


@pytest.mark.skipif(tomllib is None, reason="tomllib needs Python 3.11")
def test_pyproject_lists_every_package():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    listed = set(data["tool"]["setuptools"]["packages"])
    found = {"jobgen", "jobgen.site_profiles", "jobgen.templates"}
    for top in ("workloads", "jobgen"):
        found |= {
            ".".join(p.parent.relative_to(ROOT).parts)
            for p in (ROOT / top).rglob("__init__.py")
            if "__pycache__" not in p.parts
        }
    assert listed == found


# Every third-party module the bundled apps import, with the distribution that provides it and
# the part of pyproject.toml that must declare it ("dependencies" or an extra). A module a site
# provides and pip cannot install as a plain dependency is in SITE_PROVIDED with its reason.
IMPORTS = {
    "torch": ("torch", "workloads"), "numpy": ("numpy", "workloads"),
    "h5py": ("h5py", "workloads"), "PIL": ("pillow", "workloads"),
    "yaml": ("PyYAML", "dependencies"),
    "tensorflow": ("tensorflow", "tf"), "horovod": ("horovod", "tf"),
    "intel_extension_for_pytorch": ("intel-extension-for-pytorch", "xpu"),
}
SITE_PROVIDED = {
    "intel_extension_for_tensorflow": "Aurora's tensorflow module; imported only when found",
    "oneccl_bindings_for_pytorch": "Aurora's frameworks module (before xccl); a guarded import",
    "tf_keras": "pip install --no-deps tf-keras (with its dependencies it pulls the GPU "
                "tensorflow wheel: workloads/tfruntime/backend.py); imported only when found",
}


def _third_party_imports() -> dict[str, set[str]]:
    import ast

    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / "workloads").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0
                     and node.module else [])
            for name in names:
                top = name.split(".")[0]
                if top not in sys.stdlib_module_names and top != "workloads":
                    found.setdefault(top, set()).add(str(path.relative_to(ROOT)))
    return found


def _declared(data: dict, where: str) -> set[str]:
    import re

    project = data["project"]
    reqs = project["dependencies"] if where == "dependencies" else \
        project["optional-dependencies"][where]
    return {re.split(r"[<>=!~;\[ ]", r, maxsplit=1)[0].lower() for r in reqs}


@pytest.mark.skipif(tomllib is None, reason="tomllib needs Python 3.11")
def test_every_import_of_the_workloads_is_declared_where_pip_installs_it():
    """Issue 30 D4: resnet50 imports PIL, which the workloads extra did not declare, so
    `jobgen make-data --app all` died after a README install. Every third-party import of
    workloads/ must be mapped here, and its distribution declared in pyproject.toml."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    found = _third_party_imports()
    unmapped = {m: sorted(p) for m, p in found.items() if m not in IMPORTS | SITE_PROVIDED}
    assert not unmapped, f"map these imports to their distribution and extra: {unmapped}"
    missing = {m: f"{dist} in {where}" for m, (dist, where) in IMPORTS.items()
               if m in found and dist.lower() not in _declared(data, where)}
    assert not missing, f"declare them in pyproject.toml: {missing}"
    assert set(found) >= set(IMPORTS), "a mapped module no app imports any more: drop it"


def test_make_data_checks_for_every_module_of_the_workloads_extra():
    """make-data says `pip install 'jobgen[workloads]'` (exit 2) before it runs a writer: it
    looks for exactly the modules of the workloads extra."""
    from jobgen.cli.makedata import EXTRA

    assert set(EXTRA) == {m for m, (_, where) in IMPORTS.items() if where == "workloads"}
