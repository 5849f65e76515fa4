// Stage 7 for the GPU: the NVPTX TargetMachine, linking only the libdevice
// functions a module uses, the O3 new-pass-manager pipeline (with NVPTX's
// own callbacks, NVVMReflect included) and PTX emission.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class Module;
class TargetMachine;
}  // namespace llvm

namespace cuhost::codegen {

// sm_<cc> clamped to sm_90 (LLVM 19's newest); nvJitLink makes SASS for newer
// chips. `suffix` "a" asks for the architecture-specific target (sm_90a).
// `opt` 0 (opt=False) turns code generation's own optimizations off too, as
// NVVM's -opt=0 does: locals stay in local memory and a * b + c is not
// contracted into an fma.
std::unique_ptr<llvm::TargetMachine> make_nvptx_target_machine(int cc_major, int cc_minor, bool fastmath,
                                                               const std::string& suffix = "", int opt = 3);

// The PTX text for `suffix` targets newer than LLVM's NVPTX backend knows
// (sm_100f, sm_120a...): code generated for the newest chip it knows, with
// the .target and .version directives raised to the requested target's. Other
// PTX is returned unchanged.
std::string retarget_ptx(std::string ptx, int cc_major, int cc_minor, const std::string& suffix);

// The compute capabilities LLVM's NVPTX backend emits PTX for (sm_50 and
// newer, without architecture-specific variants), ascending: numba-cuda's
// nvrtc.get_supported_ccs for the compiler cuhost uses.
std::vector<std::pair<int, int>> supported_ccs();

// Links the used __nv_* functions from libdevice (LinkOnlyNeeded), makes every
// symbol but `keep` internal, and sets the nvvm-reflect-ftz flag.
void link_libdevice(llvm::Module& m, const std::vector<std::string>& keep, bool fastmath);

// How the CPU backend's loops over a block's threads are split at their
// guards before vectorization (see optimize_module).
enum class LoopSplitting {
  None,
  GuardedLoops,  // barrier-free kernels: inductive range check elimination
  LoopBounds,    // loop fission's region loops: narrowed to the threads a guard keeps
};

// O3 (or `opt`) with the new pass manager and the given target machine,
// plus the CPU backend's loop splitting at the end of scalar optimization.
void optimize_module(llvm::Module& m, llvm::TargetMachine& tm, int opt, LoopSplitting splitting = LoopSplitting::None);

// The module flag (an i32, Max behaviour) by which lowering asks for a PTX
// ISA version (major * 10 + minor) newer than LLVM's default for the chip,
// for inline PTX that needs it (fp8 mma.sync: 84). emit_ptx raises .version.
inline constexpr const char* kPtxVersionFlag = "cuhost.ptx_version";

// PTX text of the module (legacy pass manager, addPassesToEmitFile).
std::string emit_ptx(llvm::Module& m, llvm::TargetMachine& tm);

// Textual IR of a module (inspect_llvm).
std::string module_text(const llvm::Module& m);

}  // namespace cuhost::codegen
