"""Finding, merging, validating and caching site profiles.

Search path, first match wins: each directory in ``JOBGEN_PROFILE_PATH`` (os.pathsep
separated), then ``$XDG_CONFIG_HOME/jobgen/profiles`` (default ``~/.config/jobgen/profiles``),
then the profiles bundled with jobgen. A user profile with a bundled name overrides it and
says so (`jobgen sites` shows the layer and what it shadows). ``extends: NAME`` merges the
named profile under this one (mappings merge key by key, lists are replaced whole); a profile
that extends its own name extends the next one of that name down the search path, which is
how a user tweaks a bundled profile without copying it.

Validation (pydantic, strict) runs only when a profile's content changes: the merged,
validated profile is cached as JSON keyed by the content hashes of every file in its chain,
so the render path neither imports pydantic nor parses YAML on a warm cache.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import types
from pathlib import Path

from .. import __version__, cache
from ..errors import JobgenError
from ..frozen import Frozen
from ..shell import CONTROL, comment
from ..textfile import read_bytes

TYPE_CHECKING = False  # typing costs a few ms to import; annotations only need it here
if TYPE_CHECKING:  # imported where a profile is validated; warm renders read records
    from typing import Any

    from .model import Profile

PROFILE_SUFFIXES = (".yaml", ".yml")


class ProfileFile(Frozen):
    """Where one profile file was found on the search path."""

    name: str
    path: Path
    layer: str  # "JOBGEN_PROFILE_PATH", "user config" or "bundled"
    shadows: tuple[Path, ...] = ()


class LoadedProfile(Frozen):
    profile: Profile
    chain: tuple[ProfileFile, ...]  # this profile first, then what it extends
    digest: str  # sha256 of the merged, validated profile (canonical JSON)

    @property
    def file(self) -> ProfileFile:
        return self.chain[0]


def bundled_dir() -> Path:
    here = Path(__file__).resolve().parent.parent  # jobgen/
    installed = here / "site_profiles"
    return installed if installed.is_dir() else here.parent / "site_profiles"


def _expand_user(entry: str) -> Path:
    """`~` and `~user` as the shell expands them; an unknown user is a one-line error."""
    try:
        return Path(entry).expanduser()
    except RuntimeError:  # no such user, or no home directory to expand `~` to
        raise JobgenError(f"JOBGEN_PROFILE_PATH: cannot expand {entry!r} (no such user or no "
                          "home directory): give the directory as an absolute path") from None


def search_path() -> list[tuple[str, Path]]:
    dirs: list[tuple[str, Path]] = []
    for entry in os.environ.get("JOBGEN_PROFILE_PATH", "").split(os.pathsep):
        if entry:
            dirs.append(("JOBGEN_PROFILE_PATH", _expand_user(entry)))
    xdg = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    dirs.append(("user config", Path(xdg) / "jobgen" / "profiles"))
    dirs.append(("bundled", bundled_dir()))
    return dirs


def _candidates() -> dict[str, list[ProfileFile]]:
    """Every profile file on the search path, per name, in search order."""
    found: dict[str, list[ProfileFile]] = {}
    for layer, directory in search_path():
        if not directory.is_dir():
            continue
        for path in sorted(directory.iterdir()):
            if path.suffix in PROFILE_SUFFIXES and path.is_file():
                found.setdefault(path.stem, []).append(ProfileFile(path.stem, path, layer))
    return found


def discover() -> dict[str, ProfileFile]:
    """The effective profile per name, with the files it shadows."""
    result = {}
    for name, files in sorted(_candidates().items()):
        first = files[0]
        result[name] = ProfileFile(name, first.path, first.layer, tuple(f.path for f in files[1:]))
    return result


def site_names() -> list[str]:
    return sorted(discover())


def unknown_site(name: str, names: list[str]) -> JobgenError:
    import difflib

    close = difflib.get_close_matches(name, names, n=3, cutoff=0.5)
    hint = f" Did you mean {', '.join(close)}?" if close else ""
    return JobgenError(
        f"unknown site {name!r}.{hint} Known sites: {', '.join(names)} "
        "(add your own with JOBGEN_PROFILE_PATH)."
    )


# ---------------------------------------------------------------- chain resolution
def _resolve_chain(start: ProfileFile, read_extends) -> list[ProfileFile]:
    """The profile and every profile it extends, in order; detects cycles."""
    candidates = _candidates()
    chain = [start]
    seen = {start.path}
    current = start
    while True:
        parent_name = read_extends(current)
        if parent_name is None:
            return chain
        files = candidates.get(parent_name, [])
        if parent_name == current.name:  # extends the next profile of the same name down
            below = [f for f in files if f.path not in seen]
            parent = below[0] if below else None
        else:
            parent = files[0] if files else None
        if parent is None:
            raise JobgenError(
                f"{current.path}: extends: no profile named {parent_name!r} on the search path"
            )
        if parent.path in seen:
            cycle = " -> ".join([str(f.path.name) for f in chain] + [parent.path.name])
            raise JobgenError(f"{start.path}: extends: cycle {cycle}")
        seen.add(parent.path)
        chain.append(parent)
        current = parent


def _read_yaml(path: Path, blob: bytes) -> dict[str, Any]:
    import yaml

    from .yamlload import YAMLProblem, load

    try:
        data = load(blob.decode("utf-8"))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        kind = "" if isinstance(exc, YAMLProblem) else "YAML syntax error: "
        raise JobgenError(f"{path}{where}: {kind}{problem}") from None
    except UnicodeDecodeError as exc:
        raise JobgenError(f"{path}: not UTF-8 text ({exc.reason})") from None
    if not isinstance(data, dict):
        raise JobgenError(f"{path}: a profile must be a YAML mapping of keys to values")
    return data


def _read_bytes(path: Path) -> bytes:
    """A profile file's bytes: a regular file of sane size with a printable name."""
    if CONTROL.search(path.name):
        raise JobgenError(f"{comment(str(path))}: a profile file name may not contain "
                          "control characters (a line break or an escape): rename the file")
    return read_bytes(path, "profile")


