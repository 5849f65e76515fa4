// Configured launchers (`kernel[grid, block, stream, shared]`) and the launch
// hot path: the configuration is parsed once per launcher object (and the
// dispatcher reuses the previous launcher when the configuration repeats),
// arguments are fingerprinted by their interned kernel types, the plan for
// that fingerprint gives the parameter types, values are packed into slots on
// the stack, and one driver launch (or one CPU grid run) follows with the GIL
// released. Host NumPy arrays go straight to CPU kernels (host memory is the
// device memory there) and are copied in and back around GPU launches.
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <type_traits>

#include "codegen/kernel_abi.h"
#include "cpu/cancellation.h"
#include "cpu/launcher.h"
#include "cuda/driver.h"
#include "cuda/error_record.h"
#include "cuda/launch.h"
#include "cuda/module.h"
#include "python/array_devices.h"
#include "python/array_order.h"
#include "python/array_view.h"
#include "python/config_flags.h"
#include "python/device_array.h"
#include "python/dispatcher.h"
#include "python/errors.h"
#include "python/launch_capture.h"
#include "python/launch_config.h"
#include "python/launch_dims.h"
#include "python/launch_pack.h"
#include "python/launch_staging.h"
#include "python/launch_warnings.h"
#include "python/py_api.h"
#include "python/python_hooks.h"
#include "python/record_dtype.h"
#include "python/stream_view.h"
#include "python/streams.h"
#include "python/type_object.h"
#include "python/typeof.h"
#include "runtime/access_order.h"
#include "runtime/compile_lookup.h"
#include "runtime/devices.h"
#include "runtime/graph_capture.h"
#include "runtime/kernel_launch.h"
#include "runtime/session.h"
#include "support/compile_warnings.h"
#include "support/half_bits.h"

