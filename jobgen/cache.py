"""A small private on-disk cache keyed by content hashes, so warm runs skip YAML and pydantic.

Location: $JOBGEN_CACHE_DIR, else $XDG_CACHE_HOME/jobgen, else ~/.cache/jobgen;
JOBGEN_NO_CACHE=1 turns it off.

What comes out of the cache steers a render (a validated profile; compiled templates that
jinja unpickles and runs), so the directory must be the user's alone: it is created 0700, and
one owned by someone else, writable by group or others, or not writable at all is not used.
Entries are written whole under an unpredictable temp name and renamed into place, carry
their own name (a copied or renamed entry is ignored), and are checked again by their
readers (profiles/load.py, plan/apps.py). A damaged entry or an unusable directory only costs speed.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path

TYPE_CHECKING = False  # typing costs a few ms to import; annotations only need it here
if TYPE_CHECKING:
    from typing import Any

MAX_ENTRY = 1 << 20  # bytes; a cached profile is a few KB


def _location() -> Path | None:
    if os.environ.get("JOBGEN_NO_CACHE"):
        return None
    base = os.environ.get("JOBGEN_CACHE_DIR")
    if base:
        return Path(base)
    xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(xdg) / "jobgen"


def private_dir(path: Path) -> Path | None:
    """`path` as a directory only this user can write, created 0700 if missing; else None."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except (OSError, RuntimeError):  # RuntimeError: Path.home() without a home
        return None
    try:
        st = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid():
        return None
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return None
    if not os.access(path, os.W_OK | os.X_OK):
        return None
    return path


def cache_dir() -> Path | None:
    """The private cache directory, checked on every call, or None (no caching)."""
    try:
        location = _location()
    except RuntimeError:  # no home directory to put ~/.cache in
        return None
    return None if location is None else private_dir(location)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read(name: str) -> Any | None:
    """The data stored under `name`, or None when missing, damaged or stored under another name."""
    directory = cache_dir()
    if directory is None:
        return None
    try:
        fd = os.open(directory / name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_ENTRY:
            return None
        entry = json.loads(os.read(fd, MAX_ENTRY + 1).decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    finally:
        os.close(fd)
    if not isinstance(entry, dict) or entry.get("name") != name or "data" not in entry:
        return None
    return entry["data"]


def write(name: str, data: Any) -> None:
    """Store `data` under `name` atomically; any failure leaves the cache as it was."""
    try:
        # (keys in the order the data has them: a profile read back from the cache keeps its
        # mappings' order, as a cold load from the YAML does, so lint and render say the
        # same on a warm run as on a cold one)
        text = json.dumps({"name": name, "data": data})
    except (TypeError, ValueError, RecursionError):
        return
    write_bytes(name, text.encode("utf-8"))


def write_bytes(name: str, blob: bytes) -> None:
    """Store a binary entry atomically, through an unpredictable temporary file."""
    directory = cache_dir()
    if directory is None:
        return
    import tempfile  # only writes need it (with shutil, random, bz2...): warm renders only read

    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=directory)
        with os.fdopen(fd, "wb") as f:
            f.write(blob)
        os.replace(tmp, directory / name)
        tmp = None
    except OSError:
        pass
    finally:
        if tmp is not None:
            _unlink_quietly(tmp)


def _unlink_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def bytecode_cache():
    """Jinja's compiled templates in the private directory, or None.

    A damaged bytecode file (truncated, or from another jinja) is compiled again and a write
    that fails is skipped: jinja's own FileSystemBytecodeCache raises on both.
    """
    directory = cache_dir()
    templates = private_dir(directory / "templates") if directory is not None else None
    if templates is None:
        return None
    import jinja2

    class _Tolerant(jinja2.FileSystemBytecodeCache):
        def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
            try:
                super().load_bytecode(bucket)
            except Exception:  # any damage: unpickling raises many kinds; compile again
                bucket.reset()

        def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
            try:
                super().dump_bytecode(bucket)
            except OSError:
                pass

    return _Tolerant(str(templates))


def read_bytes(name: str) -> bytes | None:
    """A binary entry (compiled templates), or None when absent or unreadable."""
    directory = cache_dir()
    if directory is None:
        return None
    try:
        return (directory / name).read_bytes()
    except OSError:
        return None
