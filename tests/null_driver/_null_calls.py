"""What cuhost asked of the null driver, for the scripts that check it:
its per-entry-point call counts (null_call_counts.h) and the calls that
failed (null_failures.h), through the null libcuda's own exports."""
import ctypes

null = ctypes.CDLL("libcuda.so.1")
null.cuhostNullCallCounts.restype = ctypes.c_char_p
null.cuhostNullFailedCalls.restype = ctypes.c_char_p


def call_counts():
    """{entry point: calls} since the last clear_call_counts(), the ones called only."""
    out = {}
    for line in null.cuhostNullCallCounts().decode().splitlines():
        name, n = line.split()
        out[name] = int(n)
    return out


def clear_call_counts():
    null.cuhostNullClearCallCounts()
