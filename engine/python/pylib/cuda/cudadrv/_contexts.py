"""The devices and contexts of numba-cuda's driver layer, over the driver
object (`driver`, numba's Driver: _driver_object.py, whose names this module
also exports).

Each device has one primary context, a `Context` kept for the process: its
memory manager, pending deallocations and modules. As with the driver,
contexts made current form a per-thread stack: current_context() pushes the
device's primary context when none is current, and refuses to work in a
context that is not primary. cuhost's own work always runs in the primary
context of the device selected with select_device.
"""
import contextlib
import functools
import threading
import weakref

import _cuhost

from . import _memory
from ._driver_object import (  # noqa: F401  (numba's names here too)
    _DISABLED_MESSAGE,
    CU_STREAM_DEFAULT,
    MIN_REQUIRED_CC,
    CudaAPIError,
    Driver,
    _ActiveContext,
    driver,
    register_device_class,
    require_driver,
)
from ._ipc import open_ipc_memory
from ._memory_managers import PendingDeallocs, _ensure_memory_manager, is_cuhost_allocator
from ._modules import load_module_image, load_module_ptx
from .error import CudaSupportError

# ---- devices ----------------------------------------------------------------------

# Per thread: the devices `with gpus[i]:` blocks return to, and the device a
# @require_context function is attached to. The current device is the
# calling thread's (the C++ runtime keeps it per thread), so one Device object
# may be entered by several threads at once.
_entered = threading.local()


@contextlib.contextmanager
def on_device(device_id):
    """Runs the block on device `device_id` for the calling thread, then
    returns to the thread's device (no context is pushed)."""
    previous = _cuhost._current_device_id()
    if previous != device_id:
        _cuhost._select_device(device_id)
    try:
        yield
    finally:
        if previous != device_id:
            _cuhost._select_device(previous)


def check_switch(device_id):
    """Inside a @require_context function the thread's device is fixed
    (numba's attached context): switching raises, as in numba-cuda."""
    attached = getattr(_entered, "attached", None)
    if attached is not None and attached != device_id:
        raise RuntimeError("Cannot switch CUDA-context.")


class Device:
    """A device (numba's Device): id, name, compute_capability, uuid and the
    driver attributes (MAX_THREADS_PER_BLOCK, MULTIPROCESSOR_COUNT, ...).
    On the CPU backend device 0 is the CPU. `with device:` makes it current
    (its primary context pushed, the device selected) for the block."""

    @classmethod
    def from_identity(cls, identity):
        return driver.get_device_of_identity(identity)

    def __init__(self, ordinal):
        self.id = int(ordinal)
        self.primary_context = None

    @property
    def name(self):
        return _cuhost._device_name(self.id)

    @property
    def compute_capability(self):
        return (_cuhost._device_attribute(self.id, "COMPUTE_CAPABILITY_MAJOR"),
                _cuhost._device_attribute(self.id, "COMPUTE_CAPABILITY_MINOR"))

    @property
    def uuid(self):
        """The device's UUID as "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"."""
        h = driver.cuDeviceGetUuid(self.id).bytes.hex()
        return "GPU-%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])

    @property
    def supports_float16(self):
        return self.compute_capability >= (5, 3)

    @property
    def supports_bfloat16(self):
        return self.compute_capability >= (8, 0)

    @property
    def supports_fp8(self):
        return self.compute_capability >= (8, 9)

    def get_device_identity(self):
        return {"pci_domain_id": self.PCI_DOMAIN_ID, "pci_bus_id": self.PCI_BUS_ID,
                "pci_device_id": self.PCI_DEVICE_ID}

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return _cuhost._device_attribute(self.id, name)

    def __dir__(self):
        return sorted(set(object.__dir__(self)) | set(_cuhost._device_attribute_names()))

    def get_primary_context(self):
        """The device's primary context (not made current)."""
        ctx = self.primary_context
        if ctx is None:
            require_driver()
            if self.compute_capability < MIN_REQUIRED_CC:
                raise CudaSupportError("%s has compute capability < %s" % (self, MIN_REQUIRED_CC))
            handle = driver.cuDevicePrimaryCtxRetain(self.id)
            ctx = self.primary_context = Context(weakref.proxy(self), handle)
        return ctx

    def release_primary_context(self):
        if self.primary_context is not None:
            driver.cuDevicePrimaryCtxRelease(self.id)
            self.primary_context = None

    def reset(self):
        """Resets the primary context's resources (see Context.reset); the
        context itself stays (the host shares it)."""
        if self.primary_context is not None:
            self.primary_context.reset()

    def __enter__(self):
        require_driver()
        check_switch(self.id)
        stack = _entered.__dict__.setdefault("devices", [])
        stack.append(_cuhost._current_device_id())
        self.get_primary_context().push()
        if _cuhost._current_device_id() != self.id:
            _cuhost._select_device(self.id)
        return self

    def __exit__(self, *exc):
        self.get_primary_context().pop()
        previous = _entered.devices.pop()
        if previous != self.id:
            _cuhost._select_device(previous)
        return False

    def __eq__(self, other):
        return isinstance(other, Device) and other.id == self.id

    def __hash__(self):
        return hash(self.id)

    def __str__(self):
        return "<Managed Device %d>" % self.id

    def __repr__(self):
        return "<CUDA device %d '%s'>" % (self.id, self.name)


