# A child forked after the parent initialized CUDA cannot use the driver:
# its first CUDA use raises numba-cuda's CudaDriverError "CUDA initialized
# before forking" (through concurrent.futures, as numba-cuda's own test
# does), never a driver call that fails or hangs; spawn children and a
# forkserver (whose server started no driver) work. Run over the null driver.
# stdout: fork after init ok
import concurrent.futures
import multiprocessing as mp

import numpy as np
from numba import cuda
from numba.cuda.cudadrv.error import CudaDriverError


def copy_in_child(n):
    return cuda.to_device(np.arange(n)).copy_to_host().size


if __name__ == "__main__":
    assert cuda.backend() == "cuda", cuda.backend()
    cuda.current_context()  # the parent initializes CUDA
    with concurrent.futures.ProcessPoolExecutor(mp_context=mp.get_context("fork")) as exe:
        future = exe.submit(cuda.to_device, np.arange(1))
    try:
        future.result()
    except CudaDriverError as e:
        assert "CUDA initialized before forking" in str(e), str(e)
    else:
        raise AssertionError("a forked child used CUDA")
    for method in ("spawn", "forkserver"):
        with concurrent.futures.ProcessPoolExecutor(2, mp_context=mp.get_context(method)) as exe:
            assert list(exe.map(copy_in_child, [3, 5])) == [3, 5], method
    print("fork after init ok")