namespace cuhost::python {

namespace {

constexpr int kMaxSlots = 1024;

struct LauncherObject {
  PyObject_HEAD DispatcherObject* dispatcher;  // strong reference
  unsigned grid[3];
  unsigned block[3];
  PyObject* stream_obj;  // strong reference, or null for the default stream
  std::uintptr_t stream;
  unsigned shared_bytes;
  long long forall_tasks;  // >= 0: a forall launcher; the grid is chosen per launch
  unsigned forall_tpb;     // 0: chosen per launch
  PyObject* config;        // strong reference to the k[...] tuple last resolved to this launcher, or null
  PyObject* callbacks;     // pre_launch_callbacks (a list, made on first access), or null
  vectorcallfunc vectorcall;
};

PyObject* launcher_vectorcall(PyObject* obj, PyObject* const* args, size_t nargsf, PyObject* kwnames);

extern PyTypeObject LauncherType;

LauncherObject* new_launcher(DispatcherObject* d) {
  auto* l = PyObject_GC_New(LauncherObject, &LauncherType);
  if (!l) return nullptr;
  Py_INCREF(d);
  l->dispatcher = d;
  l->stream_obj = nullptr;
  l->stream = 0;
  l->shared_bytes = 0;
  l->forall_tasks = -1;
  l->forall_tpb = 0;
  l->config = nullptr;
  l->callbacks = nullptr;
  l->vectorcall = launcher_vectorcall;
  for (int i = 0; i < 3; ++i) l->grid[i] = l->block[i] = 1;
  PyObject_GC_Track(l);
  return l;
}

// Launchers take part in the cycle collector: a dispatcher keeps its last
// launcher, which holds the dispatcher (dispatcher.cpp clears that link), and
// pre-launch callbacks may hold their launcher.
int launcher_traverse(PyObject* obj, visitproc visit, void* arg) {
  auto* l = reinterpret_cast<LauncherObject*>(obj);
  Py_VISIT(reinterpret_cast<PyObject*>(l->dispatcher));
  Py_VISIT(l->stream_obj);
  Py_VISIT(l->config);
  Py_VISIT(l->callbacks);
  return 0;
}

// Only the callbacks, which a launch can do without (made again on access);
// the dispatcher and stream say what a launch does until the dealloc.
int launcher_clear(PyObject* obj) {
  Py_CLEAR(reinterpret_cast<LauncherObject*>(obj)->callbacks);
  return 0;
}

void launcher_dealloc(PyObject* obj) {
  auto* l = reinterpret_cast<LauncherObject*>(obj);
  PyObject_GC_UnTrack(obj);
  Py_XDECREF(l->dispatcher);
  Py_XDECREF(l->stream_obj);
  Py_XDECREF(l->config);
  Py_XDECREF(l->callbacks);
  PyObject_GC_Del(obj);
}

// --- launching ---------------------------------------------------------------------

void run_cpu(const runtime::CompiledKernel& k, const unsigned grid[3], const unsigned block[3], unsigned shared,
             void** params) {
  // A GPU refuses a block larger than the kernel's launch bound in cuLaunchKernel; so does the CPU backend.
  runtime::check_cpu_launch_bound(k, block);
  cpu::CpuLaunch l = runtime::cpu_launch_of(k, grid, block, shared, params);
  std::exception_ptr error;
  without_gil([&] {
    try {
      cpu::launch(l);
    } catch (...) {
      error = std::current_exception();
    }
  });
  write_kernel_output();  // printed lines reach sys.stdout even when the launch failed
  if (error) std::rethrow_exception(error);
}

// The variant of `plan` this launch runs (GIL held): the plan's own kernel,
// or its other variant (cancellation points or none, as the launch's
// deadline asks: cpu/cancellation.h). A launch whose
// deadline matches the plan's kernel (the common case) reads one
// thread-local and a flag; the other variant is compiled at its first need,
// with the GIL released, and kept in the plan.
runtime::LaunchTarget variant_for_launch(DispatcherObject* d, LaunchPlan* plan) {
  const bool deadline = cpu::current_deadline().seconds > 0;
  if (plan->kernel->cancellation_points == deadline) return {&plan->kernel, &plan->loaded};
  if (!plan->other.holds(plan->kernel, deadline)) {
    std::shared_ptr<const runtime::CompiledKernel> primary = plan->kernel;
    auto variant = deadline_variant(d, *primary, deadline);
    // The first variant's compile issued its warnings; the same code's again would repeat them.
    take_compile_warnings();
    // Another thread may have kept it meanwhile (and be launching it): keep it only once.
    if (!plan->other.holds(primary, deadline)) plan->other.keep(primary, std::move(variant));
  }
  return plan->other.target();
}

void run_cuda(runtime::LaunchTarget v, int device, const unsigned grid[3], const unsigned block[3], unsigned shared,
              std::uintptr_t stream, void** params) {
  cuda::KernelLaunch l = v.loaded->launch(*v.kernel, device, grid, block, shared, stream, params);
  without_gil([&] { cuda::launch_kernel(l); });
}

// Block size for forall: the occupancy API's choice on a GPU, 256 on the CPU.
unsigned forall_block(LaunchPlan* plan, runtime::LaunchTarget v, int device, unsigned shared) {
  if (runtime::session().backend != Backend::Cuda) return 256;
  const bool cached = shared == 0 && v.loaded == &plan->loaded;  // one occupancy query per specialization
  if (cached && plan->forall_block) return plan->forall_block;
  int min_grid = 0, block = 0;
  cuda::check(cuda::driver().cuOccupancyMaxPotentialBlockSize(&min_grid, &block, v.loaded->function(*v.kernel, device),
                                                              nullptr, shared, 0),
              "cuOccupancyMaxPotentialBlockSize", (*v.kernel)->name);
  unsigned chosen = block > 0 ? static_cast<unsigned>(block) : 128;
  if (cached) plan->forall_block = chosen;
  return chosen;
}

// Device copies of host arrays made for one launch (only the first `n` slots
// are used; none when the launch has no host arrays to copy).
struct Temps {
  explicit Temps(Py_ssize_t n) : n_(n) {
    for (Py_ssize_t i = 0; i < n_; ++i) copies[i] = nullptr;
  }
  ~Temps() {
    for (Py_ssize_t i = 0; i < n_; ++i) Py_XDECREF(copies[i]);
  }
  PyObject* copies[kMaxLaunchArgs];