register_device_class(Device)  # driver.get_device() makes these (_driver_object.py)


class _DeviceList:
    """cuda.gpus: the devices kernels can run on (the CPU alone on the CPU backend)."""

    @property
    def lst(self):
        return [driver.get_device(i) for i in range(_cuhost._device_count())]

    def __len__(self):
        return _cuhost._device_count()

    def __getitem__(self, i):
        if isinstance(i, slice):
            return self.lst[i]
        i = int(i)
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("device index %d out of range (%d device(s))" % (i, n))
        return driver.get_device(i)

    def __iter__(self):
        return iter(self.lst)

    @property
    def current(self):
        """The device of the thread's current context, else the device
        cuhost works on (select_device's; cuhost always has one)."""
        with driver.get_active_context() as ac:
            if ac.devnum is not None:
                return self[ac.devnum]
        return self[_cuhost._current_device_id()]

    def __str__(self):
        return ", ".join(str(d) for d in self.lst)

    def __repr__(self):
        return "<Managed Device list: %d device(s)>" % len(self)


gpus = _DeviceList()


# ---- contexts -----------------------------------------------------------------------

class Context:
    """A device's context (numba's Context): memory manager, pending
    deallocations, modules, streams and events of the device."""

    def __init__(self, device, handle):
        self.device = device
        self.handle = handle
        self.allocations = {}
        self.deallocations = PendingDeallocs(_device_id(device))
        self._memory_manager = None
        self.memory_manager = _ensure_memory_manager()(context=self)
        self.modules = {}
        self.extras = {}

    @property
    def memory_manager(self):
        return self._memory_manager

    @memory_manager.setter
    def memory_manager(self, manager):
        """Installs a memory manager: a plugin receives the device's
        allocations from now on; cuhost's own manager gives them back to
        cuhost's allocator."""
        self._memory_manager = manager
        device = _device_id(self.device)
        if is_cuhost_allocator(manager):
            _cuhost._use_external_allocator(device, None)
        else:
            _cuhost._use_external_allocator(device, _PluginAllocator(self))

    def reset(self):
        """Releases the context's resources: the memory manager's (reset()),
        its modules (teardown callbacks run; kernels load again when next
        launched) and the pending deallocations, after waiting for
        outstanding work."""
        with on_device(_device_id(self.device)):
            _cuhost.synchronize()
        self.memory_manager.reset()
        modules = list(self.modules.values())
        self.modules.clear()
        for module in modules:  # loaded with create_module_ptx/_image
            module.unload()
        _cuhost._unload_modules()
        self.deallocations.clear()

    def get_memory_info(self):
        """(free, total) bytes of this context's device memory, from the memory manager."""
        with on_device(_device_id(self.device)):
            return self.memory_manager.get_memory_info()

    def can_access_peer(self, peer_device):
        """Whether kernels on this context's device can use the memory of
        device `peer_device` (cuDeviceCanAccessPeer). Launches enable the
        access when they first need it."""
        peer = getattr(peer_device, "id", peer_device)
        return _cuhost._can_access_peer(_device_id(self.device), int(peer))

    def get_active_blocks_per_multiprocessor(self, func, blocksize, memsize, flags=None):
        """How many blocks of `blocksize` threads using `memsize` bytes of
        dynamic shared memory fit on one multiprocessor."""
        occupancy = getattr(func, "_active_blocks_per_multiprocessor", None)
        if occupancy is not None:
            return occupancy(blocksize, memsize)
        return driver.cuOccupancyMaxActiveBlocksPerMultiprocessor(func.handle, blocksize, memsize)

    def prepare_for_use(self):
        self.memory_manager.initialize()

    def push(self):
        driver.cuCtxPushCurrent(self.handle)
        self.prepare_for_use()

    def pop(self):
        popped = driver.pop_active_context()
        assert popped is not None and int(popped) == int(self.handle), "popped a context that was not current"

    def memalloc(self, bytesize):
        return self.memory_manager.memalloc(bytesize)

    def memallocmanaged(self, bytesize, attach_global=True):
        return self.memory_manager.memallocmanaged(bytesize, attach_global)

    def memhostalloc(self, bytesize, mapped=False, portable=False, wc=False):
        return self.memory_manager.memhostalloc(bytesize, mapped, portable, wc)

    def mempin(self, owner, pointer, size, mapped=False):
        return self.memory_manager.mempin(owner, pointer, size, mapped)

    def get_ipc_handle(self, memory):
        """An IPC handle for device memory (see ipc.IpcHandle)."""
        return self.memory_manager.get_ipc_handle(memory)

    def open_ipc_handle(self, handle, size):
        return open_ipc_memory(self, handle, size)

    def create_module_ptx(self, ptx):
        return load_module_ptx(self, ptx)

    def create_module_image(self, image, setup_callbacks=None, teardown_callbacks=None):
        return load_module_image(self, image, setup_callbacks, teardown_callbacks)

    def unload_module(self, module):
        self.modules.pop(int(module.handle), None)
        module.unload()

    def get_default_stream(self):
        return _cuhost.default_stream()

    def get_legacy_default_stream(self):
        return _cuhost.legacy_default_stream()

    def get_per_thread_default_stream(self):
        return _cuhost.per_thread_default_stream()

    def create_stream(self):
        return _cuhost.stream()

    def create_external_stream(self, ptr):
        return _cuhost.external_stream(int(ptr))

    def create_event(self, timing=True):
        return _cuhost.event(timing)

    def synchronize(self):
        with on_device(_device_id(self.device)):
            _cuhost.synchronize()

    @contextlib.contextmanager
    def defer_cleanup(self):
        with self.memory_manager.defer_cleanup(), self.deallocations.disable():
            yield

    def __repr__(self):
        return "<CUDA context 0x%x of device %d>" % (int(self.handle), _device_id(self.device))

    def __eq__(self, other):
        return isinstance(other, Context) and int(self.handle) == int(other.handle)

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(int(self.handle))


