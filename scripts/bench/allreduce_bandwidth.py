"""All-reduce bandwidth, 1 MiB to 1 GiB of float32, as nccl-tests reports it:
algorithm bandwidth = bytes / time, bus bandwidth = algbw * 2 (n - 1) / n
(what each link carries in a ring), averaged over --iters timed calls after
--warmup untimed ones.

    cuhost run --nccl allreduce_bandwidth.py               # one process, every GPU
    mpirun -n 8 cuhost run --nccl allreduce_bandwidth.py    # 8 ranks, a GPU each
    torchrun --nproc_per_node 8 allreduce_bandwidth.py --torch   # PyTorch's NCCL all-reduce, the peer

Rank 0 prints the table; --json FILE also writes it (compare with
run_multigpu_comparison.sh). On the CPU backend it measures MPI between
processes (or a copy, in one process). Not named bench_*: `cuhost bench`
runs those on their own, and this one needs --nccl or several processes.
"""
import argparse
import json
import os
import sys
import time

parser = argparse.ArgumentParser()
parser.add_argument("--torch", action="store_true", help="measure torch.distributed's NCCL all-reduce instead")
parser.add_argument("--min-bytes", type=int, default=1 << 20)
parser.add_argument("--max-bytes", type=int, default=1 << 30)
parser.add_argument("--iters", type=int, default=20)
parser.add_argument("--warmup", type=int, default=5)
parser.add_argument("--json", default="")
args = parser.parse_args()

sizes = []
b = args.min_bytes
while b <= args.max_bytes:
    sizes.append(b)
    b *= 2


def report(world, rows, label):
    print("%s all-reduce, float32, %d rank(s)" % (label, world))
    print("%12s %12s %12s %12s" % ("bytes", "time (us)", "algbw GB/s", "busbw GB/s"))
    for nbytes, seconds in rows:
        algbw = nbytes / seconds / 1e9
        busbw = algbw * 2 * (world - 1) / world if world > 1 else algbw
        print("%12d %12.1f %12.2f %12.2f" % (nbytes, seconds * 1e6, algbw, busbw))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"label": label, "ranks": world,
                       "rows": [{"bytes": n, "seconds": s} for n, s in rows]}, f, indent=1)


def run_torch():
    import torch
    import torch.distributed as dist

    dist.init_process_group("nccl")
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", rank)))
    rows = []
    for nbytes in sizes:
        x = torch.ones(nbytes // 4, dtype=torch.float32, device="cuda")
        for _ in range(args.warmup):
            dist.all_reduce(x)
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(args.iters):
            dist.all_reduce(x)
        torch.cuda.synchronize()
        rows.append((nbytes, (time.perf_counter() - start) / args.iters))
    if rank == 0:
        report(world, rows, "PyTorch %s (NCCL %s)" % (torch.__version__, ".".join(map(str, torch.cuda.nccl.version()))))
    dist.destroy_process_group()


def run_cuhost():
    import numpy as np
    from numba import cuda
    from cuhost import nccl

    comms = nccl.communicators()
    world = comms[0].size
    buffers = {}

    def all_reduce_everywhere(nbytes):
        with nccl.group():
            for c in comms:
                with cuda.gpus[c.device]:
                    c.all_reduce(buffers[c.rank])

    def wait():
        for c in comms:
            with cuda.gpus[c.device]:
                cuda.synchronize()

    rows = []
    for nbytes in sizes:
        for c in comms:
            with cuda.gpus[c.device]:
                buffers[c.rank] = cuda.to_device(np.ones(nbytes // 4, dtype=np.float32))
        for _ in range(args.warmup):
            all_reduce_everywhere(nbytes)
        wait()
        start = time.perf_counter()
        for _ in range(args.iters):
            all_reduce_everywhere(nbytes)
        wait()
        rows.append((nbytes, (time.perf_counter() - start) / args.iters))
        buffers.clear()
    if comms[0].rank == 0:
        scope = "one process" if len(comms) == world else "MPI ranks"
        if comms[0].carrier == "nccl":
            label = "cuhost (NCCL %s, %s)" % (".".join(map(str, nccl.get_version())), scope)
        else:
            label = "cuhost (%s, CPU backend)" % ("MPI" if comms[0].carrier == "mpi" else "one rank")
        report(world, rows, label)


if args.torch:
    run_torch()
else:
    run_cuhost()
sys.stdout.flush()
