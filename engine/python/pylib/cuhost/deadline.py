"""Per-launch kernel deadlines, a cuhost extension beyond numba-cuda.

``with cuhost.kernel_deadline(0.25): k[grid, block](...)`` runs each launch of
the block under a deadline of 0.25 s: the kernel's variant with cancellation
points runs (compiled at its first such launch; launches outside the block
keep the variant without them), the launch waits for the kernel, and one
still running at the deadline is stopped and raises ``KernelError`` naming
the kernel and "its launch's deadline". A deadline only tightens: a shorter
script or runtime kernel timeout (``--kernel-timeout``) still applies.
The deadline belongs to the calling thread. See docs/RELIABILITY.md, "Kernel
deadlines".
"""
import _cuhost


class kernel_deadline:
    """Context manager: the launches this thread makes inside it have at most ``seconds`` (> 0) each."""

    def __init__(self, seconds):
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
            raise TypeError(f"kernel_deadline() takes a number of seconds, not {type(seconds).__name__}")
        if not 0 < seconds < float("inf"):
            raise ValueError(f"kernel_deadline() takes a finite number of seconds > 0, got {seconds}")
        self.seconds = float(seconds)
        self._outer = []

    def __enter__(self):
        self._outer.append(_cuhost._push_kernel_deadline(self.seconds))
        return self

    def __exit__(self, *exc):
        _cuhost._restore_kernel_deadline(self._outer.pop())
        return False

    def __repr__(self):
        return f"cuhost.kernel_deadline({self.seconds!r})"


def current_kernel_deadline():
    """(seconds, scope) of the deadline a launch from this thread gets now.

    scope is "launch" (kernel_deadline), "script" (Runtime::set_kernel_timeout)
    or "runtime" (--kernel-timeout); seconds is 0.0 when no deadline applies.
    """
    return _cuhost._current_kernel_deadline()