 private:
  Py_ssize_t n_;
};

// The launch itself: `args` are the kernel's n arguments (a tuple's items, or
// a vectorcall's argument array).
// Whether `obj` is a numba argument hint (cuda.In/Out/InOut).
bool is_arg_hint(PyObject* obj) {
  PyObject* hint_class = hook(Hook::ArgHintClass);
  if (!hint_class) {
    PyErr_Clear();
    return false;
  }
  int r = PyObject_IsInstance(obj, hint_class);
  if (r < 0) PyErr_Clear();
  return r > 0;
}

// Launches with argument preparation in Python (the launch_preparation hook,
// cuda/args.py): the dispatcher's extensions' prepare_args and
// cuda.In/Out/InOut hints, then the prepared arguments through
// _launch_prepared, then the write-backs.
PyObject* launch_with_preparation(LauncherObject* self, PyObject* const* args, Py_ssize_t n) {
  PyRef tuple(PyTuple_New(n));
  if (!tuple) return nullptr;
  for (Py_ssize_t i = 0; i < n; ++i) PyTuple_SET_ITEM(tuple.get(), i, Py_NewRef(args[i]));
  return call_hook(Hook::LaunchPreparation, PyRef(Py_BuildValue("(OOO)", reinterpret_cast<PyObject*>(self), tuple.get(),
                                                                self->dispatcher->extensions)))
      .release();
}

PyObject* launch_prepared(LauncherObject* self, PyObject* const* args, Py_ssize_t n, bool prepared);

// Whether a tuple argument holds a host NumPy array at some depth (on the
// GPU, launch_with_preparation then moves it as it moves a bare one).
bool tuple_holds_host_array(PyObject* v) {
  auto* ndarray = reinterpret_cast<PyTypeObject*>(numpy_ndarray_type());
  if (!ndarray) {
    PyErr_Clear();
    return false;
  }
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(v); ++i) {
    PyObject* item = PyTuple_GET_ITEM(v, i);
    if (PyTuple_Check(item) ? tuple_holds_host_array(item) : PyObject_TypeCheck(item, ndarray)) return true;
  }
  return false;
}

PyObject* launch_with(LauncherObject* self, PyObject* const* args, Py_ssize_t n) {
  if (PyList_GET_SIZE(self->dispatcher->extensions) > 0) return launch_with_preparation(self, args, n);
  return launch_prepared(self, args, n, false);
}

// Launches with arguments as they are; `prepared` when they came back from
// launch_with_preparation (argument hints are then an error).
PyObject* launch_prepared(LauncherObject* self, PyObject* const* args, Py_ssize_t n, bool prepared) {
  DispatcherObject* d = self->dispatcher;
  if (n > kMaxLaunchArgs) {
    PyErr_Format(PyExc_ValueError, "kernel '%s' is launched with %zd arguments; at most %d are supported",
                 d->state->fn->name.c_str(), n, kMaxLaunchArgs);
    return nullptr;
  }
  const ir::Type* types[kMaxLaunchArgs];
  // Only the first n infos are constructed, and default-initialized: their
  // extents are written only as far as each array's ndim.
  alignas(ArgInfo) unsigned char info_storage[sizeof(ArgInfo) * kMaxLaunchArgs];
  auto* infos = reinterpret_cast<ArgInfo*>(info_storage);
  static_assert(std::is_trivially_destructible<ArgInfo>::value, "ArgInfo storage is never destroyed");
  bool any_host_array = false;
  bool any_interface_stream = false;
  const bool on_gpu = runtime::session().backend == Backend::Cuda;
  // The kernel runs on the calling thread's device; arrays of other devices
  // are checked below (peer access or a clear error).
  const int device = on_gpu ? runtime::current_device() : 0;
  bool any_other_device = false;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* a = args[i];
    if (on_gpu && !prepared && PyTuple_Check(a) && tuple_holds_host_array(a))
      return launch_with_preparation(self, args, n);
    new (&infos[i]) ArgInfo;
    types[i] = typeof_arg(a, &infos[i]);
    any_host_array |= infos[i].kind == ArgKind::HostArray || infos[i].kind == ArgKind::HostRecord;
    any_interface_stream |= infos[i].view.interface_stream != 0;
    any_other_device |= infos[i].view.device >= 0 && infos[i].view.device != device;
    if (!types[i]) {
      if (PyErr_Occurred()) return nullptr;
      if (!prepared && is_arg_hint(a)) return launch_with_preparation(self, args, n);
      PyErr_Format(exception_class(ErrorKind::TypingError),
                   "cannot determine the kernel type of argument %zd of kernel '%s' (a %s)", i,
                   d->state->fn->name.c_str(), Py_TYPE(a)->tp_name);
      return nullptr;
    }
  }
  // Arrays from other producers (__cuda_array_interface__ with a stream) are
  // waited for through their Stream objects unless CUDA_ARRAY_INTERFACE_SYNC is off.
  if (any_interface_stream && config_flag("CUDA_ARRAY_INTERFACE_SYNC")) {
    for (Py_ssize_t i = 0; i < n; ++i)
      if (infos[i].view.interface_stream &&
          !synchronize_through_stream_object(infos[i].view.interface_stream, "external"))
        return nullptr;
  }
  const bool host_arrays_to_gpu = on_gpu && any_host_array;
  if (any_host_array && runtime::capture_in_progress()) {
    const bool refused = !guarded(false, [&] {
      // The stream the launch goes to: a default stream object stands for
      // the launching device's own.
      bool is_default = !self->stream_obj;
      if (self->stream_obj) stream_device(self->stream_obj, &is_default);
      refuse_host_arguments_in_capture(d->state->fn->name.c_str(), infos, n,
                                       is_default ? runtime::default_launch_stream(device) : self->stream);
      return true;
    });
    if (refused) return nullptr;
  }
  // Warned on both backends: the CPU backend reads host memory directly, but
  // the same launch copies on a GPU, which is what the warning is about.
  if (any_host_array && !warn_implicit_copy()) return nullptr;
  if (host_arrays_to_gpu) {
    // A host array reaches a GPU kernel as a contiguous device copy (F order
    // kept, anything non-contiguous made C): type it so.
    for (Py_ssize_t i = 0; i < n; ++i)
      if (infos[i].kind == ArgKind::HostArray && types[i]->layout == ir::Layout::A)
        types[i] = ir::array(types[i]->dtype, types[i]->ndim, ir::Layout::C, types[i]->readonly);
  }
  // A specialization to compile: through _compile_for_args, under this launch's configuration.
  if (d->state->eager.empty() && !find_plan(d, types, static_cast<int>(n)) &&
      !compile_for_launch(reinterpret_cast<PyObject*>(self), d, args, n))
    return nullptr;
  if (self->callbacks && !run_pre_launch_callbacks(self->callbacks, d, reinterpret_cast<PyObject*>(self)))
    return nullptr;
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    LaunchPlan* plan = plan_for(d, types, static_cast<int>(n));
    const runtime::LaunchTarget variant = variant_for_launch(d, plan);
    std::uintptr_t stream = self->stream;
    if (on_gpu) {
      runtime::use_device_context(device);
      const char* kname = plan->kernel->name.c_str();
      for (Py_ssize_t i = 0; any_other_device && i < n; ++i)
        if (!check_array_device(kname, i, infos[i].view.device, device)) return nullptr;
      // A default stream object (of any device) stands for this device's own.
      bool is_default = !self->stream_obj;
      if (self->stream_obj) {
        const int owner = stream_device(self->stream_obj, &is_default);
        if (!is_default && !check_stream_device(kname, owner, device)) return nullptr;
      }
      if (is_default) stream = runtime::default_launch_stream(device);
    } else if (!self->stream_obj) {
      stream = default_launch_stream();
    }
    unsigned grid[3] = {self->grid[0], self->grid[1], self->grid[2]};
    unsigned block[3] = {self->block[0], self->block[1], self->block[2]};
    if (self->forall_tasks >= 0) {
      if (self->forall_tasks == 0) Py_RETURN_NONE;
      unsigned b = self->forall_tpb ? self->forall_tpb : forall_block(plan, variant, device, self->shared_bytes);
      block[0] = b;
      grid[0] = static_cast<unsigned>((static_cast<unsigned long long>(self->forall_tasks) + b - 1) / b);
    }
    Temps temps(host_arrays_to_gpu ? n : 0);
    StagedHostArrays staged;
    const bool is_staged = host_arrays_to_gpu && staged.stage(infos, n, stream);
    std::uint64_t slots[kMaxSlots];
    void* params[kMaxSlots];
    std::uint64_t* cursor = slots;
    const char* kname = plan->kernel->name.c_str();
    for (Py_ssize_t i = 0; i < n; ++i) {
      PyObject* a = args[i];
      if (host_arrays_to_gpu && infos[i].kind == ArgKind::HostArray) {
        temps.copies[i] = host_to_device_for_launch(a, stream);
        if (!temps.copies[i]) return nullptr;
        bool readonly = infos[i].view.readonly;
        if (!device_array_view(temps.copies[i], &infos[i].view)) {
          if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "device copy of a host array has no view");
          return nullptr;
        }
        infos[i].view.readonly = readonly;
        infos[i].kind = ArgKind::DeviceArray;
      }
      if (host_arrays_to_gpu && infos[i].kind == ArgKind::HostRecord) {
        temps.copies[i] = record_to_device_for_launch(a, infos[i].view, stream);
        if (!temps.copies[i]) return nullptr;
        if (!device_array_view(temps.copies[i], &infos[i].view)) {
          if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "device copy of a record has no view");
          return nullptr;
        }
        infos[i].view.dtype = types[i];
        infos[i].kind = ArgKind::HostRecord;
      }
      std::uint64_t* before = cursor;
      if (!pack_launch_argument(a, plan->params[static_cast<size_t>(i)], &infos[i], cursor, slots + kMaxSlots, kname))
        return nullptr;
      CUHOST_CHECK(cursor - before == plan->param_slots[static_cast<size_t>(i)])
          << "slot count mismatch for parameter " << i << " of " << kname;
    }
    int count = static_cast<int>(cursor - slots);
    for (int i = 0; i < count; ++i) params[i] = &slots[i];
    if (runtime::capture_in_progress() && runtime::is_captured(stream)) {
      runtime::KernelLaunchRequest q;
      q.kernel = *variant.kernel;
      q.loaded = variant.loaded;
      q.device = device;
      q.grid = grid;
      q.block = block;
      q.shared = self->shared_bytes;
      q.stream = stream;
      q.params = params;
      q.count = static_cast<std::size_t>(count);
      q.owner = script_launch_owner(d, args, n);
      q.touched = graph_touches(infos, n);
      if (runtime::capture_kernel_launch(q)) Py_RETURN_NONE;
    }
    if (on_gpu) {
      // Device arrays written on other streams are waited for; the kernel
      // may write every array it gets, so each is recorded as written.
      // Only the first n entries are constructed: zeroing all kMaxLaunchArgs
      // of them was a tenth of this function's own time per launch.
      alignas(ArrayBytes) unsigned char touched_storage[sizeof(ArrayBytes) * kMaxLaunchArgs];
      auto* touched = reinterpret_cast<ArrayBytes*>(touched_storage);
      static_assert(std::is_trivially_destructible<ArrayBytes>::value, "ArrayBytes storage is never destroyed");
      for (Py_ssize_t i = 0; i < n; ++i) {
        new (&touched[i]) ArrayBytes;
        if (!infos[i].view.order) continue;
        touched[i] = array_bytes(infos[i].view);
        order_before(touched[i], stream, device);
      }
      run_cuda(variant, device, grid, block, self->shared_bytes, stream, params);
      runtime::MarkBatch launched;  // one event marks the launch for every array it wrote
      for (Py_ssize_t i = 0; i < n; ++i)
        if (touched[i].order) order_after_write(touched[i], stream, device, false, &launched);
      if (is_staged) {
        without_gil([&] { staged.finish(); });
      }
      for (Py_ssize_t i = 0; host_arrays_to_gpu && i < n; ++i) {
        if (!temps.copies[i]) continue;
        if (infos[i].kind == ArgKind::HostRecord) {
          if (record_copy_back_after_launch(temps.copies[i], args[i], stream) < 0) return nullptr;
          continue;
        }
        if (infos[i].view.readonly) continue;
        if (copy_back_after_launch(temps.copies[i], args[i], stream) < 0) return nullptr;
      }
      // A kernel compiled with checks reports a failed one once the launch is
      // over, after the copy-back, so host arrays show what the other threads
      // wrote, as on the CPU backend.
      if (variant.loaded->errors().record) {
        without_gil([&] {
          cuda::check_kernel_errors(variant.loaded->errors(), reinterpret_cast<CUstream>(stream), plan->kernel->name);
        });
      }
    } else {
      run_cpu(**variant.kernel, grid, block, self->shared_bytes, params);
    }
    Py_RETURN_NONE;
  });
}

