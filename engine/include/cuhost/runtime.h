// The public embedding API of cuhost: the only header an application (app/,
// plugins, third-party hosts) needs. A Runtime owns the embedded interpreter,
// the chosen backend and the host-owned streams; it runs scripts and reports
// their errors. Everything else in the engine stays behind this facade.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <cuhost/export.h>
#include <cuhost/kernel.h>
#include <cuhost/live.h>

namespace cuhost {

// Which backend compiles and runs kernels. Auto picks CUDA when a driver and a
// device are present and falls back to the CPU (saying so once on stderr).
enum class Backend { Auto, Cpu, Cuda };

inline const char* backend_name(Backend backend) {
  switch (backend) {
    case Backend::Auto: return "auto";
    case Backend::Cpu: return "cpu";
    case Backend::Cuda: return "cuda";
  }
  return "?";
}

struct RuntimeOptions {
  Backend backend = Backend::Auto;
  // The default CUDA device: threads that choose none (Runtime::set_device,
  // cuda.select_device) use it. kDeviceFromLocalRank: the device of this
  // process's local rank under an MPI launcher (local rank modulo the device
  // count; 0 when not launched by one).
  int device = 0;
  static constexpr int kDeviceFromLocalRank = -1;
  bool verbose = false;      // per-stage compile timings on stderr
  bool bounds_check = true;  // CPU backend: IndexError on out-of-range indices
  // Seconds a launch may run before it is stopped (0: no limit), for every
  // script unless Runtime::set_kernel_timeout gives one its own; see
  // docs/RELIABILITY.md, "Kernel deadlines".
  double kernel_timeout = 0;
  // Bytes of device and managed memory scripts may hold at once, over all
  // devices (0: no limit; see Runtime::set_memory_quota for what counts).
  std::size_t memory_quota = 0;
  int streams = 0;                        // extra named host streams ("s0".."sN-1")
  std::vector<std::string> plugin_paths;  // searched before CUHOST_PLUGIN_PATH
  // A python3-style command line (argv[0] first, then what `python3` takes:
  // -c CODE, -m MODULE, -, SCRIPT, -u, -W, -X, -E, -I, ...). When set, the
  // interpreter reads it exactly as CPython's own `python3` does, and
  // run_python_main() runs what it names.
  std::vector<std::string> python_command_line;
  // sys.executable inside scripts (empty: CPython's own choice). The cuhost
  // executable passes its own path, so subprocesses and multiprocessing
  // children start cuhost again.
  std::string python_executable;
  // The user's Python environment, used as its own python3 would use it:
  // a venv (a folder with pyvenv.cfg: sys.prefix, its site-packages, `pip
  // install` landing there) or a complete installation such as a conda
  // environment (its lib/python3.X and site-packages). Empty: the embedded
  // Python's own site-packages. Runtime::initialize throws (a cuhost user
  // error naming both versions) for an environment made for another Python
  // major.minor than the embedded one. The cuhost executable fills it from
  // --python-env, the venv whose bin/ holds the link it was started through,
  // CUHOST_PYTHON_ENV or VIRTUAL_ENV, in that order.
  std::string python_env;
  // Start the backend (load the driver, cuInit) at its first use instead of
  // during the interpreter's start. A process that forks before it uses the
  // GPU (multiprocessing's forkserver) then leaves its children a driver they
  // can use; the cuhost executable asks for it for `-c` commands.
  bool defer_backend_start = false;
  // Called once before the runtime's first CUDA driver call (never when the
  // CPU backend is chosen). An application that runs cuInit on a thread of
  // its own while the engine loads, as the cuhost executable does, waits for
  // that thread here: the driver is then started once, early, and the
  // runtime goes on from there. Empty: nothing to wait for.
  std::function<void()> await_driver_start;
};

// A device buffer the host application owns and lends to scripts, zero-copy.
struct HostBuffer {
  std::string name;
  std::uintptr_t device_pointer = 0;
  std::vector<std::int64_t> shape;
  std::string dtype;  // NumPy type string, e.g. "float32"
  int device = -1;    // the device it lives on; -1: as the driver says (else the default device)
};

// Collective communicators the host creates and lends to scripts
// (`from cuhost import nccl`). On the CUDA backend they are NCCL
// communicators (libnccl.so.2, loaded at run time); on the CPU backend the
// same operations run over MPI between processes, or within one rank.
struct CommunicatorOptions {
  enum class Scope {
    Auto,     // Mpi when an MPI launcher (mpirun, srun) started this process, else Process
    Process,  // one process over several devices: one communicator per device (ncclCommInitAll)
    Mpi,      // this process is one rank of MPI_COMM_WORLD (Open MPI's libmpi, loaded at run time):
              // one communicator on the default device, its NCCL unique id broadcast over MPI
  };
  Scope scope = Scope::Auto;
  // Process scope: the devices, one communicator each; empty means every device.
  std::vector<int> devices;
};

class Runtime {
 public:
  // Creates the process-wide runtime. CPython is initialized once per process
  // and never finalized and re-initialized; a second call returns the first
  // runtime (its options are not changed).
  static Runtime& initialize(const RuntimeOptions& options);
  static Runtime* current();

