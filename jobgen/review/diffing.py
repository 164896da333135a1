"""`jobgen diff`: two sites, two profile versions, or two scripts, compared by meaning.

- two sites (`--site aurora --site sunspot`): the same request planned on each;
- two profile files or directories (a profile before and after an edit): every profile in
  both, planned with the same request, plus the profile facts that changed;
- two scripts (a rendered one and a hand-edited copy): both read back by `scriptparse`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..errors import JobgenError
from ..frozen import replace
from ..plan.build import Request, build_plan
from ..profiles.load import (
    PROFILE_SUFFIXES,
    LoadedProfile,
    ProfileFile,
    load_profile,
    load_profile_file,
)
from ..request.parse import with_placeholders
from .scriptparse import parse_file
from .semantic import Change, Semantic, compare, from_plan, from_script


@dataclass(frozen=True)
class Comparison:
    old_label: str
    new_label: str
    changes: list[Change]

    def as_dict(self) -> dict[str, Any]:
        return {"old": self.old_label, "new": self.new_label,
                "equal": not self.changes, "changes": [c.as_dict() for c in self.changes]}


def plan_semantic(loaded: LoadedProfile, req: Request) -> Semantic:
    req = replace(req, site=loaded.profile.name)
    req, _ = with_placeholders(req, loaded)
    try:
        plan = build_plan(loaded, req)
    except JobgenError as exc:
        return {"plan": {"error": str(exc)}}
    return from_plan(plan)


def diff_sites(sites: list[str], req: Request) -> list[Comparison]:
    if len(sites) != 2:
        raise JobgenError("give two sites to compare: --site A --site B")
    a, b = (load_profile(s) for s in sites)
    return [Comparison(sites[0], sites[1], compare(plan_semantic(a, req), plan_semantic(b, req)))]


def diff_scripts(old: Path, new: Path) -> list[Comparison]:
    a, b = parse_file(old), parse_file(new)
    return [Comparison(str(old), str(new), compare(from_script(a), from_script(b)))]


@contextmanager
def _first_on_path(directory: Path) -> Iterator[None]:
    """Resolve `extends` next to the profiles under review before anything else."""
    before = os.environ.get("JOBGEN_PROFILE_PATH")
    os.environ["JOBGEN_PROFILE_PATH"] = os.pathsep.join(
        x for x in (str(directory), before) if x)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("JOBGEN_PROFILE_PATH", None)
        else:
            os.environ["JOBGEN_PROFILE_PATH"] = before


def _load_path(path: Path) -> LoadedProfile:
    with _first_on_path(path.parent):
        return load_profile_file(ProfileFile(path.stem, path, "file"), use_cache=False)


def _flatten(data: Any, prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    if isinstance(data, dict):
        for k, v in data.items():
            out.update(_flatten(v, f"{prefix}.{k}" if prefix else str(k)))
    elif isinstance(data, list) and data and all(isinstance(x, dict) for x in data):
        for i, item in enumerate(data):
            label = next((str(item[k]) for k in ("name", "index", "id", "value", "ranks_per_node")
                          if k in item and item[k] is not None), str(i))
            out.update(_flatten(item, f"{prefix}[{label}]"))
    elif data is None or data == [] or data == {}:
        pass  # unset: no value to compare (a key set on one side shows as added or removed)
    else:
        out[prefix] = repr(data) if not isinstance(data, str) else data
    return out


def _whole_items(mine: dict[str, str], other: dict[str, str]) -> list[str]:
    """The list items (`queues[debug]`) present on one side only: one line each, not one per
    field."""
    def under(key: str, p: str) -> bool:
        return key.startswith(p) and (p.endswith("]") or key[len(p):len(p) + 1] in (".", "["))

    prefixes = {k[:i + 1] if c == "]" else k[:i] for k in mine for i, c in enumerate(k)
                if c in "].["}
    alone = [p for p in prefixes if p and p[-1] != "." and sum(under(k, p) for k in mine) > 1
             and not any(under(k, p) for k in other)]
    return sorted(p for p in alone if not any(q != p and under(p, q) for q in alone))


def _gist(flat: dict[str, str], item: str) -> str:
    fields = [(k[len(item):].lstrip("."), v) for k, v in flat.items()
              if k.startswith(item) and k[len(item):len(item) + 1] in (".", "[")
              and k.rsplit(".", 1)[-1] not in ("why", "source", "unconfirmed")]
    text = ", ".join(f"{k}={v}" for k, v in fields[:6])
    return text if len(text) <= 160 else text[:157] + "..."


def _profile_changes(a: LoadedProfile, b: LoadedProfile) -> list[Change]:
    fa, fb = _flatten(asdict(a.profile)), _flatten(asdict(b.profile))
    gone, new = _whole_items(fa, fb), _whole_items(fb, fa)
    whole = tuple(gone + new)

    def inside(k: str) -> bool:
        return any(k.startswith(p) and (p.endswith("]") or k[len(p):len(p) + 1] in (".", "["))
                   for p in whole)

    out = [Change("profile", k, fa[k], fb.get(k)) for k in fa
           if fa[k] != fb.get(k) and not inside(k)]
    out += [Change("profile", k, None, fb[k]) for k in fb if k not in fa and not inside(k)]
    out += [Change("profile", item, _gist(fa, item), None) for item in gone]
    out += [Change("profile", item, None, _gist(fb, item)) for item in new]
    return out


def _profile_files(path: Path, site: str | None) -> dict[str, Path]:
    if path.is_dir():
        files = {p.stem: p for p in sorted(path.iterdir())
                 if p.suffix in PROFILE_SUFFIXES and p.is_file()}
    elif path.is_file():
        files = {path.stem: path}
    else:
        raise JobgenError(f"{path}: no such profile file or directory")
    if site is not None:
        files = {k: v for k, v in files.items() if k == site}
    return files


def diff_profiles(old: Path, new: Path, req: Request, site: str | None) -> list[Comparison]:
    a_files, b_files = _profile_files(old, site), _profile_files(new, site)
    out: list[Comparison] = []
    if old.is_file() and new.is_file():  # one profile before and after, whatever the names
        pairs = [(old, new)]
    elif old.is_dir() and new.is_dir():
        pairs = [(a_files[n], b_files[n]) for n in sorted(set(a_files) & set(b_files))]
        for name in sorted(set(a_files) - set(b_files)):
            out.append(Comparison(str(a_files[name]), str(new),
                                  [Change("profile", f"{name} (removed)", "", None)]))
        for name in sorted(set(b_files) - set(a_files)):
            out.append(Comparison(str(old), str(b_files[name]),
                                  [Change("profile", f"{name} (added)", None, "")]))
    else:
        raise JobgenError("compare a profile file with a profile file, or a directory with a "
                          "directory")
    if not pairs and not out:
        raise JobgenError(f"no profile to compare in {old} and {new}")
    for pa, pb in pairs:
        la, lb = _load_path(pa), _load_path(pb)
        changes = _profile_changes(la, lb)
        changes += compare(plan_semantic(la, req), plan_semantic(lb, req))
        out.append(Comparison(str(pa), str(pb), changes))
    return out


def is_profile_path(path: Path) -> bool:
    return path.is_dir() or path.suffix in PROFILE_SUFFIXES
