// The compile pipeline's stages and driver (see pipeline.h): what each named
// stage does for each target and product, in one file, so a compilation can
// be followed down the stages without leaving it.
#include "runtime/pipeline.h"

#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>

#include <cstdio>
#include <cstdlib>
#include <optional>

#include "codegen/cpu_backend.h"
#include "codegen/cpu_cancellation.h"
#include "codegen/host_entry.h"
#include "codegen/host_libdevice.h"
#include "codegen/inspection_text.h"
#include "codegen/module.h"
#include "codegen/nrt_symbols.h"
#include "codegen/nvptx_backend.h"
#include "codegen/nvptx_cancellation.h"
#include "codegen/nvptx_error_record.h"
#include "codegen/nvptx_local_arrays.h"
#include "cpu/jit.h"
#include "ffi/device_link.h"
#include "ffi/host_link.h"
#include "frontend/captured.h"
#include "runtime/plugin_modules.h"
#include "sema/extension_hooks.h"
#include "sema/infer.h"
#include "sema/nrt_scope.h"
#include "support/diagnostics.h"
#include "support/log.h"

namespace cuhost::runtime {

CompileJob::CompileJob() = default;
CompileJob::CompileJob(std::shared_ptr<JitFunction> function, std::vector<const ir::Type*> argument_types,
                       const TargetOptions& target_options, Product what)
    : fn(std::move(function)), arg_types(std::move(argument_types)), target(target_options), product(what) {}
CompileJob::~CompileJob() = default;

const char* stage_name(Stage stage) {
  switch (stage) {
    case Stage::Capture: return "capture";
    case Stage::Typing: return "typing";
    case Stage::Lowering: return "lowering";
    case Stage::Link: return "link";
    case Stage::Optimization: return "optimization";
    case Stage::CodeGeneration: return "codegen";
    case Stage::Load: return "load";
  }
  return "?";
}

std::vector<Stage> kernel_stages(Target target) {
  if (target == Target::NVPTX)
    return {Stage::Capture, Stage::Typing, Stage::Lowering, Stage::Link, Stage::Optimization, Stage::CodeGeneration};
  return {Stage::Capture, Stage::Typing, Stage::Lowering, Stage::Link, Stage::Optimization, Stage::Load};
}

std::vector<Stage> device_function_stages() {
  return {Stage::Capture, Stage::Typing, Stage::Lowering, Stage::Optimization, Stage::CodeGeneration};
}

std::vector<Stage> host_function_stages() {
  return {Stage::Capture, Stage::Typing, Stage::Lowering, Stage::Link, Stage::Optimization, Stage::Load};
}

namespace {

bool nvptx(const CompileJob& job) { return job.product != Product::HostFunction && job.target.target == Target::NVPTX; }

// ---- capture -----------------------------------------------------------------

void capture(CompileJob& job) {
  CUHOST_CHECK(job.fn) << "compiling a null function";
  CUHOST_CHECK(job.fn->captured) << "function '" << job.fn->name << "' must be captured before compilation";
}

// ---- typing ------------------------------------------------------------------

void typing(CompileJob& job) {
  sema::NrtTypingScope nrt(job.product != Product::HostFunction && job.target.nrt);
  switch (job.product) {
    case Product::Kernel: job.typed = sema::infer_kernel(job.fn, job.arg_types); break;
    case Product::DeviceFunction:
      job.typed = sema::infer_device(job.fn, job.arg_types, job.fn->declared_return(job.arg_types));
      break;
    case Product::HostFunction: {
      sema::HostTypingScope host_typing;  // target="cpu" implementations of the extension API
      job.typed = sema::infer_device(job.fn, job.arg_types, job.declared_return);
      break;
    }
  }
}

// ---- lowering ----------------------------------------------------------------

codegen::ModuleRequest module_request(const CompileJob& job) {
  const JitOptions& o = job.fn->options;
  codegen::ModuleRequest req;
  req.typed = job.typed;
  req.target = nvptx(job) ? codegen::CodegenTarget::NVPTX : codegen::CodegenTarget::CPU;
  req.fastmath = o.fastmath;
  req.fastmath_flags = o.fastmath ? 0 : o.fastmath_flags;
  if (job.product == Product::HostFunction) {
    req.bounds_check = job.target.bounds_check;
    req.host_entry = true;
    req.python_error_model = job.python_error_model;
    return req;
  }
  req.nrt = job.target.nrt;
  req.cc_major = job.target.cc_major;
  req.cc_minor = job.target.cc_minor;
  req.arch_suffix = job.target.arch_suffix;
  req.debug = o.debug;
  req.bounds_check = job.target.bounds_check || o.debug;
  // numba: debug=True implies line information.
  req.lineinfo = o.lineinfo || o.debug;
  req.optimized = o.opt != 0;
  req.max_registers = o.max_registers;
  for (int i = 0; i < 3; ++i) req.launch_bounds[i] = o.launch_bounds[i];
  if (job.product == Product::DeviceFunction) {
    req.exported_device = true;
    req.abi = o.abi;
    req.abi_name = o.abi_name;
    if (req.abi == ir::Abi::C && req.abi_name.empty()) req.abi_name = sema::c_abi_symbol(*job.fn);
  }
  return req;
}

void lowering(CompileJob& job) {
  job.lowered = std::make_unique<codegen::LoweredModule>(codegen::lower_module(module_request(job)));
  job.link = job.lowered->link;
  if (!nvptx(job)) job.static_shared_bytes = std::size_t(job.lowered->static_shared_bytes);
}

// ---- link --------------------------------------------------------------------

void link(CompileJob& job) {
  codegen::LoweredModule& lowered = *job.lowered;
  const JitOptions& o = job.fn->options;
  if (nvptx(job)) {
    // .cu/.ll items compiled into the kernel's own module where they can be;
    // the rest stay link items for the loader.
    job.link = ffi::link_device_foreign(*lowered.module, lowered.link, job.target.cc_major, job.target.cc_minor,
                                        o.fastmath, &lowered.keep);
    return;
  }
  ffi::link_host_foreign(*lowered.module, host_link_sources(lowered, job.fn->name));
  codegen::link_host_libdevice(*lowered.module, o.fastmath);
  codegen::internalize_except(*lowered.module, lowered.keep);
}

// ---- optimization ------------------------------------------------------------

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

llvm::TargetMachine& nvptx_machine(CompileJob& job) {
  if (!job.nvptx_machine)
    job.nvptx_machine =
        codegen::make_nvptx_target_machine(job.target.cc_major, job.target.cc_minor, job.fn->options.fastmath,
                                           job.target.arch_suffix, job.fn->options.opt);
  return *job.nvptx_machine;
}

void optimization(CompileJob& job) {
  llvm::Module& m = *job.lowered->module;
  const JitOptions& o = job.fn->options;
  if (nvptx(job)) {
    job.llvm_ir_unoptimized = codegen::inspection_text(m);  // inspect_llvm's "as lowered", as numba
    codegen::place_local_arrays(m);
    codegen::link_libdevice(m, job.lowered->keep, o.fastmath);
    codegen::optimize_module(m, nvptx_machine(job), o.opt);
    codegen::drop_unreferenced_error_record(m);
    codegen::drop_unreferenced_nrt_stats(m);
    if (job.target.cancellation_points) codegen::insert_gpu_cancellation_points(m);
    job.llvm_ir = codegen::module_text(m);
    job.static_shared_bytes = static_shared_of(m);
    return;
  }
  auto tm = codegen::make_host_target_machine();
  if (job.product == Product::HostFunction) {
    codegen::optimize_module(m, *tm, o.opt);
  } else {
    // Barrier-free kernels: their block loop runs all threads with one
    // guard. Loop fission's region loops shrink (`if t < s`): they are split
    // at the guard's bound instead (IRCE kept a post-loop over the idle
    // threads, which made a shared-memory reduction 1.6x slower).
    codegen::optimize_module(
        m, *tm, o.opt,
        job.typed->uses_barriers ? codegen::LoopSplitting::LoopBounds : codegen::LoopSplitting::GuardedLoops);
    if (job.target.cancellation_points) codegen::insert_cancellation_points(m);
  }
  job.llvm_ir = codegen::module_text(m);
}

// ---- code generation -----------------------------------------------------------

void code_generation(CompileJob& job) {
  CUHOST_CHECK(nvptx(job)) << "code generation is a stage of the NVPTX pipeline (the CPU's JIT generates at load)";
  job.ptx = codegen::retarget_ptx(codegen::emit_ptx(*job.lowered->module, nvptx_machine(job)), job.target.cc_major,
                                  job.target.cc_minor, job.target.arch_suffix);
}

// ---- load --------------------------------------------------------------------

void load(CompileJob& job) {
  CUHOST_CHECK(!nvptx(job)) << "GPU modules are loaded by the launch (cuda/module.h), not by the compiler";
  codegen::LoweredModule& lowered = *job.lowered;
  if (job.product == Product::HostFunction) {
    job.symbols = {lowered.entry_symbol};
  } else {
    job.symbols = {lowered.cpu_thread_symbol};
    if (!lowered.cpu_block_symbol.empty()) job.symbols.push_back(lowered.cpu_block_symbol);
  }
  for (const ir::LinkItem& item : job.link) job.has_module_callbacks |= item.setup_callback || item.teardown_callback;
  CpuPluginSetup plugins(job.link, lowered.foreign, *lowered.module, job.has_module_callbacks);
  std::vector<std::string> lookups = job.symbols;
  plugins.add_lookups(lookups);
  job.addresses = cpu::add_module(std::move(lowered.module), std::move(lowered.context), lookups);
  plugins.run(job.addresses, job.fn->name);
  if (job.has_module_callbacks) job.cpu_globals = plugins.globals();
}

// ---- dumps -------------------------------------------------------------------

// CUHOST_DUMP: a comma-separated list of stage names (or "all") whose output
// is printed to stderr after the stage runs.
bool dump_asked(Stage stage) {
  const char* v = std::getenv("CUHOST_DUMP");
  if (!v || !*v) return false;
  std::string list = concat(",", v, ",");
  return list.find(",all,") != std::string::npos || list.find(concat(",", stage_name(stage), ",")) != std::string::npos;
}

std::string stage_output(const CompileJob& job, Stage stage) {
  switch (stage) {
    case Stage::Capture: return job.fn->captured->source;
    case Stage::Typing: {
      std::string out = concat("signature: (");
      for (size_t i = 0; i < job.arg_types.size(); ++i) out += concat(i ? ", " : "", job.arg_types[i]->str());
      out += concat(") -> ", job.typed->return_type ? job.typed->return_type->str() : "none", "\nlocals:\n");
      for (const auto& [name, type] : job.typed->locals)
        out += concat("  ", name, ": ", type ? type->str() : "?", "\n");
      return out;
    }
    case Stage::Lowering:
    case Stage::Link: return codegen::module_text(*job.lowered->module);
    case Stage::Optimization: return job.llvm_ir;
    case Stage::CodeGeneration: return job.ptx;
    case Stage::Load: {
      std::string out;
      for (size_t i = 0; i < job.symbols.size(); ++i) out += concat(job.symbols[i], " at ", job.addresses.at(i), "\n");
      return out;
    }
  }
  return "";
}

void dump(const CompileJob& job, Stage stage) {
  std::string title = concat(" cuhost dump: ", stage_name(stage), " of ", job.fn->name, " ");
  std::string rule(title.size() < 76 ? (80 - title.size()) / 2 : 2, '-');
  std::fprintf(stderr, "%s%s%s\n%s\n%s\n", rule.c_str(), title.c_str(), rule.c_str(), stage_output(job, stage).c_str(),
               std::string(80, '=').c_str());
}

using StageFunction = void (*)(CompileJob&);

StageFunction function_of(Stage stage) {
  switch (stage) {
    case Stage::Capture: return capture;
    case Stage::Typing: return typing;
    case Stage::Lowering: return lowering;
    case Stage::Link: return link;
    case Stage::Optimization: return optimization;
    case Stage::CodeGeneration: return code_generation;
    case Stage::Load: return load;
  }
  return nullptr;
}

}  // namespace

void run_pipeline(CompileJob& job, const std::vector<Stage>& stages) {
  for (Stage stage : stages) {
    {
      // Capture is timed by its caller (see pipeline.h).
      std::optional<log::StageTimer> timer;
      if (stage != Stage::Capture) timer.emplace(job.fn ? job.fn->name : "?", stage_name(stage));
      function_of(stage)(job);
    }
    if (dump_asked(stage)) dump(job, stage);
  }
}

}  // namespace cuhost::runtime
