// Launching compiled kernels from C++ (cuhost/kernel.h). Each argument is
// checked against its parameter type and written into kernel-ABI slots on the
// stack (codegen/kernel_abi.h); then one cuLaunchKernel, or one CPU grid run.
// The CUDA function is loaded at the first launch and reloaded after
// cuda.close() unloaded the modules.
#include "runtime/host_kernel.h"

#include <cstring>

#include "codegen/kernel_abi.h"
#include "cpu/cancellation.h"
#include "cuda/error_record.h"
#include "runtime/compile_lookup.h"
#include "runtime/device_memory.h"
#include "runtime/devices.h"
#include "runtime/graph_capture.h"
#include "runtime/kernel_launch.h"
#include "runtime/live_kernels.h"
#include "runtime/session.h"
#include "support/diagnostics.h"
#include "support/half_bits.h"

namespace cuhost {

KernelArg KernelArg::array(std::uintptr_t data, std::initializer_list<std::int64_t> shape) {
  if (shape.size() > static_cast<std::size_t>(kMaxDims))
    throw UserError(ErrorKind::ValueError, concat("an array argument has at most ", kMaxDims, " dimensions"));
  KernelArg a;
  a.kind_ = Kind::Array;
  a.data_ = data;
  a.ndim_ = static_cast<int>(shape.size());
  int d = 0;
  for (std::int64_t n : shape) a.shape_[d++] = n;
  return a;
}

KernelArg KernelArg::array(std::uintptr_t data, int ndim, const std::int64_t* shape, const std::int64_t* strides) {
  if (ndim < 0 || ndim > kMaxDims)
    throw UserError(ErrorKind::ValueError, concat("an array argument has 0 to ", kMaxDims, " dimensions, not ", ndim));
  KernelArg a;
  a.kind_ = Kind::Array;
  a.data_ = data;
  a.ndim_ = ndim;
  a.has_strides_ = strides != nullptr;
  for (int d = 0; d < ndim; ++d) {
    a.shape_[d] = shape[d];
    if (strides) a.strides_[d] = strides[d];
  }
  return a;
}

KernelArg KernelArg::pointer(std::uintptr_t address) {
  KernelArg a;
  a.kind_ = Kind::Pointer;
  a.data_ = address;
  return a;
}

void Kernel::launch_with_deadline(double seconds, Dim3 grid, Dim3 block, const KernelArg* args, std::size_t count,
                                  std::uintptr_t stream, unsigned shared_bytes) {
  if (!(seconds > 0))
    throw UserError(ErrorKind::ValueError,
                    concat("kernel '", name(), "': a launch's deadline must be > 0 seconds, got ", seconds));
  cpu::LaunchDeadline deadline(seconds);
  launch(grid, block, args, count, stream, shared_bytes);
}

namespace runtime {
namespace {

constexpr int kMaxSlots = 512;

const char* kind_name(KernelArg::Kind k) {
  switch (k) {
    case KernelArg::Kind::Int: return "a signed integer";
    case KernelArg::Kind::UInt: return "an unsigned integer";
    case KernelArg::Kind::Float: return "a float";
    case KernelArg::Kind::Bool: return "a bool";
    case KernelArg::Kind::Array: return "an array";
    case KernelArg::Kind::Pointer: return "a pointer";
  }
  return "?";
}

class HostKernel final : public Kernel, public std::enable_shared_from_this<HostKernel> {
 public:
  explicit HostKernel(std::shared_ptr<const CompiledKernel> k) : k_(std::move(k)), live_(live_slot_for(k_)) {
    for (const ir::Type* t : k_->arg_types) {
      using K = ir::TypeKind;
      if (t->kind != K::Integer && t->kind != K::Float && t->kind != K::Boolean && t->kind != K::Array &&
          t->kind != K::CPointer)
        throw UserError(ErrorKind::TypeError, concat("kernel '", k_->name, "' has a parameter of type ", t->str(),
                                                     ", which cannot be passed from C++"));
      slots_ += static_cast<int>(codegen::param_slot_sizes(t).size());
    }
    if (slots_ > kMaxSlots)
      throw UserError(ErrorKind::ValueError, concat("kernel '", k_->name, "' has too many parameter slots"));
  }