def read_profile_data(path: Path) -> dict[str, Any]:
    """One profile file as written (before `extends`), for tools that attribute values."""
    return _read_yaml(path, _read_bytes(path))


def deep_merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    """Mappings merge key by key; any other value (lists included) replaces the base's."""
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = deep_merge(merged[key], value)
        else:
            merged[key] = value
    return merged


# ---------------------------------------------------------------- validation
def _field_path(loc: tuple[Any, ...], data: Any) -> str:
    """('scheduler', 'queues', 0, 'max_nodes') -> 'scheduler.queues[debug].max_nodes'."""
    out = ""
    node = data
    for part in loc:
        if isinstance(part, int):
            label = part
            if isinstance(node, list) and part < len(node) and isinstance(node[part], dict):
                label = node[part].get("name", part)
            out += f"[{label}]"
            node = node[part] if isinstance(node, list) and part < len(node) else None
        else:
            out += f".{part}" if out else str(part)
            node = node.get(part) if isinstance(node, dict) else None
    return out


def _pydantic_message(err: dict[str, Any]) -> tuple[tuple[Any, ...], str]:
    loc = tuple(p for p in err["loc"] if not (isinstance(p, str) and p.startswith("function-")))
    kind = err["type"]
    if kind == "unexpected_keyword_argument":
        return loc, "unknown key (check the spelling; `jobgen schema` lists the allowed keys)"
    if kind in ("missing_argument", "missing"):
        return loc, "required key is missing"
    if kind == "literal_error":
        return loc, err["msg"].replace("Input should be", "must be")
    return loc, err["msg"][0].lower() + err["msg"][1:]


_ADAPTER = None


def _adapter():
    global _ADAPTER
    if _ADAPTER is None:
        from pydantic import TypeAdapter

        from .model import Profile

        _ADAPTER = TypeAdapter(Profile)
    return _ADAPTER


def _schema_errors(data: dict[str, Any]) -> list[tuple[tuple[Any, ...], str]]:
    from pydantic import ValidationError

    try:
        _adapter().validate_python(data)
    except ValidationError as exc:
        return [_pydantic_message(err) for err in exc.errors()]
    return []


def _at(raw: Any, loc: tuple[Any, ...]) -> tuple[bool, Any]:
    """(whether one file's own data holds `loc`, the value there)."""
    node = raw
    for part in loc:
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and part < len(node):
            node = node[part]
        else:
            return False, None
    return True, node


def _owner(chain: FileChain, loc: tuple[Any, ...]) -> Path:
    """The file that wrote the merged value at `loc`: mappings merge key by key, so follow the
    path down through the files that hold it; a list or a value belongs whole to the most
    derived file that holds it; a missing key to the mapping's most derived file."""
    holders = list(zip(chain.files, chain.raws, strict=True))
    for n in range(1, len(loc) + 1):
        found = [(pf, raw) for pf, raw in holders if _at(raw, loc[:n])[0]]
        if not found:
            break
        holders = found
        if not isinstance(_at(holders[0][1], loc[:n])[1], dict):
            break
    return holders[0][0].path


def chain_problems(chain: FileChain) -> list[str]:
    """Every schema problem of a merged profile as 'file: field: problem', naming the file of
    the chain that wrote the value (a typo in a user profile that `extends` a bundled one is
    that user file's, not the bundled profile's that extends it in turn)."""
    out = []
    for loc, msg in _schema_errors(chain.merged):
        out.append(f"{_owner(chain, loc)}: {_field_path(loc, chain.merged)}: {msg}")
    return out