def _device_id(device):
    return int(getattr(device, "id", device) or 0)


class _PluginAllocator:
    """Device allocations of a context routed to its memory-manager plugin:
    called with a size, returns (address, the plugin's memory object)."""

    def __init__(self, context):
        self._context = weakref.ref(context)

    def __call__(self, size):
        context = self._context()
        if context is None:
            raise RuntimeError("the context of this memory manager is gone")
        context.prepare_for_use()  # plugins are initialized before they allocate
        mem = context.memory_manager.memalloc(size)
        return _memory.device_pointer(mem), mem


def current_context(devnum=None):
    """The current context: that of device `devnum` (made current and
    selected), else the thread's current context, else the primary context
    of the selected device, which is made current. RuntimeError for a
    context that is not a device's primary context."""
    require_driver()
    if devnum is not None:
        ctx = driver.get_device(int(devnum)).get_primary_context()
        with driver.get_active_context() as ac:
            if ac.context_handle is None or int(ac.context_handle) != int(ctx.handle):
                ctx.push()
            else:
                ctx.prepare_for_use()
        if _cuhost._current_device_id() != int(devnum):
            _cuhost._select_device(int(devnum))
        return ctx
    with driver.get_active_context() as ac:
        if not ac:
            ctx = driver.get_device(_cuhost._current_device_id()).get_primary_context()
            ctx.push()
            return ctx
        ctx = driver.get_device(ac.devnum).get_primary_context()
        if int(ctx.handle) != int(ac.context_handle):
            raise RuntimeError("Numba cannot operate on non-primary CUDA context %x" % int(ac.context_handle))
        ctx.prepare_for_use()
        return ctx


def require_context(fn):
    """numba's decorator: `fn` runs with a current context, on the calling
    thread's device, and cannot switch to another device (RuntimeError
    "Cannot switch CUDA-context.")."""

    @functools.wraps(fn)
    def _require_cuda_context(*args, **kwargs):
        current_context()
        if getattr(_entered, "attached", None) is not None:
            return fn(*args, **kwargs)
        _entered.attached = _cuhost._current_device_id()
        try:
            return fn(*args, **kwargs)
        finally:
            _entered.attached = None

    return _require_cuda_context


def close():
    """Leaves the thread with no current context and, in the main thread
    (numba's rule: only it tears contexts down), waits for outstanding work
    and releases every context's resources (memory manager, modules with
    their teardown callbacks, pending deallocations). Contexts whose memory
    manager is not the one set_memory_manager chose are replaced when next
    needed. The primary contexts themselves stay (the host shares them)."""
    if threading.current_thread() is not threading.main_thread():
        if driver.initialization_error is None:
            while driver.pop_active_context() is not None:
                pass
        return
    _cuhost.synchronize()
    wanted = _ensure_memory_manager()
    for dev in list(driver.devices.values()):
        ctx = dev.primary_context
        if ctx is None:
            continue
        ctx.reset()
        if type(ctx.memory_manager) is not wanted:
            _cuhost._use_external_allocator(dev.id, None)
            dev.primary_context = None
    # Every device used: outstanding work waited for, modules unloaded; the
    # thread uses the host's default device again.
    _cuhost._close()
    if driver.initialization_error is None:
        while driver.pop_active_context() is not None:
            pass
