"""Per-site defaults a user keeps instead of typing them on every render.

Three layers, the first that sets a value wins: the command line, the environment, the user
config file. The environment has `JOBGEN_ACCOUNT` (an account for every site) and
`JOBGEN_DEFAULTS`, entries `[SITE.]KEY=VALUE` separated by `;`:

    JOBGEN_DEFAULTS='aurora.account=myproj; polaris.queue=debug,prod; python=python3'

The config file is `$XDG_CONFIG_HOME/jobgen/config.yaml` (or `config.toml`; default
`~/.config/jobgen`), beside the user profiles:

    defaults:            # every site
      site: polaris      # the site when --site is left out (or JOBGEN_SITE=polaris)
      python: python3
    sites:
      aurora:
        account: myproj
        queue: [capacity, debug]   # preference: the first that takes the job
        filesystems: home:flare

Within a layer a site's own entry beats the every-site one. Render speed: nothing is read
when the command line already sets every key; the file is parsed once per content and the
result kept in the JSON cache, so a warm render neither imports yaml nor parses it.
"""

from __future__ import annotations

import os
from pathlib import Path

from .. import cache
from ..errors import JobgenError
from ..frozen import Frozen, replace

TYPE_CHECKING = False  # typing costs a few ms to import; annotations only need it here
if TYPE_CHECKING:
    from typing import Any

KEYS = ("account", "queue", "filesystems", "python")
CONFIG_NAMES = ("config.yaml", "config.toml")
_KEY = "\0"  # stands for the key in a layer's label


class Default(Frozen):
    key: str
    value: str | tuple[str, ...]
    layer: str  # where it came from, as explain shows it


def config_dir() -> Path:
    xdg = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(xdg) / "jobgen"


def config_file() -> Path | None:
    found = [p for p in (config_dir() / n for n in CONFIG_NAMES) if p.is_file()]
    if len(found) > 1:
        raise JobgenError(f"{found[0]} and {found[1]} both exist: keep one user config")
    return found[0] if found else None


def _value(key: str, raw: Any, where: str) -> str | tuple[str, ...]:
    """A checked value: strings without control characters; queue and filesystems may be lists."""
    items = raw if isinstance(raw, list) and key in ("queue", "filesystems") else [raw]
    if not items or not all(isinstance(x, str) and x.strip() for x in items):
        kind = "a name or a list of names" if key in ("queue", "filesystems") else "a string"
        raise JobgenError(f"{where}: {key} must be {kind}, not {raw!r}")
    for x in items:
        if not x.isprintable():
            raise JobgenError(f"{where}: {key} {x!r} has control characters")
    words = tuple(w.strip() for x in items for w in x.split(",") if w.strip())
    if key == "queue":
        return words
    if key == "filesystems":
        return ":".join(words)
    return items[0].strip()


def _entries(table: Any, where: str, keys: tuple[str, ...] = KEYS
             ) -> dict[str, str | tuple[str, ...]]:
    if not isinstance(table, dict):
        raise JobgenError(f"{where}: must be a mapping of {', '.join(keys)}")
    out = {}
    for key, raw in table.items():
        if key not in keys:
            raise JobgenError(f"{where}.{key}: unknown key (use {', '.join(keys)})")
        out[key] = _value(key, raw, f"{where}.{key}")
    return out


def _check_site_names(names: list[str], path: Path) -> None:
    """A site under `sites:` that no profile on the search path has is a typo when a known
    name is close (an error), else a profile kept elsewhere (a warning)."""
    import difflib
    import sys

    from ..profiles.load import site_names

    known = site_names()
    for name in names:
        if name in known:
            continue
        close = difflib.get_close_matches(name, known, n=1, cutoff=0.75)
        if close:
            raise JobgenError(f"{path}: sites.{name}: no such site (did you mean {close[0]}? "
                              "`jobgen sites` lists them)")
        print(f"jobgen: warning: {path}: sites.{name}: no profile on the search path has this "
              "name; its defaults are not used", file=sys.stderr)


def parse_config(data: Any, path: Path) -> dict[str, dict[str, Any]]:
    """{'*': every-site defaults, SITE: that site's}, checked; one-line errors name the key."""
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise JobgenError(f"{path}: must be a mapping with `defaults` and/or `sites`")
    unknown = sorted(set(data) - {"defaults", "sites"})
    if unknown:
        raise JobgenError(f"{path}: {unknown[0]}: unknown key (use defaults, sites)")
    out: dict[str, dict[str, Any]] = {}
    if "defaults" in data:
        out["*"] = _entries(data["defaults"], f"{path}: defaults", (*KEYS, "site"))
    sites = data.get("sites", {})
    if not isinstance(sites, dict):
        raise JobgenError(f"{path}: sites must map site names to their defaults")
    for site, table in sites.items():
        out[str(site)] = _entries(table, f"{path}: sites.{site}")
    return out


def default_site() -> str:
    """The site when --site is left out: JOBGEN_SITE, else the config's `defaults.site`."""
    env = os.environ.get("JOBGEN_SITE", "").strip()
    if env:
        return env
    path = config_file()
    site = _read_config(path).get("*", {}).get("site") if path is not None else None
    if not site:
        raise JobgenError("no site given: add --site SITE (`jobgen sites` lists them), or set a "
                          "default with JOBGEN_SITE=SITE or `defaults: {site: SITE}` in "
                          f"{config_dir() / 'config.yaml'}")
    return str(site)


