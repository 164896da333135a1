"""Issue 36 (N1, N16): generated hostile data files and checkpoints against the apps' real
readers.

A seeded generator damages copies of every app's own make-data output (and of real
checkpoints) in many ways per class: truncation, bit flips, FIFOs, links to /dev/zero,
directories in place of files, HDF5 datasets re-declared with huge shapes and no data, external
storage pointing at a FIFO or /dev/zero, wrong dtypes and shapes, absurd attributes, .npy
headers declaring more than the file holds, .npy files of pickled objects, hostile meta.json
and list files, out-of-vocabulary tokens, sparse terabyte token files, and checkpoint files
holding planted ``__reduce__`` gadgets (each writes a marker file when unpickled).

Each case runs in a child process (hostile_worker.py) under an address-space limit of its own
size + 1 GiB and a time cap per case; the test asserts: no marker written (no code ran), no
exception other than the runtime's one-line InputError (no traceback, no MemoryError), no
hang, and every refusal one line naming a file of the case. Tallies per surface are printed
(``pytest -s``). HOSTILE_CASES scales the cases per surface (default 16)."""

from __future__ import annotations

import json
import os
import pickle
import random
import select
import shutil
import subprocess
import sys
import zipfile
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from workloads_testlib import REPO, needs_torch

h5py = pytest.importorskip("h5py")

WORKER = Path(__file__).with_name("hostile_worker.py")
CAP_S = 20.0  # per case; the slowest honest case (qcnn's mesh) takes about 1 s here
PER_SURFACE = int(os.environ.get("HOSTILE_CASES", "16"))
APPS = ("anisosgs", "cosmictagger", "ffn", "gpt", "pointnet", "qcnn", "resnet50", "unet3d")


class Gadget:
    """Unpickling it runs ``os.system`` (or another callable) that writes the marker."""

    def __init__(self, marker: Path, how: str) -> None:
        self.marker, self.how = str(marker), how

    def __reduce__(self) -> tuple[Any, ...]:
        import builtins
        import subprocess as sp

        touch = f"open({self.marker!r}, 'w').write('ran')"
        return {"system": (os.system, (f"touch {self.marker}",)),
                "exec": (builtins.exec, (touch,)),
                "eval": (builtins.eval, (touch,)),
                "popen": (sp.Popen, (["touch", self.marker],))}[self.how]


GADGETS = ("system", "exec", "eval", "popen")


# ------------------------------------------------------------------------- the child

