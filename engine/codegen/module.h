// Stage 6: one typed kernel or device function (and every jitted function it
// calls) lowered into one llvm::Module for a target, with the kernel
// parameter ABI of kernel_abi.h, exported device-function ABIs (numba / C)
// and the foreign link items the call tree brings along.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ir/foreign.h"
#include "sema/typed_function.h"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace cuhost::codegen {

enum class CodegenTarget { NVPTX, CPU };

struct ModuleRequest {
  std::shared_ptr<const sema::TypedFunction> typed;
  CodegenTarget target = CodegenTarget::NVPTX;
  int cc_major = 9;
  int cc_minor = 0;
  std::string arch_suffix;  // "a": sm_XXa (TargetOptions::arch_suffix)
  bool debug = false;
  bool bounds_check = false;
  bool fastmath = false;
  bool lineinfo = false;  // GPU: .file/.loc line tables (codegen/debug_info.h)
  bool optimized = true;  // opt=True: the debug information says the functions are optimized
  int max_registers = 0;  // GPU: the kernel's .maxnreg (0: no limit)
  // GPU: launch_bounds (.maxntid, .minnctapersm, .maxclusterrank); 0 = not given.
  int launch_bounds[3] = {0, 0, 0};
  unsigned fastmath_flags = 0;  // fastmath={...}: model::FastMathFlag bits (no ftz, no approximations)
  // A device function compiled on its own (compile_text device=True): it is
  // exported with its ABI (numba: i32 f(T* ret, args...); C: T abi_name(args...)).
  bool exported_device = false;
  ir::Abi abi = ir::Abi::Numba;
  std::string abi_name;
  // A function called from the host (CPU target only): the entry of
  // codegen/host_entry.h, with every raise reported (numba's CPU target) and
  // zero divisors checked under numba's Python error model.
  bool host_entry = false;
  bool python_error_model = false;
  // CUDA_ENABLE_NRT: heap arrays with reference counts (codegen/lowering/nrt.h).
  bool nrt = false;
};

struct LoweredModule {
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
  std::string entry_symbol;                 // kernel entry (GPU) / exported function
  std::string cpu_thread_symbol;            // CPU: S.cpu.thread
  std::string cpu_block_symbol;             // CPU: S.cpu.block (empty when barriers/warp ops)
  std::vector<std::string> keep;            // symbols that stay external
  std::int64_t static_shared_bytes = 0;     // CPU layout of static shared arrays
  std::int64_t dynamic_shared_padding = 0;  // GPU: bytes each launch adds to the dynamic window (LowerState)
  std::vector<ir::LinkItem> link;           // foreign items of the call tree, deduplicated
  std::vector<std::shared_ptr<const ir::ForeignFunction>>
      foreign;  // foreign functions called (CPU links their host code)
};

LoweredModule lower_module(const ModuleRequest& request);

// NVPTX data layout and triple for sm_<cc>: the closest architecture LLVM
// knows at or below the compute capability (supported_ccs), with the
// architecture-specific suffix ("a") when asked; a suffix LLVM has no
// processor for is a NotImplementedError.
std::string nvptx_triple();
std::string nvptx_cpu(int cc_major, int cc_minor, const std::string& suffix = "");

}  // namespace cuhost::codegen
