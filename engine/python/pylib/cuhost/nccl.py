"""Collectives on device arrays, over communicators the host lends.

The host creates the communicators (NCCL's ``ncclComm_t``) and lends them to
scripts, as it lends streams::

    cuhost run --nccl script.py                  # one process, one communicator per GPU
    mpirun -n 4 cuhost run --nccl script.py      # four ranks, each on the GPU of its local rank

and scripts use them with NCCL's operations (CuPy's and PyTorch's names)::

    from cuhost import nccl
    comm = nccl.communicator()          # the current device's
    comm.all_reduce(x)                  # in place: every rank gets the sum
    comm.all_reduce(x, out, op=nccl.MAX)
    with nccl.group():                  # sends and receives progress together
        comm.send(left_edge, peer=(comm.rank - 1) % comm.size)
        comm.recv(halo, peer=(comm.rank + 1) % comm.size)

Arrays are device arrays (``cuda.to_device``, ``cuda.device_array``, anything
with ``__cuda_array_interface__``) on the communicator's device, contiguous;
on the CPU backend NumPy arrays work too. Operations are asynchronous on
``stream`` (the device's default stream when None), like kernel launches.
In one process with several GPUs, bracket the calls for all communicators in
``nccl.group()`` (NCCL needs them issued together).

On the CPU backend the same calls run over MPI between ranks (Open MPI,
loaded at run time) or within the one rank of a single process, so
multi-process programs run and are tested without a GPU. Failures of the
library raise ``NcclError``; wrong arrays raise ``TypeError``/``ValueError``
before anything is sent.
"""
import enum as _enum

import numpy as np

import _cuhost
import cuda

__all__ = ["ReduceOp", "SUM", "PROD", "MAX", "MIN", "AVG", "NcclError", "Communicator", "communicators",
           "communicator", "get_rank", "get_world_size", "group", "is_available", "get_version"]

NcclError = _cuhost.NcclError


class ReduceOp(_enum.IntEnum):
    """The reductions (ncclRedOp_t): SUM, PROD, MAX, MIN and AVG."""
    SUM = 0
    PROD = 1
    MAX = 2
    MIN = 3
    AVG = 4


SUM, PROD, MAX, MIN, AVG = ReduceOp.SUM, ReduceOp.PROD, ReduceOp.MAX, ReduceOp.MIN, ReduceOp.AVG


def _op(op):
    if op.__class__ is ReduceOp:  # the common case, on every call: no lookup
        return op
    if isinstance(op, str):
        try:
            return ReduceOp[op.upper()]
        except KeyError:
            pass
    else:
        try:
            return ReduceOp(op)
        except ValueError:
            pass
    raise ValueError("unknown reduction %r (expected one of sum, prod, max, min, avg)" % (op,))