  virtual ~Runtime() = default;

  // Runs a Python script with sys.argv = [path, args...]. Returns the script's
  // exit code: 0 on success, n for sys.exit(n), 1 after an uncaught exception
  // (whose traceback is printed on stderr).
  virtual int run_file(const std::string& path, const std::vector<std::string>& args) = 0;

  // Runs Python source text (for embedders); same exit-code rules as run_file.
  virtual int run_string(const std::string& source, const std::string& filename) = 0;

  // Runs a module of the `cuhost` Python package as __main__ (runpy), with
  // sys.argv = [module, args...]; same exit-code rules as run_file.
  virtual int run_module_main(const std::string& module, const std::vector<std::string>& args) = 0;

  // Runs what RuntimeOptions::python_command_line names, as `python3` would:
  // the code of -c, the module of -m, a script, or standard input (-, or a
  // pipe; an interactive prompt on a terminal). sys.path[0] is set as
  // CPython sets it. Afterwards it ends the interpreter as python3 does
  // (Py_FinalizeEx: non-daemon threads joined, atexit handlers run): call it
  // once, last; no other call into the runtime's Python may follow.
  // Returns the exit code with run_file's rules; 2 when the script cannot be
  // opened. Throws std::logic_error when no command line was given.
  virtual int run_python_main() = 0;

  // The backend actually in use after Auto was resolved.
  virtual Backend backend() const = 0;

  // A human-readable report: versions, backends, devices.
  virtual std::string info() const = 0;

  // Lends a host-owned stream (a CUstream, as an integer) to scripts under a
  // name; scripts reach it as cuda.host_stream(name). On each device, the
  // first one registered there, or the one named "default", receives
  // launches that name no stream. `device` is the device the stream belongs
  // to; -1 asks the driver (cuStreamGetCtx), else the default device.
  virtual void register_stream(const std::string& name, std::uintptr_t cu_stream, int device = -1) = 0;

  // Lends a host-owned device buffer to scripts as cuda.host_array(name).
  virtual void register_buffer(const HostBuffer& buffer) = 0;

  // The device-memory quota: the bytes of device and managed memory
  // (cuda.device_array, to_device, managed_array, memory of an external
  // memory manager, raw cuMemAlloc through cuda.bindings) that scripts may
  // hold at once, counted as requested. An allocation past it raises
  // CudaAPIError (CUDA_ERROR_OUT_OF_MEMORY) naming the quota, after the
  // pending deallocations were released, as for a real out-of-memory. Memory
  // returns to the quota when it is really freed. Not counted: buffers the
  // host allocates (allocate()) or lends (register_buffer()), pinned and
  // mapped host memory, cuhost's own launch staging. 0 removes the limit.
  // Set it before each run_file() to give each script its own limit (memory
  // still held from earlier scripts counts).
  virtual void set_memory_quota(std::size_t bytes) = 0;
  // Bytes counted against the quota now (counted even without a quota).
  virtual std::size_t memory_quota_in_use() const = 0;

  // The kernel timeout of the scripts run from now on (per script: call it
  // before each run_file()), replacing RuntimeOptions::kernel_timeout for
  // them: kernels they launch run at most `seconds` (0: no limit for them),
  // compiled with cancellation points when a limit applies and without when
  // none does. A stopped launch raises KernelError naming the kernel and
  // "the script's kernel timeout". A script's own per-launch deadlines
  // (cuhost.kernel_deadline) can only tighten it. clear_kernel_timeout()
  // returns to RuntimeOptions::kernel_timeout. Also applies to
  // Kernel::launch from C++.
  virtual void set_kernel_timeout(double seconds) = 0;
  virtual void clear_kernel_timeout() = 0;

