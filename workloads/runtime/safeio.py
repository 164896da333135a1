"""Reading files a run is handed (datasets, checkpoints) without trusting them.

One place for the checks every app's reader makes before it reads (issue 36, N1/N16):

* only regular files are opened: a FIFO, a device (``/dev/zero``), a socket or a directory in
  place of a data file is refused before ``open`` (``os.stat`` follows links, so a link to
  ``/dev/zero`` is refused too), and the open itself uses ``O_NONBLOCK`` so a file swapped for
  a FIFO between the check and the open cannot block;
* a size a file declares (an HDF5 dataset's shape, a ``.npy`` header, a sample count) is checked
  against the bytes the file holds and the memory there is before anything is allocated;
* HDF5 datasets whose data live elsewhere (external raw files, virtual datasets) are refused:
  they read files outside the data directory, FIFOs and devices included;
* every refusal is an :class:`InputError`: one line naming the file, the field and what was
  expected, which the command line prints without a traceback and exits 2 with before
  training starts.

Imports nothing heavy (NumPy and h5py only inside the functions that need them)."""

from __future__ import annotations

import contextlib
import os
import resource
import stat
from pathlib import Path
from typing import Any

#: deflate's largest compression ratio ("the limit is 1032:1", zlib.net/zlib_tech.html, the
#: zlib technical details page): an HDF5 dataset whose declared bytes exceed this multiple of
#: the storage it has allocated cannot be real data (its chunks were never written)
MAX_RATIO = 1032
#: a dataset or index of more samples than this is refused whatever the memory (torch's
#: samplers index with int64 but build a Python list of every index: ~40 bytes a sample)
MAX_SAMPLES = 2**31 - 1
#: bytes a sampler needs per sample of an epoch (torch.randperm's int64 and its .tolist())
SAMPLER_BYTES = 48


class InputError(ValueError):
    """A file the run was handed is not what it must be: one line, exit 2, no traceback."""

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(str(message).split()))


def one_line(exc: BaseException, limit: int = 300) -> str:
    """An exception's text on one line, cut to ``limit`` characters (a library's message may
    span lines or echo a whole file)."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= limit else text[:limit] + "..."


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def regular_file(path: str | os.PathLike[str], what: str = "file") -> int:
    """The size of ``path`` after checking that it is a regular file (links followed)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise InputError(f"{path}: {what} missing") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read the {what} ({one_line(exc)})") from None
    if not stat.S_ISREG(st.st_mode):
        raise InputError(f"{path}: {_kind(st.st_mode)}, expected the {what} as a regular file")
    return st.st_size


def is_regular(path: str | os.PathLike[str]) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def open_regular(path: str | os.PathLike[str], what: str = "file") -> Any:
    """A binary file object for a regular file: checked first, opened with ``O_NONBLOCK`` (a
    FIFO swapped in after the check cannot block the open) and checked again on the open
    descriptor."""
    regular_file(path, what)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise InputError(f"{path}: cannot open the {what} ({one_line(exc)})") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise InputError(f"{path}: not a regular file, expected the {what}")
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


def read_bytes(path: str | os.PathLike[str], what: str, limit: int) -> bytes:
    """A small regular file's bytes; refused beyond ``limit`` bytes."""
    size = regular_file(path, what)
    if size > limit:
        raise InputError(f"{path}: {size} bytes, more than the {limit} a {what} may have")
    with open_regular(path, what) as fh:
        return fh.read(limit + 1)[:limit]


def available_memory() -> int:
    """Bytes this process may still allocate: the smaller of the host's available memory
    (``MemAvailable``) and what its address-space limit leaves."""
    avail = None
    with contextlib.suppress(OSError, ValueError):
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    avail = int(line.split()[1]) * 1024
                    break
    if avail is None:
        pages = os.sysconf("SC_AVPHYS_PAGES") if hasattr(os, "sysconf") else -1
        avail = pages * os.sysconf("SC_PAGE_SIZE") if pages > 0 else 1 << 62
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft != resource.RLIM_INFINITY:
        used = 0
        with contextlib.suppress(OSError, ValueError):
            with open("/proc/self/statm", encoding="ascii") as fh:
                used = int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        avail = min(avail, max(0, soft - used))
    return avail


