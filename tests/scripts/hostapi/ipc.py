# CUDA IPC between processes: an exported device array (or a slice of one, or
# a foreign array through the CUDA Array Interface) is opened in a spawned
# process and read; the child's writes are seen by the parent (the memory is
# shared, not copied); handles pickle; opening twice and closing unopened
# handles are refused with numba-cuda's messages; open_ipc_array takes the
# handle's bytes. On the CPU backend the memory is shared through memfds.
# stdout: ipc ok
import concurrent.futures
import multiprocessing as mp
import os
import pickle

import numpy as np
from numba import cuda


def read_and_write(ipch, parent):
    assert os.getpid() != parent
    with ipch as arr:
        values = arr.copy_to_host()
        arr[0] = -1  # seen by the parent
        try:
            with ipch:
                pass
        except ValueError as err:
            assert str(err) == "IpcHandle is already opened", err
        else:
            raise AssertionError("opened twice")
    return values


def read_raw(handle_bytes, size, parent):
    assert os.getpid() != parent
    with cuda.open_ipc_array(handle_bytes, shape=size // 8, dtype=np.float64) as arr:
        return arr.copy_to_host()


class Foreign:
    def __init__(self, arr):
        self.arr = arr
        self.__cuda_array_interface__ = arr.__cuda_array_interface__


if __name__ == "__main__":
    rng = np.random.default_rng(4)
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=mp.get_context("spawn")) as pool:
        for index in (None, slice(3, None), slice(2, 9, 1)):
            for foreign in (False, True):
                host = rng.standard_normal(12)
                dev = cuda.to_device(host)
                view = dev if index is None else dev[index]
                if foreign:
                    view = cuda.as_cuda_array(Foreign(view))
                handle = view.get_ipc_handle()
                again = pickle.loads(pickle.dumps(handle))
                got = pool.submit(read_and_write, again, os.getpid()).result(timeout=120)
                assert np.array_equal(got, host if index is None else host[index]), (index, foreign)
                changed = dev.copy_to_host()
                first = 0 if index is None else index.start
                assert changed[first] == -1, (index, foreign, changed)

        host = rng.standard_normal(20)
        dev = cuda.to_device(host)
        ipch = cuda.current_context().get_ipc_handle(dev.gpu_data)
        assert ipch.size == host.nbytes and ipch.offset == 0
        rebuilt = pickle.loads(pickle.dumps(ipch))
        assert rebuilt.base is None and rebuilt.handle.reserved == ipch.handle.reserved
        got = pool.submit(read_raw, ipch.handle.reserved, ipch.size, os.getpid()).result(timeout=120)
        assert np.array_equal(got, host)
    try:
        ipch.close()
        raise SystemExit("closing an unopened handle was accepted")
    except ValueError as err:
        assert str(err) == "IpcHandle not opened", err
    print("ipc ok")