  const std::string& name() const override { return k_->name; }
  std::size_t arity() const override { return k_->arg_types.size(); }
  std::string signature() const override {
    std::string s = "(";
    for (std::size_t i = 0; i < k_->arg_types.size(); ++i) s += (i ? ", " : "") + k_->arg_types[i]->str();
    return s + ")";
  }

  void launch(Dim3 grid, Dim3 block, const KernelArg* args, std::size_t count, std::uintptr_t stream,
              unsigned shared_bytes) override {
    std::uint64_t slots[kMaxSlots];
    void* params[kMaxSlots];
    const int used = pack_all(args, count, slots);
    for (int i = 0; i < used; ++i) params[i] = &slots[i];
    // One acquire load: the product of this launch, whole, even when a live
    // reload publishes another meanwhile (runtime/live_kernels.h).
    const LaunchTarget target = variant_for_launch(live_->current());
    if (capture_in_progress()) {
      const unsigned g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
      KernelLaunchRequest q;
      q.kernel = *target.kernel;
      q.loaded = target.loaded;
      q.device = current_device();
      q.grid = g;
      q.block = b;
      q.shared = shared_bytes;
      q.stream = stream ? stream : default_launch_stream(q.device);
      q.params = params;
      q.count = static_cast<std::size_t>(used);
      q.origin = LaunchOrigin::Host;
      q.owner = shared_from_this();
      if (session().backend == Backend::Cuda) use_device_context(q.device);
      if (capture_kernel_launch(q)) return;
    }
    if (session().backend == Backend::Cuda)
      launch_cuda(target, grid, block, params, stream, shared_bytes);
    else
      launch_cpu(**target.kernel, grid, block, params, shared_bytes);
  }

  // Checks and packs `count` arguments into `slots` (at least kMaxSlots);
  // returns the number of slots used.
  int pack_all(const KernelArg* args, std::size_t count, std::uint64_t* slots) const {
    if (count != k_->arg_types.size())
      throw UserError(ErrorKind::TypeError,
                      concat("kernel '", k_->name, "' takes ", k_->arg_types.size(), " arguments, got ", count));
    std::uint64_t* cursor = slots;
    for (std::size_t i = 0; i < count; ++i) pack(args[i], k_->arg_types[i], i, cursor);
    return static_cast<int>(cursor - slots);
  }

 private:
  [[noreturn]] void bad_arg(std::size_t i, const ir::Type* t, const std::string& why) const {
    throw UserError(ErrorKind::TypeError,
                    concat("argument ", i, " of kernel '", k_->name, "' (", t->str(), "): ", why));
  }

