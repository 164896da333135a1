"""One rank of test_workloads_schedules.py's DDP accumulation test (started by torchrun, gloo):
one runtime train step of tiny GPT, 2 micro-batches of 2 on each rank, SGD at rate 1; writes
the all-reduce count (a communication hook) and the parameters to DIR/rank<R>.json. Then the
same step with the sync flag left alone, to count what the flag saves."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from workloads.gpt.model import APP  # noqa: E402
from workloads.runtime.contract import Recipe  # noqa: E402
from workloads.runtime.device import select_device  # noqa: E402
from workloads.runtime.optim import Schedule  # noqa: E402
from workloads.runtime.precision import setup_precision  # noqa: E402
from workloads.runtime.train import _train_step  # noqa: E402


def step(use_flag: bool) -> tuple[int, list[list[float]]]:
    torch.manual_seed(0)
    model = APP.build_model(APP.sizes["tiny"])
    ddp = DDP(model)
    calls = [0]

    def hook(state, bucket):  # type: ignore[no-untyped-def] - DDP checks real annotations
        calls[0] += 1
        t = bucket.buffer().div_(dist.get_world_size())
        return dist.all_reduce(t, async_op=True).get_future().then(lambda f: f.value()[0])

    ddp.register_comm_hook(None, hook)
    opt = torch.optim.SGD(model.parameters(), lr=1.0)
    sched = Schedule(opt, Recipe(optimizer="sgd", lr=1.0), 1.0, 1, 10)
    prec = setup_precision("fp32", select_device("cpu", 0))
    train = _train_step(APP, ddp, opt, prec, sched, None, None, 2, ddp if use_flag else None)
    task = APP.make_task(APP.sizes["tiny"], torch.device("cpu"))
    train(task(torch.Generator().manual_seed(10 + dist.get_rank()), 4), 0)
    return calls[0], [p.detach().flatten().tolist() for p in model.parameters()]


def main() -> None:
    dist.init_process_group("gloo")
    calls, params = step(True)
    without, _ = step(False)
    out = Path(sys.argv[1]) / f"rank{dist.get_rank()}.json"
    out.write_text(json.dumps({"allreduce_calls": calls, "params": params,
                               "allreduce_calls_without_flag": without}))
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
