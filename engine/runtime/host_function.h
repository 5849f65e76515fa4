// Jitted functions compiled to be called from the host (numba.njit on
// cuhost's CPU compiler, whatever the session's backend): the function is
// typed as a device function for the argument types, lowered for the CPU
// with the entry of codegen/host_entry.h, optimized and added to the ORC
// JIT. Host calls reach it through the compile lookup (compile_lookup.h's
// lookup_host_function: memory, the disk cache, then this).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ir/types.h"
#include "model/jit_function.h"

namespace cuhost::sema {
struct TypedFunction;
}

namespace cuhost::runtime {

struct CompileJob;  // runtime/pipeline.h

// numba.njit's options that change host code (the function's own JitOptions
// carry fastmath and the optimization level).
struct HostCallOptions {
  bool bounds_check = false;       // boundscheck=True
  bool python_error_model = true;  // error_model='python' (numba's njit default) or 'numpy'
  bool operator<(const HostCallOptions& o) const {
    return bounds_check != o.bounds_check ? bounds_check < o.bounds_check : python_error_model < o.python_error_model;
  }
};

struct CompiledHostFunction {
  // i32 entry(const u64* argument slots, u64* result slots): 0, or the
  // status of a raise reported to the calling thread's error sink.
  using Entry = std::int32_t (*)(const std::uint64_t*, std::uint64_t*);

  std::string name;
  std::vector<const ir::Type*> arg_types;
  const ir::Type* return_type = nullptr;  // none for functions that return nothing
  std::shared_ptr<const sema::TypedFunction> typed;
  std::string llvm_ir;  // the optimized module (inspect_llvm)
  std::string symbol;   // the entry's name in the module
  // Whether the function can be kept between processes: its module links no
  // foreign code (plugin libraries, setup callbacks belong to this process).
  bool serializable = false;
  Entry entry = nullptr;
  int arg_slots = 0;
  int result_slots = 0;
};

// Compiles the host specialization `job` names (Product::HostFunction on the
// CPU: its declared return type, null when inferred, and error model)
// through the pipeline, with no cache in front (compile_lookup.h's
// lookup_host_function makes the job). Throws UserError: typing errors, NotImplementedError for values
// that cannot cross the host boundary, TypingError for CUDA-only features
// (thread indices, barriers, shared memory, ...), which numba's CPU target
// does not know either.
std::shared_ptr<CompiledHostFunction> build_host_function(CompileJob& job);

// The host assembly of a compiled specialization (its optimized IR compiled
// again; for inspection only).
std::string host_assembly(const CompiledHostFunction& compiled);

}  // namespace cuhost::runtime
