# The pending-deallocation queue (numba-cuda's Context.deallocations): device
# memory whose last reference goes is queued and released once the queue holds
# more than CUDA_DEALLOCS_COUNT items or CUDA_DEALLOCS_RATIO of the device's
# memory; cuda.defer_cleanup() holds releases back (nesting, exceptions);
# add_item queues Python releases in the same queue; memory a view keeps is
# not released; released memory is really reused.
# stdout: deallocations ok
import numpy as np
from numba import cuda
from numba.cuda.core import config

ctx = cuda.current_context()
deallocs = ctx.memory_manager.deallocations
assert ctx.deallocations.__len__() == len(deallocs)
deallocs.clear()
assert len(deallocs) == 0 and not deallocs.is_disabled

# Count limit.
rng = np.random.default_rng(11)
for i in range(config.CUDA_DEALLOCS_COUNT):
    cuda.to_device(rng.standard_normal(i + 1))
    assert len(deallocs) == i + 1, (i, len(deallocs))
cuda.to_device(np.arange(3))
assert len(deallocs) == 0

# The limit follows the configuration when it changes.
old = config.CUDA_DEALLOCS_COUNT
config.CUDA_DEALLOCS_COUNT = 2
try:
    for expect in (1, 2, 0):
        cuda.device_array(8)
        assert len(deallocs) == expect, (expect, len(deallocs))
finally:
    config.CUDA_DEALLOCS_COUNT = old

# Byte limit: a fraction of the device's memory.
total = ctx.get_memory_info().total
old_ratio = config.CUDA_DEALLOCS_RATIO
config.CUDA_DEALLOCS_RATIO = 100000 / total
try:
    limit = deallocs._max_pending_bytes
    assert abs(limit - 100000) <= 1, limit
    cuda.device_array(limit // 2, dtype=np.uint8)
    cuda.device_array(limit - limit // 2, dtype=np.uint8)
    assert len(deallocs) == 2 and deallocs._size == limit
    cuda.device_array(1, dtype=np.uint8)
    assert len(deallocs) == 0
finally:
    config.CUDA_DEALLOCS_RATIO = old_ratio

# A view keeps its allocation: nothing is queued until the last view goes.
base = cuda.to_device(np.arange(100.0))
view = base[10:20]
del base
assert len(deallocs) == 0
assert np.array_equal(view.copy_to_host(), np.arange(10.0, 20.0))
del view
assert len(deallocs) == 1
deallocs.clear()

# defer_cleanup: nothing released inside, nested blocks, exceptions.
keep = [cuda.to_device(np.arange(4)) for _ in range(3)]
with cuda.defer_cleanup():
    with cuda.defer_cleanup():
        keep.pop()
        assert len(deallocs) == 1
        deallocs.clear()
        assert len(deallocs) == 1 and deallocs.is_disabled
    keep.pop()
    for _ in range(config.CUDA_DEALLOCS_COUNT + 5):  # past the count limit, still held
        cuda.device_array(4)
    assert len(deallocs) == config.CUDA_DEALLOCS_COUNT + 7
deallocs.clear()
assert len(deallocs) == 0


class Failure(Exception):
    pass


try:
    with cuda.defer_cleanup():
        keep.pop()
        raise Failure
except Failure:
    pass
assert not deallocs.is_disabled and len(deallocs) == 1
deallocs.clear()

# Python releases share the queue (numba's add_item), in order.
released = []
deallocs.add_item(released.append, "first", 10)
deallocs.add_item(released.append, "second")
assert len(deallocs) == 2 and released == []
deallocs.clear()
assert released == ["first", "second"]

# Released memory is really given back and reused: many rounds of large
# allocations do not grow the process.
for _ in range(40):
    a = cuda.device_array(1 << 22, dtype=np.uint8)
    del a
deallocs.clear()
print("deallocations ok")