PyObject* launcher_call(PyObject* obj, PyObject* args, PyObject* kwargs) {
  auto* self = reinterpret_cast<LauncherObject*>(obj);
  if (kwargs && PyDict_GET_SIZE(kwargs) > 0) {
    PyErr_Format(PyExc_TypeError, "kernel '%s' takes positional arguments only",
                 self->dispatcher->state->fn->name.c_str());
    return nullptr;
  }
  return launch_with(self, &PyTuple_GET_ITEM(args, 0), PyTuple_GET_SIZE(args));
}

// The vectorcall entry: `k[grid, block](a, b, c)` without building a tuple.
PyObject* launcher_vectorcall(PyObject* obj, PyObject* const* args, size_t nargsf, PyObject* kwnames) {
  auto* self = reinterpret_cast<LauncherObject*>(obj);
  if (kwnames && PyTuple_GET_SIZE(kwnames) > 0) {
    PyErr_Format(PyExc_TypeError, "kernel '%s' takes positional arguments only",
                 self->dispatcher->state->fn->name.c_str());
    return nullptr;
  }
  return launch_with(self, args, PyVectorcall_NARGS(nargsf));
}

PyObject* dims_tuple(const unsigned d[3]) { return Py_BuildValue("(III)", d[0], d[1], d[2]); }

