"""Reading a user's file (a job script, a profile): a regular file of bounded size, or an error.

A FIFO or /dev/zero given as input must not hang jobgen, and a huge file must not fill its
memory. The path is checked with stat before it is opened (opening some devices has side
effects), opened without blocking, checked again on the open descriptor (the path may have
been swapped in between), and read to at most MAX_BYTES.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .errors import JobgenError

MAX_BYTES = 4 << 20  # 4 MiB: far above any job script or profile

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))


def _refuse_special(path: Path, mode: int, what: str) -> None:
    if stat.S_ISREG(mode):
        return
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    raise JobgenError(f"{path}: is {kind}, not a {what} file")


def _refuse_large(path: Path, size: int, what: str, limit: int) -> None:
    if size > limit:
        raise JobgenError(f"{path}: {size} bytes is too large for a {what} "
                          f"(the limit is {limit >> 20} MiB)")


def read_bytes(path: Path, what: str, limit: int = MAX_BYTES) -> bytes:
    """The bytes of a regular file of at most `limit` bytes; one-line errors otherwise."""
    try:
        _refuse_special(path, os.stat(path).st_mode, what)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as exc:
        raise JobgenError(f"{path}: cannot read {what}: {exc.strerror}") from None
    try:
        st = os.fstat(fd)
        _refuse_special(path, st.st_mode, what)
        _refuse_large(path, st.st_size, what, limit)
        chunks, total = [], 0
        while total <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        _refuse_large(path, total, what, limit)  # it grew while we read
        return b"".join(chunks)
    except OSError as exc:
        raise JobgenError(f"{path}: cannot read {what}: {exc.strerror}") from None
    finally:
        os.close(fd)


def read_text(path: Path, what: str, limit: int = MAX_BYTES) -> str:
    """UTF-8 text as bash reads it: line endings untouched (a CRLF file stays CRLF)."""
    try:
        return read_bytes(path, what, limit).decode("utf-8")
    except UnicodeDecodeError:
        raise JobgenError(f"{path}: not a UTF-8 text {what}") from None


def write_all(fd: int, data: bytes) -> None:
    """Write all of `data` to the open file `fd` (os.write may write less at a time)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def current_umask() -> int:
    """The process's umask (reading it means setting it, so it is set back at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