def check_memory(path: str | os.PathLike[str], what: str, nbytes: int) -> None:
    """Refuse to allocate ``nbytes`` for ``what`` of ``path`` when less than twice that is
    available (the copy a conversion makes)."""
    free = available_memory()
    if nbytes * 2 > free:
        raise InputError(f"{path}: {what} needs {_gib(nbytes)} in memory, {_gib(free)} is "
                         "available; expected a smaller file")


def check_samples(path: str | os.PathLike[str], field: str, n: Any) -> int:
    """A declared number of samples: an integer in 1..MAX_SAMPLES whose sampler fits in
    memory."""
    try:
        count = int(n)
    except (TypeError, ValueError, OverflowError):
        raise InputError(f"{path}: {field} is {str(n)[:60]!r}, expected a whole number "
                         "of samples") from None
    if isinstance(n, float) and count != n:
        raise InputError(f"{path}: {field} is {n!r}, expected a whole number of samples")
    if not 1 <= count <= MAX_SAMPLES:
        raise InputError(f"{path}: {field} is {str(n)[:60]}, expected 1 to {MAX_SAMPLES} "
                         "samples")
    check_memory(path, f"an epoch of {count} samples ({field})", count * SAMPLER_BYTES)
    return count


def _gib(n: int) -> str:
    return f"{n / 2**30:.3g} GiB" if n >= 2**30 else f"{n / 2**20:.3g} MiB"


# ---------------------------------------------------------------------------- HDF5

def open_h5(path: str | os.PathLike[str], what: str = "HDF5 file") -> Any:
    """An h5py File of a regular file (read-only), refused in one line when it is not one or
    not HDF5."""
    import h5py

    regular_file(path, what)
    try:
        return h5py.File(path, "r")
    except Exception as exc:  # noqa: BLE001 - h5py's OSError/ValueError texts span lines
        raise InputError(f"{path}: not a readable {what} ({one_line(exc, 160)})") from None


def h5_has(h5: Any, path: str | os.PathLike[str], name: str) -> bool:
    """Whether ``name`` exists in the file, walking its components without following an
    external link (which would open another file, perhaps a FIFO): one is refused."""
    import h5py

    node = h5
    for part in [p for p in name.split("/") if p]:
        try:
            link = node.get(part, getlink=True)
        except Exception as exc:  # noqa: BLE001 - a damaged group
            raise InputError(f"{path}: field {name!r} cannot be read ({one_line(exc, 160)})") \
                from None
        if link is None:
            return False
        if isinstance(link, h5py.ExternalLink):
            raise InputError(f"{path}: field {name!r} links to another file "
                             f"({link.filename}); expected its data in the file")
        if isinstance(link, h5py.SoftLink):
            raise InputError(f"{path}: field {name!r} is a soft link ({link.path}); expected "
                             "the object itself")
        try:
            node = node[part]
        except Exception as exc:  # noqa: BLE001
            raise InputError(f"{path}: field {name!r} cannot be read ({one_line(exc, 160)})") \
                from None
    return True


def h5_dataset(h5: Any, path: str | os.PathLike[str], name: str, *, ndim: int | None = None,
               kinds: str = "biuf", file_size: int | None = None) -> Any:
    """Dataset ``name`` of an open file after the checks a reader needs before it reads:
    present, a dataset, ``ndim`` dimensions, a numeric dtype of ``kinds`` (NumPy kind codes),
    its data in this file (no external or virtual storage) and no more declared bytes than
    its allocated storage can hold (:data:`MAX_RATIO`)."""
    import h5py

    if not h5_has(h5, path, name):
        raise InputError(f"{path}: no field {name!r}")
    try:
        ds = h5.get(name)
    except Exception as exc:  # noqa: BLE001 - a damaged object header
        raise InputError(f"{path}: field {name!r} cannot be read ({one_line(exc, 160)})") \
            from None
    if not isinstance(ds, h5py.Dataset):
        raise InputError(f"{path}: field {name!r} is not a dataset")
    where = f"{path}: field {name!r}"
    try:
        external = ds.external
        virtual = ds.is_virtual
        dtype, shape = ds.dtype, ds.shape
    except Exception as exc:  # noqa: BLE001
        raise InputError(f"{where} cannot be read ({one_line(exc, 160)})") from None
    if external:
        raise InputError(f"{where} keeps its data in external file(s) "
                         f"{[str(e[0]) for e in external][:3]}; expected its data in the file")
    if virtual:
        raise InputError(f"{where} is a virtual dataset (data in other files); expected its "
                         "data in the file")
    if shape is None:
        raise InputError(f"{where} has no shape (an empty dataspace); expected an array")
    if ndim is not None and len(shape) != ndim:
        raise InputError(f"{where} has shape {shape}, expected {ndim} dimensions")
    if dtype.kind not in kinds:
        raise InputError(f"{where} has dtype {dtype}, expected a numeric type")
    declared = int(ds.size) * dtype.itemsize
    try:
        stored = int(ds.id.get_storage_size())
    except Exception:  # noqa: BLE001
        stored = 0
    if file_size is None:
        file_size = os.stat(path).st_size
    if declared > MAX_RATIO * min(stored, file_size) and declared > 0:
        raise InputError(f"{where} declares shape {shape} ({declared} bytes) but the file "
                         f"stores {stored} bytes of it; expected the data in the file")
    return ds


