// Linking and loading compiled kernels (see module.h). Every loaded library
// has one RAII owner; the cache of loaded kernels is keyed by the compiled
// kernel object and the device ordinal, and holds the kernel alive so its
// address cannot be reused by another kernel while the entry is cached. A
// kernel is linked once per architecture: the devices of one architecture
// load the same image (a cubin, or the PTX of a kernel without foreign code),
// each into its own context.
#include "cuda/module.h"

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "codegen/kernel_abi.h"
#include "codegen/nrt_symbols.h"
#include "codegen/nvptx_cancellation.h"
#include "cuda/context.h"
#include "cuda/driver.h"
#include "cuda/image_symbols.h"
#include "cuda/kernel_deadline.h"
#include "cuda/module_globals.h"
#include "cuda/nrt_stats.h"
#include "cuda/nvrtc.h"
#include "cuda/toolkit_info.h"
#include "model/compiled_kernel.h"
#include "plugin/host_library.h"
#include "support/blocking_wait.h"
#include "support/cache_files.h"
#include "support/diagnostics.h"
#include "support/hash.h"
#include "support/log.h"
#include "support/source_hash.h"

namespace cuhost::cuda {
namespace {

ModuleCallbackRunner g_runner = nullptr;

// One loaded CUlibrary plus the teardown callbacks to run before unloading it.
// They run in the context of the device it was loaded for (its globals live
// there); the calling thread's current context is restored afterwards.
class LoadedLibrary {
 public:
  LoadedLibrary(CUlibrary library, int device, std::vector<std::shared_ptr<void>> teardowns)
      : library_(library), device_(device), teardowns_(std::move(teardowns)) {}
  ~LoadedLibrary() {
    try {  // no throw from a destructor
      if (!driver_status().available) return;
      const DriverTable& d = driver();
      CUcontext previous = nullptr;
      bool switched = false;
      if ((plugins_ || !teardowns_.empty()) && d.cuCtxGetCurrent(&previous) == CUDA_SUCCESS)
        switched = make_primary_context_current(device_) != previous;
      plugins_.reset();  // plugin host library teardowns, then the Python ones (the reverse of setup)
      for (const auto& cb : teardowns_) {
        std::string ignored;
        if (g_runner) g_runner(cb, reinterpret_cast<std::uintptr_t>(library_), &ignored);
      }
      if (library_) {
        forget_library_globals(reinterpret_cast<std::uintptr_t>(library_));
        d.cuLibraryUnload(library_);
      }
      if (switched) restore_current_context(previous);
    } catch (...) {
    }
  }
  LoadedLibrary(const LoadedLibrary&) = delete;
  LoadedLibrary& operator=(const LoadedLibrary&) = delete;
  CUlibrary handle() const { return library_; }
  void set_plugins(std::unique_ptr<plugin::ModuleHostState> p) { plugins_ = std::move(p); }

