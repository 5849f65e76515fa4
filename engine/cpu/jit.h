// The host JIT: one process-wide LLVM ORC LLJIT that takes modules produced
// by codegen's CPU target and returns entry points. Only whitelisted host
// symbols resolve (libm, the CPU runtime's cuhost_cpu_* functions, memcpy
// and friends); anything else is a clear link error, never a crash.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class Module;
class LLVMContext;
}  // namespace llvm

namespace cuhost::cpu {

// Modules are built for codegen::host_target() (codegen/host_target.h),
// the description this JIT is created from.

// Adds a module (taking ownership of it and its context) and returns the
// addresses of the named symbols, in order. Throws UserError(LinkerError)
// naming any unresolved symbol (as nvJitLink does on the GPU) and
// UserError(CompileError) for any other failure.
std::vector<void*> add_module(std::unique_ptr<llvm::Module> module, std::unique_ptr<llvm::LLVMContext> context,
                              const std::vector<std::string>& symbols);

}  // namespace cuhost::cpu
