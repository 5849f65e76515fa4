// Loading an export folder (cuhost::aot::Module): the manifest read, the
// device chosen, each kernel's image picked for it and checked against its
// digest, then loaded (cuLibraryLoadData) or found in the CPU library.
#include <dlfcn.h>

#include <cstdlib>
#include <cstring>

#include "aot/module_state.h"

namespace cuhost::aot {
namespace {

// The cubin that runs on sm_<major><minor>: the same major version at a
// minor version not above the device's (the newest such); an
// architecture-specific one (sm_90a) only on exactly its chip.
const std::string* pick_cubin(const ManifestKernel& k, int major, int minor, std::string* arch) {
  const std::string* best = nullptr;
  int best_minor = -1;
  for (const auto& [name, file] : k.cubins) {
    std::string digits = name.substr(3);
    bool specific = !digits.empty() && (digits.back() == 'a' || digits.back() == 'f');
    if (specific) digits.pop_back();
    int m = std::atoi(digits.substr(0, digits.size() - 1).c_str());
    int n = digits.back() - '0';
    if (m != major || n > minor || (specific && n != minor)) continue;
    if (n > best_minor || (n == best_minor && specific)) {
      best = &file;
      best_minor = n;
      *arch = name;
    }
  }
  return best;
}

// sm_XY of a PTX target as one number (90 for sm_90).
int arch_number(const std::string& arch) {
  std::string digits = arch.substr(3);
  while (!digits.empty() && (digits.back() < '0' || digits.back() > '9')) digits.pop_back();
  return std::atoi(digits.c_str());
}

std::string image_list(const ManifestKernel& k) {
  std::string out;
  for (const auto& c : k.cubins) out += (out.empty() ? "" : ", ") + c.first;
  if (!k.ptx_arch.empty()) out += (out.empty() ? "PTX " : ", PTX ") + k.ptx_arch;
  return out.empty() ? "no GPU image" : out;
}

void load_gpu(Module::State& s, const LoadOptions& o) {
  const DriverTable& d = *s.driver;
  auto check = [&](CUresult r, const char* step, const std::string& subject) {
    if (r != CUDA_SUCCESS)
      throw Error(subject, (subject.empty() ? std::string() : "kernel '" + subject + "': ") + step +
                               " failed: " + driver_error(d, r));
  };
  check(d.cuDeviceGet(&s.device, o.cuda_device), "cuDeviceGet", "");
  int major = 0, minor = 0;
  check(d.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, s.device), "cuDeviceGetAttribute",
        "");
  check(d.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, s.device), "cuDeviceGetAttribute",
        "");
  check(d.cuDevicePrimaryCtxRetain(&s.context, s.device), "cuDevicePrimaryCtxRetain", "");
  // A host that made no context current gets the device's primary context
  // on this thread, as the CUDA runtime would at its first call.
  CUcontext current = nullptr;
  d.cuCtxGetCurrent(&current);
  if (!current) check(d.cuCtxSetCurrent(s.context), "cuCtxSetCurrent", "");
  const std::string device_arch = "sm_" + std::to_string(major) + std::to_string(minor);
  for (const ManifestKernel& mk : s.manifest.kernels) {
    if (!mk.has_gpu) throw Error(mk.name, "kernel '" + mk.name + "': the export has no GPU image of it (no --arch)");
    std::string arch;
    const std::string* file = pick_cubin(mk, major, minor, &arch);
    std::string kind = "cubin";
    if (!file && !mk.ptx_file.empty() && arch_number(mk.ptx_arch) <= major * 10 + minor) {
      file = &mk.ptx_file;
      arch = mk.ptx_arch;
      kind = "ptx";
    }
    if (!file)
      throw Error(mk.name, "kernel '" + mk.name + "': no cubin for this device (" + device_arch +
                               ") and no PTX it can compile; the export holds " + image_list(mk) +
                               " (export again with --arch " + device_arch + ")");
    std::string image = read_verified(s.manifest, *file, mk.name);
    if (kind == "ptx") image.push_back('\0');  // the driver reads PTX as a C string
    CUlibrary lib = nullptr;
    check(d.cuLibraryLoadData(&lib, image.data(), nullptr, nullptr, 0, nullptr, nullptr, 0), "cuLibraryLoadData",
          mk.name);
    s.libraries.push_back(lib);
    auto k = std::make_shared<KernelState>();
    k->driver = &d;
    k->device = s.device;
    check(d.cuLibraryGetKernel(&k->kernel, lib, mk.symbol.c_str()), "cuLibraryGetKernel", mk.name);
    CUcontext was = nullptr;
    d.cuCtxGetCurrent(&was);
    if (was != s.context) d.cuCtxSetCurrent(s.context);
    CUresult r = d.cuKernelGetFunction(&k->function, k->kernel);
    if (was != s.context) d.cuCtxSetCurrent(was);
    check(r, "cuKernelGetFunction", mk.name);
    k->dynamic_padding = mk.dynamic_shared_padding;
    if (s.image_kind.empty()) s.image_kind = kind + " " + arch;
    s.kernels[mk.name] = std::move(k);
  }
}