def from_validated(data: dict[str, Any]) -> Profile:
    return _adapter().validate_python(data)


def json_schema() -> dict[str, Any]:
    from pydantic import TypeAdapter

    from .model import Profile

    schema = TypeAdapter(Profile).json_schema()
    schema["title"] = "jobgen site profile"
    return schema


# ---------------------------------------------------------------- cache
_CODE: str | None = None


def _code_fingerprint() -> str:
    """The model and checks code: a cached profile is only valid for the code that made it."""
    global _CODE
    if _CODE is None:
        here = Path(__file__).resolve().parent
        h = hashlib.sha256(__version__.encode())
        for name in ("model.py", "checks.py", "load.py", "records.py", "cpus.py", "walltime.py",
                     "frameworks.py"):
            h.update((here / name).read_bytes())
        _CODE = h.hexdigest()
    return _CODE


def _cache_key(chain: list[ProfileFile], blobs: list[bytes]) -> str:
    h = hashlib.sha256(_code_fingerprint().encode())
    for pf, blob in zip(chain, blobs, strict=True):
        h.update(str(pf.path).encode() + b"\0" + cache.sha256(blob).encode())
    return h.hexdigest()


def _entry_name(start: ProfileFile, head: bytes) -> str:
    return f"profile-{start.name}-{cache.sha256(head)[:32]}.json"


# The cache entry's layout: 2 keeps the profile's mappings in the YAML's order (entries of 1
# were written with sorted keys, so a warm load ordered them otherwise than a cold one)
_CACHE_FORMAT = 2


def _read_cached(start: ProfileFile, light: bool = False) -> LoadedProfile | None:
    """The cached profile if it is exactly what validating the files would give, else None.

    The entry must name the same version, chain and file contents (its key) and hold the
    profile whose digest is the one stored. Rebuilt into the model, it passes the semantic
    checks again; read as records (`light`, a warm render), its strings are checked for control
    characters, and the render's escaping layer and structure check guard the rest. An edited
    or damaged entry is rebuilt from the source rather than trusted.
    """
    try:
        head = _read_bytes(start.path)
        entry = cache.read(_entry_name(start, head))
        if not isinstance(entry, dict) or entry.get("version") != __version__ or \
                entry.get("format") != _CACHE_FORMAT:
            return None
        # The chain must resolve to the same files with the same bytes.
        chain = _resolve_chain(start, lambda pf: entry["extends"].get(str(pf.path)))
        blobs = [head] + [_read_bytes(pf.path) for pf in chain[1:]]
        if entry.get("key") != _cache_key(chain, blobs):
            return None
        data = entry["profile"]
        if light:
            from .records import profile_record

            rendered = {k: v for k, v in data.items() if k not in LINT_ONLY}
            canonical = json.dumps(rendered, sort_keys=True, separators=(",", ":"))
            if cache.sha256(canonical.encode()) != entry["digest"] or _has_control(data):
                return None
            profile = profile_record(data)
        else:
            from .model import Profile

            profile = from_dict(Profile, data)
            if digest_of(profile) != entry["digest"] or _lint_digest(data) != \
                    entry["lint_digest"] or semantic_problems(profile, start.path):
                return None
    except Exception:  # an entry is untrusted data: any failure at all means rebuild
        return None
    return LoadedProfile(profile, tuple(chain), entry["digest"])


def _write_cache(loaded: LoadedProfile, extends: dict[str, str | None], key: str,
                 head: bytes) -> None:
    import dataclasses  # the model's own; a warm render never gets here

    entry = {
        "version": __version__,
        "format": _CACHE_FORMAT,
        "key": key,
        "extends": extends,
        "digest": loaded.digest,
        "profile": dataclasses.asdict(loaded.profile),
    }
    entry["lint_digest"] = _lint_digest(entry["profile"])
    cache.write(_entry_name(loaded.file, head), entry)


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    import typing

    return typing.get_type_hints(cls)


def from_dict(cls: Any, data: Any) -> Any:
    """Rebuild model dataclasses from an already validated dict (no pydantic on this path)."""
    import dataclasses  # the model's own; a warm render reads records instead
    import typing

    if dataclasses.is_dataclass(cls):
        hints = _hints(cls)
        kwargs = {}
        for f in dataclasses.fields(cls):
            if f.name in data:
                kwargs[f.name] = from_dict(hints[f.name], data[f.name])
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise KeyError(f.name)
        return cls(**kwargs)
    origin = typing.get_origin(cls)
    if origin is typing.Annotated:
        return from_dict(typing.get_args(cls)[0], data)
    if origin in (typing.Union, types.UnionType):
        if data is None:
            return None
        options = [a for a in typing.get_args(cls) if a is not type(None)]
        return from_dict(options[0], data) if len(options) == 1 else data
    if origin is list:
        (item,) = typing.get_args(cls)
        return [from_dict(item, x) for x in data]
    if origin is dict:
        _, value = typing.get_args(cls)
        return {k: from_dict(value, v) for k, v in data.items()}
    return data


