// The compiler's entry points (runtime/compiler.h): each is a composition of
// the one stage list (runtime/pipeline.h) for its product and target, behind
// the compile's cache path: the in-memory memo per (function, argument
// types, target options), then the content-keyed disk cache
// (compile_cache.h), then the pipeline.
#include "runtime/compiler.h"

#include <set>
#include <tuple>

#include "codegen/module.h"
#include "codegen/nvptx_backend.h"
#include "codegen/nvptx_cancellation.h"
#include "codegen/nvptx_error_record.h"
#include "cpu/cancellation.h"
#include "cpu/jit.h"
#include "cuda/linker.h"
#include "ffi/device_link.h"
#include "ffi/host_link.h"
#include "frontend/captured.h"
#include "runtime/compile_cache.h"
#include "runtime/compile_memo.h"
#include "runtime/pipeline.h"
#include "sema/typed_function.h"
#include "support/diagnostics.h"
#include "support/log.h"

namespace cuhost::runtime {
namespace {

// The same options with NVPTX as the target (compile*() always emit PTX).
TargetOptions nvptx(TargetOptions options) {
  options.target = Target::NVPTX;
  return options;
}

struct MemoKey {
  const JitFunction* fn;
  std::vector<const ir::Type*> args;
  int target, cc_major, cc_minor;
  std::string arch_suffix;
  bool bounds_check;
  bool operator<(const MemoKey& o) const {
    return std::tie(fn, args, target, cc_major, cc_minor, arch_suffix, bounds_check) <
           std::tie(o.fn, o.args, o.target, o.cc_major, o.cc_minor, o.arch_suffix, o.bounds_check);
  }
};

CompileMemo<MemoKey, CompiledKernel>& memo() {
  static CompileMemo<MemoKey, CompiledKernel> m;
  return m;
}

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

namespace {

std::shared_ptr<CompiledKernel> build_kernel(const std::shared_ptr<JitFunction>& fn,
                                             const std::vector<const ir::Type*>& arg_types,
                                             const TargetOptions& target) {
  refuse_c_abi_kernel(*fn);
  // NVPTX kernels come from the on-disk cache when nothing they depend on changed.
  std::optional<std::string> cache_key;
  {
    log::StageTimer timer(fn->name, "cache");
    cache_key = kernel_cache_key(*fn, arg_types, target);
    if (cache_key)
      if (auto cached = load_cached_kernel(*cache_key, *fn, arg_types)) {
        cached->launch_bound_threads = fn->options.launch_bounds[0];
        cached->shared_memory_carveout = fn->options.shared_memory_carveout;
        return cached;
      }
  }
  CompileJob job(fn, arg_types, target, Product::Kernel);
  run_pipeline(job, kernel_stages(target.target));
  const sema::TypedFunction& typed = *job.typed;
  auto kernel = compiled_from(job);
  kernel->uses_barriers = typed.uses_barriers;
  kernel->uses_warp_ops = typed.uses_warp_ops;
  kernel->launch_bound_threads = fn->options.launch_bounds[0];
  kernel->shared_memory_carveout = fn->options.shared_memory_carveout;
  for (const auto& ff : typed.foreign_callees) kernel->use_cooperative |= ff->use_cooperative;
  kernel->use_cooperative |= typed.uses_grid_sync;  // cuda.cg grid sync: a cooperative launch
  if (target.target == Target::NVPTX) {
    kernel->dynamic_shared_padding = std::size_t(job.lowered->dynamic_shared_padding);
    if (cache_key) store_cached_kernel(*cache_key, *kernel);
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

// CUHOST_VERIFY_PTX=1 (set by the test suite): every kernel compiled for the
// CPU is also compiled to PTX and, when it links no foreign code, assembled
// for sm_90 by nvJitLink, so CI checks the GPU path of every kernel it runs
// without a GPU.
void verify_ptx_if_asked(const std::shared_ptr<JitFunction>& fn, const std::vector<const ir::Type*>& arg_types) {
  const char* v = std::getenv("CUHOST_VERIFY_PTX");
  if (!v || !*v || std::string(v) == "0") return;
  TargetOptions nv;
  nv.target = Target::NVPTX;
  std::shared_ptr<CompiledKernel> k = build_kernel(fn, arg_types, nv);
  if (!k->link.empty()) return;  // foreign items need the module loader; the GPU run links them
  log::StageTimer timer(fn->name, "verify-ptx");
  cuda::link({cuda::LinkInput{ir::LinkKind::PTXSource, fn->name + ".ptx", k->ptx}}, 9, 0, false);
}

}  // namespace

std::shared_ptr<const CompiledKernel> compile_kernel(const std::shared_ptr<JitFunction>& fn,
                                                     const std::vector<const ir::Type*>& arg_types,
                                                     const TargetOptions& target) {
  require_captured(fn);
  MemoKey key{fn.get(),        arg_types,          int(target.target), target.cc_major,
              target.cc_minor, target.arch_suffix, target.bounds_check};
  if (auto kept = memo().find(key, fn)) return kept;
  std::shared_ptr<const CompiledKernel> kernel = build_kernel(fn, arg_types, target);
  if (target.target == Target::CPU) verify_ptx_if_asked(fn, arg_types);
  return memo().keep(key, fn, kernel);
}

std::shared_ptr<const CompiledKernel> compile_device_function(const std::shared_ptr<JitFunction>& fn,
                                                              const std::vector<const ir::Type*>& arg_types,
                                                              const TargetOptions& target) {
  CompileJob job(fn, arg_types, nvptx(target), Product::DeviceFunction);
  run_pipeline(job, device_function_stages());
  auto k = compiled_from(job);
  k->static_shared_bytes = 0;  // kernels only: a device function's shared arrays belong to its caller
  k->return_type = job.typed->return_type ? job.typed->return_type : ir::none_type();
  return k;
}

CompiledText compile_text(const std::shared_ptr<JitFunction>& fn, const std::vector<const ir::Type*>& arg_types,
                          bool device, const TargetOptions& target, const std::string& output) {
  require_captured(fn);
  if (output == "ltoir")
    throw UserError(ErrorKind::NotImplementedError,
                    "output='ltoir' is not available: LLVM's NVPTX backend produces PTX and cannot produce NVVM "
                    "LTO-IR; use output='ptx'");
  if (output != "ptx")
    throw UserError(ErrorKind::ValueError,
                    concat("unsupported output kind '", output, "' (expected 'ptx' or 'ltoir')"));
  if (!device) refuse_c_abi_kernel(*fn);
  CompiledText result;
  if (device) {
    auto k = compile_device_function(fn, arg_types, target);
    result.text = k->ptx;
    result.return_type = k->return_type;
    return result;
  }
  // A kernel's own PTX: its foreign items are linked when it is loaded, so
  // the pipeline leaves out Link.
  CompileJob job(fn, arg_types, nvptx(target), Product::Kernel);
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
