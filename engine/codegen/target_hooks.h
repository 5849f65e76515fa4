// What differs between the GPU (NVPTX) and the host (CPU) when lowering the
// same typed function: thread indices, barriers, warp operations, fences,
// memory spaces, math library names and how a failed check ends the thread.
// The target-independent visitor (lowering/) calls only these hooks.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ir/constant.h"
#include "ir/types.h"
#include "support/kernel_error.h"

namespace llvm {
class Value;
class Type;
class Function;
class Module;
}  // namespace llvm

namespace cuhost::codegen {

class Lowerer;

enum class SpecialReg { Tid, Bid, Bdim, Gdim, LaneId, WarpSize };
enum class BarrierOp { Count, And, Or };
enum class ShflMode { Idx = 0, Up = 1, Down = 2, Xor = 3 };
enum class VoteMode { All = 0, Any = 1, Eq = 2, Ballot = 3 };
enum class FenceScope { Block, Device, System };

class TargetHooks {
 public:
  virtual ~TargetHooks() = default;
  virtual bool is_gpu() const = 0;

  // Extra trailing parameters every internal function carries (the CPU's
  // thread context and thread index); empty on the GPU.
  virtual std::vector<llvm::Type*> context_param_types(llvm::Module& m) const = 0;

  // An i32 special register (axis 0..2 for the 3-d ones).
  virtual llvm::Value* special_reg(Lowerer& l, SpecialReg reg, int axis) = 0;

  virtual void syncthreads(Lowerer& l) = 0;
  virtual llvm::Value* syncthreads_op(Lowerer& l, BarrierOp op, llvm::Value* pred_i32) = 0;
  virtual void syncwarp(Lowerer& l, llvm::Value* mask) = 0;
  // value: i32/i64/float/double; returns the same type.
  virtual llvm::Value* shfl(Lowerer& l, ShflMode mode, llvm::Value* mask, llvm::Value* value, llvm::Value* lane) = 0;
  // pred: i1. All/Any/Eq return i1, Ballot returns i32.
  virtual llvm::Value* vote(Lowerer& l, VoteMode mode, llvm::Value* mask, llvm::Value* pred) = 0;
  virtual llvm::Value* activemask(Lowerer& l) = 0;
  virtual llvm::Value* lanemask_lt(Lowerer& l) = 0;
  virtual void fence(Lowerer& l, FenceScope scope) = 0;

  // A math function by its generic name ("sin", "atan2", "tgamma", ...) on
  // float or double arguments of one type.
  virtual llvm::Value* math(Lowerer& l, const std::string& name, const std::vector<llvm::Value*>& args) = 0;
  // A libdevice function by its own name (without "__nv_").
  virtual llvm::Value* libdevice(Lowerer& l, const std::string& name, llvm::Type* ret,
                                 const std::vector<llvm::Value*>& args) = 0;

  // Pointers (generic address space) to memory of each kind.
  virtual llvm::Value* shared_array(Lowerer& l, llvm::Type* elem, std::int64_t count, int align) = 0;
  // `align`: the bytes the dynamic region's start must be aligned to.
  virtual llvm::Value* dynamic_shared(Lowerer& l, std::int64_t align) = 0;
  // The launch's dynamic shared bytes as i64, or null when the target cannot tell.
  virtual llvm::Value* dynamic_shared_bytes(Lowerer& l) = 0;
  virtual llvm::Value* const_array(Lowerer& l, const ir::ArrayConstant& data, const std::string& name) = 0;

  // Emits the report of a failed check (the current block is then ended by
  // the caller with a return): an index out of bounds of `array`, or the
  // failure `site` describes (support/kernel_error.h) with its status code.
  virtual void index_error(Lowerer& l, const std::string& array, llvm::Value* index_i64, int dim,
                           llvm::Value* extent_i64) = 0;
  virtual void kernel_error(Lowerer& l, const KernelErrorSite& site, llvm::Value* code_i64) = 0;

  // print(): a generic pointer to a NUL-terminated string constant, and a
  // call of vprintf(format, args) where args points to the values packed as
  // a struct with natural alignment (null when there are none).
  virtual llvm::Value* string_constant(Lowerer& l, const std::string& text) = 0;
  virtual void vprintf(Lowerer& l, llvm::Value* format, llvm::Value* args) = 0;
};

std::unique_ptr<TargetHooks> make_nvptx_hooks();
std::unique_ptr<TargetHooks> make_cpu_hooks();

}  // namespace cuhost::codegen
