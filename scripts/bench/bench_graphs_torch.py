# PyTorch's CUDA graphs on the graph benchmark (bench_graphs.py): a chain of
# 100 small elementwise kernels on one stream (50 steps of x.mul_(0.5) and
# x.add_(1.0)), launched one by one and replayed with torch.cuda.CUDAGraph,
# per kernel. Runs under python3 where torch is importable.
import json
import statistics
import time

import torch

CHAIN = 100
N = 256
CHAINS = 200
ROUNDS = 5

x = torch.zeros(N, device="cuda")
s = torch.cuda.Stream()


def eager():
    for _ in range(CHAIN // 2):
        x.mul_(0.5)
        x.add_(1.0)


def per_kernel(fn, name):
    with torch.cuda.stream(s):
        for _ in range(3):
            fn()
    s.synchronize()
    samples = []
    for _ in range(ROUNDS):
        t0 = time.perf_counter()
        with torch.cuda.stream(s):
            for _ in range(CHAINS):
                fn()
        s.synchronize()
        samples.append((time.perf_counter() - t0) / (CHAINS * CHAIN) * 1e6)
    ordered = sorted(samples)
    r = {"name": name, "system": "torch", "backend": "cuda", "unit": "us", "samples": samples,
         "median": statistics.median(samples), "p10": ordered[0], "p90": ordered[-1], "min": ordered[0]}
    print("%-40s %-14s %10.4f us" % (name, "torch/cuda", r["median"]))
    print("CUHOST-BENCH " + json.dumps(r), flush=True)


per_kernel(eager, "graph_chain100_eager")
g = torch.cuda.CUDAGraph()
with torch.cuda.stream(s):
    eager()  # warm-up on the side stream, as torch.cuda.graphs asks
s.synchronize()
with torch.cuda.graph(g, stream=s):
    eager()
per_kernel(g.replay, "graph_chain100_replay")
torch.cuda.synchronize()
assert torch.allclose(x, torch.full_like(x, 2.0))