  // Adds a plugin directory to the search path before scripts run.
  virtual void add_plugin_path(const std::string& directory) = 0;

  // Registers a plugin given as data: its plugin.toml text and its files
  // (relative name -> contents). It is found before any folder on the search
  // path. Throws std::runtime_error (a cuhost user error naming the field)
  // when the manifest is invalid.
  virtual void register_plugin(const std::string& manifest_toml, const std::map<std::string, std::string>& files,
                               const std::string& origin = "<embedded plugin>") = 0;

  // --- Kernels launched from C++ (see cuhost/kernel.h) ---

  // The @cuda.jit kernel `name`, compiled for `signature` (e.g.
  // "void(float32, float32[::1], float32[::1], float32[::1])"). `name` is a
  // global of the __main__ namespace left by run_file/run_string, or
  // "module:name" for a kernel of an importable module. Throws
  // std::runtime_error (a cuhost user error) when it does not exist, is not a
  // kernel, or the signature is invalid or does not type-check.
  virtual std::shared_ptr<Kernel> kernel(const std::string& name, const std::string& signature) = 0;

  // Writes kernels of the scripts run so far (and graphs they registered)
  // into a folder a host without Python loads with cuhost/aot.h (see
  // cuhost/export.h; `cuhost export` calls it after running the script).
  // Throws std::runtime_error (a cuhost user error naming the kernel and the
  // cause) when a kernel cannot be exported or a compile or link fails.
  virtual ExportResult export_kernels(const ExportOptions& options) = 0;

  // Memory for kernel arguments: device memory on the CUDA backend, host
  // memory on the CPU backend. Copies are synchronous.
  virtual std::shared_ptr<Buffer> allocate(std::size_t bytes) = 0;
  virtual void copy_to_device(std::uintptr_t dst, const void* src, std::size_t bytes) = 0;
  virtual void copy_to_host(void* dst, std::uintptr_t src, std::size_t bytes) = 0;

  // Waits for every launch and copy on the device (no-op on the CPU backend).
  virtual void synchronize() = 0;

  // --- Live kernels (see cuhost/live.h and README "Live kernels") ---

  // Follows the script `path` and the modules it imports from the user's
  // folders (not the Python installation's): when a file's content changes,
  // a background thread captures the changed kernels and device functions
  // again, compiles them and the kernels that call them for every signature
  // already compiled, and swaps them in atomically; Kernel handles and Python
  // dispatchers keep their identity, launches never wait for a compile.
  // Call it before or after run_file; calling it again adds a file.
  virtual void watch(const std::string& path) = 0;
  // The callback each reload reports to (on the reload thread); replaces the
  // previous one. Without one, reports go to stderr.
  virtual void on_reload(std::function<void(const ReloadEvent&)> callback) = 0;
  // Stops following files; returns once no reload runs. Idempotent.
  virtual void stop_watching() = 0;

  // --- Several devices in one process ---

  // The number of devices (CUDA devices; 1, the CPU, on the CPU backend).
  virtual int device_count() const = 0;
  // Chooses the device of the calling thread, as cudaSetDevice does: its
  // kernel launches (Kernel::launch), allocations and copies go there, and
  // so do those of scripts run on this thread. Throws for an invalid ordinal.
  virtual void set_device(int ordinal) = 0;
  // The calling thread's device (the default device when it chose none).
  virtual int device() const = 0;

  // --- Collectives (see CommunicatorOptions) ---

  // Creates communicators and lends them to scripts. Throws
  // std::runtime_error (a cuhost user error) when NCCL or MPI is missing or
  // their initialization fails.
  virtual void create_communicators(const CommunicatorOptions& options) = 0;
  // Lends a communicator the host made itself (an ncclComm_t as an integer)
  // on `device`; scripts find it among nccl.communicators().
  virtual void register_communicator(std::uintptr_t nccl_comm, int device) = 0;
};

// Version string of cuhost itself ("0.1.0").
const char* version();

}  // namespace cuhost
