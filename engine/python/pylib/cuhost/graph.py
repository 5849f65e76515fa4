"""CUDA graphs from scripts: capture the work queued on a stream once, then
launch the whole sequence with one call.

    from cuhost import graph

    s = cuda.stream()
    with graph.capture(s) as g:          # nothing runs inside the block
        scale[blocks, threads, s](x, 2.0)
        add[blocks, threads, s](x, y, out)
        out.copy_to_device(other, stream=s)
    for step in range(1000):
        g.launch()                       # on the stream it was captured on
    g.launch(other_stream)

    g.kernels[1].set_args(x2, y2, out2)  # same kernel and types, other arrays

On a GPU the capture is CUDA's stream capture and a launch is one
cuGraphLaunch; on the CPU backend the graph is a recorded replay, with the
same semantics and the same errors. A captured launch keeps its argument
objects alive as long as the graph may run them.

What a graph cannot hold is refused with GraphCaptureError naming the
operation: waiting for the captured stream (Stream.synchronize,
cuda.synchronize, copies without a stream), copies between the device and
pageable host memory (use cuda.pinned_array), launches with host NumPy
arrays, allocation on the capturing thread, and events on the captured
stream.

``g.update(g2)`` gives ``g`` every argument and configuration of ``g2``,
a graph captured from the same sequence of launches and copies (on a GPU,
cuGraphExecUpdate): re-capture with other arrays, then update.
"""
import _cuhost

__all__ = ["capture", "Graph", "GraphKernelNode", "GraphCaptureError", "is_capturing"]

Graph = _cuhost.Graph
GraphKernelNode = _cuhost.GraphKernelNode
GraphCaptureError = _cuhost.GraphCaptureError


class capture:
    """``with capture(stream=None) as g:`` records the work queued on
    ``stream`` (default: the default launch stream) into the Graph ``g``,
    usable once the block ends. An exception inside the block ends the
    capture and drops what was recorded."""

    def __init__(self, stream=None):
        self.stream = stream
        self.graph = Graph()
        self._handle = None

    def __enter__(self):
        if self._handle is not None:
            raise GraphCaptureError("this capture is already in progress")
        self._handle = _cuhost._graph_begin_capture(self.stream)
        return self.graph

    def __exit__(self, exc_type, exc, tb):
        handle, self._handle = self._handle, None
        if exc_type is not None:
            _cuhost._graph_abort_capture(handle)
            return False
        _cuhost._graph_end_capture(handle, self.graph, self.stream)
        return False


def is_capturing(stream=None):
    """Whether ``stream`` (default: the default launch stream) is being captured."""
    return _cuhost._graph_is_capturing(stream)
