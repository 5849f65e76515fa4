// The compiler driver: one call runs the named stages (typing, lowering,
// optimization, PTX or host code) over a compile job -- a jitted function,
// its argument types, the target and the product, made once by the cache
// path of compile_lookup.h -- and turns what they produced into a
// loaded-ready artifact.
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

struct CompileJob;  // runtime/pipeline.h

using model::CompiledKernel;
using model::JitFunction;
using model::JitOptions;
using model::Target;
using model::TargetOptions;

// Compiles the kernel specialization `job` names (Product::Kernel) through
// the pipeline, with no cache in front (compile_lookup.h's lookup_kernel
// makes the job and looks in the caches first). Throws UserError for
// script errors.
std::shared_ptr<CompiledKernel> build_kernel(CompileJob& job);

// cuda.compile / compile_ptx for a device function or kernel with an explicit
// signature. output: "ptx" or "ltoir" (ltoir is refused: LLVM's NVPTX backend
// cannot produce NVVM LTO-IR). Returns the text and the resolved return type.
struct CompiledText {
  std::string text;
  const ir::Type* return_type = nullptr;
};

// A device function compiled on its own for NVPTX (Product::DeviceFunction,
// exported with its ABI, as cuda.compile does): ptx, llvm_ir,
// llvm_ir_unoptimized, typed, symbol and return_type are set. For
// inspect_asm/inspect_llvm of device functions.
std::shared_ptr<const CompiledKernel> compile_device_function(CompileJob& job);

// What the CPU backend compiles for the host: the declared foreign functions,
// plus the link items of @cuda.jit(link=...) on the function and its device
// callees (no declaration owns those), each item once.
std::vector<std::shared_ptr<const ir::ForeignFunction>> host_link_sources(const codegen::LoweredModule& lowered,
                                                                          const std::string& function_name);

// compile*()'s text of the device function (Product::DeviceFunction) or
// kernel (Product::Kernel) `job` names, for NVPTX.
CompiledText compile_text(CompileJob& job, const std::string& output);

}  // namespace cuhost::runtime
