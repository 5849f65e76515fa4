// Reads CUHOST_SATURATING_FLOAT_TO_INT once and builds the GPU's float-to-int
// conversion (saturating_conversions.h).
#include "codegen/lowering/saturating_conversions.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>

#include <cstdlib>
#include <cstring>

namespace cuhost::codegen {

bool saturating_float_to_int() {
  static const bool on = [] {
    const char* v = std::getenv("CUHOST_SATURATING_FLOAT_TO_INT");
    return v && *v && std::strcmp(v, "0") != 0;
  }();
  return on;
}

llvm::Value* gpu_float_to_int(llvm::IRBuilderBase& b, llvm::Value* x, llvm::IntegerType* to, bool is_signed) {
  unsigned bits = to->getBitWidth();
  llvm::IntegerType* via = bits < 16 ? b.getInt16Ty() : to;
  auto id = is_signed ? llvm::Intrinsic::fptosi_sat : llvm::Intrinsic::fptoui_sat;
  llvm::Value* saturated = b.CreateIntrinsic(id, {via, x->getType()}, {x});
  llvm::Value* nan_pattern = llvm::ConstantInt::get(via, llvm::APInt::getSignMask(via->getBitWidth()));
  llvm::Value* converted = b.CreateSelect(b.CreateFCmpUNO(x, x), nan_pattern, saturated);
  return via == to ? converted : b.CreateTrunc(converted, to);
}

}  // namespace cuhost::codegen
