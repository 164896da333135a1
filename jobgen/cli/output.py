"""`render --out FILE`: the whole script or nothing, never through a planted link, never a race.

- The text is complete in memory before any file is touched.
- Every name is resolved against one open descriptor of the target's directory.
- The data goes into an unnamed file (Linux `O_TMPFILE`) or, where that is missing, an
  `O_EXCL` temp file with an unpredictable name; either is complete before it gets the
  target's name, so no reader ever sees half a script.
- Without --force the target is created with link(), which fails if any entry of that name
  exists (a dangling symlink too): of 20 concurrent writers exactly one succeeds.
- With --force a regular file or a symlink is replaced by rename() (the link itself, never
  its target); a character device or a FIFO (/dev/null, /dev/stdout, a pipe) is written
  through, never replaced; a directory is refused with or without --force.

What a `kill -9` can leave: nothing with O_TMPFILE when the target is new. With --force over
an existing file, or on file systems without O_TMPFILE, a `.jobgen-*.tmp` file in the target's
directory if the process dies between creating it and the rename (a few system calls).
"""

from __future__ import annotations

import errno
import os
import secrets
import stat

from ..errors import JobgenError
from ..textfile import current_umask, write_all

NAME_MAX = 255  # bytes in one file name on Linux file systems
MODE = 0o755  # a job script is executable (less what the umask takes away)
_NO_TMPFILE = {errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL, errno.ENOENT}


def check_target(out: str, force: bool) -> None:
    """Refuse what can never be written before any work is done (the write checks again)."""
    parent, _ = _split(out)
    try:
        st = os.lstat(out)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise _cannot(out, exc, parent) from None
    if stat.S_ISDIR(st.st_mode) or (stat.S_ISLNK(st.st_mode) and os.path.isdir(out)):
        raise _is_directory(out)
    if not force:
        raise _exists(out)


def write_script(out: str, text: str, force: bool) -> None:
    """Write `text` to `out` as the module docstring says, or raise a one-line JobgenError."""
    write_file(out, text.encode("utf-8"), force, MODE)


def write_file(out: str, data: bytes, force: bool, mode: int = 0o644) -> None:
    """Any output file (a chart, a page) the same way: whole, never through a link."""
    parent, name = _split(out)
    try:
        dfd = os.open(parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        raise _cannot(out, exc, parent) from None
    try:
        special = _special_target(dfd, name, out, force)
        if special:
            _write_through(out, data)
        else:
            _publish(dfd, name, out, data, force, mode)
    except OSError as exc:
        raise _cannot(out, exc) from None
    finally:
        os.close(dfd)


# ---------------------------------------------------------------- the target
def _split(out: str) -> tuple[str, str]:
    if not out:
        raise JobgenError("--out needs a file name")
    parent, name = os.path.split(out)
    if name in ("", ".", ".."):
        raise _is_directory(out)
    if len(os.fsencode(name)) > NAME_MAX:
        raise JobgenError(f"cannot write {out}: the file name is {len(os.fsencode(name))} "
                          f"bytes, more than the {NAME_MAX} a file system allows")
    return parent or ".", name


def _special_target(dfd: int, name: str, out: str, force: bool) -> bool:
    """True for a device or FIFO to write through; refuses what must not be replaced."""
    try:
        st = os.stat(name, dir_fd=dfd)  # through a symlink: /dev/stdout is one
    except FileNotFoundError:
        return False  # nothing there, or a dangling symlink (link() refuses it below)
    if stat.S_ISDIR(st.st_mode):
        raise _is_directory(out)
    if not force:
        raise _exists(out)
    if stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode):
        return True
    if not stat.S_ISREG(st.st_mode):
        raise JobgenError(f"cannot write {out}: it is neither a regular file, a character "
                          "device nor a FIFO")
    return False


def _write_through(out: str, data: bytes) -> None:
    """Write into a device or FIFO as `> out` would; a FIFO nobody reads is an error."""
    try:
        fd = os.open(out, os.O_WRONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise JobgenError(f"cannot write {out}: no process reads this FIFO") from None
        raise
    try:
        os.set_blocking(fd, True)
        write_all(fd, data)
    finally:
        os.close(fd)


# ---------------------------------------------------------------- a regular file
def _publish(dfd: int, name: str, out: str, data: bytes, force: bool, mode: int) -> None:
    fd = _unnamed_file(dfd)
    temp = None
    try:
        if fd is None:
            temp, fd = _temp_file(dfd)
        write_all(fd, data)
        os.fchmod(fd, mode & ~current_umask())
        if temp is None:
            temp = _link_unnamed(fd, dfd, name, out, force)
        if temp is None:
            return  # the unnamed file got the target's name: done
        if force:
            os.replace(temp, name, src_dir_fd=dfd, dst_dir_fd=dfd)
            temp = None
        else:
            _link_new(dfd, temp, name, out)
    finally:
        if fd is not None:  # None: no file could be made there (/proc, a full disk)
            os.close(fd)
        if temp is not None:
            _unlink_quietly(dfd, temp)


def _unnamed_file(dfd: int) -> int | None:
    """An O_TMPFILE descriptor in the directory, or None where the system has none."""
    if not hasattr(os, "O_TMPFILE") or not os.path.isdir("/proc/self/fd"):
        return None
    try:
        return os.open(".", os.O_TMPFILE | os.O_WRONLY | os.O_CLOEXEC, 0o600, dir_fd=dfd)
    except OSError as exc:
        if exc.errno in _NO_TMPFILE:
            return None
        raise


def _link_unnamed(fd: int, dfd: int, name: str, out: str, force: bool) -> str | None:
    """Give the unnamed file the target's name, or (for --force) a temp name to rename."""
    source = f"/proc/self/fd/{fd}"
    try:
        os.link(source, name, dst_dir_fd=dfd, follow_symlinks=True)
        return None
    except FileExistsError:
        if not force:
            raise _exists(out) from None
    while True:
        temp = _temp_name()
        try:
            os.link(source, temp, dst_dir_fd=dfd, follow_symlinks=True)
            return temp
        except FileExistsError:
            continue


def _temp_file(dfd: int) -> tuple[str, int]:
    """A new file with an unpredictable name; O_EXCL never opens a planted file or link."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    while True:
        temp = _temp_name()
        try:
            return temp, os.open(temp, flags, 0o600, dir_fd=dfd)
        except FileExistsError:
            continue


def _link_new(dfd: int, temp: str, name: str, out: str) -> None:
    try:
        os.link(temp, name, src_dir_fd=dfd, dst_dir_fd=dfd, follow_symlinks=False)
    except FileExistsError:
        raise _exists(out) from None


def _temp_name() -> str:
    return f".jobgen-{secrets.token_hex(8)}.tmp"


def _unlink_quietly(dfd: int, name: str) -> None:
    try:
        os.unlink(name, dir_fd=dfd)
    except OSError:
        pass


# ---------------------------------------------------------------- messages
def _exists(out: str) -> JobgenError:
    return JobgenError(f"{out} exists: add --force to overwrite it")


def _is_directory(out: str) -> JobgenError:
    return JobgenError(f"{out} is a directory: give --out a file name")


def _cannot(out: str, exc: OSError, where: str | None = None) -> JobgenError:
    reason = exc.strerror or str(exc)
    if where is not None and exc.errno == errno.ENOTDIR:
        reason = f"{where} is not a directory"
    elif where is not None and exc.errno == errno.ENOENT:
        reason = f"no directory {where}"
    return JobgenError(f"cannot write {out}: {reason}")
