// OptionalType(T) values, lowered as {i1 valid, T} (numba's layout): wrapping
// a T or None, converting between Optionals, the checked conversion to a T
// where numba converts implicitly (a None there ends the thread, numba's
// "expected T, got None"), flattening at C-ABI returns (None becomes a zero
// T) and the run-time `is None` test. Typing decides where each happens
// (sema/typer.cpp type_of / type_of_optional); Lowerer::convert calls here.
#include <llvm/IR/Constants.h>

#include "codegen/lowering/lowerer.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {

namespace {

bool is_optional(const ir::Type* t) { return t && t->kind == ir::TypeKind::Optional; }

// None where a value of `t` is needed: numba raises TypeError on the host.
KernelErrorSite none_site(const ir::Type* t) {
  return fault_site(concat("expected ", t->str(), ", got None"), "builtins.TypeError");
}

}  // namespace

llvm::Value* optional_valid(Lowerer& l, Val v) {
  if (v.t->kind == ir::TypeKind::NoneType) return l.b().getFalse();
  if (!is_optional(v.t)) return l.b().getTrue();
  return l.b().CreateExtractValue(v.v, {0}, "opt.valid");
}

Val optional_payload(Lowerer& l, Val v) {
  CUHOST_CHECK(is_optional(v.t)) << "payload of " << v.t->str();
  return {l.b().CreateExtractValue(v.v, {1}, "opt.value"), v.t->pointee};
}

static Val optional_wrap(Lowerer& l, Val v, const ir::Type* to) {
  CUHOST_CHECK(is_optional(to)) << "wrapping into " << to->str();
  auto& b = l.b();
  llvm::Type* ty = l.llvm_type(to);
  if (v.t->kind == ir::TypeKind::NoneType) return {llvm::Constant::getNullValue(ty), to};
  llvm::Value* valid = optional_valid(l, v);
  // A None Optional holds a zero payload, so converting it is harmless.
  Val payload = is_optional(v.t) ? optional_payload(l, v) : v;
  Val converted = l.convert(payload, to->pointee);
  llvm::Value* out = b.CreateInsertValue(llvm::UndefValue::get(ty), valid, {0});
  out = b.CreateInsertValue(out, converted.v, {1});
  return {out, to};
}

static Val optional_unwrap(Lowerer& l, Val v, const ir::Type* to) {
  auto& b = l.b();
  if (v.t->kind == ir::TypeKind::NoneType) {
    const KernelErrorSite site = none_site(to);
    l.raise_error(b.getInt32(kStatusNone), &site);
    return {llvm::Constant::getNullValue(l.llvm_type(to)), to};
  }
  llvm::BasicBlock* none_bb = llvm::BasicBlock::Create(l.ctx(), "opt.none", l.function());
  llvm::BasicBlock* ok_bb = llvm::BasicBlock::Create(l.ctx(), "opt.ok", l.function());
  b.CreateCondBr(optional_valid(l, v), ok_bb, none_bb);
  b.SetInsertPoint(none_bb);
  const KernelErrorSite site = none_site(v.t->pointee);
  l.raise_error(b.getInt32(kStatusNone), &site);
  if (!b.GetInsertBlock()->getTerminator()) b.CreateUnreachable();
  b.SetInsertPoint(ok_bb);
  return l.convert(optional_payload(l, v), to);
}

Val optional_flatten(Lowerer& l, Val v, const ir::Type* to) {
  if (v.t->kind == ir::TypeKind::NoneType) return {llvm::Constant::getNullValue(l.llvm_type(to)), to};
  if (!is_optional(v.t)) return l.convert(v, to);
  // The payload of a None is zero already (optional_wrap, null constants).
  return l.convert(optional_payload(l, v), to);
}

Val convert_optional(Lowerer& l, Val v, const ir::Type* to) {
  if (is_optional(to)) return optional_wrap(l, v, to);
  return optional_unwrap(l, v, to);
}

llvm::Value* optional_is(Lowerer& l, ast::CompareOpKind op, Val a, Val c) {
  auto& b = l.b();
  // `x is None` holds when both sides are None (an Optional is None when invalid).
  llvm::Value* both_none = b.CreateAnd(b.CreateNot(optional_valid(l, a)), b.CreateNot(optional_valid(l, c)));
  return op == ast::CompareOpKind::Is ? both_none : b.CreateNot(both_none);
}

}  // namespace cuhost::codegen
