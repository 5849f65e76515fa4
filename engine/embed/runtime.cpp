// The Runtime facade of the embedding API (include/cuhost/runtime.h): picks
// the backend (saying once on stderr when the CPU stands in for a missing
// GPU), starts the interpreter and runs scripts.
#include <llvm/Config/llvm-config.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <thread>

#include <cuhost/runtime.h>

#include "aot_export/exporter.h"
#include "cpu/cancellation.h"
#include "cuda/context.h"
#include "cuda/driver.h"
#include "cuda/nccl.h"
#include "cuda/stream.h"
#include "cuda/toolkit_info.h"
#include "dist/communicators.h"
#include "dist/mpi.h"
#include "ir/type_parser.h"
#include "plugin/registry.h"
#include "python/interpreter.h"
#include "python/live_reload.h"
#include "python/script_kernels.h"
#include "runtime/device_memory.h"
#include "runtime/devices.h"
#include "runtime/host_kernel.h"
#include "runtime/session.h"
#include "support/diagnostics.h"
#include "support/exit_joins.h"
#include "support/install_layout.h"
#include "support/log.h"
#include "support/memory_quota.h"

namespace cuhost {

const char* version() { return CUHOST_VERSION; }

namespace {

class RuntimeImpl final : public Runtime {
 public:
  explicit RuntimeImpl(const RuntimeOptions& options) {
    log::set_verbose(options.verbose);
    runtime::start_session(options);
    streams_requested_ = options.streams;
    log::StageTimer timer("startup", "interpreter");
    python::initialize_interpreter(
        {support::python_dir(), options.python_command_line, options.python_executable, options.python_env});
  }

  int run_file(const std::string& path, const std::vector<std::string>& args) override {
    prepare_streams();
    python::PythonTurn gil;
    return settled(python::run_file(path, args));
  }
  int run_string(const std::string& source, const std::string& filename) override {
    prepare_streams();
    python::PythonTurn gil;
    return settled(python::run_string(source, filename));
  }
  int run_module_main(const std::string& module, const std::vector<std::string>& args) override {
    prepare_streams();
    python::PythonTurn gil;
    return settled(python::run_module_main(module, args));
  }
  int run_python_main() override {
    prepare_streams();
    python::PythonTurn gil;
    const int rc = settled(python::run_python_main());
    dist::finish_mpi(rc);  // a failing rank ends the whole MPI job instead of leaving the others waiting
    return rc;
  }

  Backend backend() const override { return runtime::session().backend; }

  std::string info() const override {
    std::ostringstream out;
    const cuda::DriverStatus& status = cuda::driver_status();
    out << "cuhost " << CUHOST_VERSION << "\n"
        << "  LLVM        " << LLVM_VERSION_STRING << "\n"
        << "  NVRTC       " << cuda::nvrtc_version() << "\n"
        << "  nvJitLink   " << cuda::nvjitlink_version() << "\n"
        << "  Python      " << python::python_version().substr(0, python::python_version().find(' ')) << "\n";
    if (status.available) {
      out << "  CUDA driver " << status.version / 1000 << "." << (status.version % 1000) / 10 << "\n";
    } else {
      out << "  CUDA driver none: " << status.reason << "; the CPU backend serves\n";
    }
    const cuda::NcclStatus& nccl = cuda::nccl_status();
    if (nccl.available)
      out << "  NCCL        " << cuda::nccl_version_string(nccl.version) << " (" << nccl.library << ")\n";
    else
      out << "  NCCL        none: " << nccl.reason << "\n";
    const dist::MpiStatus& mpi = dist::mpi_status();
    out << "  MPI         " << (mpi.available ? mpi.library : "none: " + mpi.reason) << "\n";
    out << "backends: cpu (LLVM ORC, available)";
    out << (status.available ? ", cuda (available)" : ", cuda (unavailable)") << "\n";
    out << "backend in use: " << backend_name(runtime::session().backend) << "\n";
    auto devices = cuda::list_devices();
    if (devices.empty()) {
      out << "GPUs: none\n";
    } else {
      for (const auto& d : devices)
        out << "GPU " << d.ordinal << ": " << d.name << ", compute capability " << d.cc_major << "." << d.cc_minor
            << ", " << d.multiprocessors << " SMs, " << (d.total_memory >> 20) << " MiB\n";
    }
    return out.str();
  }

  void register_stream(const std::string& name, std::uintptr_t cu_stream, int device) override {
    runtime::Session& s = runtime::session();
    if (device < 0) {
      device = s.device;
      if (s.backend == Backend::Cuda && cu_stream) {
        int owner = cuda::device_of_stream(reinterpret_cast<CUstream>(cu_stream));
        if (owner >= 0) device = owner;
      }
    }
    check_device(device);
    std::lock_guard<std::mutex> lock(s.mutex);
    for (auto& cached : s.launch_stream)
      cached.store(0, std::memory_order_release);  // resolved again at the next launch
    for (auto& entry : s.streams)
      if (entry.name == name) {
        entry.handle = cu_stream;
        entry.device = device;
        return;
      }
    s.streams.push_back(runtime::LentStream{name, cu_stream, device});
  }

