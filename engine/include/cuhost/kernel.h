// Launching a script's kernels from C++ with no Python on the launch path:
// the host looks a @cuda.jit kernel up once by name, has it compiled for an
// explicit signature, and launches it with plain C++ values. A launch checks
// the arguments against the signature, packs them on the stack and makes one
// driver call (on the CPU backend, one run of the CPU grid). Memory helpers
// give buffers that work on either backend (device memory on CUDA, host
// memory on the CPU).
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>

namespace cuhost {

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
  Dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};

// One kernel argument: a scalar, an array, or a raw pointer (for CPointer
// parameters). Arrays point at device memory on the CUDA backend and at host
// memory on the CPU backend.
class KernelArg {
 public:
  static constexpr int kMaxDims = 8;
  enum class Kind { Int, UInt, Float, Bool, Array, Pointer };

  KernelArg(std::int32_t v) : kind_(Kind::Int), i_(v) {}
  KernelArg(std::int64_t v) : kind_(Kind::Int), i_(v) {}
  KernelArg(std::uint32_t v) : kind_(Kind::UInt), u_(v) {}
  KernelArg(std::uint64_t v) : kind_(Kind::UInt), u_(v) {}
  KernelArg(float v) : kind_(Kind::Float), f_(v) {}
  KernelArg(double v) : kind_(Kind::Float), f_(v) {}
  KernelArg(bool v) : kind_(Kind::Bool), i_(v) {}

  // A C-contiguous array of the given shape.
  static KernelArg array(std::uintptr_t data, std::initializer_list<std::int64_t> shape);
  // A strided array: strides in bytes, one per dimension.
  static KernelArg array(std::uintptr_t data, int ndim, const std::int64_t* shape, const std::int64_t* strides_bytes);
  static KernelArg pointer(std::uintptr_t address);

  Kind kind() const { return kind_; }
  std::int64_t as_int() const { return i_; }
  std::uint64_t as_uint() const { return u_; }
  double as_float() const { return f_; }
  std::uintptr_t data() const { return data_; }
  int ndim() const { return ndim_; }
  const std::int64_t* shape() const { return shape_; }
  bool has_strides() const { return has_strides_; }
  const std::int64_t* strides() const { return strides_; }

 private:
  KernelArg() = default;
  Kind kind_ = Kind::Int;
  union {
    std::int64_t i_ = 0;
    std::uint64_t u_;
    double f_;
  };
  std::uintptr_t data_ = 0;
  int ndim_ = 0;
  bool has_strides_ = false;
  std::int64_t shape_[kMaxDims] = {};
  std::int64_t strides_[kMaxDims] = {};
};

// A kernel compiled for one signature. Launching is thread-compatible (one
// thread at a time per Kernel object).
class Kernel {
 public:
  virtual ~Kernel() = default;
  virtual const std::string& name() const = 0;
  virtual std::string signature() const = 0;  // "(float32, array(float32, 1d, C), ...)"
  virtual std::size_t arity() const = 0;

  // Launches on `stream` (a CUstream as an integer; 0 means the host's
  // default launch stream, as for scripts). Asynchronous on the CUDA backend
  // unless the kernel was compiled with debug=True (its failed checks are
  // then reported here). Throws std::runtime_error (a cuhost user error) for
  // a wrong argument count or kind (naming the parameter), an invalid launch
  // configuration or a driver error naming the kernel.
  virtual void launch(Dim3 grid, Dim3 block, const KernelArg* args, std::size_t count, std::uintptr_t stream = 0,
                      unsigned shared_bytes = 0) = 0;
  void launch(Dim3 grid, Dim3 block, std::initializer_list<KernelArg> args, std::uintptr_t stream = 0,
              unsigned shared_bytes = 0) {
    launch(grid, block, args.begin(), args.size(), stream, shared_bytes);
  }

  // launch() under a deadline of `seconds` (> 0) for this launch alone: the
  // kernel's variant with cancellation points runs (compiled at the first
  // such launch), the call waits for the kernel, and one still running at
  // the deadline is stopped and the call throws std::runtime_error (a cuhost
  // KernelError naming the kernel and "its launch's deadline"). It only
  // tightens: a shorter script or runtime timeout still applies (and is the
  // one named). Other launches run the kernel without cancellation points.
  // See docs/RELIABILITY.md, "Kernel deadlines".
  void launch_with_deadline(double seconds, Dim3 grid, Dim3 block, const KernelArg* args, std::size_t count,
                            std::uintptr_t stream = 0, unsigned shared_bytes = 0);
  void launch_with_deadline(double seconds, Dim3 grid, Dim3 block, std::initializer_list<KernelArg> args,
                            std::uintptr_t stream = 0, unsigned shared_bytes = 0) {
    launch_with_deadline(seconds, grid, block, args.begin(), args.size(), stream, shared_bytes);
  }
};

// Memory of the active backend, freed with the last owner.
class Buffer {
 public:
  virtual ~Buffer() = default;
  virtual std::uintptr_t address() const = 0;
  virtual std::size_t size() const = 0;
};

}  // namespace cuhost
