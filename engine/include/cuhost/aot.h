// The driver-only runtime of exported kernels (`cuhost export`): the only
// header an application that ships kernels without Python needs, with the
// header `cuhost export` generates beside it. A Module loads an export
// folder, checks every file against the manifest's SHA-256 digest, and
// launches its kernels on the host's streams with the host's device
// pointers: from a cubin for the device's architecture, else the PTX (the
// driver compiles it for newer GPUs), else, with no GPU or when asked, the
// CPU library the export compiled with the CPU backend's block runtime.
// Library: cuhost::aot (find_package(cuhost COMPONENTS aot)); it needs the
// CUDA driver (libcuda.so.1, loaded at run time, optional) and the C++
// standard library only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace cuhost::aot {

// Every failure: the message names the kernel or graph (when one is
// concerned) and the cause.
class Error : public std::runtime_error {
 public:
  Error(std::string subject, const std::string& message) : std::runtime_error(message), subject_(std::move(subject)) {}
  // The kernel or graph concerned; empty for the folder as a whole.
  const std::string& subject() const { return subject_; }

 private:
  std::string subject_;
};

enum class Device {
  Auto,  // the GPU when a driver and a device exist, else the CPU library
  Cuda,  // the GPU, or an Error
  Cpu,   // the CPU library even where a GPU exists
};

struct LoadOptions {
  Device device = Device::Auto;
  int cuda_device = 0;  // ordinal of the GPU (its primary context is used)
};

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
  Dim3() = default;
  Dim3(unsigned x_, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}  // NOLINT: Dim3 d = 256
};

struct LaunchConfig {
  Dim3 grid, block;
  std::size_t shared_bytes = 0;  // dynamic shared memory
  std::uintptr_t stream = 0;     // a CUstream of the module's device (0: the legacy default stream); CPU: unused
};

// An array argument: the data pointer (device memory on the GPU, host
// memory on the CPU), the extent and the byte stride of each axis, as the
// kernel ABI passes them.
template <class T, int N>
struct Array {
  T* data = nullptr;
  std::int64_t shape[N] = {};
  std::int64_t strides[N] = {};

  // A C-contiguous array of the given extents.
  static Array contiguous(T* data, std::initializer_list<std::int64_t> extents) {
    Array a;
    a.data = data;
    int d = 0;
    for (std::int64_t n : extents)
      if (d < N) a.shape[d++] = n;
    std::int64_t stride = static_cast<std::int64_t>(sizeof(T));
    for (int k = N - 1; k >= 0; --k) {
      a.strides[k] = stride;
      stride *= a.shape[k];
    }
    return a;
  }
};

// False for every argument list: the generated header's catch-all launch
// overloads static_assert it, so a call whose argument types differ from
// the kernel's fails to compile instead of converting.
template <class...>
inline constexpr bool kNoConversion = false;

class Module;
struct KernelState;
struct GraphState;

// One exported kernel. Cheap to copy; valid while its Module lives.
class Kernel {
 public:
  Kernel() = default;
  const std::string& name() const;
  // The signature the export recorded, e.g. "(float32, array(float32, 1d, C))".
  const std::string& signature() const;
  // Launches with kernelParams: one pointer per ABI slot (the generated
  // header fills them). Asynchronous on the GPU; on the CPU it returns when
  // the grid finished. Throws Error naming the kernel (a cooperative grid
  // larger than the device holds, a driver failure, a kernel's IndexError
  // or KernelError on the CPU).
  void launch(const LaunchConfig& config, void** params) const;
  // The number of kernelParams entries a launch passes.
  std::size_t slot_count() const;
  // The largest grid (blocks) a cooperative launch of `threads_per_block` may use.
  unsigned max_cooperative_blocks(unsigned threads_per_block, std::size_t shared_bytes = 0) const;

 private:
  friend class Module;
  explicit Kernel(std::shared_ptr<const KernelState> state) : state_(std::move(state)) {}
  std::shared_ptr<const KernelState> state_;
};

