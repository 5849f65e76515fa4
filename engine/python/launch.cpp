// Configured launchers (`kernel[grid, block, stream, shared]`) and the launch
// hot path: the configuration is parsed once per launcher object (and the
// dispatcher reuses the previous launcher when the configuration repeats),
// arguments are fingerprinted by their interned kernel types, the plan for
// that fingerprint gives the parameter types, values are packed into slots on
// the stack, and one driver launch (or one CPU grid run) follows with the GIL
// released. Host NumPy arrays go straight to CPU kernels (host memory is the
// device memory there) and are copied in and back around GPU launches.
#include <cstdio>
#include <cstring>
#include <cstddef>
#include <exception>
#include <new>
#include <type_traits>

#include "codegen/kernel_abi.h"
#include "cpu/launcher.h"
#include "cpu/print_output.h"
#include "cuda/driver.h"
#include "cuda/error_record.h"
#include "cuda/launch.h"
#include "cuda/module.h"
#include "python/array_view.h"
#include "python/dispatcher.h"
#include "python/errors.h"
#include "python/config_flags.h"
#include "python/launch_staging.h"
#include "python/launch_warnings.h"
#include "python/record_dtype.h"
#include "python/stream_view.h"
#include "python/streams.h"
#include "python/type_object.h"
#include "python/typeof.h"
#include "runtime/kernel_launch.h"
#include "runtime/session.h"
#include "support/half_bits.h"

namespace cuhost::python {
namespace {

constexpr int kMaxSlots = 1024;

// Runs `fn` with the GIL released; a C++ exception it throws is rethrown once
// the GIL is held again.
template <class Fn>
void without_gil(Fn&& fn) {
  std::exception_ptr error;
  Py_BEGIN_ALLOW_THREADS try { fn(); } catch (...) {
    error = std::current_exception();
  }
  Py_END_ALLOW_THREADS if (error) std::rethrow_exception(error);
}
constexpr unsigned kMaxThreadsPerBlock = 1024;

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
  vectorcallfunc vectorcall;
};

PyObject* launcher_vectorcall(PyObject* obj, PyObject* const* args, size_t nargsf, PyObject* kwnames);

extern PyTypeObject LauncherType;

// Parses one of griddim/blockdim: an int or a tuple of 1..3 ints.
bool parse_dims(PyObject* v, unsigned out[3], const char* what) {
  out[0] = out[1] = out[2] = 1;
  PyObject* items[3];
  Py_ssize_t n = 1;
  if (PyTuple_Check(v) || PyList_Check(v)) {
    n = PySequence_Fast_GET_SIZE(v);
    if (n < 1 || n > 3) {
      PyErr_Format(PyExc_ValueError, "%s must be an int or a tuple of 1 to 3 ints, got %zd dimensions", what, n);
      return false;
    }
    for (Py_ssize_t i = 0; i < n; ++i) items[i] = PySequence_Fast_GET_ITEM(v, i);
  } else {
    items[0] = v;
  }
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* x = items[i];
    if (PyFloat_Check(x) || !PyIndex_Check(x)) {
      PyErr_Format(PyExc_TypeError, "%s dimensions must be ints, got %s", what, Py_TYPE(x)->tp_name);
      return false;
    }
    PyObject* idx = PyNumber_Index(x);
    if (!idx) return false;
    int overflow = 0;
    long long value = PyLong_AsLongLongAndOverflow(idx, &overflow);
    Py_DECREF(idx);
    if (overflow > 0 || value > 0xffffffffLL) {
      PyErr_Format(PyExc_ValueError, "%s dimension %zd is too large", what, i);
      return false;
    }
    if (overflow < 0 || value <= 0) {
      PyErr_Format(PyExc_ValueError, "%s dimensions must be positive, got %lld in dimension %zd", what,
                   overflow < 0 ? -1LL : value, i);
      return false;
    }
    out[i] = static_cast<unsigned>(value);
  }
  return true;
}

bool parse_stream(PyObject* v, PyObject** obj, std::uintptr_t* handle) {
  *obj = nullptr;
  *handle = 0;
  if (!v || v == Py_None) return true;
  if (PyLong_CheckExact(v) && PyLong_AsLongLong(v) == 0) return true;  // numba's stream=0: the default stream
  if (!stream_handle(v, handle)) return false;
  *obj = v;
  return true;
}

