// The compiler's entry points (runtime/compiler.h): each is a composition of
// the one stage list (runtime/pipeline.h) for its product and target. The
// cache path in front of a kernel's compile is compile_lookup.cpp's.
#include "runtime/compiler.h"

#include <set>

#include "codegen/module.h"
#include "codegen/nvptx_backend.h"
#include "codegen/nvptx_cancellation.h"
#include "codegen/nvptx_error_record.h"
#include "ffi/device_link.h"
#include "ffi/host_link.h"
#include "frontend/captured.h"
#include "runtime/pipeline.h"
#include "sema/typed_function.h"
#include "support/diagnostics.h"

namespace cuhost::runtime {
namespace {

void require_captured(const std::shared_ptr<JitFunction>& fn) {
  CUHOST_CHECK(fn) << "compiling a null function";
  CUHOST_CHECK(fn->captured) << "function '" << fn->name << "' must be captured before compilation";
}

// The compiled kernel a finished job describes, kernel or device function alike.
std::shared_ptr<CompiledKernel> compiled_from(CompileJob& job) {
  auto k = std::make_shared<CompiledKernel>();
  k->name = job.fn->name;
  k->symbol = job.lowered->entry_symbol;
  k->target = job.target.target;
  k->typed = job.typed;
  k->arg_types = job.arg_types;
  k->link = job.link;
  k->llvm_ir = std::move(job.llvm_ir);
  k->llvm_ir_unoptimized = std::move(job.llvm_ir_unoptimized);
  k->ptx = std::move(job.ptx);
  k->static_shared_bytes = job.static_shared_bytes;
  return k;
}

void refuse_c_abi_kernel(const JitFunction& fn) {
  if (fn.options.abi == ir::Abi::C)
    throw UserError(ErrorKind::NotImplementedError, "The C ABI is not supported for kernels");
}

}  // namespace

std::vector<std::shared_ptr<const ir::ForeignFunction>> host_link_sources(const codegen::LoweredModule& lowered,
                                                                          const std::string& kernel_name) {
  auto key = [](const ir::LinkItem& item) {
    return concat(int(item.kind), "|", item.path, "|", item.name, "|", std::hash<std::string>()(item.data));
  };
  std::vector<std::shared_ptr<const ir::ForeignFunction>> out = lowered.foreign;
  std::set<std::string> owned;
  for (const auto& ff : lowered.foreign)
    for (const ir::LinkItem& item : ff->link) owned.insert(key(item));
  auto extra = std::make_shared<ir::ForeignFunction>();
  extra->name = extra->python_name = kernel_name;
  for (const ir::LinkItem& item : lowered.link)
    if (owned.insert(key(item)).second) extra->link.push_back(item);
  if (!extra->link.empty()) out.push_back(extra);
  return out;
}

std::shared_ptr<CompiledKernel> build_kernel(CompileJob& job) {
  const std::shared_ptr<JitFunction>& fn = job.fn;
  require_captured(fn);
  refuse_c_abi_kernel(*fn);
  CUHOST_CHECK(job.product == Product::Kernel) << "build_kernel compiles kernels";
  run_pipeline(job, kernel_stages(job.target.target));
  const sema::TypedFunction& typed = *job.typed;
  auto kernel = compiled_from(job);
  kernel->uses_barriers = typed.uses_barriers;
  kernel->cancellation_points = job.target.cancellation_points;
  kernel->uses_warp_ops = typed.uses_warp_ops;
  kernel->launch_bound_threads = fn->options.launch_bounds[0];
  for (int i = 0; i < 3; ++i) kernel->cluster_dim[i] = fn->options.cluster_dim[i];
  kernel->shared_memory_carveout = fn->options.shared_memory_carveout;
  for (const auto& ff : typed.foreign_callees) kernel->use_cooperative |= ff->use_cooperative;
  kernel->use_cooperative |= typed.uses_grid_sync;  // cuda.cg grid sync: a cooperative launch
  if (job.target.target == Target::NVPTX) {
    kernel->dynamic_shared_padding = std::size_t(job.lowered->dynamic_shared_padding);
    return kernel;
  }
  kernel->cpu_thread_symbol = job.lowered->cpu_thread_symbol;
  kernel->cpu_block_symbol = job.lowered->cpu_block_symbol;
  kernel->cpu_thread_fn = job.addresses.at(0);
  if (!kernel->cpu_block_symbol.empty()) kernel->cpu_block_fn = job.addresses.at(1);
  kernel->has_module_callbacks = job.has_module_callbacks;
  kernel->cpu_globals = std::move(job.cpu_globals);
  return kernel;
}

std::shared_ptr<const CompiledKernel> compile_device_function(CompileJob& job) {
  CUHOST_CHECK(job.product == Product::DeviceFunction && job.target.target == Target::NVPTX)
      << "compile_device_function compiles device functions for NVPTX";
  run_pipeline(job, device_function_stages());
  auto k = compiled_from(job);
  k->static_shared_bytes = 0;  // kernels only: a device function's shared arrays belong to its caller
  k->return_type = job.typed->return_type ? job.typed->return_type : ir::none_type();
  return k;
}

CompiledText compile_text(CompileJob& job, const std::string& output) {
  require_captured(job.fn);
  CUHOST_CHECK(job.target.target == Target::NVPTX) << "compile*() emits PTX";
  const bool device = job.product == Product::DeviceFunction;
  if (output == "ltoir")
    throw UserError(ErrorKind::NotImplementedError,
                    "output='ltoir' is not available: LLVM's NVPTX backend produces PTX and cannot produce NVVM "
                    "LTO-IR; use output='ptx'");
  if (output != "ptx")
    throw UserError(ErrorKind::ValueError,
                    concat("unsupported output kind '", output, "' (expected 'ptx' or 'ltoir')"));
  if (!device) refuse_c_abi_kernel(*job.fn);
  CompiledText result;
  if (device) {
    auto k = compile_device_function(job);
    result.text = k->ptx;
    result.return_type = k->return_type;
    return result;
  }
  // A kernel's own PTX: its foreign items are linked when it is loaded, so
  // the pipeline leaves out Link.
  try {
    run_pipeline(job, {Stage::Capture, Stage::Typing});
  } catch (const UserError& e) {
    // numba-cuda's compile_ptx/compile refuse a returning kernel with this TypeError.
    if (e.cause() == ErrorCause::KernelReturnsValue)
      throw UserError(ErrorKind::TypeError, "CUDA kernel must have void return type.");
    throw;
  }
  run_pipeline(job, {Stage::Lowering, Stage::Optimization, Stage::CodeGeneration});
  result.text = std::move(job.ptx);
  result.return_type = job.typed->return_type ? job.typed->return_type : ir::none_type();
  return result;
}

}  // namespace cuhost::runtime
