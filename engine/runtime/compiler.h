// The compiler driver: one call turns a jitted function and argument types
// into a loaded-ready artifact for a target, running the named stages
// (typing, lowering, optimization, PTX or host code) and timing each.
// Kernels reach it through the cache path of compile_lookup.h.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ir/foreign.h"
#include "ir/types.h"
#include "model/compiled_kernel.h"
#include "model/jit_function.h"

namespace cuhost::sema {
struct TypedFunction;
}
namespace cuhost::codegen {
struct LoweredModule;
}

namespace cuhost::runtime {

using model::CompiledKernel;
using model::JitFunction;
using model::JitOptions;
using model::Target;
using model::TargetOptions;

// Compiles a kernel specialization through the pipeline, with no cache in
// front (compile_lookup.h's compile_kernel looks in the caches first).
// Throws UserError for script errors.
std::shared_ptr<CompiledKernel> build_kernel(const std::shared_ptr<JitFunction>& fn,
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
