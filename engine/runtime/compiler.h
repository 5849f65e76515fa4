// The compiler driver: one call turns a jitted function and argument types
// into a loaded-ready artifact for a target, running the named stages
// (typing, lowering, optimization, PTX or host code) and timing each.
// Dispatchers, compile_ptx and the benchmarks all go through here.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cpu/module_globals.h"
#include "ir/foreign.h"
#include "ir/types.h"
#include "runtime/jit_function.h"

namespace cuhost::sema {
struct TypedFunction;
}
namespace cuhost::codegen {
struct LoweredModule;
}

namespace cuhost::runtime {

enum class Target { NVPTX, CPU };

struct TargetOptions {
  Target target = Target::CPU;
  int cc_major = 9;  // compute capability the PTX is emitted for (sm_90 by default)
  int cc_minor = 0;
  // "a" (cc=(9, 0, "a")): the architecture-specific target sm_90a, whose PTX
  // runs only on that chip and may use its specific instructions.
  std::string arch_suffix;
  bool bounds_check = false;  // CPU backend default is on (set by the runtime)
};

struct CompiledKernel {
  std::string name;    // Python name
  std::string symbol;  // entry symbol in the module
  Target target = Target::CPU;
  std::shared_ptr<const sema::TypedFunction> typed;
  std::vector<const ir::Type*> arg_types;
  std::string llvm_ir;              // optimized module text
  std::string llvm_ir_unoptimized;  // NVPTX: the module as lowered, before libdevice and O3 (inspect_llvm, as numba)
  int launch_bound_threads = 0;
  int shared_memory_carveout = JitOptions::kNoCarveout;  // set on the loaded function (GPU)
  const ir::Type* return_type = nullptr;  // device functions compiled on their own (compile_device_function)     //
                                          // launch_bounds' max threads per block (0: none); larger blocks are refused
  std::string ptx;                        // NVPTX only (inspect_asm)
  std::vector<ir::LinkItem> link;         // foreign items every callee brought along, deduplicated
  bool use_cooperative = false;
  std::size_t static_shared_bytes = 0;
  // GPU: bytes every launch adds to the dynamic shared window, room for its
  // arrays to round their start up to an alignment above 16 bytes.
  std::size_t dynamic_shared_padding = 0;
  bool uses_barriers = false;
  bool uses_warp_ops = false;
  // CPU only: entry points in the ORC JIT (see cpu/cpu_abi.h); kept alive by the JIT.
  void* cpu_thread_fn = nullptr;  // runs one GPU thread
  void* cpu_block_fn = nullptr;   // runs a whole block as a loop; null when barriers/warp ops need fibers
  // CPU only: some link item has LinkableCode setup/teardown callbacks; they
  // run per module load (runtime/cpu_module_callbacks.h) and reach the
  // module's __device__ variables, listed here with their JIT addresses.
  bool has_module_callbacks = false;
  std::vector<cpu::GlobalSymbol> cpu_globals;
  std::string cpu_thread_symbol;  // their names in llvm_ir (kernel_serialize.h JIT-compiles it again)
  std::string cpu_block_symbol;
};

// Compiles a kernel specialization. Throws UserError for script errors.
std::shared_ptr<const CompiledKernel> compile_kernel(const std::shared_ptr<JitFunction>& fn,
                                                     const std::vector<const ir::Type*>& arg_types,
                                                     const TargetOptions& target);

// cuda.compile / compile_ptx for a device function or kernel with an explicit
// signature. output: "ptx" or "ltoir" (ltoir is refused: LLVM's NVPTX backend
// cannot produce NVVM LTO-IR). Returns the text and the resolved return type.
struct CompiledText {
  std::string text;
  const ir::Type* return_type = nullptr;
};

// A device function compiled on its own for NVPTX (exported with its ABI, as
// cuda.compile does): ptx, llvm_ir, llvm_ir_unoptimized, typed, symbol and
// return_type are set. For inspect_asm/inspect_llvm of device functions.
std::shared_ptr<const CompiledKernel> compile_device_function(const std::shared_ptr<JitFunction>& fn,
                                                              const std::vector<const ir::Type*>& arg_types,
                                                              const TargetOptions& target);

// What the CPU backend compiles for the host: the declared foreign functions,
// plus the link items of @cuda.jit(link=...) on the function and its device
// callees (no declaration owns those), each item once.
std::vector<std::shared_ptr<const ir::ForeignFunction>> host_link_sources(const codegen::LoweredModule& lowered,
                                                                          const std::string& function_name);

CompiledText compile_text(const std::shared_ptr<JitFunction>& fn, const std::vector<const ir::Type*>& arg_types,
                          bool device, const TargetOptions& target, const std::string& output);

}  // namespace cuhost::runtime
