# cuda.profile_start/stop and cuda.profiling() (cuProfilerStart/Stop: they
# start and stop an attached profiler's collection; with none attached, and on
# the CPU backend, there is nothing to collect), and cuda.detect() listing
# the devices kernels run on.
# stdout: profiler ok
import contextlib
import io

from numba import cuda

with cuda.profiling():
    a = cuda.device_array(10)
    del a
cuda.profile_start()
cuda.profile_stop()
text = io.StringIO()
with contextlib.redirect_stdout(text):
    assert cuda.detect() is True
assert "Found %d CUDA devices" % len(cuda.gpus) in text.getvalue(), text.getvalue()
print("profiler ok")