def h5_read(ds: Any, path: str | os.PathLike[str], name: str, sel: Any = ...) -> Any:
    """``ds[sel]`` with its memory checked first and read errors as one line."""
    import numpy as np

    if sel is ...:
        check_memory(path, f"field {name!r}", int(ds.size) * ds.dtype.itemsize)
    try:
        return np.asarray(ds[sel])
    except Exception as exc:  # noqa: BLE001 - truncated chunks, filter errors
        raise InputError(f"{path}: field {name!r} cannot be read ({one_line(exc, 160)})") \
            from None


# ---------------------------------------------------------------------------- NumPy

def npy_header(path: str | os.PathLike[str], what: str = ".npy file"
               ) -> tuple[tuple[int, ...], Any, bool, int]:
    """(shape, dtype, fortran order, data offset) of a ``.npy`` file, after checking that it
    is a regular file, that its header is a plain array (no pickled objects) and that the file
    holds every byte its header declares."""
    import numpy as np

    size = regular_file(path, what)
    with open_regular(path, what) as fh:
        try:
            version = np.lib.format.read_magic(fh)
            reader = {(1, 0): np.lib.format.read_array_header_1_0,
                      (2, 0): np.lib.format.read_array_header_2_0}.get(version)
            if reader is None:
                raise ValueError(f"format version {version}")
            shape, fortran, dtype = reader(fh, max_header_size=10000)
        except Exception as exc:  # noqa: BLE001 - numpy raises ValueError/EOFError/...
            raise InputError(f"{path}: not a .npy array ({one_line(exc, 160)})") from None
        offset = fh.tell()
    if dtype.hasobject:
        raise InputError(f"{path}: dtype {dtype} holds Python objects; expected a numeric array")
    count = 1
    for d in shape:
        count *= int(d)
    if offset + count * dtype.itemsize > size:
        raise InputError(f"{path}: header declares shape {shape} of {dtype} "
                         f"({count * dtype.itemsize} bytes), the file holds "
                         f"{size - offset}; expected a complete array")
    return tuple(int(d) for d in shape), dtype, bool(fortran), offset


def load_npy(path: str | os.PathLike[str], what: str = ".npy file", mmap: bool = False) -> Any:
    """A checked ``.npy`` array: read whole (memory checked) or memory-mapped."""
    import numpy as np

    shape, dtype, _, _ = npy_header(path, what)
    if not mmap:
        count = 1
        for d in shape:
            count *= d
        check_memory(path, what, count * dtype.itemsize)
    try:
        return np.load(path, mmap_mode="r" if mmap else None, allow_pickle=False)
    except Exception as exc:  # noqa: BLE001
        raise InputError(f"{path}: not a readable .npy array ({one_line(exc, 160)})") from None


def inside(base: Path, name: Any, field: str, where: str | os.PathLike[str]) -> Path:
    """``base/name`` for a file name a data file gives: a plain name, no directories."""
    if not isinstance(name, str) or not name or "/" in name or name in (".", "..") \
            or "\0" in name:
        raise InputError(f"{where}: {field} is {str(name)[:60]!r}, expected a file name in "
                         f"{base}")
    return base / name