PyObject* get_griddim(PyObject* obj, void*) { return dims_tuple(reinterpret_cast<LauncherObject*>(obj)->grid); }
PyObject* get_blockdim(PyObject* obj, void*) { return dims_tuple(reinterpret_cast<LauncherObject*>(obj)->block); }
PyObject* get_sharedmem(PyObject* obj, void*) {
  return PyLong_FromUnsignedLong(reinterpret_cast<LauncherObject*>(obj)->shared_bytes);
}
PyObject* get_stream(PyObject* obj, void*) {
  PyObject* s = reinterpret_cast<LauncherObject*>(obj)->stream_obj;
  if (!s) s = Py_None;
  Py_INCREF(s);
  return s;
}

PyObject* get_dispatcher(PyObject* obj, void*) {
  return Py_NewRef(reinterpret_cast<PyObject*>(reinterpret_cast<LauncherObject*>(obj)->dispatcher));
}
// numba's _LaunchConfiguration.args: the arguments of this thread's launch
// while it compiles, else None.
PyObject* get_args(PyObject*, void*) { return current_launch_args(); }
PyObject* get_callbacks(PyObject* obj, void*) {
  auto* l = reinterpret_cast<LauncherObject*>(obj);
  if (!l->callbacks && !(l->callbacks = PyList_New(0))) return nullptr;
  return Py_NewRef(l->callbacks);
}

