// numba-cuda's NRT in cuhost's lowering (docs/NRT.md): under
// CUDA_ENABLE_NRT an array value carries a fourth field, the meminfo of
// the heap allocation it views (null for parameters, local, shared and
// constant arrays). Heap arrays come from np.empty & co.
// (lowering/nrt_arrays.cpp) through NRT_MemInfo_alloc_aligned; every local
// variable owns one reference to what it holds, a call's or constructor's
// result is a new reference the statement releases when done, and a
// function's exit releases its variables (lowering/nrt_refcount.cpp). The
// runtime functions themselves are IR emitted into the module on first use
// (lowering/nrt_runtime.cpp): the device heap (`malloc`/`free`) on the GPU,
// the C library's on the CPU, and the allocation counters rtsys reads.
#pragma once

#include <llvm/IR/IRBuilder.h>

#include "codegen/lowering/lowerer.h"
#include "codegen/nrt_symbols.h"

namespace cuhost::codegen {

// The field of an array value holding its meminfo (only with NRT).
constexpr unsigned kMeminfoField = 3;

// Whether array values of the module lowered on this thread carry a
// meminfo (set for the lowering of a module compiled with NRT).
bool arrays_carry_meminfo();
class MeminfoLayoutScope {
 public:
  explicit MeminfoLayoutScope(bool enabled);
  ~MeminfoLayoutScope();
  MeminfoLayoutScope(const MeminfoLayoutScope&) = delete;
  MeminfoLayoutScope& operator=(const MeminfoLayoutScope&) = delete;

 private:
  bool previous_;
};

// Whether values of `t` hold references (arrays, tuples of them) under NRT.
bool holds_references(const ir::Type* t);
// A view `view` (an array value built from `base`'s fields) that keeps
// `base`'s allocation alive: its meminfo copied over (no-op without NRT).
llvm::Value* keep_meminfo(Lowerer& l, llvm::Value* view, llvm::Value* base);

// The runtime functions (lowering/nrt_runtime.cpp), defined in the module on first use.
llvm::Function* nrt_meminfo_alloc(llvm::Module& m, bool gpu);  // ptr (i64 size, i32 align)
llvm::Function* nrt_incref(llvm::Module& m, bool gpu);         // void (ptr meminfo)
llvm::Function* nrt_decref(llvm::Module& m, bool gpu);         // void (ptr meminfo)
llvm::Function* nrt_allocate(llvm::Module& m, bool gpu);       // ptr (i64 size): NRT_Allocate
llvm::Function* nrt_free(llvm::Module& m, bool gpu);           // void (ptr): NRT_Free
// The data pointer of a meminfo.
llvm::Value* nrt_meminfo_data(llvm::IRBuilder<>& b, llvm::Value* meminfo);

// Reference counting of values of any type (lowering/nrt_refcount.cpp):
// every array (and array inside a tuple) gets NRT_incref / NRT_decref.
void incref_value(Lowerer& l, Val v);
void decref_value(Lowerer& l, Val v);

}  // namespace cuhost::codegen