  void register_buffer(const HostBuffer& buffer) override {
    runtime::Session& s = runtime::session();
    HostBuffer b = buffer;
    if (b.device < 0) {
      b.device = s.device;
      if (s.backend == Backend::Cuda && b.device_pointer) {
        int owner = cuda::device_of_pointer(b.device_pointer);
        if (owner >= 0) b.device = owner;
      }
    }
    check_device(b.device);
    std::lock_guard<std::mutex> lock(s.mutex);
    s.buffers.push_back(b);
  }

  void add_plugin_path(const std::string& directory) override { plugin::add_configured_folder(directory); }

  void register_plugin(const std::string& manifest_toml, const std::map<std::string, std::string>& files,
                       const std::string& origin) override {
    plugin::register_in_memory(manifest_toml, files, origin);
  }

  std::shared_ptr<Kernel> kernel(const std::string& name, const std::string& signature) override {
    prepare_streams();
    ir::Signature sig = ir::parse_signature(signature);
    if (sig.return_type && sig.return_type->kind != ir::TypeKind::Void &&
        sig.return_type->kind != ir::TypeKind::NoneType)
      throw UserError(ErrorKind::TypeError, concat("kernel '", name, "' must return void, but the signature '",
                                                   signature, "' returns ", sig.return_type->str()));
    return runtime::make_host_kernel(python::compile_script_kernel(name, sig.args));
  }

  ExportResult export_kernels(const ExportOptions& options) override {
    prepare_streams();
    return aot_export::export_folder(options);
  }

  std::shared_ptr<Buffer> allocate(std::size_t bytes) override {
    class Owned final : public Buffer {
     public:
      explicit Owned(std::shared_ptr<runtime::DeviceAllocation> a) : a_(std::move(a)) {}
      std::uintptr_t address() const override { return a_->address(); }
      std::size_t size() const override { return a_->size(); }

     private:
      std::shared_ptr<runtime::DeviceAllocation> a_;
    };
    runtime::make_context_current();
    // The host's own memory: not counted against the scripts' quota.
    return std::make_shared<Owned>(runtime::DeviceAllocation::allocate(bytes, runtime::QuotaUse::Exempt));
  }

  void set_memory_quota(std::size_t bytes) override { support::set_memory_quota(bytes); }
  void set_kernel_timeout(double seconds) override { cpu::set_script_kernel_timeout(seconds); }
  void clear_kernel_timeout() override { cpu::clear_script_kernel_timeout(); }

  std::size_t memory_quota_in_use() const override { return support::memory_quota_in_use(); }

  void copy_to_device(std::uintptr_t dst, const void* src, std::size_t bytes) override {
    runtime::make_context_current();
    runtime::copy_to_device(dst, src, bytes, 0, true);
  }

  void copy_to_host(void* dst, std::uintptr_t src, std::size_t bytes) override {
    runtime::make_context_current();
    runtime::copy_to_host(dst, src, bytes, 0, true);
  }

  void synchronize() override {
    if (runtime::session().backend != Backend::Cuda) return;
    runtime::make_context_current();
    cuda::synchronize_context();
  }

  int device_count() const override { return runtime::device_count(); }

  void set_device(int ordinal) override {
    check_device(ordinal);
    runtime::select_device(ordinal);
  }

  int device() const override { return runtime::current_device(); }

  void watch(const std::string& path) override { python::live_watch(path); }
  void on_reload(std::function<void(const ReloadEvent&)> callback) override {
    python::live_on_reload(std::move(callback));
  }
  void stop_watching() override { python::live_stop(); }

  void create_communicators(const CommunicatorOptions& options) override { dist::create_communicators(options); }

  void register_communicator(std::uintptr_t nccl_comm, int device) override {
    check_device(device);
    dist::lend_nccl_communicator(nccl_comm, device);
  }

 private:
  static void check_device(int ordinal) {
    if (!runtime::valid_device(ordinal))
      throw UserError(ErrorKind::CudaSupportError,
                      concat("no device ", ordinal, " (", runtime::device_count(), " device(s) on the ",
                             backend_name(runtime::session().backend), " backend)"));
  }
  // --streams N: the host creates N streams itself and lends them by name.
  void prepare_streams();
  // The backend is resolved (cuInit has returned) and the start's
  // background threads are done (the context's creation, the linker's
  // warm-up, compiles started ahead: support/exit_joins.h) before a script's
  // result goes back to a caller that may exit (runtime/session.h).
  static int settled(int rc) {
    runtime::session();
    support::run_joins_now();
    return rc;
  }
  int streams_requested_ = 0;
  bool streams_ready_ = false;
};

}  // namespace

// Defined in runtime/host_streams.cpp (needs the driver layer).
void create_host_streams(int count);

void RuntimeImpl::prepare_streams() {
  if (streams_ready_) return;
  streams_ready_ = true;
  if (streams_requested_ > 0) create_host_streams(streams_requested_);
}

static RuntimeImpl* g_runtime = nullptr;

Runtime& Runtime::initialize(const RuntimeOptions& options) {
  if (!g_runtime) g_runtime = new RuntimeImpl(options);  // lives for the process: Python is never re-initialized
  return *g_runtime;
}

Runtime* Runtime::current() { return g_runtime; }

}  // namespace cuhost