PyObject* launcher_repr(PyObject* obj) {
  auto* l = reinterpret_cast<LauncherObject*>(obj);
  if (l->forall_tasks >= 0)
    return PyUnicode_FromFormat("<launcher of '%s' forall(%lld)>", l->dispatcher->state->fn->name.c_str(),
                                l->forall_tasks);
  return PyUnicode_FromFormat("<launcher of '%s' [(%u, %u, %u), (%u, %u, %u)]>", l->dispatcher->state->fn->name.c_str(),
                              l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2]);
}

// Pickling a configured kernel (numba-cuda pickles k[grid, block]): rebuilt
// as dispatcher[grid, block, 0, sharedmem]; a stream is not picklable.
PyObject* launcher_reduce(PyObject* obj, PyObject*) {
  auto* l = reinterpret_cast<LauncherObject*>(obj);
  if (l->callbacks && PyList_GET_SIZE(l->callbacks) > 0) {
    PyErr_SetString(exception_class(ErrorKind::PicklingError),
                    "Cannot pickle configured launches with pre-launch callbacks");
    return nullptr;
  }
  if (l->forall_tasks >= 0 || l->stream_obj) {
    PyErr_SetString(PyExc_TypeError, "cannot pickle a forall launcher or a launcher bound to a stream");
    return nullptr;
  }
  PyRef op(PyImport_ImportModule("operator"));
  PyObject* getitem = op ? PyObject_GetAttrString(op.get(), "getitem") : nullptr;
  if (!getitem) return nullptr;
  return Py_BuildValue("(N(O(NNiI)))", getitem, reinterpret_cast<PyObject*>(l->dispatcher), dims_tuple(l->grid),
                       dims_tuple(l->block), 0, l->shared_bytes);
}