def _read_config(path: Path) -> dict[str, dict[str, Any]]:
    """The checked config; the parsed file is cached by content and checked again on use."""
    from ..textfile import read_bytes

    blob = read_bytes(path, "user config")  # bounded (4 MiB), regular files only
    key = cache.sha256(path.suffix.encode() + b"\0" + blob)
    entry = f"config-{key[:32]}.json"
    data = cache.read(entry)
    if data is None:
        try:
            text = blob.decode("utf-8")
        except UnicodeDecodeError:
            raise JobgenError(f"{path}: not UTF-8 text") from None
        data = _load_text(text, path)
        checked = parse_config(data, path)  # before caching: only plain strings get there
        cache.write(entry, data)
        return checked
    return parse_config(data, path)


def _load_text(text: str, path: Path) -> Any:
    if path.suffix == ".toml":
        try:
            import tomllib
        except ModuleNotFoundError:  # Python 3.10
            raise JobgenError(f"{path}: TOML needs Python 3.11+; write config.yaml") from None
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise JobgenError(f"{path}: TOML syntax error: {exc}") from None
        except RecursionError:
            raise JobgenError(f"{path}: nested too deep for a config file") from None
        except ValueError:  # an integer of more than 4300 digits (int()'s own limit)
            raise JobgenError(f"{path}: a number of more than 4300 digits: not a config "
                              "value") from None
        _bounded(data, path)
        return data
    import yaml

    from ..profiles.yamlload import load

    try:
        return load(text)  # the profiles' loader: bounded depth and aliases, no duplicate key
    except RecursionError:
        raise JobgenError(f"{path}: nested too deep for a config file") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f":{mark.line + 1}" if mark is not None else ""
        raise JobgenError(f"{path}{where}: YAML syntax error: "
                          f"{getattr(exc, 'problem', None) or exc}") from None


def _bounded(data: Any, path: Path) -> None:
    """TOML has no aliases, but nesting and size are bounded as YAML's are (yamlload)."""
    from ..profiles.yamlload import MAX_DEPTH, MAX_VALUES

    todo, count = [(data, 1)], 0
    while todo:
        value, depth = todo.pop()
        count += 1
        if depth > MAX_DEPTH or count > MAX_VALUES:
            raise JobgenError(f"{path}: nested deeper than {MAX_DEPTH} levels or more than "
                              f"{MAX_VALUES} values: not a config file")
        items = value.values() if isinstance(value, dict) else value if isinstance(
            value, list) else ()
        todo += [(v, depth + 1) for v in items]


def parse_env(text: str) -> dict[str, dict[str, Any]]:
    """JOBGEN_DEFAULTS entries `[SITE.]KEY=VALUE;...` -> {'*' or SITE: {KEY: value}}."""
    out: dict[str, dict[str, Any]] = {}
    for item in text.split(";"):
        if not item.strip():
            continue
        name, sep, raw = item.strip().partition("=")
        site, _, key = name.rpartition(".")
        if not sep or key not in KEYS:
            raise JobgenError(f"JOBGEN_DEFAULTS: {item.strip()!r} must be [SITE.]KEY=VALUE with "
                              f"KEY one of {', '.join(KEYS)}")
        out.setdefault(site or "*", {})[key] = _value(key, raw, f"JOBGEN_DEFAULTS {name}")
    return out


def _layers(site: str) -> list[tuple[str, dict[str, Any]]]:
    """(layer label, {key: value}) from the strongest layer down; a site beats every site."""
    layers: list[tuple[str, dict[str, Any]]] = []
    env = parse_env(os.environ.get("JOBGEN_DEFAULTS", ""))
    for scope in (site, "*"):
        if scope in env:
            label = f"{scope}." if scope != "*" else ""
            layers.append((f"environment (JOBGEN_DEFAULTS {label}{_KEY})", env[scope]))
    account = os.environ.get("JOBGEN_ACCOUNT")
    if account:
        layers.append(("environment (JOBGEN_ACCOUNT)",
                       {"account": _value("account", account, "JOBGEN_ACCOUNT")}))
    path = config_file()
    if path is not None:
        config = _read_config(path)
        _check_site_names([n for n in config if n != "*"], path)
        for scope, label in ((site, f"sites.{site}"), ("*", "defaults")):
            if scope in config:
                layers.append((f"user config ({path}: {label}.{_KEY})", config[scope]))
    return layers


def defaults_for(site: str, wanted: tuple[str, ...]) -> list[Default]:
    """The defaults for the keys the command line left unset, each with its layer."""
    out: dict[str, Default] = {}
    for label, values in _layers(site):
        for key in wanted:
            if key in values and key not in out:
                value = values[key]
                value = tuple(value) if isinstance(value, list) else value
                out[key] = Default(key, value, label.replace(_KEY, key))
    return [out[k] for k in wanted if k in out]


def with_defaults(req: Any) -> Any:
    """The request with the user's defaults filled in where the command line gave nothing.

    Reads nothing when every key is already set. `origins` records each default's layer.
    """
    wanted = tuple(k for k in KEYS if getattr(req, k) is None)
    if not wanted:
        return req
    found = defaults_for(req.site, wanted)
    if not found:
        return req
    changes: dict[str, Any] = {}
    for d in found:
        changes["queue_preference" if d.key == "queue" else d.key] = d.value
    origins = tuple(req.origins) + tuple((d.key, d.layer) for d in found)
    return replace(req, **changes, origins=origins)