bool parse_shared(PyObject* v, unsigned* out) {
  *out = 0;
  if (!v || v == Py_None) return true;
  if (PyFloat_Check(v) || !PyIndex_Check(v)) {
    PyErr_Format(PyExc_TypeError, "dynamic shared memory size must be an int (bytes), got %s", Py_TYPE(v)->tp_name);
    return false;
  }
  long long n = PyLong_AsLongLong(v);
  if (n == -1 && PyErr_Occurred()) return false;
  if (n < 0 || n > 0xffffffffLL) {
    PyErr_Format(PyExc_ValueError, "dynamic shared memory size must be between 0 and 2**32-1 bytes, got %lld", n);
    return false;
  }
  *out = static_cast<unsigned>(n);
  return true;
}

bool check_block(const unsigned block[3]) {
  unsigned long long threads = 1ULL * block[0] * block[1] * block[2];
  if (threads > kMaxThreadsPerBlock) {
    PyErr_Format(PyExc_ValueError, "a block of %u x %u x %u = %llu threads exceeds the limit of %u threads per block",
                 block[0], block[1], block[2], threads, kMaxThreadsPerBlock);
    return false;
  }
  return true;
}

LauncherObject* new_launcher(DispatcherObject* d) {
  auto* l = PyObject_New(LauncherObject, &LauncherType);
  if (!l) return nullptr;
  Py_INCREF(d);
  l->dispatcher = d;
  l->stream_obj = nullptr;
  l->stream = 0;
  l->shared_bytes = 0;
  l->forall_tasks = -1;
  l->forall_tpb = 0;
  l->config = nullptr;
  l->vectorcall = launcher_vectorcall;
  for (int i = 0; i < 3; ++i) l->grid[i] = l->block[i] = 1;
  return l;
}

void launcher_dealloc(PyObject* obj) {
  auto* l = reinterpret_cast<LauncherObject*>(obj);
  Py_XDECREF(l->dispatcher);
  Py_XDECREF(l->stream_obj);
  Py_XDECREF(l->config);
  PyObject_Free(obj);
}

// --- packing ----------------------------------------------------------------------

bool pack_error(const char* kernel, const ir::Type* t, PyObject* v) {
  if (!PyErr_Occurred())
    PyErr_Format(PyExc_TypeError, "cannot pass a %s as %s to kernel '%s'", Py_TYPE(v)->tp_name, t->str().c_str(),
                 kernel);
  return false;
}

