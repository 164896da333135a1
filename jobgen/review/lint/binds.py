"""A container started without the filesystems its paths name.

Singularity/Apptainer mount a few host paths by themselves ($HOME, /tmp, the working
directory); a site's project filesystems are visible in the container only when bound into it
(-B/--bind, SINGULARITY_BIND/APPTAINER_BIND, or a bindings module that sets them). A program
given a path there cannot open it. The site profile's container_facts.filesystem_binds say
which prefixes and which modules (LUMI: /project, /scratch, /flash, /appl).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...profiles.model import Profile
from .context import Context, LaunchView
from .core import Hit, rule
from .shelltext import _HARMLESS_SOURCE

_BIND_VARIABLES = ("SINGULARITY_BIND", "APPTAINER_BIND", "SINGULARITY_BINDPATH",
                   "APPTAINER_BINDPATH")
_VAR = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?")


def _facts(p: Profile) -> list[str]:
    c = p.container_facts
    f = c.filesystem_binds if c else None
    if f is None:
        return ["no filesystem binds known"]
    return [f"not in a container unless bound: {', '.join(f.prefixes)}; bound by the modules "
            f"{', '.join(f.modules) or '(none)'}: {f.why} ({f.source})"]


def _expand(word: str, variables: dict[str, str]) -> str:
    """The script's literal variables substituted ($FLASH_OUT=/flash/p/run_$SLURM_JOB_ID: the
    value as written; a variable it does not set stays as it is)."""
    for _ in range(3):
        new = _VAR.sub(lambda m: variables.get(m.group(1), m.group(0)), word)
        if new == word:
            break
        word = new
    return word


def _paths(words: list[str], prefixes: list[str]) -> list[str]:
    """Paths under the prefixes that the words name (a word, or the parts of NAME=a:b,c)."""
    out = []
    for w in words:
        for part in re.split(r"[=:,\s]", w.strip("\"'")):
            if any(part == p or part.startswith(p.rstrip("/") + "/") for p in prefixes):
                out.append(part)
    return out


def _covered(path: str, bound: list[str]) -> bool:
    return any(path == b or path.startswith(b.rstrip("/") + "/") for b in bound)


def _binds(ctx: Context, launch: LaunchView) -> list[str] | None:
    """The host paths bound into the container (-B, --bind, the bind variables), the script's
    variables substituted; None when one of them is computed at run time (lint cannot see)."""
    c = launch.container
    assert c is not None
    out = []
    for raw in c.binds() + [b for name in _BIND_VARIABLES
                            for b in launch.env.get(name, "").split(",") if b]:
        b = _expand(raw.strip("\"'").split(":", 1)[0], ctx.script.variables)
        if "$" in b or "`" in b:
            return None
        out.append(b)
    return out


def _sourced(ctx: Context, before: int) -> str | None:
    """A file the batch shell sources before the launch that may export the bind variables
    (an environment's activate script apart)."""
    for line, words in ctx.script.commands:
        if line < before and words[0] in ("source", ".") and len(words) > 1 and \
                not _HARMLESS_SOURCE.search(words[1]):
            return words[1]
    return None


def _working_directories(ctx: Context, before: int) -> list[str]:
    """Directories the batch shell changes to before the launch (the runtime mounts the
    working directory)."""
    out = []
    for line, words in ctx.script.commands:
        if line < before and words and words[0] in ("cd", "pushd") and len(words) > 1:
            out.append(_expand(words[1].strip("\"'"), ctx.script.variables))
    return out


@rule("CONT005", "filesystem-not-bound", topic="containers", severity="error",
      scope="container launches (singularity/apptainer exec, run, shell) whose program or "
      "--env values name a path on a filesystem the site's containers see only when bound "
      "(LUMI: /project, /scratch, /flash, /appl), with no -B/--bind or SINGULARITY_BIND "
      "covering it, no bindings module that binds it loaded (nor a module that sets the bind "
      "variable itself: LUMI's EasyBuild container modules), and not under the directory "
      "the job works in (which the runtime mounts); binds computed at run time are not "
      "judged", source="the site profile's container_facts.filesystem_binds", facts=_facts,
      fix="bind the directories into the container: -B /scratch/<project>,/project/<project> "
      "(the full project paths: they are symlinks), or load the site's bindings module",
      summary="a container started without the filesystems its paths are on: the program "
      "cannot see them", lowers_to=("warning",),
      lowered="where a file sourced before the launch may set SINGULARITY_BIND (lint cannot "
      "read it)")
def _not_bound(ctx: Context) -> Iterator[Hit]:
    facts = ctx.profile.container_facts
    fs = facts.filesystem_binds if facts else None
    if fs is None:
        return
    for launch in ctx.launches:
        c = launch.container
        if c is None or c.verb not in ("exec", "run", "shell"):
            continue
        if any(ctx.loads(m, launch.at) for m in fs.modules) or ctx.binding_module(launch.at):
            continue
        bound = _binds(ctx, launch)
        if bound is None:
            continue
        words = [_expand(w, ctx.script.variables) for w in launch.program]
        env_values = [_expand(c.flags[i + 1], ctx.script.variables)
                      for i, f in enumerate(c.flags[:-1]) if f in ("--env", "-e")]
        cwd = _working_directories(ctx, launch.at)
        missing = []
        for path in _paths(words + env_values, list(fs.prefixes)):
            if path == c.image or _covered(path, bound) or _covered(path, cwd):
                continue
            if path not in missing:
                missing.append(path)
        if missing:
            roots = sorted({"/".join(p.split("/")[:3]) for p in missing})
            shown = ", ".join(missing[:3]) + (" ..." if len(missing) > 3 else "")
            sourced = _sourced(ctx, launch.at)
            unless = f" (unless {sourced}, sourced before it, binds them)" if sourced else ""
            yield Hit(launch.line, f"`{c.runtime} {c.verb}` without binding {', '.join(roots)}"
                      f"{unless}: the program is given {shown}, which the container cannot "
                      f"see: {fs.why}", f"add -B {','.join(roots)} to `{c.runtime} {c.verb}`, or "
                      f"module load {fs.modules[0]}" if fs.modules else
                      f"add -B {','.join(roots)}", fs.source,
                      "warning" if sourced else None)