PyObject* launcher_launch_prepared(PyObject* obj, PyObject* const* args, Py_ssize_t n) {
  return launch_prepared(reinterpret_cast<LauncherObject*>(obj), args, n, true);
}

PyMethodDef g_launcher_methods[] = {
    {"__reduce__", launcher_reduce, METH_NOARGS, nullptr},
    {"_launch_prepared", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(launcher_launch_prepared)),
     METH_FASTCALL, "Launches with arguments already prepared (cuda/args.py)."},
    {nullptr, nullptr, 0, nullptr}};

PyGetSetDef g_getset[] = {
    {"griddim", get_griddim, nullptr, nullptr, nullptr},
    {"blockdim", get_blockdim, nullptr, nullptr, nullptr},
    {"sharedmem", get_sharedmem, nullptr, nullptr, nullptr},
    {"stream", get_stream, nullptr, nullptr, nullptr},
    {"dispatcher", get_dispatcher, nullptr, "The kernel this launcher launches.", nullptr},
    {"args", get_args, nullptr, "The arguments of this thread's compiling launch, or None.", nullptr},
    {"pre_launch_callbacks", get_callbacks, nullptr,
     "Callables run as callback(kernel, launcher) right before each launch.", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyTypeObject make_launcher_type() {
  PyTypeObject t = blank_type_object();
  t.tp_name = "_cuhost.KernelLauncher";
  t.tp_basicsize = sizeof(LauncherObject);
  t.tp_dealloc = launcher_dealloc;
  t.tp_repr = launcher_repr;
  t.tp_call = launcher_call;
  t.tp_vectorcall_offset = offsetof(LauncherObject, vectorcall);
  t.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_HAVE_GC;
  t.tp_traverse = launcher_traverse;
  t.tp_clear = launcher_clear;
  t.tp_doc = "A kernel with its launch configuration; call it with the kernel's arguments.";
  t.tp_getset = g_getset;
  t.tp_methods = g_launcher_methods;
  return t;
}

PyTypeObject LauncherType = make_launcher_type();

}  // namespace

bool parse_launch_dims(PyObject* v, unsigned out[3], const char* what, bool block) {
  return parse_dims(v, out, what) && (!block || check_block(out));
}

bool parse_shared_bytes(PyObject* v, unsigned* out) { return parse_shared(v, out); }

// Whether a launch configuration can be recognized by identity later: an
// exact tuple whose grid and block are ints or tuples of ints (a list inside
// could change while the tuple stays the same object).
static bool immutable_dims(PyObject* config) {
  if (!PyTuple_CheckExact(config)) return false;
  for (Py_ssize_t i = 0; i < 2; ++i) {
    PyObject* v = PyTuple_GET_ITEM(config, i);
    if (PyLong_CheckExact(v)) continue;
    if (!PyTuple_CheckExact(v)) return false;
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(v); ++k)
      if (!PyLong_CheckExact(PyTuple_GET_ITEM(v, k))) return false;
  }
  return true;
}