bool pack(PyObject* v, const ir::Type* t, const ArgInfo* info, std::uint64_t*& slot, std::uint64_t* end,
          const char* kernel) {
  using K = ir::TypeKind;
  int needed = t->kind == K::Array ? 1 + 2 * t->ndim : t->kind == K::Complex ? 2 : 1;
  if (t->kind != K::Tuple && slot + needed > end) {
    PyErr_Format(PyExc_ValueError, "too many kernel parameters for kernel '%s'", kernel);
    return false;
  }
  switch (t->kind) {
    case K::Boolean: {
      int b = PyObject_IsTrue(v);
      if (b < 0) return false;
      *slot++ = static_cast<std::uint64_t>(b);
      return true;
    }
    case K::Integer: {
      long long value = 0;
      if (PyLong_Check(v)) {
        int overflow = 0;
        value = PyLong_AsLongLongAndOverflow(v, &overflow);
        if (overflow) {
          unsigned long long u = PyLong_AsUnsignedLongLong(v);
          if (PyErr_Occurred()) return pack_error(kernel, t, v);
          value = static_cast<long long>(u);
        }
      } else if (PyIndex_Check(v)) {
        PyObject* idx = PyNumber_Index(v);
        if (!idx) return false;
        value = PyLong_AsLongLong(idx);
        if (value == -1 && PyErr_Occurred()) {
          PyErr_Clear();
          value = static_cast<long long>(PyLong_AsUnsignedLongLong(idx));
        }
        Py_DECREF(idx);
        if (PyErr_Occurred()) return false;
      } else {
        int b = PyObject_IsTrue(v);  // NumPy bool_ has no __index__
        if (b < 0 || (!PyBool_Check(v) && Py_TYPE(v)->tp_as_number == nullptr)) return pack_error(kernel, t, v);
        value = b;
      }
      *slot = 0;
      std::memcpy(slot, &value, static_cast<size_t>(t->bits / 8));  // little-endian: the low bytes
      ++slot;
      return true;
    }
    case K::Float: {
      double d = PyFloat_AsDouble(v);
      if (d == -1.0 && PyErr_Occurred()) return false;
      *slot = 0;
      if (t->bits == 32) {
        float f = static_cast<float>(d);
        std::memcpy(slot, &f, sizeof f);
      } else if (t->bits == 64) {
        std::memcpy(slot, &d, sizeof d);
      } else if (t->bits == 16) {
        std::uint16_t h = ir::is_bfloat16(t) ? support::double_to_bfloat16_bits(d) : support::double_to_half_bits(d);
        std::memcpy(slot, &h, sizeof h);
      } else {
        PyErr_Format(PyExc_NotImplementedError, "float%d kernel arguments are not supported", t->bits);
        return false;
      }
      ++slot;
      return true;
    }
    case K::NPDatetime:
    case K::NPTimedelta: {
      // np.datetime64 / np.timedelta64: their int64 count (NaT is INT64_MIN).
      PyObject* word = PyObject_CallMethod(v, "astype", "s", "int64");
      if (!word) return false;
      long long value = PyLong_AsLongLong(word);
      Py_DECREF(word);
      if (value == -1 && PyErr_Occurred()) return false;
      std::memcpy(slot, &value, sizeof value);
      ++slot;
      return true;
    }
    case K::Complex: {
      Py_complex c = PyComplex_AsCComplex(v);
      if (c.real == -1.0 && PyErr_Occurred()) return false;
      slot[0] = slot[1] = 0;
      if (t->bits == 64) {
        float re = static_cast<float>(c.real), im = static_cast<float>(c.imag);
        std::memcpy(slot, &re, sizeof re);
        std::memcpy(slot + 1, &im, sizeof im);
      } else {
        std::memcpy(slot, &c.real, sizeof c.real);
        std::memcpy(slot + 1, &c.imag, sizeof c.imag);
      }
      slot += 2;
      return true;
    }
    case K::Array: {
      ArrayView local;
      const ArrayView* view =
          info && (info->kind == ArgKind::DeviceArray || info->kind == ArgKind::HostArray) ? &info->view : nullptr;
      if (!view) {
        if (device_array_view(v, &local) ||
            (!PyErr_Occurred() && runtime::session().backend == Backend::Cpu && host_array_view(v, &local))) {
          view = &local;
        } else {
          return pack_error(kernel, t, v);
        }
      }
      if (view->ndim != t->ndim) return pack_error(kernel, t, v);
      *slot++ = reinterpret_cast<std::uint64_t>(view->data);
      for (int i = 0; i < view->ndim; ++i) *slot++ = static_cast<std::uint64_t>(view->shape[i]);
      for (int i = 0; i < view->ndim; ++i) *slot++ = static_cast<std::uint64_t>(view->strides[i]);
      return true;
    }
    case K::CPointer: {
      if (PyLong_Check(v)) {
        unsigned long long p = PyLong_AsUnsignedLongLong(v);
        if (PyErr_Occurred()) return false;
        *slot++ = p;
        return true;
      }
      const ArrayView* view =
          info && (info->kind == ArgKind::DeviceArray || info->kind == ArgKind::HostArray) ? &info->view : nullptr;
      if (!view) return pack_error(kernel, t, v);
      *slot++ = reinterpret_cast<std::uint64_t>(view->data);
      return true;
    }
    case K::Record: {  // by reference: the record's (device copy's) address
      const ir::Type* rt = nullptr;
      void* data = nullptr;
      if (info && (info->kind == ArgKind::HostRecord || info->kind == ArgKind::DeviceArray) && info->view.dtype == t &&
          info->view.ndim == 0) {
        data = info->view.data;
      } else if (runtime::session().backend == Backend::Cpu && record_scalar(v, &rt, &data) && rt == t) {
      } else {
        return pack_error(kernel, t, v);
      }
      *slot++ = reinterpret_cast<std::uint64_t>(data);
      return true;
    }
    case K::Tuple: {
      if (!PyTuple_Check(v) || PyTuple_GET_SIZE(v) != static_cast<Py_ssize_t>(t->elements.size()))
        return pack_error(kernel, t, v);
      for (size_t i = 0; i < t->elements.size(); ++i)
        if (!pack(PyTuple_GET_ITEM(v, static_cast<Py_ssize_t>(i)), t->elements[i], nullptr, slot, end, kernel))
          return false;
      return true;
    }
    default: return pack_error(kernel, t, v);
  }
}

