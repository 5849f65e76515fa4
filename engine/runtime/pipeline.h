// The compile pipeline, written once: the named stages every compilation is
// made of (capture, typing, lowering, link, optimization, code generation,
// load) and the one driver that runs a list of them over a CompileJob,
// timing each for `cuhost -v` and dumping its output when CUHOST_DUMP asks.
// Kernels, device functions, compile_ptx and host njit (compiler.h,
// host_function.h) only choose their product, target and stage list; what a
// stage does for each target lives here and nowhere else, as in Halide's
// lower() and numba's pass pipelines.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "cpu/module_globals.h"
#include "ir/foreign.h"
#include "ir/types.h"
#include "model/jit_function.h"
#include "runtime/compiler.h"

namespace llvm {
class TargetMachine;
}
namespace cuhost::codegen {
struct LoweredModule;
}

namespace cuhost::runtime {

enum class Stage {
  Capture,         // the Python function's source and globals, captured (frontend; see run_pipeline)
  Typing,          // type inference for the argument types (sema)
  Lowering,        // the typed function as an LLVM module (codegen)
  Link,            // foreign code linked into the module (device: .cu/.ll items; host: their host code, libdevice)
  Optimization,    // libdevice (GPU), O3 and cancellation points
  CodeGeneration,  // PTX for the GPU (the CPU's machine code is made by the load)
  Load,            // CPU: the module added to the ORC JIT, its plugins set up
};

// The stage's name in timing lines and in CUHOST_DUMP.
const char* stage_name(Stage stage);

// What is compiled: the product decides the typing (kernel or device
// function), the ABI of the lowered entry, and how the CPU loads it.
enum class Product {
  Kernel,          // a @cuda.jit kernel (launches)
  DeviceFunction,  // a device function exported with its ABI (cuda.compile, inspect_* of device functions)
  HostFunction,    // a function called from the host (numba.njit on the CPU)
};

// One compilation: its inputs, then what each stage produced.
struct CompileJob {
  CompileJob();
  // The inputs every product names: the function, its argument types, the target and what to make.
  CompileJob(std::shared_ptr<JitFunction> function, std::vector<const ir::Type*> argument_types,
             const TargetOptions& target_options, Product what);
  ~CompileJob();
  CompileJob(const CompileJob&) = delete;
  CompileJob& operator=(const CompileJob&) = delete;

  // Inputs.
  std::shared_ptr<JitFunction> fn;
  std::vector<const ir::Type*> arg_types;
  TargetOptions target;
  Product product = Product::Kernel;
  const ir::Type* declared_return = nullptr;  // HostFunction: an explicit signature's return type
  bool python_error_model = true;             // HostFunction: error_model='python' (numba's njit default)

  // Products, stage by stage.
  std::shared_ptr<const sema::TypedFunction> typed;  // Typing
  std::unique_ptr<codegen::LoweredModule> lowered;   // Lowering (its module is consumed by Load)
  std::vector<ir::LinkItem> link;                    // Link: the foreign items the module still needs
  std::string llvm_ir_unoptimized;                   // Optimization: the module before libdevice and O3 (NVPTX)
  std::string llvm_ir;                               // Optimization: the optimized module
  std::size_t static_shared_bytes = 0;               // Optimization (NVPTX) / Lowering (CPU)
  std::string ptx;                                   // CodeGeneration
  std::vector<std::string> symbols;                  // Load: the entry symbols looked up ...
  std::vector<void*> addresses;                      // ... and their addresses in the JIT
  bool has_module_callbacks = false;                 // Load: some link item has setup/teardown callbacks
  std::vector<cpu::GlobalSymbol> cpu_globals;        // Load: the module's globals (with callbacks only)

  // The NVPTX target machine, shared by optimization and code generation.
  std::unique_ptr<llvm::TargetMachine> nvptx_machine;
};

// The usual stage lists: a kernel or device function for its target, and
// the host function. compile_ptx of a kernel leaves out Link (its PTX is the
// kernel's own code; the foreign items are linked when it is loaded).
std::vector<Stage> kernel_stages(Target target);
std::vector<Stage> device_function_stages();
std::vector<Stage> host_function_stages();

// Runs `stages` in order over `job`, each under a timer (`cuhost -v`:
// "cuhost: [name] stage  ms") and dumped when CUHOST_DUMP names it. Capture
// needs the interpreter, so its callers (the dispatchers, compile_ptx) run
// it before releasing the GIL and print its timing line; here the stage
// only checks that it happened.
void run_pipeline(CompileJob& job, const std::vector<Stage>& stages);

}  // namespace cuhost::runtime
