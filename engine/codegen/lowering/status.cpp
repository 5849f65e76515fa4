// The status channel of numba-ABI device functions (FFI.md, "status
// propagation follows the caller"). A jitted device function that can end
// the calling thread (TypedFunction::raises) is lowered like numba's own
// calling convention: `i32 f(ptr result, args..., ctx...)`, returning 0 when
// it finished and an error code otherwise, the result written through the
// pointer (a zero-initialized slot of the caller). Callers propagate: a
// kernel returns (the GPU thread exits; on the CPU the body returns like an
// early `return`, so barriers that follow see an exited thread), a raising
// device function returns the same code, and a C-ABI caller ignores the
// status and uses the slot. Functions that cannot raise keep the plain
// `T f(args..., ctx...)` signature, so code without errors pays nothing.
#include <llvm/IR/Constants.h>
#include <llvm/IR/MDBuilder.h>

#include "codegen/lowering/lowerer.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {

llvm::FunctionType* internal_function_type(llvm::LLVMContext& c, const sema::TypedFunction& tf,
                                           const std::vector<llvm::Type*>& context_types) {
  std::vector<llvm::Type*> params;
  if (tf.raises) params.push_back(llvm::PointerType::get(c, 0));
  for (const ir::Type* a : tf.arg_types) params.push_back(llvm_type_of(c, a));
  for (llvm::Type* t : context_types) params.push_back(t);
  llvm::Type* ret = tf.raises                      ? llvm::Type::getInt32Ty(c)
                    : is_void_type(tf.return_type) ? llvm::Type::getVoidTy(c)
                                                   : llvm_type_of(c, tf.return_type);
  return llvm::FunctionType::get(ret, params, false);
}

InternalCall call_internal(llvm::IRBuilder<>& b, llvm::Function* callee, const sema::TypedFunction& tf,
                           const std::vector<llvm::Value*>& args, llvm::AllocaInst* slot) {
  InternalCall out;
  if (!tf.raises) {
    llvm::Value* r = b.CreateCall(callee, args);
    if (!is_void_type(tf.return_type)) out.result = r;
    return out;
  }
  std::vector<llvm::Value*> full;
  bool void_ret = is_void_type(tf.return_type);
  CUHOST_CHECK(void_ret || slot) << "a result slot is needed to call " << tf.symbol;
  llvm::Value* ptr = void_ret ? llvm::Constant::getNullValue(llvm::PointerType::get(b.getContext(), 0))
                              : static_cast<llvm::Value*>(slot);
  if (!void_ret) b.CreateStore(llvm::Constant::getNullValue(slot->getAllocatedType()), slot);
  full.push_back(ptr);
  full.insert(full.end(), args.begin(), args.end());
  out.status = b.CreateCall(callee, full, "status");
  if (!void_ret) out.result = b.CreateLoad(slot->getAllocatedType(), slot, "result");
  return out;
}

void Lowerer::raise_error(llvm::Value* code, const KernelErrorSite* site) {
  if (site && options().reports_raises())
    hooks().kernel_error(*this, *site, builder_.CreateSExt(code, builder_.getInt64Ty()));
  if (is_kernel_body_) {
    builder_.CreateRetVoid();
  } else if (has_status()) {
    builder_.CreateRet(code);
  } else {
    // A C-ABI function has no status: like numba's C wrapper, it returns
    // the zero its caller's slot held.
    llvm::Type* rt = fn_->getReturnType();
    if (rt->isVoidTy())
      builder_.CreateRetVoid();
    else
      builder_.CreateRet(llvm::Constant::getNullValue(rt));
  }
  new_block("after.raise");
}

void Lowerer::fail_if(llvm::Value* failed, const std::function<void()>& report) {
  llvm::BasicBlock* err = llvm::BasicBlock::Create(ctx(), "check.failed", fn_);
  llvm::BasicBlock* ok = llvm::BasicBlock::Create(ctx(), "check.ok", fn_);
  builder_.CreateCondBr(failed, err, ok, llvm::MDBuilder(ctx()).createBranchWeights(1, 1 << 20));
  builder_.SetInsertPoint(err);
  report();
  llvm::Type* rt = fn_->getReturnType();
  if (rt->isVoidTy())
    builder_.CreateRetVoid();
  else
    builder_.CreateRet(llvm::Constant::getNullValue(rt));
  builder_.SetInsertPoint(ok);
}

void Lowerer::emit_return(llvm::Value* v) {
  if (has_status()) {
    if (v) builder_.CreateStore(v, fn_->getArg(0));
    builder_.CreateRet(builder_.getInt32(kStatusOk));
    return;
  }
  llvm::Type* rt = fn_->getReturnType();
  if (rt->isVoidTy())
    builder_.CreateRetVoid();
  else
    builder_.CreateRet(v ? v : llvm::Constant::getNullValue(rt));
}

Val Lowerer::call_jitted(const std::shared_ptr<const sema::TypedFunction>& callee, std::vector<llvm::Value*> args,
                         const ir::Type* result_type) {
  llvm::Function* f = state_.function_for(callee);
  for (llvm::Value* c : context_args_) args.push_back(c);
  llvm::AllocaInst* slot = nullptr;
  bool void_ret = is_void_type(callee->return_type);
  if (callee->raises && !void_ret) slot = entry_alloca(llvm_type(callee->return_type), "call.ret");
  InternalCall r = call_internal(builder_, f, *callee, args, slot);
  // A C-ABI caller has no status channel: it ignores the status and uses
  // the slot (FFI.md, C -> numba edges).
  bool c_caller = !is_kernel_body_ && tf_.abi == ir::Abi::C;
  if (r.status && !c_caller) {
    llvm::BasicBlock* failed = llvm::BasicBlock::Create(ctx(), "call.raised", fn_);
    llvm::BasicBlock* ok = llvm::BasicBlock::Create(ctx(), "call.ok", fn_);
    builder_.CreateCondBr(builder_.CreateICmpEQ(r.status, builder_.getInt32(kStatusOk)), ok, failed);
    builder_.SetInsertPoint(failed);
    raise_error(r.status, nullptr);  // reported (debug) where it was raised
    builder_.CreateUnreachable();
    builder_.SetInsertPoint(ok);
    if (r.result) {
      // Reload in the OK block so the value does not depend on the error path.
      r.result = builder_.CreateLoad(slot->getAllocatedType(), slot, "result");
    }
  }
  if (void_ret) return {nullptr, result_type};
  own_temp({r.result, callee->return_type});  // NRT: the callee returned a new reference
  return convert({r.result, callee->return_type}, result_type);
}

}  // namespace cuhost::codegen
