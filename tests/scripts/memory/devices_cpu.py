# Without a GPU: cuda.gpus is empty and device queries raise CudaSupportError
# saying that kernels run on the CPU backend and why, like numba without a GPU.
# backends: cpu
# stdout: devices ok
from numba import cuda

assert not cuda.is_available()
assert len(cuda.gpus) == 0 and list(cuda.gpus) == [] and cuda.list_devices() == []
for fn in (cuda.get_current_device, lambda: cuda.select_device(0), cuda.current_context):
    try:
        fn()
        raise SystemExit("device query succeeded without a GPU")
    except cuda.CudaSupportError as err:
        assert str(err).startswith("no CUDA device: kernels run on the CPU backend ("), str(err)
try:
    cuda.gpus[0]
    raise SystemExit("gpus[0] succeeded without a GPU")
except IndexError as err:
    assert str(err).startswith("cuda.gpus is empty: no CUDA device: kernels run on the CPU backend ("), str(err)
cuda.close()
print("devices ok")