 private:
  CUlibrary library_ = nullptr;
  int device_ = 0;
  std::vector<std::shared_ptr<void>> teardowns_;
  std::unique_ptr<plugin::ModuleHostState> plugins_;
};

struct Entry {
  std::shared_ptr<const model::CompiledKernel> kernel;
  std::unique_ptr<LoadedLibrary> library;
  CUfunction function = nullptr;
  KernelErrorRecord errors;
  int cc_major = 0, cc_minor = 0;
  std::shared_ptr<const std::string> image;  // cubin or PTX, shared by the devices of one architecture
};

struct Cache {
  // Recursive: a module's setup callback may launch other kernels, loading them.
  std::recursive_mutex mutex;
  std::map<std::pair<const model::CompiledKernel*, int>, Entry> entries;
};

Cache& cache() {
  static Cache* c = new Cache();  // unloaded explicitly by unload_all_modules, never at static destruction
  return *c;
}

std::string extension_of(const std::string& path) {
  std::size_t slash = path.find_last_of('/');
  std::size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return {};
  return path.substr(dot);
}

std::string basename_of(const std::string& path) {
  std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

void set_module_callback_runner(ModuleCallbackRunner runner) { g_runner = runner; }

ir::LinkKind link_kind_from_path(const std::string& path) {
  std::string ext = extension_of(path);
  if (ext == ".cu") return ir::LinkKind::CUSource;
  if (ext == ".ptx") return ir::LinkKind::PTXSource;
  if (ext == ".cubin") return ir::LinkKind::Cubin;
  if (ext == ".fatbin") return ir::LinkKind::Fatbin;
  if (ext == ".a") return ir::LinkKind::Archive;
  if (ext == ".o") return ir::LinkKind::Object;
  if (ext == ".ltoir") return ir::LinkKind::LTOIR;
  if (ext.empty())
    throw UserError(ErrorKind::LinkerError, concat("Don't know how to link file with no extension: '", path,
                                                   "' (expected .cu, .ptx, .cubin, .fatbin, .a, .o or .ltoir)"));
  throw UserError(ErrorKind::LinkerError, concat("Don't know how to link file with extension ", ext, ": '", path,
                                                 "' (expected .cu, .ptx, .cubin, .fatbin, .a, .o or .ltoir)"));
}

std::vector<LinkInput> read_link_items(const std::vector<ir::LinkItem>& items, int cc_major, int cc_minor, bool lto) {
  std::vector<LinkInput> inputs;
  for (const ir::LinkItem& item : items) {
    LinkInput in;
    if (item.from_path()) {
      in.kind = link_kind_from_path(item.path);
      in.name = item.name.empty() ? basename_of(item.path) : item.name;
      std::ifstream f(item.path, std::ios::binary);
      if (!f) throw UserError(ErrorKind::LinkFileNotFound, concat(item.path, " not found"));
      std::ostringstream buf;
      buf << f.rdbuf();
      in.data = buf.str();
    } else {
      in.kind = item.kind;
      in.name = item.name;
      in.data = item.data;
    }
    if (in.kind == ir::LinkKind::CUSource) {
      NvrtcOptions opts;
      opts.cc_major = cc_major;
      opts.cc_minor = cc_minor;
      opts.lto = lto;
      opts.include_dirs = item.include_dirs;
      for (std::string& d : extra_search_paths_from_environment()) opts.include_dirs.push_back(std::move(d));
      std::string dir;
      if (item.from_path()) {
        std::size_t slash = item.path.find_last_of('/');
        dir = slash == std::string::npos ? "." : item.path.substr(0, slash);
      }
      NvrtcOutput out = compile_cuda_source(in.data, in.name, dir, opts);
      in.kind = out.kind;
      in.data = std::move(out.code);
    }
    inputs.push_back(std::move(in));
  }
  return inputs;
}

void device_compute_capability(int device, int* major, int* minor) {
  const DriverTable& d = driver();
  CUdevice dev = 0;
  check(d.cuDeviceGet(&dev, device), "cuDeviceGet");
  check(d.cuDeviceGetAttribute(major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev), "cuDeviceGetAttribute");
  check(d.cuDeviceGetAttribute(minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev), "cuDeviceGetAttribute");
}

// Where the cubin linked from `inputs` is cached ("" when caching is off).
static std::string cubin_cache_path(const std::vector<LinkInput>& inputs, int major, int minor, bool lto,
                                    const std::vector<std::string>& extra) {
  const char* off = std::getenv("CUHOST_NO_CACHE");
  if (off && *off && std::string(off) != "0") return "";
  Hasher h;
  h.add(std::string("cuhost-cubin-1"));
  h.add(nvjitlink_version());
  h.add(concat(major, ".", minor, "|", lto));
  for (const auto& e : extra) h.add(e);
  for (const LinkInput& in : inputs) {
    h.add(std::uint64_t(in.kind));
    h.add(in.name);
    h.add(in.data);
  }
  std::string dir = cache_folder("cubins");
  return dir.empty() ? "" : dir + "/" + h.hex() + ".cubin";
}

namespace {

// Links `kernel` with its foreign items into a cubin for sm_<major><minor>.
std::string link_for_device(const model::CompiledKernel& kernel_ref, int major, int minor) {
  const model::CompiledKernel* kernel = &kernel_ref;
  std::vector<LinkInput> inputs;
  inputs.push_back(LinkInput{ir::LinkKind::PTXSource, kernel->name + ".ptx", kernel->ptx});
  bool lto = false;
  for (const ir::LinkItem& item : kernel->link) {
    ir::LinkKind kind = item.kind;
    if (item.from_path()) {
      try {
        kind = link_kind_from_path(item.path);
      } catch (const UserError&) {
      }
    }
    lto = lto || kind == ir::LinkKind::LTOIR;
  }
  bool has_cuda_c = false;
  for (const ir::LinkItem& item : kernel->link)
    has_cuda_c =
        has_cuda_c || item.kind == ir::LinkKind::CUSource || (item.from_path() && extension_of(item.path) == ".cu");
  for (LinkInput& in : read_link_items(kernel->link, major, minor, lto)) {
    lto = lto || in.kind == ir::LinkKind::LTOIR;
    inputs.push_back(std::move(in));
  }
  // NVRTC compiles for the architecture-specific target (sm_90a on 9.0); the
  // link must use the same one (a later -arch overrides the linker's sm_XY).
  std::vector<std::string> extra;
  if (has_cuda_c) extra.push_back("-arch=" + arch_for(major, minor));
  LinkResult linked;
  {
    log::StageTimer timer(kernel->name, "link");
    // Linked cubins are cached on disk by the content of every input, so a
    // kernel from the kernel cache loads without running nvJitLink again.
    std::string cubin_path = cubin_cache_path(inputs, major, minor, lto, extra);
    if (cubin_path.empty() || !read_cache_entry(cubin_path, linked.cubin) || linked.cubin.empty()) {
      linked = link(inputs, major, minor, lto, extra);
      if (!cubin_path.empty()) write_file_atomically(cubin_path, linked.cubin);
    }
  }
  return std::move(linked.cubin);
}

// The image a kernel is loaded from. nvJitLink compiles PTX as relocatable
// code, where each call of a function the module keeps (libdevice's slow
// paths of sin and cos) follows the full ABI, saving and restoring registers
// around it inside hot loops (4% on P7's transcendental kernel). A kernel
// with such calls and no foreign code is loaded from its PTX instead, which
// the driver compiles as a whole program (and keeps in its own cache). The
// others go through nvJitLink (link_for_device), which starts faster on a
// cold process (the driver's PTX compiler costs ~15 ms more to bring up) and
// whose cubins cuhost caches.
bool has_function_definitions(const std::string& ptx) {
  for (const char* directive : {"\n.func ", "\n.visible .func ", "\n.weak .func "})
    if (ptx.find(directive) != std::string::npos) return true;
  return false;
}

std::string image_for_device(const model::CompiledKernel& kernel, int major, int minor) {
  // Functions declared but not defined (a declare_device without its code)
  // only a link resolves, and nvJitLink names them when it cannot.
  if (kernel.link.empty() && has_function_definitions(kernel.ptx) &&
      kernel.ptx.find(".extern .func") == std::string::npos)
    return kernel.ptx;
  return link_for_device(kernel, major, minor);
}

// Loads `image` and finds the kernel's entry function in it. On failure the
// library is unloaded, and the failing step and its result are returned (the
// driver may compile a PTX image lazily, when the kernel is looked up).
struct LoadedImage {
  CUlibrary library = nullptr;
  CUfunction function = nullptr;
  CUresult result = CUDA_SUCCESS;
  const char* step = "";
};
LoadedImage load_image(const std::string& image, const std::string& symbol) {
  const DriverTable& d = driver();
  LoadedImage out;
  out.step = "cuLibraryLoadData";
  out.result = d.cuLibraryLoadData(&out.library, image.data(), nullptr, nullptr, 0, nullptr, nullptr, 0);
  if (out.result != CUDA_SUCCESS) return out;
  CUkernel k = nullptr;
  out.step = "cuLibraryGetKernel";
  out.result = d.cuLibraryGetKernel(&k, out.library, symbol.c_str());
  if (out.result == CUDA_SUCCESS) {
    out.step = "cuKernelGetFunction";
    out.result = d.cuKernelGetFunction(&out.function, k);
  }
  if (out.result != CUDA_SUCCESS) {
    d.cuLibraryUnload(out.library);
    out.library = nullptr;
  }
  return out;
}

// Loads a kernel's image (image_for_device) into `device`'s context (the
// current one), runs the module's setup callbacks and caches the entry
// function.
CUfunction load_linked(Cache& c, const std::shared_ptr<const model::CompiledKernel>& kernel_ptr, int device, int major,
                       int minor, std::shared_ptr<const std::string> image) {
  const model::CompiledKernel* kernel = kernel_ptr.get();
  auto key = std::make_pair(kernel, device);
  log::StageTimer timer(kernel->name, "load");
  const DriverTable& d = driver();
  LoadedImage loaded = load_image(*image, kernel->symbol);
  if (loaded.result != CUDA_SUCCESS && *image == kernel->ptx) {
    // The driver's JIT reports no log: nvJitLink compiles the same PTX and
    // says what is wrong (or loads where the driver could not).
    image = std::make_shared<const std::string>(link_for_device(*kernel, major, minor));
    loaded = load_image(*image, kernel->symbol);
  }
  check(loaded.result, loaded.step, kernel->name);
  CUlibrary lib = loaded.library;
  std::vector<std::shared_ptr<void>> teardowns;
  for (const ir::LinkItem& item : kernel->link)
    if (item.teardown_callback) teardowns.push_back(item.teardown_callback);
  std::vector<std::string> host_plugins = plugin::host_plugins_of(kernel->link);
  if (!teardowns.empty() || !host_plugins.empty()) {
    // An embedder's interpreter is never finalized, so Python's atexit may
    // never run: teardown callbacks run from the C runtime's exit handlers
    // (after the driver's own handlers were registered, so before they run).
    // A python3-style run unloads earlier, before Python ends
    // (python/interpreter_end.cpp).
    static std::once_flag once;
    std::call_once(once, [] { std::atexit([] { unload_all_modules(); }); });
  }
  auto owner = std::make_unique<LoadedLibrary>(lib, device, std::move(teardowns));
  // What the image defines, so no lookup below asks the driver for a global it lacks.
  remember_library_globals(reinterpret_cast<std::uintptr_t>(lib), defined_globals(*image));

  CUfunction f = loaded.function;
  if (library_may_define(reinterpret_cast<std::uintptr_t>(lib), codegen::kGpuCancelFlagSymbol)) bind_cancel_flag(lib);
  if (library_may_define(reinterpret_cast<std::uintptr_t>(lib), codegen::kNrtStatsPointerSymbol)) bind_nrt_stats(lib);

  for (const ir::LinkItem& item : kernel->link) {
    if (!item.setup_callback || !g_runner) continue;
    std::string error;
    if (!g_runner(item.setup_callback, reinterpret_cast<std::uintptr_t>(lib), &error))
      throw UserError(ErrorKind::RuntimeError,
                      concat("setup callback of '", item.name, "' failed for kernel '", kernel->name, "': ", error));
  }
  if (!host_plugins.empty())
    owner->set_plugins(
        plugin::set_up_module(host_plugins, make_module_globals(reinterpret_cast<std::uintptr_t>(lib)), kernel->name));

  Entry e;
  CUdeviceptr record = 0;
  std::size_t record_bytes = 0;
  if (library_may_define(reinterpret_cast<std::uintptr_t>(lib), codegen::kErrorRecordSymbol) &&
      d.cuLibraryGetGlobal(&record, &record_bytes, lib, codegen::kErrorRecordSymbol) == CUDA_SUCCESS) {
    e.errors.record = static_cast<std::uintptr_t>(record);
    e.errors.library = reinterpret_cast<std::uintptr_t>(lib);
  }
  e.kernel = kernel_ptr;
  e.cc_major = major;
  e.cc_minor = minor;
  e.image = std::move(image);
  e.library = std::move(owner);
  e.function = f;
  c.entries.emplace(key, std::move(e));
  return f;
}

}  // namespace

CUfunction kernel_function(const std::shared_ptr<const model::CompiledKernel>& kernel, int device) {
  CUHOST_CHECK(kernel && kernel->target == model::Target::NVPTX) << "kernel_function needs an NVPTX kernel";
  Cache& c = cache();
  auto lock = support::lock_blocking(c.mutex);
  auto key = std::make_pair(kernel.get(), device);
  auto it = c.entries.find(key);
  if (it != c.entries.end()) return it->second.function;

  int major = 0, minor = 0;
  device_compute_capability(device, &major, &minor);
  // Loaded into the device's own context (functions and globals are per context).
  make_primary_context_current(device);
  // Another device of the same architecture already linked this kernel.
  std::shared_ptr<const std::string> image;
  for (const auto& [k, other] : c.entries)
    if (k.first == kernel.get() && other.cc_major == major && other.cc_minor == minor && other.image)
      image = other.image;
  if (!image) image = std::make_shared<const std::string>(image_for_device(*kernel, major, minor));
  return load_linked(c, kernel, device, major, minor, std::move(image));
}

std::vector<int> devices_holding(const model::CompiledKernel* kernel) {
  Cache& c = cache();
  auto lock = support::lock_blocking(c.mutex);
  std::vector<int> devices;
  for (const auto& [key, entry] : c.entries)
    if (key.first == kernel) devices.push_back(key.second);
  return devices;
}

KernelErrorRecord kernel_error_record(const model::CompiledKernel* kernel, int device) {
  Cache& c = cache();
  auto lock = support::lock_blocking(c.mutex);
  auto it = c.entries.find(std::make_pair(kernel, device));
  return it == c.entries.end() ? KernelErrorRecord{} : it->second.errors;
}

void library_global(std::uintptr_t library, const std::string& name, std::uintptr_t* address, std::size_t* size) {
  CUdeviceptr ptr = 0;
  std::size_t bytes = 0;
  CUresult r = library_may_define(library, name)
                   ? driver().cuLibraryGetGlobal(&ptr, &bytes, reinterpret_cast<CUlibrary>(library), name.c_str())
                   : CUDA_ERROR_NOT_FOUND;  // the image has no such global: the driver need not be asked
  if (r != CUDA_SUCCESS)
    throw UserError(ErrorKind::CudaAPIError,
                    concat("cuLibraryGetGlobal failed: ", error_name(r), " for __device__ variable '", name, "'"));
  *address = static_cast<std::uintptr_t>(ptr);
  *size = bytes;
}

namespace {
std::atomic<std::uint64_t> g_generation{0};
}

std::uint64_t module_generation() { return g_generation.load(std::memory_order_relaxed); }

void unload_all_modules() {
  g_generation.fetch_add(1, std::memory_order_relaxed);
  Cache& c = cache();
  std::map<std::pair<const model::CompiledKernel*, int>, Entry> doomed;
  {
    auto lock = support::lock_blocking(c.mutex);
    doomed.swap(c.entries);
  }
  doomed.clear();
}

}  // namespace cuhost::cuda
