# Without `--nccl` the host lends no communicator: cuhost.nccl says how to
# get one.
# stdout: no communicators ok
from cuhost import nccl

try:
    nccl.communicators()
    raise AssertionError("communicators without --nccl")
except RuntimeError as e:
    assert str(e) == ("no communicators were lent to this script: run it with `cuhost run --nccl SCRIPT` (one "
                      "process) or `mpirun -n N cuhost run --nccl SCRIPT` (N ranks), or have the host call "
                      "Runtime::create_communicators"), str(e)
assert issubclass(nccl.NcclError, Exception)
print("no communicators ok")