void load_cpu(Module::State& s) {
  const Manifest& m = s.manifest;
  verify_file(m, m.cpu_library, "");
  const std::string path = m.dir + "/" + m.cpu_library;
  s.cpu_library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!s.cpu_library) throw Error("", "cannot load the CPU library " + path + ": " + dlerror());
  auto version = reinterpret_cast<CuhostAotCpuAbiVersionFn>(dlsym(s.cpu_library, CUHOST_AOT_CPU_ABI_VERSION_FN));
  auto launch = reinterpret_cast<CuhostAotCpuLaunchFn>(dlsym(s.cpu_library, CUHOST_AOT_CPU_LAUNCH_FN));
  auto max_coop =
      reinterpret_cast<CuhostAotCpuMaxCooperativeFn>(dlsym(s.cpu_library, CUHOST_AOT_CPU_MAX_COOPERATIVE_FN));
  if (!version || !launch || !max_coop)
    throw Error("", "the CPU library " + path + " lacks the aot entry points (not made by cuhost export)");
  if (version() != kCuhostAotCpuAbiVersion)
    throw Error("", "the CPU library " + path + " has interface version " + std::to_string(version()) +
                        ", this runtime reads version " + std::to_string(kCuhostAotCpuAbiVersion) +
                        " (export it again with this cuhost)");
  for (const ManifestKernel& mk : m.kernels) {
    if (!mk.has_cpu) throw Error(mk.name, "kernel '" + mk.name + "': the CPU library does not hold it");
    auto k = std::make_shared<KernelState>();
    k->cpu_launch = launch;
    k->cpu_max_cooperative = max_coop;
    k->thread_fn = dlsym(s.cpu_library, mk.thread_symbol.c_str());
    if (!mk.block_symbol.empty()) k->block_fn = dlsym(s.cpu_library, mk.block_symbol.c_str());
    if (!k->thread_fn || (!mk.block_symbol.empty() && !k->block_fn))
      throw Error(mk.name, "kernel '" + mk.name + "': its entry point is missing from the CPU library " + path);
    k->cpu_static_shared = mk.cpu_static_shared;
    s.kernels[mk.name] = std::move(k);
  }
  s.image_kind = "cpu " + m.cpu_name;
}

}  // namespace

Module::Module(std::unique_ptr<State> state) : state_(std::move(state)) {}

Module::~Module() {
  State& s = *state_;
  if (s.driver) {
    for (CUlibrary lib : s.libraries) s.driver->cuLibraryUnload(lib);
    if (s.context) s.driver->cuDevicePrimaryCtxRelease(s.device);
  }
  // The CPU library stays mapped: a host may still hold its function pointers through a copied Kernel.
}

