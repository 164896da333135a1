"""The package layout shows the architecture, and the imports keep to it.

Groups, from the machine facts up to the command line; a group may import only the groups to
its right in LAYERS and the shared base modules, whether at the top of a module or inside a
function. No two modules import each other at load time.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "jobgen"
BASE = {"errors", "cache", "registry", "textfile", "shell", "frozen", "controlchars", "__init__",
        "__main__"}
MAX_FUNCTION_LINES = 80
# group -> the groups it may import (besides the base modules)
ALLOWED = {
    "profiles": set(),
    "plan": {"profiles"},
    "text": {"plan", "profiles"},
    "request": {"plan", "profiles"},
    "review": {"request", "text", "plan", "profiles"},
    "study": {"request", "text", "plan", "profiles"},
    "cli": {"study", "review", "request", "text", "plan", "profiles"},
}


def _modules() -> dict[str, Path]:
    out = {}
    for path in PKG.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def _imports(name: str, path: Path, modules: dict[str, Path], top_only: bool) -> set[str]:
    """The jobgen modules `name` imports (at load time only, with top_only)."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    tree = ast.parse(path.read_text())
    nodes = tree.body if top_only else list(ast.walk(tree))
    found = set()
    for node in nodes:
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found |= {t for t in (target, *(f"{target}.{a.name}" for a in node.names))
                      if t in modules}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name in modules}
    found.discard(name)
    return found


def _group(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 else "base"


def test_every_module_is_in_a_group_or_the_shared_base():
    for name in _modules():
        parts = name.split(".")
        if len(parts) == 2:
            assert parts[1] in BASE | set(ALLOWED), f"{name}: put it in a group"
        elif len(parts) > 2:
            assert parts[1] in ALLOWED, f"{name}: unknown group {parts[1]}"


def test_groups_import_only_the_groups_below_them():
    modules = _modules()
    wrong = []
    for name, path in modules.items():
        group = _group(name)
        for target in _imports(name, path, modules, top_only=False):
            tgroup = _group(target)
            if group == "base":
                ok = tgroup == "base" or name == "jobgen.__main__" and tgroup == "cli"
                # the escaping layer's records and errors' one-line messages stay in the base
            else:
                ok = tgroup in ("base", group) or tgroup in ALLOWED[group]
            if not ok:
                wrong.append(f"{name} -> {target}")
    assert not wrong, wrong


def test_no_two_modules_import_each_other_at_load_time():
    modules = _modules()
    graph = {n: _imports(n, p, modules, top_only=True) for n, p in modules.items()}
    cycles = []

    def visit(node: str, stack: list[str], done: set[str]) -> None:
        for nxt in graph[node]:
            if nxt in stack:
                cycles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in done:
                visit(nxt, [*stack, nxt], done)
        done.add(node)

    done: set[str] = set()
    for name in graph:
        if name not in done:
            visit(name, [name], done)
    assert not cycles, cycles


def test_no_two_modules_import_each_other_even_inside_a_function():
    """A function-level import hides a circle from the load-time check; none may exist."""
    modules = _modules()
    graph = {n: _imports(n, p, modules, top_only=False) for n, p in modules.items()}
    mutual = sorted({tuple(sorted((a, b))) for a, targets in graph.items() for b in targets
                     if a in graph.get(b, set())})
    assert not mutual, mutual


def _long_functions(folder: Path) -> list[str]:
    out = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    where = f"{path.relative_to(ROOT)}:{node.lineno}"
                    out.append(f"{where} {node.name} ({length} lines)")
    return out


def test_no_function_in_plan_or_profiles_is_over_80_lines():
    """build_plan and check_profile decide in named steps, not in one long body."""
    long = _long_functions(PKG / "plan") + _long_functions(PKG / "profiles")
    assert not long, long


def test_the_architecture_page_names_every_group():
    section = (ROOT / "docs" / "architecture.md").read_text()
    for group in ALLOWED:
        assert f"`jobgen/{group}/`" in section, group


def _package_graph(package: Path) -> dict[str, set[str]]:
    """Module -> the modules of the same package it imports, at any level of the code."""
    modules = {}
    for path in package.rglob("*.py"):
        parts = path.relative_to(package.parent).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return {n: _imports(n, p, modules, top_only=False) for n, p in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_circles_in_workloads_or_jobgen():
    """Not even through an import inside a function: a circle hides there from the load-time
    check (runtime/loop -> runtime/cli -> runtime/train -> runtime/loop was one)."""
    for package in (ROOT / "workloads", PKG):
        cycles = _cycles(_package_graph(package))
        assert not cycles, cycles
