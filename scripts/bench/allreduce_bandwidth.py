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

Both sides are timed the same way: each rank's all-reduces run on one
stream (PyTorch's: its current stream, which NCCL's own stream is joined
to), after the same untimed warm-up, between two CUDA events recorded on
that stream; a size's time is the slowest rank's event time / --iters. In
one process, cuhost drives its devices from one thread (the calls of one
iteration in one nccl.group()), or with --threads from one thread per
device, as PyTorch's one process per GPU does.
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
parser.add_argument("--threads", action="store_true", help="one process: one thread per device, no group")
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
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(args.iters):
            dist.all_reduce(x)
        end.record()
        end.synchronize()
        seconds = torch.tensor([start.elapsed_time(end) / 1e3 / args.iters], device="cuda")
        dist.all_reduce(seconds, op=dist.ReduceOp.MAX)  # the slowest rank's time
        rows.append((nbytes, seconds.item()))
    if rank == 0:
        report(world, rows, "PyTorch %s (NCCL %s)" % (torch.__version__, ".".join(map(str, torch.cuda.nccl.version()))))
    dist.destroy_process_group()


def run_cuhost():
    import threading

    import numpy as np
    from numba import cuda
    from cuhost import nccl

    comms = nccl.communicators()
    world = comms[0].size
    gpu = cuda.backend() == "cuda"
    streams, buffers = {}, {}
    for c in comms:
        with cuda.gpus[c.device]:
            streams[c.rank] = cuda.stream()

    def timed(c, iterations):
        """Runs `iterations` all-reduces of communicator c (its own thread),
        returning the seconds its stream took."""
        with cuda.gpus[c.device]:
            s, x = streams[c.rank], buffers[c.rank]
            if not gpu:
                t0 = time.perf_counter()
                for _ in range(iterations):
                    c.all_reduce(x, stream=s)
                return time.perf_counter() - t0
            start, end = cuda.event(), cuda.event()
            start.record(s)
            for _ in range(iterations):
                c.all_reduce(x, stream=s)
            end.record(s)
            end.synchronize()
            return start.elapsed_time(end) / 1e3

    def grouped(iterations):
        """One thread: each iteration's calls in one group (NCCL needs it
        for several communicators of one thread)."""
        if not gpu:
            t0 = time.perf_counter()
            for _ in range(iterations):
                with nccl.group():
                    for c in comms:
                        c.all_reduce(buffers[c.rank], stream=streams[c.rank])
            return [time.perf_counter() - t0]
        events = {}
        for c in comms:
            with cuda.gpus[c.device]:
                events[c.rank] = (cuda.event(), cuda.event())
                events[c.rank][0].record(streams[c.rank])
        for _ in range(iterations):
            with nccl.group():
                for c in comms:
                    c.all_reduce(buffers[c.rank], stream=streams[c.rank])
        times = []
        for c in comms:
            with cuda.gpus[c.device]:
                start, end = events[c.rank]
                end.record(streams[c.rank])
                end.synchronize()
                times.append(start.elapsed_time(end) / 1e3)
        return times

    def threaded(iterations):
        times = [0.0] * len(comms)

        def work(i):
            times[i] = timed(comms[i], iterations)

        threads = [threading.Thread(target=work, args=(i,)) for i in range(len(comms))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return times

    def measure(iterations):
        if len(comms) == 1:
            return [timed(comms[0], iterations)]
        return threaded(iterations) if args.threads else grouped(iterations)

    rows = []
    for nbytes in sizes:
        for c in comms:
            with cuda.gpus[c.device]:
                buffers[c.rank] = cuda.to_device(np.ones(nbytes // 4, dtype=np.float32))
        measure(args.warmup)
        seconds = max(measure(args.iters)) / args.iters
        if len(comms) < world and comms[0].carrier != "self":  # MPI ranks: the slowest rank's time
            t = np.array([seconds])
            with cuda.gpus[comms[0].device]:
                d = cuda.to_device(t)
                comms[0].all_reduce(d, op=nccl.MAX)
                seconds = float(d.copy_to_host()[0])
        rows.append((nbytes, seconds))
        buffers.clear()
    if comms[0].rank == 0:
        scope = "one process" if len(comms) == world else "MPI ranks"
        if len(comms) > 1:
            scope += ", a thread per device" if args.threads else ", one thread"
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