class Worker:
    """hostile_worker.py, restarted after a hang."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[str] | None = None

    def start(self) -> None:
        env = {**os.environ, "PYTHONPATH": f"{REPO}{os.pathsep}{WORKER.parent}"}
        self.proc = subprocess.Popen([sys.executable, str(WORKER)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, env=env, cwd=REPO)
        assert self._line(120) is not None, "the worker did not start"

    def _line(self, timeout: float) -> str | None:
        assert self.proc is not None and self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        return self.proc.stdout.readline() if ready else None

    def ask(self, case: dict[str, Any], cap: float = CAP_S) -> dict[str, Any]:
        if self.proc is None or self.proc.poll() is not None:
            self.start()
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(case) + "\n")
        self.proc.stdin.flush()
        line = self._line(cap)
        if not line:
            dead = self.proc.poll() is not None
            self.stop()
            return {"id": case["id"], "result": "crash" if dead else "hang"}
        return json.loads(line)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None


@pytest.fixture(scope="module")
def worker():
    w = Worker()
    yield w
    w.stop()


@pytest.fixture(scope="module")
def base(tmp_path_factory, worker) -> Path:
    root = tmp_path_factory.mktemp("base")
    answer = worker.ask({"id": "make", "op": "make", "dir": str(root)}, cap=600)
    assert answer["result"] == "ok", answer
    return root


# ------------------------------------------------------------------------- mutations

def _files(d: Path) -> list[Path]:
    return sorted(p for p in d.rglob("*") if p.is_file() and not p.is_symlink())


def _h5_datasets(f: Path) -> list[str]:
    names: list[str] = []
    with h5py.File(f, "r") as h:
        h.visititems(lambda n, o: names.append(n) if isinstance(o, h5py.Dataset) else None)
    return names


def _recreate(f: Path, name: str, **kw: Any) -> None:
    with h5py.File(f, "a") as h:
        attrs = dict(h[name].attrs)
        del h[name]
        ds = h.create_dataset(name, **kw)
        for k, v in attrs.items():
            ds.attrs[k] = v


def _replace(p: Path, how: str, rng: random.Random) -> str:
    """Put something that is not a regular file where ``p`` was."""
    p.unlink()
    if how == "fifo":
        os.mkfifo(p)
    elif how == "devzero":
        p.symlink_to("/dev/zero")
    elif how == "dir":
        p.mkdir()
        (p / "x").write_bytes(b"x")
    elif how == "loop":
        p.symlink_to(p.name)
    else:  # dangling
        p.symlink_to(f"/nonexistent/{rng.randrange(10**6)}")
    return how


def mutate(d: Path, rng: random.Random, marker: Path) -> str:
    """Damage one file of the dataset directory ``d``; returns what was done."""
    files = _files(d)
    h5s = [f for f in files if f.suffix in (".h5", ".hdf5")]
    npys = [f for f in files if f.suffix == ".npy"]
    kinds = ["truncate", "flip", "replace"]
    kinds += ["h5-huge", "h5-external", "h5-dtype", "h5-shape", "h5-attr", "h5-values",
              "h5-link"] * bool(h5s)
    kinds += ["npy-header", "npy-object"] * bool(npys)
    kinds += ["json"] * (d / "meta.json").is_file()
    kinds += ["list"] * (d / "train_hdf5_file_list.txt").is_file()
    kinds += ["bin-vocab", "bin-sparse"] * (d / "train.bin").is_file()
    kind = rng.choice(kinds)
    if kind == "truncate":
        f = rng.choice(files)
        size = f.stat().st_size
        keep = rng.choice([0, 1, size // 2, max(size - 1, 0), rng.randrange(size + 1)])
        os.truncate(f, keep)
        return f"truncate {f.name} to {keep}"
    if kind == "flip":
        f = rng.choice(files)
        data = bytearray(f.read_bytes())
        for _ in range(rng.choice([1, 8, 64])):
            if data:
                data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        f.write_bytes(bytes(data))
        return f"flip bits of {f.name}"
    if kind == "replace":
        f = rng.choice(files)
        return f"{_replace(f, rng.choice(['fifo', 'devzero', 'dir', 'loop', 'dangling']), rng)} " \
               f"for {f.name}"
    if kind.startswith("h5-"):
        f = rng.choice(h5s)
        name = rng.choice(_h5_datasets(f))
        with h5py.File(f, "r") as h:
            ds = h[name]
            shape, dtype, data = ds.shape, ds.dtype, ds[...]
        if kind == "h5-huge":
            big = (rng.choice([10**9, 3 * 10**8, 2**40]), *shape[1:])
            _recreate(f, name, shape=big, dtype=dtype, maxshape=(None, *shape[1:]),
                      chunks=(1, *shape[1:]) if shape[1:] else (1024,))
            return f"{f.name}:{name} declared {big}, no data"
        if kind == "h5-link":  # the dataset, or a group above it, as a link elsewhere
            parts = name.split("/")
            cut = "/".join(parts[:rng.randrange(1, len(parts) + 1)])
            other = d / "other.h5"
            if rng.random() < 0.5 and not other.exists():
                os.mkfifo(other)
            with h5py.File(f, "a") as h:
                del h[cut]
                h[cut] = rng.choice([h5py.ExternalLink(other.name, "/" + cut),
                                     h5py.ExternalLink("/dev/zero", "/x"),
                                     h5py.SoftLink("/" + cut + "_elsewhere")])
            return f"{f.name}:{cut} as a link"
        if kind == "h5-external":
            target = d / "ext.fifo"
            if rng.random() < 0.5:
                os.mkfifo(target)
            else:
                target = Path("/dev/zero")
            _recreate(f, name, shape=shape, dtype=dtype,
                      external=[(str(target), 0, h5py.h5f.UNLIMITED)])
            return f"{f.name}:{name} external {target}"
        if kind == "h5-dtype":
            new = rng.choice(["i1", "u8", "f2", "S8", "f8", "c8"])
            if new == "S8":
                _recreate(f, name, data=np.full(shape, b"x", dtype="S8"))
            else:
                _recreate(f, name, data=np.zeros(shape, dtype=new) if dtype.fields else
                          data.astype(new))
            return f"{f.name}:{name} as {new}"
        if kind == "h5-shape":
            choices = [data.reshape(-1), data[..., None], data[:0], data[:1],
                       np.zeros((), dtype=dtype)]
            new = choices[rng.randrange(len(choices))]
            _recreate(f, name, data=new)
            return f"{f.name}:{name} shape {new.shape}"
        if kind == "h5-values":
            if dtype.fields:
                arr = data.copy()
                for field in dtype.names:
                    base = arr[field]
                    if base.dtype.kind in "iu":
                        arr[field] = np.iinfo(base.dtype).max if rng.random() < 0.5 else 0
                    else:
                        arr[field] = np.nan
            elif dtype.kind in "iu":
                arr = np.full(shape, np.iinfo(dtype).max if rng.random() < 0.5
                              else np.iinfo(dtype).min, dtype=dtype)
            else:
                arr = np.full(shape, rng.choice([np.nan, np.inf, -1e38]), dtype=dtype)
            _recreate(f, name, data=arr)
            return f"{f.name}:{name} extreme values"
        value = rng.choice([10**9, 3 * 10**8, -5, 0, "abc", 1e300, 2**63 - 1, [1, 2], 1.5])
        with h5py.File(f, "a") as h:
            h.attrs["samples"] = value
        return f"{f.name} attribute samples={value!r}"
    if kind == "npy-header":
        f = rng.choice(npys)
        arr = np.load(f)
        body = arr.tobytes()
        with open(f, "wb") as fh:
            np.lib.format.write_array_header_1_0(fh, {
                "descr": np.lib.format.dtype_to_descr(arr.dtype), "fortran_order": False,
                "shape": (rng.choice([10**9, 3 * 10**8, 2**40]), *arr.shape[1:])})
            fh.write(body)
        return f"{f.name} header declares 10^9 rows"
    if kind == "npy-object":
        f = rng.choice(npys)
        arr = np.empty(2, dtype=object)
        arr[0] = Gadget(marker, rng.choice(GADGETS))
        np.save(f, arr, allow_pickle=True)
        return f"{f.name} pickled object array"
    if kind == "json":
        meta = json.loads((d / "meta.json").read_text())
        choice = rng.randrange(6)
        if choice == 0:
            meta["shards"][0]["n"] = rng.choice([10**9, 3 * 10**8, -1, 0, "8", 1.5, None])
        elif choice == 1:
            meta["shards"][0]["x"] = rng.choice(["../../../etc/passwd", "/dev/zero", "", ".",
                                                 "x/../../y.npy", 7, None])
        elif choice == 2:
            meta["shards"] = rng.choice(["x", 5, None, {}, []])
        elif choice == 3:
            meta = [meta]
        elif choice == 4:
            (d / "meta.json").write_text("[" * 100000)
            return "meta.json nested 100000 deep"
        else:
            meta["shards"] = meta["shards"] * 10000
        (d / "meta.json").write_text(json.dumps(meta))
        return f"meta.json variant {choice}"
    if kind == "list":
        lst = d / "train_hdf5_file_list.txt"
        first = lst.read_text().split()[0]
        choice = rng.randrange(4)
        text = [first * 0 + "\n".join([first] * 100000), "../../../etc/passwd\n",
                "\xff\xfe garbage\n", "missing.h5\n"][choice]
        lst.write_bytes(text.encode("utf-8", "surrogateescape") if choice != 2
                        else b"\xff\xfe garbage\n")
        return f"list variant {choice}"
    f = d / "train.bin"
    if kind == "bin-vocab":
        data = bytearray(f.read_bytes())
        data[rng.randrange(len(data) // 2) * 2:][:2] = b"\xff\xff"
        f.write_bytes(bytes(data))
        return "train.bin token 65535 everywhere after a point"
    os.truncate(f, rng.choice([2**40, 2**36, 2**33]))
    return "train.bin sparse, huge"


# ------------------------------------------------------------------------- checkpoints

def _checkpoint_mutation(root: Path, codec: str, rng: random.Random, marker: Path) -> str:
    step = sorted(root.glob("step_*"))[-1]
    suffix = ".pt" if codec == "torch" else ".npz"
    own = "rng_rank" if codec == "torch" else "rank"
    target = rng.choice([step / f"state{suffix}", step / f"{own}0{suffix}"])
    kind = rng.choice(["gadget", "gadget", "truncate", "flip", "replace", "npz-object",
                       "npz-compressed", "npz-tree"] if codec == "npz" else
                      ["gadget", "gadget", "gadget", "truncate", "flip", "replace"])
    how = rng.choice(GADGETS)
    if kind == "gadget":
        payload = {"model": {"w": Gadget(marker, how)}, "meta": {}}
        if codec == "torch" and rng.random() < 0.7:
            import torch

            torch.save(payload, target)
        else:
            target.write_bytes(pickle.dumps(payload, protocol=rng.randrange(0, 6)))
        return f"{target.name}: planted {how} gadget"
    if kind == "truncate":
        os.truncate(target, rng.randrange(target.stat().st_size + 1))
        return f"{target.name} truncated"
    if kind == "flip":
        data = bytearray(target.read_bytes())
        for _ in range(rng.choice([1, 16])):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        target.write_bytes(bytes(data))
        return f"{target.name} bit flips"
    if kind == "replace":
        return f"{_replace(target, rng.choice(['fifo', 'devzero', 'dir', 'loop']), rng)} for " \
               f"{target.name}"
    if kind == "npz-object":
        arr = np.empty(1, dtype=object)
        arr[0] = Gadget(marker, how)
        np.savez(target, __tree__=np.frombuffer(b'{"array": 0}', np.uint8), a0=arr)
        return f"{target.name}: object array with a gadget"
    if kind == "npz-compressed":
        with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.writestr("__tree__.npy", b"\x93NUMPY" + b"\0" * (1 << 20))
        return f"{target.name}: compressed member"
    tree = rng.choice(['{"weird": 1}', '{"array": "../x"}', '[' * 50000, '{"dict": {"a": '
                       '{"array": 99}}}', '"just a string"', '{"value": {"__class__": 1}}'])
    np.savez(target, __tree__=np.frombuffer(tree.encode(), np.uint8))
    return f"{target.name}: tree {tree[:30]!r}"


def _write_checkpoint(root: Path, codec: str) -> None:
    """A real checkpoint of each codec, as the runtimes write them (two steps)."""
    from workloads.runtime import checkpoint as ckpt

    mgr = ckpt.CheckpointManager(root, 0, codec=ckpt.TORCH if codec == "torch" else ckpt.NPZ)
    for step in (1, 2):
        if codec == "torch":
            import torch

            from workloads.runtime.device import DeviceInfo  # noqa: F401 - type only

            class Dev:
                type = "cpu"

            state = {"model": {"w": torch.arange(6.0)}, "meta": {"app": "x"}, "step": step}
            own = ckpt.capture_rng(Dev())  # type: ignore[arg-type]
        else:
            state = {"model": [("w:0", np.arange(6.0))], "meta": {"app": "x"}, "step": step,
                     "plateau": None, "loss_track": {"first": [1.5], "pending": []}}
            own = {"non_trainable": [("bn:0", np.ones(3, np.float32))]}
        mgr.save(step, state, own, lambda: None, {"app": "x"})


# ------------------------------------------------------------------------- the campaign

def _judge(answer: dict[str, Any], case_dir: Path, marker: Path) -> str:
    """ok / refused, or the finding: code-exec, traceback, memory, hang, not-one-line,
    unnamed."""
    if marker.exists():
        return "code-exec"
    result = answer["result"]
    if result in ("hang", "crash"):
        return result
    if result == "error":
        return "memory" if "MemoryError" in answer["message"] else "traceback"
    if result == "refused":
        msg = answer["message"]
        if "MemoryError" in msg:
            return "memory"
        if "\n" in msg:
            return "not-one-line"
        if str(case_dir) not in msg and "--data" not in msg:
            return "unnamed"
    return result


def _campaign(surfaces: dict[str, Any], worker: Worker) -> tuple[Counter, list[str]]:
    tally: Counter = Counter()
    findings = []
    for surface, cases in surfaces.items():
        for case, case_dir, marker, what in cases:
            verdict = _judge(worker.ask(case), case_dir, marker)
            tally[(surface, verdict)] += 1
            if verdict not in ("ok", "refused"):
                findings.append(f"{surface} {case['id']} {what}: {verdict}")
    return tally, findings


def _report(tally: Counter) -> None:
    for surface in sorted({s for s, _ in tally}):
        row = {v: n for (s, v), n in tally.items() if s == surface}
        print(f"{surface}: {sum(row.values())} cases, {row}")


@needs_torch
@pytest.mark.slow
def test_generated_damaged_datasets_are_refused_in_one_line(base: Path, worker: Worker,
                                                            tmp_path: Path) -> None:
    rng = random.Random(36)
    surfaces: dict[str, list[Any]] = {}
    for app in (*APPS, "shards"):
        cases = []
        for k in range(PER_SURFACE):
            d = tmp_path / f"{app}-{k}"
            shutil.copytree(base / app, d, symlinks=True)
            marker = tmp_path / f"{app}-{k}.MARKER"
            what = mutate(d, rng, marker)
            reader = "anisosgs" if app == "shards" else app
            cases.append(({"id": f"{app}-{k}", "op": "data", "app": reader, "path": str(d)},
                          d, marker, what))
        surfaces[app] = cases
    tally, findings = _campaign(surfaces, worker)
    _report(tally)
    assert not findings, "\n".join(findings)
    refused = sum(n for (_, v), n in tally.items() if v == "refused")
    assert refused >= len(surfaces) * PER_SURFACE // 2  # the generator damages, mostly


@needs_torch
@pytest.mark.slow
def test_generated_hostile_checkpoints_never_run_code(worker: Worker, tmp_path: Path) -> None:
    rng = random.Random(3601)
    surfaces: dict[str, list[Any]] = {}
    for codec in ("torch", "npz"):
        cases = []
        for k in range(PER_SURFACE * 2):
            d = tmp_path / f"{codec}-{k}"
            _write_checkpoint(d, codec)
            marker = tmp_path / f"{codec}-{k}.MARKER"
            what = _checkpoint_mutation(d, codec, rng, marker)
            cases.append(({"id": f"{codec}-{k}", "op": "ckpt", "codec": codec, "dir": str(d)},
                          d, marker, what))
        surfaces[f"checkpoint-{codec}"] = cases
    tally, findings = _campaign(surfaces, worker)
    _report(tally)
    assert not findings, "\n".join(findings)
    gadgets = sum(1 for cases in surfaces.values() for *_, what in cases if "gadget" in what)
    assert gadgets >= PER_SURFACE  # many planted gadgets, none ran


# ------------------------------------------------------------------------- the app's command line

def _app(app: str, *args: str, cwd: Path, timeout: float = 180
         ) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", f"workloads.{app}", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)


def _one_error_line(res: subprocess.CompletedProcess[str]) -> str:
    """The refusal: exit 2, no traceback, exactly one error line, nothing on stdout."""
    assert res.returncode == 2, res.stderr[-3000:]
    assert "Traceback" not in res.stderr and res.stdout == "", res.stderr[-3000:]
    errors = [ln for ln in res.stderr.splitlines() if " error: " in ln]
    assert len(errors) == 1 and len(res.stderr.splitlines()) <= 2, res.stderr[-3000:]
    return errors[0]


@needs_torch
@pytest.mark.slow
def test_the_apps_refuse_a_planted_checkpoint_and_a_fifo_in_one_line(tmp_path: Path) -> None:
    """Issue 36 N1: the adversary's reproducer (case D017) created PWNED before the run
    refused the checkpoint; N16: a FIFO in place of pointnet's HDF5 file hung (D074)."""
    import torch

    step = tmp_path / "ck" / "step_000000001"
    step.mkdir(parents=True)
    torch.save({"m": Gadget(tmp_path / "PWNED", "system")}, step / "state.pt")
    (step / "COMPLETE").write_text("{}")
    res = _app("anisosgs", "--tiny", "--steps", "3", "--device", "cpu", "--workers", "0",
               "--checkpoint-dir", "ck", cwd=tmp_path)
    line = _one_error_line(res)
    assert "ck/step_000000001/state.pt: not a checkpoint file this runtime reads safely" in line
    assert not (tmp_path / "PWNED").exists()

    data = tmp_path / "d"
    data.mkdir()
    (data / "train_hdf5_file_list.txt").write_text("ply_data_train0.h5\n")
    os.mkfifo(data / "ply_data_train0.h5")
    res = _app("pointnet", "--tiny", "--data", "d", "--steps", "2", "--device", "cpu",
               "--workers", "0", cwd=tmp_path, timeout=60)
    assert _one_error_line(res).endswith(
        "d/ply_data_train0.h5: a FIFO, expected the ShapeNet part file (.h5) as a regular file")

    # a sample refused in a DataLoader worker comes back as the same one line (torch wraps it
    # with the worker's traceback in its text)
    tokens = tmp_path / "tokens"
    tokens.mkdir()
    np.full(100_000, 65535, dtype=np.uint16).tofile(tokens / "train.bin")
    res = _app("gpt", "--tiny", "--data", "tokens", "--steps", "2", "--device", "cpu",
               "--workers", "1", cwd=tmp_path, timeout=120)
    assert _one_error_line(res).endswith(
        "tokens/train.bin: token id 65535 is beyond the vocabulary of 64 (ids 0-63); write "
        "meta.pkl's vocab_size with the data, or choose a --config with a larger vocabulary")