class Communicator:
    """One rank of a communicator the host lent.

    ``rank``, ``size`` (the number of ranks), ``device`` (the ordinal its
    arrays live on) and ``carrier`` ('nccl', 'mpi' or 'self')."""

    def __init__(self, native):
        self._c = native

    rank = property(lambda self: self._c.rank)
    size = property(lambda self: self._c.size)
    device = property(lambda self: self._c.device)
    carrier = property(lambda self: self._c.carrier)
    handle = property(lambda self: self._c.handle, doc="The ncclComm_t as an int (MPI_Comm on the CPU backend).")

    def all_reduce(self, send, recv=None, op=SUM, stream=None):
        """Every rank receives the reduction of all ranks' ``send`` (in place
        when ``recv`` is None). Returns the receiving array."""
        recv = send if recv is None else recv
        self._c.all_reduce(send, recv, _op(op), stream)
        return recv

    def reduce(self, send, recv=None, op=SUM, root=0, stream=None):
        """The ``root`` rank receives the reduction (in place when ``recv`` is
        None); ``recv`` is ignored on the other ranks. Returns it."""
        if recv is None and self.rank == root:
            recv = send
        self._c.reduce(send, recv, int(_op(op)), int(root), stream)
        return recv

    def broadcast(self, send, recv=None, root=0, stream=None):
        """Every rank receives ``root``'s array: into ``recv``, or in place
        into ``send`` when ``recv`` is None. Returns the receiving array."""
        if recv is None:
            self._c.broadcast(None, send, int(root), stream)
            return send
        self._c.broadcast(send, recv, int(root), stream)
        return recv

    def reduce_scatter(self, send, recv, op=SUM, stream=None):
        """``send`` holds ``size`` blocks of ``recv.size`` elements; rank r
        receives the reduction of every rank's block r."""
        self._c.reduce_scatter(send, recv, int(_op(op)), stream)
        return recv

    def all_gather(self, send, recv, stream=None):
        """``recv`` holds ``size`` blocks of ``send.size`` elements; block r
        is rank r's ``send``."""
        self._c.all_gather(send, recv, stream)
        return recv

    def send(self, array, peer, stream=None):
        """Sends ``array`` to rank ``peer`` (which receives it with recv)."""
        self._c.send(array, int(peer), stream)

    def recv(self, array, peer, stream=None):
        """Receives into ``array`` what rank ``peer`` sends."""
        self._c.recv(array, int(peer), stream)
        return array

    def barrier(self):
        """Waits until every rank reached the barrier (a one-element
        all-reduce, then a wait for it)."""
        with cuda.gpus[self.device]:
            flag = cuda.to_device(np.ones(1, dtype=np.int32))
            self.all_reduce(flag)
            flag.copy_to_host()

    def __eq__(self, other):
        return isinstance(other, Communicator) and (self.carrier, self.handle, self.rank, self.device) == (
            other.carrier, other.handle, other.rank, other.device)

    def __hash__(self):
        return hash((self.carrier, self.handle, self.rank, self.device))

    def __repr__(self):
        return "<cuhost.nccl.Communicator rank %d of %d on device %d (%s)>" % (
            self.rank, self.size, self.device, self.carrier)


def communicators():
    """The communicators the host lent to this process, in rank order.
    Raises RuntimeError when it lent none."""
    lent = [Communicator(c) for c in _cuhost._communicators()]
    if not lent:
        raise RuntimeError("no communicators were lent to this script: run it with `cuhost run --nccl SCRIPT` "
                           "(one process) or `mpirun -n N cuhost run --nccl SCRIPT` (N ranks), or have the host "
                           "call Runtime::create_communicators")
    return lent


def communicator(device=None):
    """The lent communicator of ``device`` (an ordinal or a Device; the
    current device when None)."""

    if device is None:
        device = cuda.get_current_device().id
    device = getattr(device, "id", device)
    lent = communicators()
    for c in lent:
        if c.device == device:
            return c
    raise RuntimeError("no communicator on device %d; the host lent communicators on device(s) %s"
                       % (device, ", ".join(str(c.device) for c in lent)))


def get_rank():
    """The rank of the current device's communicator."""
    return communicator().rank


def get_world_size():
    """The number of ranks of the current device's communicator."""
    return communicator().size


class _Group:
    """``with group():`` (a class, not a generator context manager: a group
    per step of a loop of small collectives is on the hot path)."""

    __slots__ = ()

    def __enter__(self):
        _cuhost._group_start()
        return self

    def __exit__(self, *exc):
        _cuhost._group_end()
        return False


_GROUP = _Group()


def group():
    """Brackets collectives and sends/receives so that they progress
    together (ncclGroupStart/ncclGroupEnd): several communicators of one
    process, or a rank's sends and receives that depend on each other."""
    return _GROUP


def is_available():
    """Whether collectives can run here: NCCL on the CUDA backend (the CPU
    backend needs nothing for one process, Open MPI for several)."""

    if cuda.backend() == "cuda":
        return _cuhost._collectives_info()["nccl"]
    return True


def get_version():
    """NCCL's version as a tuple (2, 28, 9), or None when it cannot be loaded."""
    info = _cuhost._collectives_info()
    if not info["nccl"]:
        return None
    return tuple(int(p) for p in info["nccl_version"].split("."))