// --- launching ---------------------------------------------------------------------

// What print() in a CPU kernel produced goes to sys.stdout (as print() in a
// Python function would), so it stays in order with the script's own output
// whether stdout is a terminal, a pipe or redirected inside the script.
void write_kernel_output() {
  std::string text = cpu::take_printed_output();
  if (text.empty()) return;
  PyObject* out = PySys_GetObject("stdout");  // borrowed
  if (out && out != Py_None) {
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    bool ok = PyFile_WriteString(text.c_str(), out) == 0;
    if (!ok) PyErr_Clear();
    PyErr_Restore(type, value, tb);
    if (ok) return;
  }
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

void run_cpu(const runtime::CompiledKernel& k, const unsigned grid[3], const unsigned block[3], unsigned shared,
             void** params) {
  // A GPU refuses a block larger than the kernel's launch bound in cuLaunchKernel; so does the CPU backend.
  unsigned long long threads = 1ULL * block[0] * block[1] * block[2];
  if (k.launch_bound_threads > 0 && threads > static_cast<unsigned long long>(k.launch_bound_threads))
    throw UserError(ErrorKind::CudaAPIError,
                    concat("cuLaunchKernel failed: CUDA_ERROR_INVALID_VALUE (invalid argument) in kernel '", k.name,
                           "': a block of ", threads, " threads exceeds its launch bound of ", k.launch_bound_threads,
                           " threads per block"));
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

void run_cuda(LaunchPlan* plan, const unsigned grid[3], const unsigned block[3], unsigned shared, std::uintptr_t stream,
              void** params) {
  cuda::KernelLaunch l = plan->loaded.launch(plan->kernel, grid, block, shared, stream, params);
  without_gil([&] { cuda::launch_kernel(l); });
}

// Block size for forall: the occupancy API's choice on a GPU, 256 on the CPU.
unsigned forall_block(LaunchPlan* plan, unsigned shared) {
  if (runtime::session().backend != Backend::Cuda) return 256;
  if (shared == 0 && plan->forall_block) return plan->forall_block;  // one occupancy query per specialization
  int min_grid = 0, block = 0;
  cuda::check(cuda::driver().cuOccupancyMaxPotentialBlockSize(&min_grid, &block, plan->loaded.function(plan->kernel),
                                                              nullptr, shared, 0),
              "cuOccupancyMaxPotentialBlockSize", plan->kernel->name);
  unsigned chosen = block > 0 ? static_cast<unsigned>(block) : 128;
  if (shared == 0) plan->forall_block = chosen;
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
  static PyObject* hint_class = nullptr;
  if (!hint_class) {
    PyObject* mod = PyImport_ImportModule("cuda.args");
    if (mod) {
      hint_class = PyObject_GetAttrString(mod, "ArgHint");
      Py_DECREF(mod);
    }
    if (!hint_class) {
      PyErr_Clear();
      return false;
    }
  }
  int r = PyObject_IsInstance(obj, hint_class);
  if (r < 0) PyErr_Clear();
  return r > 0;
}

// Launches with argument preparation in Python (cuda/args.py): the
// dispatcher's extensions' prepare_args and cuda.In/Out/InOut hints, then the
// prepared arguments through _launch_prepared, then the write-backs.
PyObject* launch_with_preparation(LauncherObject* self, PyObject* const* args, Py_ssize_t n) {
  PyObject* mod = PyImport_ImportModule("cuda.args");
  if (!mod) return nullptr;
  PyObject* tuple = PyTuple_New(n);
  if (!tuple) {
    Py_DECREF(mod);
    return nullptr;
  }
  for (Py_ssize_t i = 0; i < n; ++i) PyTuple_SET_ITEM(tuple, i, Py_NewRef(args[i]));
  PyObject* r = PyObject_CallMethod(mod, "_launch_with_preparation", "OOO", reinterpret_cast<PyObject*>(self), tuple,
                                    self->dispatcher->extensions);
  Py_DECREF(tuple);
  Py_DECREF(mod);
  return r;
}

PyObject* launch_prepared(LauncherObject* self, PyObject* const* args, Py_ssize_t n, bool prepared);

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
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* a = args[i];
    new (&infos[i]) ArgInfo;
    types[i] = typeof_arg(a, &infos[i]);
    any_host_array |= infos[i].kind == ArgKind::HostArray || infos[i].kind == ArgKind::HostRecord;
    any_interface_stream |= infos[i].view.interface_stream != 0;
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
  const bool on_gpu = runtime::session().backend == Backend::Cuda;
  const bool host_arrays_to_gpu = on_gpu && any_host_array;
  if (host_arrays_to_gpu && !warn_implicit_copy()) return nullptr;
  if (host_arrays_to_gpu) {
    // A host array reaches a GPU kernel as a contiguous device copy (F order
    // kept, anything non-contiguous made C): type it so.
    for (Py_ssize_t i = 0; i < n; ++i)
      if (infos[i].kind == ArgKind::HostArray && types[i]->layout == ir::Layout::A)
        types[i] = ir::array(types[i]->dtype, types[i]->ndim, ir::Layout::C, types[i]->readonly);
  }
  CUHOST_PY_GUARD_V(nullptr, {
    LaunchPlan* plan = plan_for(d, types, static_cast<int>(n));
    if (on_gpu) {
      // The primary context stays current on a thread once made so; check once per thread and device.
      thread_local int context_device = -1;
      if (context_device != runtime::session().device) {
        ensure_context();
        context_device = runtime::session().device;
      }
    }
    std::uintptr_t stream = self->stream_obj ? self->stream : default_launch_stream();
    unsigned grid[3] = {self->grid[0], self->grid[1], self->grid[2]};
    unsigned block[3] = {self->block[0], self->block[1], self->block[2]};
    if (self->forall_tasks >= 0) {
      if (self->forall_tasks == 0) Py_RETURN_NONE;
      unsigned b = self->forall_tpb ? self->forall_tpb : forall_block(plan, self->shared_bytes);
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
      if (!pack(a, plan->params[static_cast<size_t>(i)], &infos[i], cursor, slots + kMaxSlots, kname)) return nullptr;
      CUHOST_CHECK(cursor - before == plan->param_slots[static_cast<size_t>(i)])
          << "slot count mismatch for parameter " << i << " of " << kname;
    }
    int count = static_cast<int>(cursor - slots);
    for (int i = 0; i < count; ++i) params[i] = &slots[i];
    if (on_gpu) {
      run_cuda(plan, grid, block, self->shared_bytes, stream, params);
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
      if (plan->loaded.errors().record) {
        without_gil([&] {
          cuda::check_kernel_errors(plan->loaded.errors(), reinterpret_cast<CUstream>(stream), plan->kernel->name);
        });
      }
    } else {
      run_cpu(*plan->kernel, grid, block, self->shared_bytes, params);
    }
    Py_RETURN_NONE;
  })
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
  if (l->forall_tasks >= 0 || l->stream_obj) {
    PyErr_SetString(PyExc_TypeError, "cannot pickle a forall launcher or a launcher bound to a stream");
    return nullptr;
  }
  PyObject* op = PyImport_ImportModule("operator");
  if (!op) return nullptr;
  PyObject* getitem = PyObject_GetAttrString(op, "getitem");
  Py_DECREF(op);
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

PyGetSetDef g_getset[] = {{"griddim", get_griddim, nullptr, nullptr, nullptr},
                          {"blockdim", get_blockdim, nullptr, nullptr, nullptr},
                          {"sharedmem", get_sharedmem, nullptr, nullptr, nullptr},
                          {"stream", get_stream, nullptr, nullptr, nullptr},
                          {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyTypeObject make_launcher_type() {
  PyTypeObject t = blank_type_object();
  t.tp_name = "_cuhost.KernelLauncher";
  t.tp_basicsize = sizeof(LauncherObject);
  t.tp_dealloc = launcher_dealloc;
  t.tp_repr = launcher_repr;
  t.tp_call = launcher_call;
  t.tp_vectorcall_offset = offsetof(LauncherObject, vectorcall);
  t.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL;
  t.tp_doc = "A kernel with its launch configuration; call it with the kernel's arguments.";
  t.tp_getset = g_getset;
  t.tp_methods = g_launcher_methods;
  return t;
}

PyTypeObject LauncherType = make_launcher_type();

}  // namespace

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
  // The dispatcher keeps the newest launcher; the reference cycle (launcher ->
  // dispatcher -> launcher) is bounded to one object and dispatchers live for the process.
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