RANKS_CHILD = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
from workloads.runtime.cli import check_args
from workloads.runtime.profiling import parse_ranks
ranks = parse_ranks("0-999999999999")
assert 0 in ranks and 999999999999 in ranks and 10**12 not in ranks and -1 not in ranks
assert 5 in parse_ranks("1,3-7") and 2 not in parse_ranks("1,3-7")
ns, err = check_args("anisosgs", ["--profile", "torch", "--profile-ranks", "0-999999999999"])
assert err is None, err
for bad in ("9" * 5000, "0-" + "9" * 5000, "0," * 2000 + "1"):
    ns, err = check_args("anisosgs", ["--profile-ranks", bad])
    assert ns is None and "give ranks like" in err and len(err) < 300, err
for bad in ("0:" + "9" * 5000, "9" * 5000 + ":1", "5:5"):
    ns, err = check_args("anisosgs", ["--profile-steps", bad])
    assert ns is None and "give A:B" in err and len(err) < 300, err
print("ok")
"""


def test_the_apps_profile_ranks_and_steps_are_bounded() -> None:
    """Issue 36 N15: --profile-ranks 0-999999999999 built a set of 10^12 ranks (4.9 GB in 40 s,
    then MemoryError); 5000 digits were a ValueError traceback. In a child limited to 1 GiB of
    address space (no torch: the parser imports none)."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    res = subprocess.run([sys.executable, "-c", RANKS_CHILD], env=env, capture_output=True,
                         text=True, timeout=60)
    assert res.returncode == 0 and res.stdout.strip() == "ok", res.stderr[-3000:]