def _has_control(data: Any) -> bool:
    """A cached profile dict holding a control character anywhere (keys too)."""
    if isinstance(data, str):
        return bool(CONTROL.search(data))
    if isinstance(data, dict):
        return any(_has_control(k) or _has_control(v) for k, v in data.items())
    if isinstance(data, list):
        return any(_has_control(v) for v in data)
    return False


# Profile fields only `jobgen lint` reads (model.py, "facts lint reads").
LINT_ONLY = frozenset({"partition_families", "env_sets", "device_hierarchy", "container_facts",
                       "scheduler_facts", "launch_facts", "storage_facts", "env_facts"})


def _lint_digest(data: dict[str, Any]) -> str:
    """The facts only lint reads, which `digest_of` leaves out: an edited cache entry must
    not change them either."""
    facts = {k: v for k, v in data.items() if k in LINT_ONLY}
    return cache.sha256(json.dumps(facts, sort_keys=True, separators=(",", ":")).encode())


def digest_of(profile: Profile) -> str:
    import dataclasses  # the model's own; a warm render compares the cached digest

    # Facts only lint reads cannot change a render: a script rendered before they were added
    # is still up to date (`jobgen verify`).
    data = {k: v for k, v in dataclasses.asdict(profile).items() if k not in LINT_ONLY}
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return cache.sha256(canonical.encode())


# ---------------------------------------------------------------- entry points
class FileChain(Frozen):
    """A profile and what it extends, each file read once."""

    files: list[ProfileFile]  # this profile first
    merged: dict[str, Any]
    blobs: list[bytes]  # the files' bytes, in chain order
    raws: list[dict[str, Any]]  # each file's own data, in chain order
    extends: dict[str, str | None]  # each file's own `extends`, by path


def load_file_chain(start: ProfileFile) -> FileChain:
    """Read a profile and what it extends, and merge them (the child wins)."""
    raw: dict[Path, tuple[bytes, dict[str, Any]]] = {}

    def extends_of(pf: ProfileFile) -> str | None:
        if pf.path not in raw:  # each file is read and parsed once
            blob = _read_bytes(pf.path)
            raw[pf.path] = (blob, _read_yaml(pf.path, blob))
        parent = raw[pf.path][1].get("extends")
        if parent is not None and not isinstance(parent, str):
            raise JobgenError(f"{pf.path}: extends: must be the name of a profile")
        return parent

    files = _resolve_chain(start, extends_of)
    merged: dict[str, Any] = {}
    for pf in reversed(files):
        merged = deep_merge(merged, raw[pf.path][1])
    merged["extends"] = raw[start.path][1].get("extends")
    return FileChain(
        files=files,
        merged=merged,
        blobs=[raw[pf.path][0] for pf in files],
        raws=[raw[pf.path][1] for pf in files],
        extends={str(pf.path): raw[pf.path][1].get("extends") for pf in files},
    )


def semantic_problems(profile: Profile, path: Path) -> list[str]:
    """What types alone cannot say, plus the file-name rule, as 'field: problem' lines."""
    from .checks import check_profile

    problems = check_profile(profile)
    if profile.name != path.stem:
        problems.insert(0, f"name: {profile.name!r} does not match the file name {path.name}")
    return problems


def load_profile_file(start: ProfileFile, use_cache: bool = True,
                      light: bool = False) -> LoadedProfile:
    """The validated profile; with `light` a warm cache gives records
    (jobgen.profiles.records), which only `render` asks for: it reads a profile and never
    needs the model's classes."""
    if use_cache:
        cached = _read_cached(start, light)
        if cached is not None:
            return cached
    chain = load_file_chain(start)
    problems = chain_problems(chain)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise JobgenError(f"{problems[0]}{more}")
    profile = from_validated(chain.merged)
    problems = semantic_problems(profile, start.path)
    if problems:
        raise JobgenError(f"{start.path}: {problems[0]}")
    loaded = LoadedProfile(profile, tuple(chain.files), digest_of(profile))
    if use_cache:
        _write_cache(loaded, chain.extends, _cache_key(chain.files, chain.blobs),
                     chain.blobs[0])
    return loaded


def load_profile(name: str, light: bool = False) -> LoadedProfile:
    found = discover()
    if name not in found:
        raise unknown_site(name, sorted(found))
    return load_profile_file(found[name], light=light)


def profile_file_for_path(path: Path) -> ProfileFile:
    """A profile given by path (jobgen validate FILE): its extends resolve on the search path."""
    if not path.is_file():
        raise JobgenError(f"{path}: no such profile file")
    return ProfileFile(path.stem, path, "file")
