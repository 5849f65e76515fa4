// Thread indexing: threadIdx/blockIdx/blockDim/gridDim (int32 special
// registers), laneid, warpsize, and cuda.grid/gridsize computed in 64 bits
// from zero-extended 32-bit parts (no wrap possible, so the adds and
// multiplies carry nuw/nsw and ptxas can use mul.wide.u32).
#include <llvm/IR/Constants.h>

#include "codegen/lowering/lowerer.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {
namespace {

int axis_of(const std::string& key) {
  char c = key.back();
  return c == 'x' ? 0 : c == 'y' ? 1 : 2;
}

IntrinsicFn sreg(SpecialReg r) {
  return [r](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) -> Val {
    int axis = (r == SpecialReg::LaneId || r == SpecialReg::WarpSize) ? 0 : axis_of(inf.intrinsic);
    return l.convert({l.hooks().special_reg(l, r, axis), ir::int32()}, inf.type);
  };
}

IntrinsicFn grid_like(bool is_grid) {
  return [is_grid](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) -> Val {
    auto& b = l.b();
    int n = inf.shape.empty() ? 1 : int(inf.shape[0]);
    std::vector<llvm::Value*> vals;
    for (int axis = 0; axis < n; ++axis) {
      llvm::Value* v;
      if (is_grid) {
        llvm::Value* tid = b.CreateZExt(l.hooks().special_reg(l, SpecialReg::Tid, axis), b.getInt64Ty());
        llvm::Value* bid = b.CreateZExt(l.hooks().special_reg(l, SpecialReg::Bid, axis), b.getInt64Ty());
        llvm::Value* bdim = b.CreateZExt(l.hooks().special_reg(l, SpecialReg::Bdim, axis), b.getInt64Ty());
        v = b.CreateAdd(tid, b.CreateMul(bid, bdim, "", true, true), "", true, true);
      } else {
        llvm::Value* bdim = b.CreateZExt(l.hooks().special_reg(l, SpecialReg::Bdim, axis), b.getInt64Ty());
        llvm::Value* gdim = b.CreateZExt(l.hooks().special_reg(l, SpecialReg::Gdim, axis), b.getInt64Ty());
        v = b.CreateMul(bdim, gdim, "", true, true);
      }
      vals.push_back(v);
    }
    if (n == 1) return l.convert({vals[0], ir::int64()}, inf.type);
    llvm::Value* agg = llvm::UndefValue::get(l.llvm_type(inf.type));
    for (unsigned i = 0; i < vals.size(); ++i) agg = b.CreateInsertValue(agg, vals[i], {i});
    return {agg, inf.type};
  };
}

}  // namespace

void register_cuda_indexing(std::map<std::string, IntrinsicFn>& table) {
  for (const char* axis : {"x", "y", "z"}) {
    table[std::string("cuda.threadIdx.") + axis] = sreg(SpecialReg::Tid);
    table[std::string("cuda.blockIdx.") + axis] = sreg(SpecialReg::Bid);
    table[std::string("cuda.blockDim.") + axis] = sreg(SpecialReg::Bdim);
    table[std::string("cuda.gridDim.") + axis] = sreg(SpecialReg::Gdim);
  }
  table["cuda.laneid"] = sreg(SpecialReg::LaneId);
  table["cuda.warpsize"] = sreg(SpecialReg::WarpSize);
  table["cuda.grid"] = grid_like(true);
  table["cuda.gridsize"] = grid_like(false);
}

}  // namespace cuhost::codegen
