"""Rules on storage: the filesystems a PBS job must name, and node-local storage (burst
buffers) that exists only when the job asks for it."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...profiles.model import Profile
from .context import Context
from .core import Hit, rule

_FS = "the site profile's scheduler.filesystems"


def _fs_facts(p: Profile) -> list[str]:
    fs = p.scheduler.filesystems
    return [f"valid: {':'.join(fs.valid)}, default {':'.join(fs.default)} ({fs.source})"] \
        if fs else ["no filesystems resource"]


@rule("ALCF002", "filesystems-required", topic="storage", severity="error",
      scope="whole PBS batch scripts on sites that require -l filesystems", source=_FS,
      fix="add `#PBS -l filesystems=...`", facts=_fs_facts,
      summary="no -l filesystems where qsub requires it")
def _filesystems(ctx: Context) -> Iterator[Hit]:
    fs = ctx.profile.scheduler.filesystems
    if ctx.dialect != "pbs" or fs is None or not ctx.whole or ctx.find("-l filesystems"):
        return
    yield Hit(ctx.first_line, f"{ctx.profile.name} refuses jobs without `-l filesystems` "
              "(\"Resource: filesystems is required\")",
              f"add `#PBS -l filesystems={':'.join(fs.default)}`", fs.source)


@rule("ALCF003", "unknown-filesystem", topic="storage", severity="error",
      scope="PBS scripts naming filesystems", source=_FS, facts=_fs_facts,
      fix="use the site's filesystems joined by ':'",
      summary="a filesystem the site does not have (or no longer has)")
def _unknown_fs(ctx: Context) -> Iterator[Hit]:
    fs = ctx.profile.scheduler.filesystems
    if ctx.dialect != "pbs" or fs is None:
        return
    for item in ctx.find("-l filesystems"):
        if not ctx.value_ok(item):
            continue
        bad = [x for x in re.split(r"[:,]", item.value) if x and x not in fs.valid]
        if bad:
            yield Hit(item.line, f"filesystem {', '.join(bad)} does not exist on "
                      f"{ctx.profile.name}: qsub refuses the job",
                      f"use any of {', '.join(fs.valid)} joined by ':'", fs.source)


def _local_facts(p: Profile) -> list[str]:
    local = p.node.local_storage
    if local is None:
        return ["no node-local storage"]
    flag = f", exists with the allocation flag {local.alloc_flag}" if local.alloc_flag else ""
    return [f"{local.path}{flag}: {local.why} ({local.source})"]


@rule("STORE001", "burst-buffer-without-flag", topic="storage", severity="error",
      scope="whole batch scripts that use node-local storage which needs an allocation flag",
      source="the site profile's node.local_storage (path and alloc_flag)", facts=_local_facts,
      fix="add the allocation flag to the job's directives",
      summary="a burst-buffer path used without the flag that creates it")
def _burst_buffer(ctx: Context) -> Iterator[Hit]:
    local = ctx.profile.node.local_storage
    if local is None or not local.alloc_flag or not ctx.whole:
        return
    root = local.path.split("$", 1)[0].rstrip("/")
    flags = " ".join(i.value for i in ctx.find("-alloc_flags")).replace('"', " ").split()
    if local.alloc_flag.lower() in (f.lower() for f in flags):
        return
    for number, text in enumerate(ctx.script.lines, 1):
        if not text.lstrip().startswith("#") and re.search(rf"{re.escape(root)}(/|\b)", text):
            yield Hit(number, f"{root} is the node-local burst buffer, which exists only when "
                      f"the job asks for it with -alloc_flags {local.alloc_flag}: {local.why}",
                      f"add {local.alloc_flag} to the job's -alloc_flags", local.source)
            return