std::shared_ptr<Module> Module::load(const std::string& dir, const LoadOptions& options) {
  auto s = std::make_unique<State>();
  s->manifest = read_manifest(dir);
  std::string why;
  if (options.device != Device::Cpu) {
    s->driver = load_driver(&why);
    if (!s->driver && options.device == Device::Cuda)
      throw Error("", "export folder '" + dir + "': the GPU was asked for, but " + why);
  }
  if (!s->driver && s->manifest.cpu_library.empty())
    throw Error("",
                "export folder '" + dir + "' has no CPU library (exported with --cpu none) and " +
                    (options.device == Device::Cpu ? std::string("the CPU was asked for") : "there is no GPU: " + why));
  if (s->driver)
    load_gpu(*s, options);
  else
    load_cpu(*s);
  for (ManifestKernel& mk : s->manifest.kernels) {
    KernelState& k = *s->kernels.at(mk.name);
    k.name = mk.name;
    k.signature = mk.signature;
    k.slot_count = mk.slot_count;
    k.cooperative = mk.cooperative;
    for (int d = 0; d < 3; ++d) k.cluster[d] = mk.cluster[d];
    k.launch_bound_threads = mk.launch_bound_threads;
  }
  return std::shared_ptr<Module>(new Module(std::move(s)));
}

bool Module::on_cpu() const { return state_->driver == nullptr; }
const std::string& Module::image_kind() const { return state_->image_kind; }

std::vector<std::string> Module::kernel_names() const {
  std::vector<std::string> out;
  for (const ManifestKernel& k : state_->manifest.kernels) out.push_back(k.name);
  return out;
}

std::vector<std::string> Module::graph_names() const {
  std::vector<std::string> out;
  for (const ManifestGraph& g : state_->manifest.graphs) out.push_back(g.name);
  return out;
}

Kernel Module::kernel(const std::string& name, const std::string& expected_signature) const {
  auto it = state_->kernels.find(name);
  if (it == state_->kernels.end())
    throw Error(name, "kernel '" + name + "' is not in the export folder '" + state_->manifest.dir + "'");
  if (!expected_signature.empty() && expected_signature != it->second->signature)
    throw Error(name, "kernel '" + name + "': the header expects the signature " + expected_signature +
                          " but the export folder holds " + it->second->signature +
                          " (the folder was exported again: regenerate the header with it)");
  return Kernel(it->second);
}

void* Module::allocate(std::size_t bytes) const {
  if (!state_->driver) {
    void* p = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
    if (!p) throw Error("", "out of memory allocating " + std::to_string(bytes) + " bytes");
    return p;
  }
  CUdeviceptr p = 0;
  CUresult r = state_->driver->cuMemAlloc(&p, bytes);
  if (r != CUDA_SUCCESS) throw Error("", "cuMemAlloc failed: " + driver_error(*state_->driver, r));
  return reinterpret_cast<void*>(p);
}

void Module::free(void* pointer) const {
  if (!pointer) return;
  if (!state_->driver)
    std::free(pointer);
  else
    state_->driver->cuMemFree(reinterpret_cast<CUdeviceptr>(pointer));
}

void Module::copy_to_device(void* dst, const void* src, std::size_t bytes) const {
  if (!state_->driver) {
    std::memcpy(dst, src, bytes);
    return;
  }
  CUresult r = state_->driver->cuMemcpyHtoD(reinterpret_cast<CUdeviceptr>(dst), src, bytes);
  if (r != CUDA_SUCCESS) throw Error("", "cuMemcpyHtoD failed: " + driver_error(*state_->driver, r));
}

void Module::copy_to_host(void* dst, const void* src, std::size_t bytes) const {
  if (!state_->driver) {
    std::memcpy(dst, src, bytes);
    return;
  }
  CUresult r = state_->driver->cuMemcpyDtoH(dst, reinterpret_cast<CUdeviceptr>(src), bytes);
  if (r != CUDA_SUCCESS) throw Error("", "cuMemcpyDtoH failed: " + driver_error(*state_->driver, r));
}

void Module::synchronize() const {
  if (!state_->driver) return;
  CUresult r = state_->driver->cuCtxSynchronize();
  if (r != CUDA_SUCCESS) throw Error("", "cuCtxSynchronize failed: " + driver_error(*state_->driver, r));
}

}  // namespace cuhost::aot