PyObject* make_launcher(DispatcherObject* d, PyObject* config) {
  // `k[4, 256](...)` in a loop subscripts with the same constant tuple every
  // time: a tuple is immutable, so the launcher it gave last time is the answer.
  auto* last = reinterpret_cast<LauncherObject*>(d->last_launcher);
  if (last && last->callbacks && PyList_GET_SIZE(last->callbacks) > 0) last = nullptr;  // its callbacks are its own
  if (last && last->config == config) {
    Py_INCREF(last);
    return reinterpret_cast<PyObject*>(last);
  }
  const char* name = d->state->fn->name.c_str();
  if (!PyTuple_Check(config) || PyTuple_GET_SIZE(config) < 2 || PyTuple_GET_SIZE(config) > 4) {
    PyErr_Format(PyExc_ValueError,
                 "launch configuration of kernel '%s' must be [blocks, threads], [blocks, threads, stream] or "
                 "[blocks, threads, stream, shared_bytes]",
                 name);
    return nullptr;
  }
  Py_ssize_t n = PyTuple_GET_SIZE(config);
  unsigned grid[3], block[3], shared = 0;
  PyObject* stream_obj = nullptr;
  std::uintptr_t stream = 0;
  if (!parse_dims(PyTuple_GET_ITEM(config, 0), grid, "griddim") ||
      !parse_dims(PyTuple_GET_ITEM(config, 1), block, "blockdim") || !check_block(block))
    return nullptr;
  if (n >= 3 && !parse_stream(PyTuple_GET_ITEM(config, 2), &stream_obj, &stream)) return nullptr;
  if (n >= 4 && !parse_shared(PyTuple_GET_ITEM(config, 3), &shared)) return nullptr;
  const bool tuple_config = immutable_dims(config);
  if (last && last->forall_tasks < 0 && std::memcmp(last->grid, grid, sizeof grid) == 0 &&
      std::memcmp(last->block, block, sizeof block) == 0 && last->stream_obj == stream_obj && last->stream == stream &&
      last->shared_bytes == shared) {
    if (tuple_config) {
      Py_INCREF(config);
      Py_XSETREF(last->config, config);
    }
    Py_INCREF(last);
    return reinterpret_cast<PyObject*>(last);
  }
  // Issued when a configuration is made, as numba-cuda does (the launcher
  // reused above for an identical configuration warned when it was made).
  if (!warn_if_low_occupancy(grid)) return nullptr;
  LauncherObject* l = new_launcher(d);
  if (!l) return nullptr;
  std::memcpy(l->grid, grid, sizeof grid);
  std::memcpy(l->block, block, sizeof block);
  Py_XINCREF(stream_obj);
  l->stream_obj = stream_obj;
  l->stream = stream;
  l->shared_bytes = shared;
  if (tuple_config) {
    Py_INCREF(config);
    l->config = config;
  }
  // The dispatcher keeps the newest launcher; the cycle collector frees the
  // pair (launcher -> dispatcher -> launcher) once nothing else holds them.
  Py_INCREF(l);
  Py_XSETREF(d->last_launcher, reinterpret_cast<PyObject*>(l));
  return reinterpret_cast<PyObject*>(l);
}

PyObject* make_forall_launcher(DispatcherObject* d, PyObject* ntasks, PyObject* tpb, PyObject* stream_arg,
                               PyObject* sharedmem) {
  if (PyFloat_Check(ntasks) || !PyIndex_Check(ntasks)) {
    PyErr_Format(PyExc_TypeError, "forall() needs an int number of tasks, got %s", Py_TYPE(ntasks)->tp_name);
    return nullptr;
  }
  long long tasks = PyLong_AsLongLong(ntasks);
  if (tasks == -1 && PyErr_Occurred()) return nullptr;
  if (tasks < 0) {
    PyErr_Format(PyExc_ValueError, "Can't create ForAll with negative task count: %lld", tasks);
    return nullptr;
  }
  unsigned block[3] = {1, 1, 1};
  unsigned threads = 0;
  if (tpb && tpb != Py_None && !(PyLong_Check(tpb) && PyLong_AsLong(tpb) == 0)) {
    if (!parse_dims(tpb, block, "tpb") || !check_block(block)) return nullptr;
    threads = block[0];
  }
  PyObject* stream_obj = nullptr;
  std::uintptr_t stream = 0;
  unsigned shared = 0;
  if (!parse_stream(stream_arg, &stream_obj, &stream) || !parse_shared(sharedmem, &shared)) return nullptr;
  LauncherObject* l = new_launcher(d);
  if (!l) return nullptr;
  l->forall_tasks = tasks;
  l->forall_tpb = threads;
  Py_XINCREF(stream_obj);
  l->stream_obj = stream_obj;
  l->stream = stream;
  l->shared_bytes = shared;
  return reinterpret_cast<PyObject*>(l);
}

int add_launch(PyObject* module) {
  if (PyType_Ready(&LauncherType) < 0) return -1;
  Py_INCREF(&LauncherType);
  return PyModule_AddObject(module, "KernelLauncher", reinterpret_cast<PyObject*>(&LauncherType));
}

}  // namespace cuhost::python