// A value rebound in an exported graph's parameters, by name.
struct GraphArgument {
  std::string name;
  enum class Kind { Pointer, Int, Float } kind = Kind::Pointer;
  std::uintptr_t pointer = 0;
  std::int64_t int_value = 0;
  double float_value = 0;
  static GraphArgument ptr(std::string n, const void* p) {
    GraphArgument a;
    a.name = std::move(n);
    a.pointer = reinterpret_cast<std::uintptr_t>(p);
    return a;
  }
  static GraphArgument integer(std::string n, std::int64_t v) {
    GraphArgument a;
    a.name = std::move(n);
    a.kind = Kind::Int;
    a.int_value = v;
    return a;
  }
  static GraphArgument real(std::string n, double v) {
    GraphArgument a;
    a.name = std::move(n);
    a.kind = Kind::Float;
    a.float_value = v;
    return a;
  }
};

// An exported cuhost.graph capture: its kernel launches, in order, with
// some arguments named parameters that the host binds.
class Graph {
 public:
  Graph() = default;
  const std::string& name() const;
  // The parameter names, in the order the export recorded them.
  std::vector<std::string> parameters() const;
  // Sets parameters by name. Throws Error naming the graph for an unknown
  // name or a value of another kind than the parameter's.
  void bind(const std::vector<GraphArgument>& arguments);
  // Runs every launch in order on `stream`. On the GPU the launches go to
  // the stream one by one, so a stream the host is capturing
  // (cudaStreamBeginCapture) records them as nodes of the host's graph; on
  // the CPU it replays them and returns when they finished. Throws Error
  // when a parameter is unbound.
  void launch(std::uintptr_t stream = 0);
  // GPU: a CUgraph of the launches (made once per bind), for
  // cuGraphAddChildGraphNode into a graph the host builds; owned by this
  // Graph. Throws Error on the CPU.
  std::uintptr_t cuda_graph();
  // GPU: adds the graph as a child node of the host's CUgraph `parent`
  // after `dependencies` (CUgraphNode values); returns the new node.
  std::uintptr_t add_as_child(std::uintptr_t parent, const std::vector<std::uintptr_t>& dependencies = {});

 private:
  friend class Module;
  explicit Graph(std::shared_ptr<GraphState> state) : state_(std::move(state)) {}
  std::shared_ptr<GraphState> state_;
};

class Module {
 public:
  // Loads the export folder `dir` (its manifest.json). Throws Error: the
  // folder or its manifest missing, a file whose size or digest differs
  // from the manifest (truncated or altered), no cubin for this device's
  // architecture and no PTX, no CPU library when the CPU is asked for or
  // no GPU exists, or the driver's failure to load an image.
  static std::shared_ptr<Module> load(const std::string& dir, const LoadOptions& options = {});
  ~Module();
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  // True when the kernels run on the CPU library.
  bool on_cpu() const;
  // What was loaded for the GPU: "cubin sm_90", "ptx sm_90", or "cpu <name>".
  const std::string& image_kind() const;
  std::vector<std::string> kernel_names() const;
  std::vector<std::string> graph_names() const;

  // The kernel `name`. With `expected_signature` (the generated header
  // passes it) it must equal the manifest's: an Error names both when the
  // folder was exported again with other types. Throws Error for a name
  // the export lacks.
  Kernel kernel(const std::string& name, const std::string& expected_signature = {}) const;
  // A fresh instance of the exported graph `name` (its own bindings).
  Graph graph(const std::string& name) const;

  // Memory for arguments on the module's device (host memory on the CPU)
  // and synchronous copies; for hosts that have no allocator of their own.
  void* allocate(std::size_t bytes) const;
  void free(void* pointer) const;
  void copy_to_device(void* dst, const void* src, std::size_t bytes) const;
  void copy_to_host(void* dst, const void* src, std::size_t bytes) const;
  // Waits for the device (no-op on the CPU).
  void synchronize() const;

  struct State;

 private:
  explicit Module(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace cuhost::aot
