# cuda.core's Device.create_graph_builder(): launches queued on the builder
# between begin_building() and end_building() are captured, not run;
# complete() gives a Graph whose launch(stream) runs them, each time, on a
# cuda.core Stream or a numba stream. Misuse is a RuntimeError.
# stdout: graph builder ok
import warnings

import numpy as np
from numba import cuda
from cuda.core import Device

warnings.filterwarnings("ignore", message="Grid size")

rng = np.random.default_rng(11)


@cuda.jit
def axpy(a, x, y):
    i = cuda.grid(1)
    if i < y.size:
        y[i] = a * x[i] + y[i]


dev = Device()
dev.set_current()
stream = dev.create_stream()
x_host = rng.standard_normal(300)
y_host = rng.standard_normal(300)
x = cuda.to_device(x_host, stream=stream)
y = cuda.to_device(y_host, stream=stream)
stream.sync()

builder = dev.create_graph_builder()
builder.begin_building()
assert builder.is_building
axpy[3, 128, builder](2.5, x, y)
axpy[3, 128, builder](-0.5, x, y)
graph = builder.end_building().complete()
assert not builder.is_building
assert np.array_equal(y.copy_to_host(), y_host), "the captured launches ran before the graph was launched"

graph.launch(stream)
stream.sync()

def run_once(y):
    return -0.5 * x_host + (2.5 * x_host + y)


expected = run_once(y_host)
assert np.allclose(y.copy_to_host(), expected, rtol=1e-12, atol=1e-12), y.copy_to_host()[:4]
numba_stream = cuda.stream()
graph.launch(numba_stream)
numba_stream.synchronize()
assert np.allclose(y.copy_to_host(), run_once(expected), rtol=1e-12, atol=1e-12)

for misuse in (lambda: dev.create_graph_builder().end_building(), lambda: dev.create_graph_builder().complete(),
               lambda: builder.begin_building()):
    try:
        misuse()
    except RuntimeError:
        pass
    else:
        raise SystemExit("a misused GraphBuilder raised nothing")
print("graph builder ok")
