"""The sweep directory as jobgen touches it: never through a link, one jobgen at a time.

- The directory the user names (`--out DIR`, `jobgen submit DIR`) is opened once; every name
  inside it is resolved from that descriptor, one component at a time, with `O_NOFOLLOW`: a
  link planted inside the sweep (a point directory, `output.txt`, `results.csv`) is never
  followed, so nothing outside the sweep is read, written or deleted through it.
- Files are written whole under a temporary name and renamed into place (a reader never sees
  half a manifest); a rename replaces a link itself, never its target.
- Deleting a run directory removes a link as a link and walks real directories by descriptor.
- Reads are bounded (`MAX_BYTES`, as for profiles and scripts; a job's output is read from its
  end, where the result line is), from regular files only (a FIFO never hangs jobgen).
- Commands that change the sweep take an exclusive lock on the directory (flock on its
  descriptor: released when jobgen exits, however it exits), so two `sweep --out D` at once
  cannot both write D. Where the file system has no flock (some Lustre mounts), an `O_EXCL`
  lock file stands in.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import secrets
import socket
import stat
import time
from collections.abc import Iterator
from pathlib import Path

from ..errors import JobgenError
from ..textfile import MAX_BYTES, current_umask, write_all

DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
NEW_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
LOCK_FILE = ".jobgen.lock"
_NO_FLOCK = {errno.ENOSYS, errno.EOPNOTSUPP, errno.ENOLCK, errno.EINVAL}


def parts(rel: str) -> list[str]:
    """The components of a path inside the sweep; '..', '.', empty and absolute are refused
    (the manifest's model refuses them too: this is the second line)."""
    names = rel.split("/")
    if rel.startswith("/") or any(n in ("", ".", "..") for n in names) or "\0" in rel:
        raise JobgenError(f"{rel!r} is not a path inside the sweep directory")
    return names


class SweepDir:
    """An open sweep directory (a context manager); paths are relative to it."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path, self.fd = path, fd
        self._lock_file: str | None = None

    # ------------------------------------------------------------ opening and locking
    @classmethod
    @contextlib.contextmanager
    def open(cls, path: Path, *, lock: bool, create: bool = False, wait: float = 0
             ) -> Iterator[SweepDir]:
        """The directory, locked with `lock` (waiting up to `wait` seconds for another jobgen
        that holds it: a `submit --wait` holds it only while it sends)."""
        if create:
            _make_dirs(path)
        try:
            fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except FileNotFoundError:
            raise JobgenError(f"{path} does not exist: make a sweep with jobgen sweep "
                              "--out DIR") from None
        except NotADirectoryError:
            raise JobgenError(f"{path} is a file, not a sweep directory") from None
        except OSError as exc:
            raise JobgenError(f"cannot open {path}: {exc.strerror}") from None
        sweep = cls(path, fd)
        try:
            if lock:
                sweep._lock(wait)
            yield sweep
        finally:
            sweep._unlock()
            os.close(fd)

    def _lock(self, wait: float = 0) -> None:
        deadline = time.monotonic() + wait
        try:
            while True:
                try:
                    fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    return
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise
                    time.sleep(0.1)
        except BlockingIOError:
            raise self._busy() from None
        except OSError as exc:
            if exc.errno not in _NO_FLOCK:
                raise JobgenError(f"cannot lock {self.path}: {exc.strerror}") from None
        try:  # no flock on this file system: a lock file that only one creator gets
            fd = os.open(LOCK_FILE, NEW_FLAGS, 0o644, dir_fd=self.fd)
        except FileExistsError:
            raise JobgenError(f"{self.path} is in use by another jobgen ({LOCK_FILE} exists; "
                              "remove it if no jobgen runs there any more)") from None
        with os.fdopen(fd, "w") as fh:
            fh.write(f"{socket.gethostname()} {os.getpid()}\n")
        self._lock_file = LOCK_FILE

    def _unlock(self) -> None:
        if self._lock_file:
            with contextlib.suppress(OSError):
                os.unlink(self._lock_file, dir_fd=self.fd)
            self._lock_file = None

    def _busy(self) -> JobgenError:
        return JobgenError(f"{self.path} is in use by another jobgen (sweep, submit, collect "
                           "or cancel): wait for it to finish")

    # ------------------------------------------------------------ directories
    @contextlib.contextmanager
    def directory(self, rel: str, create: bool = False) -> Iterator[int]:
        """A descriptor of the directory `rel` ('' is the sweep itself), never via a link."""
        fd = os.dup(self.fd)
        try:
            for name in (parts(rel) if rel else []):
                try:
                    if create:
                        with contextlib.suppress(FileExistsError):
                            os.mkdir(name, 0o755, dir_fd=fd)
                    nxt = os.open(name, DIR_FLAGS, dir_fd=fd)
                except FileNotFoundError as exc:
                    if not create:
                        raise
                    raise self._error(rel, exc, "a directory") from None
                except OSError as exc:
                    raise self._error(rel, exc, "a directory" if create else None) from None
                os.close(fd)
                fd = nxt
            yield fd
        finally:
            os.close(fd)

    def is_empty(self) -> bool:
        return not os.listdir(self.fd)

    def files(self, rel: str) -> list[tuple[str, float]]:
        """Regular files in the directory `rel` (links and others left out), with mtimes."""
        try:
            with self.directory(rel) as fd, os.scandir(fd) as it:
                found = []
                for entry in it:
                    st = entry.stat(follow_symlinks=False)
                    if stat.S_ISREG(st.st_mode):
                        found.append((entry.name, st.st_mtime))
                return found
        except (JobgenError, OSError):
            return []

    def remove(self, rel: str) -> None:
        """Delete `rel` and what is under it; a link is removed as a link, not followed."""
        names = parts(rel)
        try:
            with self.directory("/".join(names[:-1])) as parent:
                _remove_entry(parent, names[-1])
        except FileNotFoundError:
            return
        except OSError as exc:
            raise self._error(rel, exc) from None

    # ------------------------------------------------------------ reading
    def read(self, rel: str, what: str, limit: int = MAX_BYTES, tail: bool = False
             ) -> bytes | None:
        """A regular file's bytes (None when missing); with `tail`, its last `limit` bytes
        when it is larger; without, a larger file is a one-line error."""
        names = parts(rel)
        try:
            with self.directory("/".join(names[:-1])) as parent:
                fd = os.open(names[-1], READ_FLAGS, dir_fd=parent)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise self._error(rel, exc, what) from None
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                raise JobgenError(f"{self.path / rel}: not a regular file, not read as {what}")
            if st.st_size > limit and not tail:
                raise JobgenError(f"{self.path / rel}: {st.st_size} bytes is too large for "
                                  f"{what} (the limit is {limit >> 20} MiB)")
            if st.st_size > limit:
                os.lseek(fd, st.st_size - limit, os.SEEK_SET)
            return _read_at_most(fd, limit)
        finally:
            os.close(fd)

    # ------------------------------------------------------------ writing
    def write(self, rel: str, data: bytes, *, replace: bool, mode: int = 0o644) -> None:
        """Write `rel` whole. Without `replace` an existing entry of that name (a dangling
        link too) is an error; with it, the entry is replaced, a link as a link."""
        names = parts(rel)
        with self.directory("/".join(names[:-1]), create=True) as parent:
            temp = f".jobgen-{secrets.token_hex(8)}.tmp"
            try:
                fd = os.open(temp, NEW_FLAGS, 0o600, dir_fd=parent)
                try:
                    write_all(fd, data)
                    os.fchmod(fd, mode & ~current_umask())
                finally:
                    os.close(fd)
                if replace:
                    os.replace(temp, names[-1], src_dir_fd=parent, dst_dir_fd=parent)
                else:
                    os.link(temp, names[-1], src_dir_fd=parent, dst_dir_fd=parent,
                            follow_symlinks=False)
            except FileExistsError:
                raise JobgenError(f"{self.path / rel} exists: add --force to replace it"
                                  ) from None
            except OSError as exc:
                raise self._error(rel, exc, "output") from None
            finally:
                with contextlib.suppress(OSError):
                    os.unlink(temp, dir_fd=parent)

    def kind(self, rel: str) -> str | None:
        """'file', 'link', 'directory' or 'other' for the entry `rel` (not followed)."""
        names = parts(rel)
        try:
            with self.directory("/".join(names[:-1])) as parent:
                mode = os.lstat(names[-1], dir_fd=parent).st_mode
        except FileNotFoundError:
            return None
        for test, name in ((stat.S_ISLNK, "link"), (stat.S_ISREG, "file"),
                           (stat.S_ISDIR, "directory")):
            if test(mode):
                return name
        return "other"

    def new_output(self, rel: str) -> int:
        """A fresh file for a run's output: an old entry of that name (a link too) is removed
        first, and the new one is created exclusively, so nothing is written through a link."""
        names = parts(rel)
        try:
            with self.directory("/".join(names[:-1])) as parent:
                with contextlib.suppress(FileNotFoundError):
                    _remove_entry(parent, names[-1])
                return os.open(names[-1], NEW_FLAGS, 0o644, dir_fd=parent)
        except OSError as exc:
            raise self._error(rel, exc, "output") from None

    def script(self, rel: str) -> None:
        """Check that a run's script is a regular file (a planted link is not run)."""
        kind = self.kind(rel)
        if kind is None:
            raise JobgenError(f"{self.path / rel}: no such script: make the sweep again "
                              "(jobgen sweep ... --force)")
        if kind != "file":
            raise JobgenError(f"{self.path / rel}: not a regular file: the sweep's scripts are "
                              "written by jobgen sweep (run it again with --force)")

    def _error(self, rel: str, exc: OSError, what: str | None = None) -> JobgenError:
        where = self.path / rel
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            return JobgenError(f"{where}: a link or a file stands where jobgen expects its own "
                               "directory or file; jobgen does not follow links inside a sweep")
        doing = f" as {what}" if what else ""
        return JobgenError(f"cannot use {where}{doing}: {exc.strerror}")


# ---------------------------------------------------------------- helpers
def _make_dirs(path: Path) -> None:
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise JobgenError(f"{path} is a file: --out names a directory for the sweep") from None
    except OSError as exc:
        raise JobgenError(f"cannot create {path}: {exc.strerror}") from None


def _remove_entry(parent: int, name: str) -> None:
    st = os.lstat(name, dir_fd=parent)
    if not stat.S_ISDIR(st.st_mode):
        os.unlink(name, dir_fd=parent)
        return
    fd = os.open(name, DIR_FLAGS, dir_fd=parent)
    try:
        for child in os.listdir(fd):
            _remove_entry(fd, child)
    finally:
        os.close(fd)
    os.rmdir(name, dir_fd=parent)


def _read_at_most(fd: int, limit: int) -> bytes:
    chunks, total = [], 0
    while total < limit:
        chunk = os.read(fd, min(1 << 20, limit - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)


def run_cwd(fd: int, fallback: Path) -> str:
    """A path for subprocess's cwd that is the directory open as `fd` (pass it in pass_fds):
    the child changes into the very directory jobgen checked, not whatever a path names now.
    Without /proc (not Linux) the path itself."""
    return f"/proc/self/fd/{fd}" if os.path.isdir("/proc/self/fd") else str(fallback)
