#!/usr/bin/env python3
"""Reads CUHOST-BENCH lines from one or more logs (cuhost, numba-cuda, CuPy,
nvcc, all measured in the same run) and prints the comparison: every figure
per system, then the PERFORMANCE.md targets with ratios, met or missed.
A figure measured in several rounds (the launch rows, interleaved with the
raw C++ launches) counts with the median of its rounds, and the P1 ratio of
every round is listed. `--markdown FILE` also writes the tables as Markdown
for docs/BENCHMARKS.md."""
import argparse
import json
import statistics

ap = argparse.ArgumentParser()
ap.add_argument("logs", nargs="+")
ap.add_argument("--markdown")
opts = ap.parse_args()

rows = []
for path in opts.logs:
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("CUHOST-BENCH "):
                rows.append(json.loads(line[len("CUHOST-BENCH "):]))

rounds = {}
for r in rows:
    rounds.setdefault(r["name"], {}).setdefault(r["system"], []).append(r)


def median_row(rs):
    """The round whose median is the median of all rounds (the upper one of an even count)."""
    ordered = sorted(rs, key=lambda r: r["median"])
    return ordered[len(ordered) // 2]


table = {name: {s: median_row(rs) for s, rs in by_system.items()} for name, by_system in rounds.items()}
systems = ["cuhost", "cuhost-cpp", "nvcc", "numba-cuda", "cupy", "torch"]


def value(name, system, key="median"):
    r = table.get(name, {}).get(system)
    return None if r is None else r.get(key)


def fmt(v, unit=""):
    return "-" if v is None else ("%.4g%s" % (v, unit))


lines = ["| benchmark | unit | " + " | ".join(systems) + " |", "|---|---|" + "---|" * len(systems)]
for name in sorted(table):
    unit = next(iter(table[name].values()))["unit"]
    cells = []
    for s in systems:
        r = table[name].get(s)
        if r is None:
            cells.append("-")
        else:
            extra = (" (%.0f GB/s)" % r["GBps"]) if "GBps" in r else ((" (%.0f GFLOP/s)" % r["GFLOPs"]) if "GFLOPs" in r else "")
            cells.append(fmt(r["median"]) + extra)
    lines.append("| %s | %s | %s |" % (name, unit, " | ".join(cells)))

targets = []


def target(pid, what, ratio, goal, le=True, note=""):
    met = None if ratio is None else (ratio <= goal if le else ratio >= goal)
    targets.append((pid, what, ratio, goal, le, met, note))


def ratio(a, b):
    return None if a is None or b is None or b == 0 else a / b


p1_rounds = [ratio(a["median"], b["median"]) for a, b in zip(rounds.get("launch_4args_device", {}).get("cuhost", []),
                                                                rounds.get("launch_4args_device", {}).get("nvcc", []))]
target("P1", "launch, 4 args, device arrays: cuhost / raw C++ (median of %d rounds)" % len(p1_rounds),
       ratio(value("launch_4args_device", "cuhost"), value("launch_4args_device", "nvcc")), 1.2,
       note="rounds: " + ", ".join("%.2f" % r for r in p1_rounds))
p2 = value("launch_4args_device", "cuhost-cpp")
raw = value("launch_4args_device", "nvcc")
target("P2", "launch from the C++ API minus raw C++ `<<<>>>`, us", None if p2 is None or raw is None else p2 - raw,
       0.3, note="cuhost-cpp %s us, raw %s us" % (fmt(p2), fmt(raw)))
target("P3", "launch with host numpy 4 KB arrays, us", value("launch_4args_host_numpy_4KB", "cuhost"), 40.0,
       note="numba-cuda %s us" % fmt(value("launch_4args_host_numpy_4KB", "numba-cuda")))
def round_list(name, system):
    """The figures of a row's rounds (PART_ROUNDS > 1), for the notes."""
    rs = rounds.get(name, {}).get(system, [])
    return "" if len(rs) < 2 else "; rounds " + ", ".join(fmt(r["median"]) for r in rs)


target("P4", "first call of saxpy in a fresh process, ms", value("first_call_saxpy_cold", "cuhost"), 30.0,
       note="numba-cuda %s ms%s" % (fmt(value("first_call_saxpy", "numba-cuda")),
                                    round_list("first_call_saxpy_cold", "cuhost")))
target("P4", "process start to first result, ms", value("process_start_to_first_result_cold", "cuhost"), 300.0,
       note="numba-cuda %s ms; raw CUDA C++ %s ms%s%s" % (
           fmt(value("process_start_to_first_result", "numba-cuda")),
           fmt(value("process_start_to_first_result", "nvcc")),
           round_list("process_start_to_first_result_cold", "cuhost"),
           round_list("process_start_to_first_result", "nvcc").replace("; rounds", "; raw rounds")))
target("P5", "first call of saxpy from the disk cache, ms", value("first_call_saxpy_cached", "cuhost"), 2.0)


target("P6", "first call linking a .cu, ms", value("first_call_ffi_cu_cold", "cuhost"), 60.0,
       note="numba-cuda %s ms%s" % (fmt(value("first_call_ffi_cu", "numba-cuda")),
                                   round_list("first_call_ffi_cu_cold", "cuhost")))
target("P6", "the same, cached, ms", value("first_call_ffi_cu_cached", "cuhost"), 2.0,
       note=round_list("first_call_ffi_cu_cached", "cuhost").lstrip("; "))
def paired_rounds(name):
    """nvcc / cuhost of each round where the kernels part ran in rounds (PART_ROUNDS > 1)."""
    pairs = list(zip(rounds.get(name, {}).get("nvcc", []), rounds.get(name, {}).get("cuhost", [])))
    return "" if len(pairs) < 2 else "; rounds " + ", ".join(fmt(ratio(a["median"], b["median"])) for a, b in pairs)


for k in ("saxpy", "reduction", "stencil_2d", "matmul_tiled_shared", "transcendental", "foreign_call"):
    target("P7", "%s: nvcc time / cuhost time" % k, ratio(value(k, "nvcc"), value(k, "cuhost")), 0.99, le=False,
           note="numba-cuda %s%s" % (fmt(ratio(value(k, "nvcc"), value(k, "numba-cuda"))), paired_rounds(k)))
target("P8", "foreign-call kernel / all-CUDA-C version", ratio(value("foreign_call", "cuhost"),
       value("foreign_call_all_cuda_c", "nvcc")), 1.05)
for k in ("ufunc_saxpy", "ufunc_reduce_sum"):
    target("U1", "%s (2^26 float32): nvcc time / cuhost time" % k, ratio(value(k, "nvcc"), value(k, "cuhost")), 0.97,
           le=False, note="numba-cuda %s; CuPy %s; ms per round: cuhost %s, nvcc %s" % (
               fmt(ratio(value(k, "nvcc"), value(k, "numba-cuda"))), fmt(ratio(value(k, "nvcc"), value(k, "cupy"))),
               " ".join(fmt(r["median"]) for r in rounds.get(k, {}).get("cuhost", [])) or "-",
               " ".join(fmt(r["median"]) for r in rounds.get(k, {}).get("nvcc", [])) or "-"))
target("U2", "small ufunc call / plain kernel launch (cuhost)", ratio(value("ufunc_call_small", "cuhost"),
       value("ufunc_plain_launch_small", "cuhost")), 1.5,
       note="numba-cuda %s; CuPy ElementwiseKernel %s us" % (
           fmt(ratio(value("ufunc_call_small", "numba-cuda"), value("ufunc_plain_launch_small", "numba-cuda"))),
           fmt(value("ufunc_call_small", "cupy"))))
for k in ("random_init_states_2^20", "random_uniform_f32_2^28"):
    target("R1", "%s: numba-cuda time / cuhost time" % k, ratio(value(k, "numba-cuda"), value(k, "cuhost")), 1.0,
           le=False, note="CuPy %s" % fmt(ratio(value(k, "numba-cuda"), value(k, "cupy"))))
c10, c100 = value("first_call_chain_10_cold", "cuhost"), value("first_call_chain_100_cold", "cuhost")
target("P10", "compile time growth, 100 vs 10 chained functions (linear: ~10)", ratio(c100, c10), 12.0,
       note="numba-cuda %s" % fmt(ratio(value("first_call_chain_100", "numba-cuda"), value("first_call_chain_10", "numba-cuda"))))

replay, replay_raw = value("graph_chain100_replay", "cuhost"), value("graph_chain100_replay", "nvcc")
target("G1", "graph replay per kernel (chain of 100), cuhost / raw CUDA C++ graph", ratio(replay, replay_raw), 1.1,
       note="cuhost %s us, raw %s us; C++ API %s us; PyTorch CUDAGraph %s us" % (
           fmt(replay), fmt(replay_raw), fmt(value("graph_chain100_replay", "cuhost-cpp")),
           fmt(value("graph_chain100_replay", "torch"))))
target("G2", "cuhost eager launches / cuhost graph replay, per kernel", ratio(value("graph_chain100_eager", "cuhost"),
       replay), 3.0, le=False,
       note="raw C++ %s; numba-cuda eager %s us; PyTorch %s" % (
           fmt(ratio(value("graph_chain100_eager", "nvcc"), replay_raw)),
           fmt(value("graph_chain100_eager", "numba-cuda")),
           fmt(ratio(value("graph_chain100_eager", "torch"), value("graph_chain100_replay", "torch")))))

tl = ["| target | what | measured | goal | status | peer |", "|---|---|---|---|---|---|"]
for pid, what, r, goal, le, met, note in targets:
    status = "not measured" if met is None else ("met" if met else "missed")
    tl.append("| %s | %s | %s | %s %s | %s | %s |" % (pid, what, fmt(r), "<=" if le else ">=", goal, status, note))

print("\n".join(lines))
print()
print("\n".join(tl))
if opts.markdown:
    with open(opts.markdown, "w") as f:
        f.write("## Targets\n\n" + "\n".join(tl) + "\n\n## All figures\n\n" + "\n".join(lines) + "\n")
