"""Distribution for the TensorFlow apps, in this order:

1. Horovod, when ``horovod.tensorflow`` imports and this process was started by something
   Horovod initialises from (horovodrun, or an MPI launcher: runtime/ranks.horovod_joinable);
   ranks come from Horovod, initial variables are broadcast from rank 0 and gradients averaged
   by ``hvd.DistributedGradientTape``.
2. Otherwise MultiWorkerMirroredStrategy, with TF_CONFIG built from the launcher's rank
   variables and MASTER_ADDR/MASTER_PORT (rendezvous.py: one host or several). A TF_CONFIG
   already in the environment is used as given.
3. Otherwise (one rank) a single process.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from workloads.runtime.ranks import DistEnv, horovod_joinable

from .device import TFDevice
from .rendezvous import worker_addresses

_NUMPY_OP: dict[str, Callable[..., Any]] = {"max": np.max, "min": np.min, "sum": np.sum}


@dataclass
class TFDist:
    kind: str | None  # "horovod" | "multiworker" | None (one process)
    rank: int
    world_size: int
    local_rank: int
    backend: str | None  # the JSON's dist_backend
    strategy: Any = None  # MultiWorkerMirroredStrategy
    hvd: Any = None  # horovod.tensorflow
    _gather_fn: Any = None

    @property
    def enabled(self) -> bool:
        return self.kind is not None

    def all_reduce(self, values: list[float], op: str) -> list[float]:
        """Reduce host floats over all ranks (a collective: every rank calls it)."""
        if self.kind == "horovod":
            import tensorflow as tf

            hop = {"max": self.hvd.Max, "min": self.hvd.Min, "sum": self.hvd.Sum}[op]
            out = self.hvd.allreduce(tf.constant(values, tf.float64), op=hop)
            return [float(v) for v in out.numpy()]
        if self.kind == "multiworker":
            import tensorflow as tf

            gathered = self._gather()(tf.constant(values, tf.float64)).numpy()  # [workers, n]
            return [float(v) for v in _NUMPY_OP[op](gathered, axis=0)]
        return values

    def _gather(self) -> Any:
        """A traced all-gather of a float64 vector over the workers (built once)."""
        if self._gather_fn is None:
            import tensorflow as tf

            strategy = self.strategy

            @tf.function(input_signature=[tf.TensorSpec([None], tf.float64)])
            def gather(t: Any) -> Any:
                per_replica = strategy.run(lambda v: tf.expand_dims(v, 0), args=(t,))
                return strategy.gather(per_replica, axis=0)

            self._gather_fn = gather
        return self._gather_fn

    def barrier(self) -> None:
        if self.enabled:
            self.all_reduce([0.0], "sum")

    def leave(self, timeout_s: float) -> None:
        """Wait until every rank is done with its collectives; call once, last, on all ranks.

        A collective barrier is not enough under MultiWorkerMirroredStrategy: a worker pulls
        its peers' buffers (RecvBuf) after they have finished the collective, so a worker that
        leaves right after the last one can take its buffer with it while a peer still reads
        it ("Connection reset by peer"). The coordination service's barrier moves no tensors:
        once it opens, every rank has returned from all its collectives."""
        if self.kind != "multiworker":
            self.barrier()  # Horovod: its own shutdown at exit is coordinated
            return
        from tensorflow.python.eager import context  # no public API for the barrier

        ctx = context.context()
        wait = getattr(ctx, "wait_at_barrier", None)
        if wait is None or getattr(ctx, "coordination_service", None) is None:
            self.barrier()  # older TensorFlow: the collective barrier is the best there is
            return
        import tensorflow as tf

        try:
            wait("workloads_leave", int(timeout_s * 1000))
        except tf.errors.UnavailableError:
            # The barrier lives in rank 0's coordination service. Rank 0 leaves as soon as the
            # barrier opens and may take the service down before this rank's reply is sent
            # ("Socket closed"). Nothing of ours is read any more: rank 0 only gets past
            # the barrier when every rank is here, or it died, and its exit code says so.
            if self.rank == 0:
                raise
            print(f"[workloads rank {self.rank}] rank 0 left before the leave barrier "
                  "answered; exiting", file=sys.stderr, flush=True)


def tf_config(denv: DistEnv, timeout_s: float, environ: dict[str, str] | None = None) -> str:
    """TF_CONFIG for MultiWorkerMirroredStrategy from the launcher's rank variables."""
    env = os.environ if environ is None else environ
    addr = env.get("MASTER_ADDR") or "127.0.0.1"
    port = int(env.get("MASTER_PORT") or 29500)
    workers = worker_addresses(denv, addr, port, timeout_s)
    return json.dumps({"cluster": {"worker": workers},
                       "task": {"type": "worker", "index": denv.rank}})


def _import_horovod(required: bool) -> Any:
    try:
        import horovod.tensorflow as hvd
    except ImportError as exc:
        if required:
            raise RuntimeError(f"--dist-backend horovod: horovod.tensorflow does not import "
                               f"({exc}); build it with tools/build_horovod.sh") from exc
        return None
    return hvd


def _horovod(hvd: Any, denv: DistEnv) -> TFDist:
    hvd.init()
    if hvd.size() != denv.world_size:
        raise RuntimeError(
            f"Horovod started {hvd.size()} process(es) but the launcher says {denv.world_size}: "
            "launch with MPI or horovodrun, or use --dist-backend multiworker"
        )
    return TFDist("horovod", hvd.rank(), hvd.size(), hvd.local_rank(), "horovod", hvd=hvd)


def _multiworker(tf: Any, denv: DistEnv, dev: TFDevice, timeout_s: float) -> TFDist:
    if not os.environ.get("TF_CONFIG"):
        os.environ["TF_CONFIG"] = tf_config(denv, timeout_s)
    impl = tf.distribute.experimental.CommunicationImplementation
    nccl = dev.type == "cuda" and dev.stack == "cuda"
    options = tf.distribute.experimental.CommunicationOptions(
        implementation=impl.NCCL if nccl else impl.RING, timeout_seconds=timeout_s)
    strategy = tf.distribute.MultiWorkerMirroredStrategy(communication_options=options)
    task = json.loads(os.environ["TF_CONFIG"])["task"]
    return TFDist("multiworker", int(task["index"]), strategy.num_replicas_in_sync,
                  denv.local_rank, "multiworker-nccl" if nccl else "multiworker-ring",
                  strategy=strategy)


def init_distributed(tf: Any, denv: DistEnv, dev: TFDevice, choice: str,
                     timeout_s: float) -> TFDist:
    """Horovod, MultiWorkerMirroredStrategy or one process (module docstring). ``choice`` is
    ``--dist-backend``: auto, horovod or multiworker."""
    if choice == "horovod" or (choice == "auto" and denv.world_size > 1 and horovod_joinable()):
        hvd = _import_horovod(required=choice == "horovod")
        if hvd is not None:
            return _horovod(hvd, denv)
    if denv.world_size == 1:
        return TFDist(None, 0, 1, 0, None)
    return _multiworker(tf, denv, dev, timeout_s)
