// The compiler driver (runtime/compiler.h): typing, lowering, optimization
// and PTX or host code for one specialization, each stage timed, with an
// in-memory memo per (function, argument types, target options) so a
// specialization compiles once per process.
#include "runtime/compiler.h"

#include "runtime/compile_cache.h"

#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>

#include <map>
#include <mutex>
#include <set>
#include <tuple>

#include "codegen/cpu_backend.h"
#include "codegen/cpu_cancellation.h"
#include "codegen/host_libdevice.h"
#include "codegen/module.h"
#include "codegen/nvptx_backend.h"
#include "codegen/nvptx_cancellation.h"
#include "codegen/nvptx_error_record.h"
#include "codegen/nvptx_foreign.h"
#include "cpu/cancellation.h"
#include "cpu/jit.h"
#include "cuda/linker.h"
#include "frontend/captured.h"
#include "runtime/plugin_modules.h"
#include "sema/infer.h"
#include "support/diagnostics.h"
#include "support/log.h"

namespace cuhost::runtime {
namespace {

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

struct MemoEntry {
  std::weak_ptr<JitFunction> owner;  // guards against a new function at a reused address
  std::shared_ptr<const CompiledKernel> kernel;
};

std::mutex& memo_mutex() {
  static std::mutex m;
  return m;
}
std::map<MemoKey, MemoEntry>& memo() {
  static std::map<MemoKey, MemoEntry> m;
  return m;
}

codegen::ModuleRequest request_for(const std::shared_ptr<const sema::TypedFunction>& typed, const JitFunction& fn,
                                   const TargetOptions& target, bool nvptx) {
  codegen::ModuleRequest req;
  req.typed = typed;
  req.target = nvptx ? codegen::CodegenTarget::NVPTX : codegen::CodegenTarget::CPU;
  req.cc_major = target.cc_major;
  req.cc_minor = target.cc_minor;
  req.arch_suffix = target.arch_suffix;
  req.debug = fn.options.debug;
  req.bounds_check = target.bounds_check || fn.options.debug;
  req.fastmath = fn.options.fastmath;
  // numba: debug=True implies line information.
  req.lineinfo = fn.options.lineinfo || fn.options.debug;
  req.max_registers = fn.options.max_registers;
  for (int i = 0; i < 3; ++i) req.launch_bounds[i] = fn.options.launch_bounds[i];
  req.fastmath_flags = fn.options.fastmath ? 0 : fn.options.fastmath_flags;
  return req;
}

void require_captured(const std::shared_ptr<JitFunction>& fn) {
  CUHOST_CHECK(fn) << "compiling a null function";
  CUHOST_CHECK(fn->captured) << "function '" << fn->name << "' must be captured before compilation";
}

// What every compilation records of its lowered module, kernel or device
// function alike.
std::shared_ptr<CompiledKernel> new_compiled(const std::string& name, const codegen::LoweredModule& lowered,
                                             const std::shared_ptr<const sema::TypedFunction>& typed,
                                             const std::vector<const ir::Type*>& arg_types, Target target) {
  auto k = std::make_shared<CompiledKernel>();
  k->name = name;
  k->symbol = lowered.entry_symbol;
  k->target = target;
  k->typed = typed;
  k->arg_types = arg_types;
  k->link = lowered.link;
  return k;
}

struct NvptxOutput {
  std::string unoptimized_ir;
  std::string ir;
  std::string ptx;
  std::size_t static_shared_bytes = 0;
};

// Bytes of static shared memory the optimized module allocates (addrspace 3
// definitions, each aligned), as ptxas will lay them out.
std::size_t static_shared_of(const llvm::Module& m) {
  std::size_t total = 0;
  for (const llvm::GlobalVariable& g : m.globals()) {
    if (g.getAddressSpace() != 3 || g.isDeclaration()) continue;
    std::size_t size = std::size_t(m.getDataLayout().getTypeAllocSize(g.getValueType()));
    std::size_t align = std::max<std::size_t>(1, g.getAlign() ? g.getAlign()->value() : 1);
    total = (total + align - 1) / align * align + size;
  }
  return total;
}

// libdevice, O3 and PTX emission for a lowered module.
NvptxOutput finish_nvptx(codegen::LoweredModule& lowered, const codegen::ModuleRequest& req, int opt,
                         const std::string& name) {
  auto tm = codegen::make_nvptx_target_machine(req.cc_major, req.cc_minor, req.fastmath, req.arch_suffix, opt);
  NvptxOutput out;
  out.unoptimized_ir = codegen::module_text(*lowered.module);
  {
    log::StageTimer timer(name, "optimization");
    codegen::link_libdevice(*lowered.module, lowered.keep, req.fastmath);
    codegen::optimize_module(*lowered.module, *tm, opt);
    codegen::drop_unreferenced_error_record(*lowered.module);
    if (cpu::kernel_timeout() > 0) codegen::insert_gpu_cancellation_points(*lowered.module);
  }
  out.ir = codegen::module_text(*lowered.module);
  out.static_shared_bytes = static_shared_of(*lowered.module);
  {
    log::StageTimer timer(name, "ptx");
    out.ptx =
        codegen::retarget_ptx(codegen::emit_ptx(*lowered.module, *tm), req.cc_major, req.cc_minor, req.arch_suffix);
  }
  return out;
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
  const std::string& name = fn->name;
  if (fn->options.abi == ir::Abi::C)
    throw UserError(ErrorKind::NotImplementedError, "The C ABI is not supported for kernels");
  // NVPTX kernels come from the on-disk cache when nothing they depend on changed.
  std::optional<std::string> cache_key;
  {
    log::StageTimer timer(name, "cache");
    cache_key = kernel_cache_key(*fn, arg_types, target);
    if (cache_key)
      if (auto cached = load_cached_kernel(*cache_key, *fn, arg_types)) {
        cached->launch_bound_threads = fn->options.launch_bounds[0];
        cached->shared_memory_carveout = fn->options.shared_memory_carveout;
        return cached;
      }
  }
  std::shared_ptr<const sema::TypedFunction> typed;
  {
    log::StageTimer timer(name, "typing");
    typed = sema::infer_kernel(fn, arg_types);
  }
  bool nvptx = target.target == Target::NVPTX;
  codegen::ModuleRequest req = request_for(typed, *fn, target, nvptx);
  codegen::LoweredModule lowered;
  {
    log::StageTimer timer(name, "lowering");
    lowered = codegen::lower_module(req);
  }
  auto kernel = new_compiled(name, lowered, typed, arg_types, target.target);
  kernel->uses_barriers = typed->uses_barriers;
  kernel->uses_warp_ops = typed->uses_warp_ops;
  kernel->launch_bound_threads = fn->options.launch_bounds[0];
  kernel->shared_memory_carveout = fn->options.shared_memory_carveout;
  for (const auto& ff : typed->foreign_callees) kernel->use_cooperative |= ff->use_cooperative;
  kernel->use_cooperative |= typed->uses_grid_sync;  // cuda.cg grid sync: a cooperative launch
  if (nvptx) {
    {
      log::StageTimer timer(name, "foreign-inline");
      kernel->link = codegen::link_device_foreign(*lowered.module, lowered.link, req.cc_major, req.cc_minor,
                                                  req.fastmath, &lowered.keep);
    }
    NvptxOutput out = finish_nvptx(lowered, req, fn->options.opt, name);
    kernel->llvm_ir = std::move(out.ir);
    kernel->llvm_ir_unoptimized = std::move(out.unoptimized_ir);
    kernel->ptx = std::move(out.ptx);
    kernel->static_shared_bytes = out.static_shared_bytes;
    kernel->dynamic_shared_padding = std::size_t(lowered.dynamic_shared_padding);
    if (cache_key) store_cached_kernel(*cache_key, *kernel);
    return kernel;
  }
  kernel->static_shared_bytes = std::size_t(lowered.static_shared_bytes);
  {
    log::StageTimer timer(name, "optimization");
    auto tm = codegen::make_host_target_machine();
    codegen::link_host_foreign(*lowered.module, host_link_sources(lowered, name));
    codegen::link_host_libdevice(*lowered.module, req.fastmath);
    codegen::internalize_except(*lowered.module, lowered.keep);
    // Barrier-free kernels: their block loop runs all threads with one
    // guard. Loop fission's region loops shrink (`if t < s`): they are split
    // at the guard's bound instead (IRCE kept a post-loop over the idle
    // threads, which made a shared-memory reduction 1.6x slower).
    codegen::optimize_module(
        *lowered.module, *tm, fn->options.opt,
        typed->uses_barriers ? codegen::LoopSplitting::LoopBounds : codegen::LoopSplitting::GuardedLoops);
    if (cpu::kernel_timeout() > 0) codegen::insert_cancellation_points(*lowered.module);
  }
  kernel->llvm_ir = codegen::module_text(*lowered.module);
  kernel->cpu_thread_symbol = lowered.cpu_thread_symbol;
  kernel->cpu_block_symbol = lowered.cpu_block_symbol;
  std::vector<std::string> symbols = {lowered.cpu_thread_symbol};
  if (!lowered.cpu_block_symbol.empty()) symbols.push_back(lowered.cpu_block_symbol);
  for (const ir::LinkItem& item : kernel->link)
    kernel->has_module_callbacks |= item.setup_callback || item.teardown_callback;
  CpuPluginSetup plugins(kernel->link, lowered.foreign, *lowered.module, kernel->has_module_callbacks);
  plugins.add_lookups(symbols);
  std::vector<void*> addrs;
  {
    log::StageTimer timer(name, "jit");
    addrs = cpu::add_module(std::move(lowered.module), std::move(lowered.context), symbols);
    kernel->cpu_thread_fn = addrs.at(0);
    if (!lowered.cpu_block_symbol.empty()) kernel->cpu_block_fn = addrs.at(1);
  }
  plugins.run(addrs, name);
  if (kernel->has_module_callbacks) kernel->cpu_globals = plugins.globals();
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
  {
    std::lock_guard<std::mutex> lock(memo_mutex());
    auto it = memo().find(key);
    if (it != memo().end()) {
      if (it->second.owner.lock() == fn) return it->second.kernel;
      memo().erase(it);
    }
  }
  std::shared_ptr<const CompiledKernel> kernel = build_kernel(fn, arg_types, target);
  if (target.target == Target::CPU) verify_ptx_if_asked(fn, arg_types);
  std::lock_guard<std::mutex> lock(memo_mutex());
  auto [it, inserted] = memo().emplace(key, MemoEntry{fn, kernel});
  return inserted ? kernel : it->second.kernel;
}

std::shared_ptr<const CompiledKernel> compile_device_function(const std::shared_ptr<JitFunction>& fn,
                                                              const std::vector<const ir::Type*>& arg_types,
                                                              const TargetOptions& target) {
  require_captured(fn);
  const std::string& name = fn->name;
  std::shared_ptr<const sema::TypedFunction> typed;
  {
    log::StageTimer timer(name, "typing");
    typed = sema::infer_device(fn, arg_types, fn->declared_return(arg_types));
  }
  codegen::ModuleRequest req = request_for(typed, *fn, target, true);
  req.exported_device = true;
  req.abi = fn->options.abi;
  req.abi_name = fn->options.abi_name;
  if (req.abi == ir::Abi::C && req.abi_name.empty()) req.abi_name = sema::c_abi_symbol(*fn);
  codegen::LoweredModule lowered;
  {
    log::StageTimer timer(name, "lowering");
    lowered = codegen::lower_module(req);
  }
  auto k = new_compiled(name, lowered, typed, arg_types, Target::NVPTX);
  NvptxOutput out = finish_nvptx(lowered, req, fn->options.opt, name);
  k->llvm_ir = std::move(out.ir);
  k->llvm_ir_unoptimized = std::move(out.unoptimized_ir);
  k->ptx = std::move(out.ptx);
  k->return_type = typed->return_type ? typed->return_type : ir::none_type();
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
  const std::string& name = fn->name;
  if (!device && fn->options.abi == ir::Abi::C)
    throw UserError(ErrorKind::NotImplementedError, "The C ABI is not supported for kernels");
  CompiledText result;
  if (device) {
    auto k = compile_device_function(fn, arg_types, target);
    result.text = k->ptx;
    result.return_type = k->return_type;
    return result;
  }
  std::shared_ptr<const sema::TypedFunction> typed;
  {
    log::StageTimer timer(name, "typing");
    try {
      typed = sema::infer_kernel(fn, arg_types);
    } catch (const UserError& e) {
      // numba-cuda's compile_ptx/compile refuse a returning kernel with this TypeError.
      if (e.cause() == ErrorCause::KernelReturnsValue)
        throw UserError(ErrorKind::TypeError, "CUDA kernel must have void return type.");
      throw;
    }
  }
  codegen::ModuleRequest req = request_for(typed, *fn, target, true);
  codegen::LoweredModule lowered;
  {
    log::StageTimer timer(name, "lowering");
    lowered = codegen::lower_module(req);
  }
  NvptxOutput out = finish_nvptx(lowered, req, fn->options.opt, name);
  result.text = std::move(out.ptx);
  result.return_type = typed->return_type ? typed->return_type : ir::none_type();
  return result;
}

}  // namespace cuhost::runtime
