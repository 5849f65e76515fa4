// What a compile produces and every later stage reads: the target it was
// made for and the compiled kernel (entry symbol, types, LLVM IR, PTX or
// the CPU entry points, launch facts). The runtime's compiler fills it
// (runtime/compiler.h); the driver layer (cuda/), the CPU runtime (cpu/),
// kernel serialization and the Python launch path read it.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "ir/foreign.h"
#include "ir/types.h"
#include "model/jit_function.h"

namespace cuhost::sema {
struct TypedFunction;
}

namespace cuhost::model {

// A global variable a CPU JIT module defines, as plugin setup callbacks and
// cuModuleGetGlobal on the CPU reach it.
struct GlobalSymbol {
  std::string name;
  std::size_t bytes = 0;
  bool read_only = false;
  void* address = nullptr;  // filled in once the module is in the JIT
};

enum class Target { NVPTX, CPU };

struct TargetOptions {
  Target target = Target::CPU;
  int cc_major = 9;  // compute capability the PTX is emitted for (sm_90 by default)
  int cc_minor = 0;
  // "a" (cc=(9, 0, "a")): the architecture-specific target sm_90a, whose PTX
  // runs only on that chip and may use its specific instructions.
  std::string arch_suffix;
  bool bounds_check = false;  // CPU backend default is on (set by the runtime)
  // The variant a launch under a deadline runs: cancellation points at loop
  // headers (codegen/cpu_cancellation.h, nvptx_cancellation.h). Without
  // one the code is unchanged; both variants are cached apart.
  bool cancellation_points = false;
  // numba.cuda.config.CUDA_ENABLE_NRT at compile time: kernels may allocate
  // arrays on the heap, counted by reference (docs/NRT.md).
  bool nrt = false;
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
  // cluster_dim (JitOptions): the thread-block cluster shape launches use; {1, 1, 1} = none.
  unsigned cluster_dim[3] = {1, 1, 1};
  std::size_t static_shared_bytes = 0;
  // GPU: bytes every launch adds to the dynamic shared window, room for its
  // arrays to round their start up to an alignment above 16 bytes.
  std::size_t dynamic_shared_padding = 0;
  bool uses_barriers = false;
  bool uses_warp_ops = false;
  // What it was compiled from, so that a launch that needs the other
  // variant (with or without cancellation points: a deadline set or not)
  // finds it (runtime/compile_lookup.h's kernel_variant). Held weakly: a
  // kernel does not keep its function alive.
  std::weak_ptr<JitFunction> source;
  TargetOptions compiled_for;
  bool cancellation_points = false;  // compiled_for.cancellation_points
  // CPU only: entry points in the ORC JIT (see model/cpu_abi.h); kept alive by the JIT.
  void* cpu_thread_fn = nullptr;  // runs one GPU thread
  void* cpu_block_fn = nullptr;   // runs a whole block as a loop; null when barriers/warp ops need fibers
  // CPU only: some link item has LinkableCode setup/teardown callbacks; they
  // run per module load (runtime/cpu_module_callbacks.h) and reach the
  // module's __device__ variables, listed here with their JIT addresses.
  bool has_module_callbacks = false;
  std::vector<GlobalSymbol> cpu_globals;
  std::string cpu_thread_symbol;  // their names in llvm_ir (kernel_serialize.h JIT-compiles it again)
  std::string cpu_block_symbol;
};

}  // namespace cuhost::model
