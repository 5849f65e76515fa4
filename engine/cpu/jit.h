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

// The target triple and data layout modules must use (the host's), and the
// CPU code is generated for: the host's own CPU and features, or the CPU the
// environment names in CUHOST_CPU (x86-64-v3, ...) with that CPU's features
// (host_cpu_features() is then empty).
std::string host_triple();
std::string host_data_layout();
std::string host_cpu_name();
std::string host_cpu_features();

// Adds a module (taking ownership of it and its context) and returns the
// addresses of the named symbols, in order. Throws UserError(LinkerError)
// naming any unresolved symbol (as nvJitLink does on the GPU) and
// UserError(CompileError) for any other failure.
std::vector<void*> add_module(std::unique_ptr<llvm::Module> module, std::unique_ptr<llvm::LLVMContext> context,
                              const std::vector<std::string>& symbols);

}  // namespace cuhost::cpu