  void pack(const KernelArg& a, const ir::Type* t, std::size_t i, std::uint64_t*& slot) const {
    using K = ir::TypeKind;
    using A = KernelArg::Kind;
    switch (t->kind) {
      case K::Boolean:
      case K::Integer: {
        std::int64_t v;
        if (a.kind() == A::Int || a.kind() == A::Bool)
          v = a.as_int();
        else if (a.kind() == A::UInt)
          v = static_cast<std::int64_t>(a.as_uint());
        else
          bad_arg(i, t, concat("got ", kind_name(a.kind())));
        *slot = 0;
        const int bytes = t->kind == K::Boolean ? 1 : t->bits / 8;
        if (t->kind == K::Boolean) v = v != 0;
        std::memcpy(slot++, &v, static_cast<std::size_t>(bytes));  // little-endian: the low bytes
        return;
      }
      case K::Float: {
        double d;
        if (a.kind() == A::Float)
          d = a.as_float();
        else if (a.kind() == A::Int || a.kind() == A::Bool)
          d = static_cast<double>(a.as_int());
        else if (a.kind() == A::UInt)
          d = static_cast<double>(a.as_uint());
        else
          bad_arg(i, t, concat("got ", kind_name(a.kind())));
        *slot = 0;
        if (t->bits == 32) {
          float f = static_cast<float>(d);
          std::memcpy(slot, &f, sizeof f);
        } else if (t->bits == 16) {
          std::uint16_t h = ir::is_bfloat16(t) ? support::double_to_bfloat16_bits(d) : support::double_to_half_bits(d);
          std::memcpy(slot, &h, sizeof h);
        } else {
          std::memcpy(slot, &d, sizeof d);
        }
        ++slot;
        return;
      }
      case K::CPointer:
        if (a.kind() != A::Pointer && a.kind() != A::Array) bad_arg(i, t, concat("got ", kind_name(a.kind())));
        *slot++ = a.data();
        return;
      case K::Array: {
        if (a.kind() != A::Array) bad_arg(i, t, concat("got ", kind_name(a.kind())));
        if (a.ndim() != t->ndim) bad_arg(i, t, concat("got an array of ", a.ndim(), " dimensions"));
        const std::int64_t item = t->dtype->byte_size();
        std::int64_t strides[KernelArg::kMaxDims];
        std::int64_t expect = item;
        for (int d = t->ndim - 1; d >= 0; --d) {
          if (a.shape()[d] < 0) bad_arg(i, t, concat("negative extent ", a.shape()[d], " in axis ", d));
          strides[d] = a.has_strides() ? a.strides()[d] : expect;
          if (t->layout == ir::Layout::C && strides[d] != expect && a.shape()[d] > 1)
            bad_arg(i, t, "the array is not C-contiguous");
          expect *= a.shape()[d];
        }
        *slot++ = a.data();
        for (int d = 0; d < t->ndim; ++d) *slot++ = static_cast<std::uint64_t>(a.shape()[d]);
        for (int d = 0; d < t->ndim; ++d) *slot++ = static_cast<std::uint64_t>(strides[d]);
        return;
      }
      default: bad_arg(i, t, "this parameter type cannot be passed from C++");
    }
  }

  // What a launch of `current` runs under the current deadline
  // (cpu/cancellation.h): `current` itself when its cancellation points
  // match, else the other variant, compiled at its first need.
  LaunchTarget variant_for_launch(LiveProduct* current) {
    const bool deadline = cpu::current_deadline().seconds > 0;
    if (current->kernel->cancellation_points == deadline) return {&current->kernel, &current->loaded};
    if (!other_.holds(current->kernel, deadline))
      other_.keep(current->kernel, kernel_variant(*current->kernel, deadline));
    return other_.target();
  }

  // Launches on the calling thread's device (Runtime::set_device).
  void launch_cuda(LaunchTarget target, Dim3 grid, Dim3 block, void** params, std::uintptr_t stream, unsigned shared) {
    const int device = current_device();
    use_device_context(device);
    const unsigned g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
    cuda::KernelLaunch l = target.loaded->launch(*target.kernel, device, g, b, shared,
                                                 stream ? stream : default_launch_stream(device), params);
    cuda::launch_kernel(l);
    if (target.loaded->errors().record) cuda::check_kernel_errors(target.loaded->errors(), l.stream, k_->name);
  }

  static void launch_cpu(const CompiledKernel& kernel, Dim3 grid, Dim3 block, void** params, unsigned shared) {
    const unsigned g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
    check_cpu_launch_bound(kernel, b);
    cpu::launch(cpu_launch_of(kernel, g, b, shared, params));
  }

  // The first product: its parameter types and name, which a live reload
  // never changes (a signature change is refused, python/live_reload.h).
  std::shared_ptr<const CompiledKernel> k_;
  std::shared_ptr<LiveSlot> live_;
  int slots_ = 0;
  // The other variant of the live product (launches are thread-compatible).
  OtherVariant other_;
};

}  // namespace

std::shared_ptr<Kernel> make_host_kernel(std::shared_ptr<const CompiledKernel> compiled) {
  return std::make_shared<HostKernel>(std::move(compiled));
}

std::vector<std::uint64_t> pack_host_kernel_args(const std::shared_ptr<void>& owner, const KernelArg* args,
                                                 std::size_t count) {
  const auto* kernel = static_cast<const HostKernel*>(owner.get());
  std::uint64_t slots[kMaxSlots];
  const int used = kernel->pack_all(args, count, slots);
  return std::vector<std::uint64_t>(slots, slots + used);
}

}  // namespace runtime
}  // namespace cuhost
