// The GPU side of failed-check reports (debug=True): see the error record
// contract in codegen/kernel_abi.h.
#pragma once

#include <string>

#include "codegen/kernel_abi.h"
#include "support/kernel_error.h"

namespace llvm {
class Module;
class Value;
}  // namespace llvm

namespace cuhost::codegen {

class Lowerer;

// Emits code that records this thread's failure in the module's error record
// unless another thread got there first. `site` describes the failure
// (stored as its encoded bytes, support/kernel_error.h); value/dim/extent
// are i64 (dim and extent may be null for kernel errors). The insertion
// point ends in a block that continues after the report.
void emit_gpu_error_report(Lowerer& l, ErrorRecordKind kind, const KernelErrorSite& site, llvm::Value* value,
                           llvm::Value* dim, llvm::Value* extent);

// Whether a global of a module belongs to the error-record contract (so
// internalization must keep it visible to the host).
bool is_error_record_global(const std::string& name);

// After optimization: removes the error record and its site texts when no
// code reports to it any more (every check was proven never to fail, as
// range()'s zero-step check on a grid-stride step), so the host neither
// finds a record nor synchronizes after each launch to read it.
void drop_unreferenced_error_record(llvm::Module& m);

}  // namespace cuhost::codegen
