// Cache-hinted loads and stores (typing/cache_hints.cpp) and nanosleep. On
// the GPU each is one PTX instruction in inline assembly, as numba-cuda
// emits it (`ld.global.cs.b32 $0, [$1];`), on a global-space address; the
// element is moved as raw bits of its width (b8 travels in a 32-bit
// register: PTX has no 8-bit register class). On the CPU a hint has no
// meaning: a plain load or store, and nanosleep does nothing.
#include <llvm/IR/InlineAsm.h>

#include "codegen/lowering/lowerer.h"

namespace cuhost::codegen {

namespace {

const char* register_class(unsigned bits) { return bits == 64 ? "l" : bits == 16 ? "h" : "r"; }

llvm::Value* global_address(Lowerer& l, llvm::Value* p) {
  return l.b().CreateAddrSpaceCast(p, llvm::PointerType::get(l.ctx(), 1));
}

llvm::Value* element(Lowerer& l, const sema::ExprInfo& inf, Val* target) {
  const ast::Expr* array_expr = inf.ordered_args.at(0);
  const ast::Expr* index_expr = inf.ordered_args.at(1);
  *target = l.expr(array_expr);
  Val index = l.expr(index_expr);
  return l.element_address(array_expr, *target, index_expr, index);
}

const ir::Type* dtype_of(const ir::Type* t) { return t->is_array() ? t->dtype : t->pointee; }

IntrinsicFn load(const std::string& hint) {
  return [hint](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) -> Val {
    auto& b = l.b();
    Val target;
    llvm::Value* p = element(l, inf, &target);
    const ir::Type* dtype = dtype_of(target.t);
    llvm::Type* mem = l.memory_type(dtype);
    if (!l.hooks().is_gpu()) return {l.from_memory(b.CreateLoad(mem, p), dtype), dtype};
    const unsigned bits = dtype->bits;
    llvm::Type* reg = b.getIntNTy(bits == 8 ? 32 : bits);
    auto* fty = llvm::FunctionType::get(reg, {llvm::PointerType::get(l.ctx(), 1)}, false);
    std::string text = concat("ld.global.", hint, ".b", bits, " $0, [$1];");
    auto* asm_ = llvm::InlineAsm::get(fty, text, concat("=", register_class(bits), ",l,~{memory}"), true);
    llvm::Value* raw = b.CreateCall(asm_, {global_address(l, p)});
    if (bits == 8) raw = b.CreateTrunc(raw, b.getInt8Ty());
    return {b.CreateBitCast(raw, mem), dtype};
  };
}

IntrinsicFn store(const std::string& hint) {
  return [hint](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) -> Val {
    auto& b = l.b();
    Val target;
    llvm::Value* p = element(l, inf, &target);
    const ir::Type* dtype = dtype_of(target.t);
    Val v = l.expr_as(inf.ordered_args.at(2), dtype);
    llvm::Value* bits_v = l.to_memory(v.v, dtype);
    if (!l.hooks().is_gpu()) {
      b.CreateStore(bits_v, p);
      return {nullptr, inf.type};
    }
    const unsigned bits = dtype->bits;
    llvm::Value* raw = b.CreateBitCast(bits_v, b.getIntNTy(bits));
    if (bits == 8) raw = b.CreateZExt(raw, b.getInt32Ty());
    auto* fty = llvm::FunctionType::get(b.getVoidTy(), {llvm::PointerType::get(l.ctx(), 1), raw->getType()}, false);
    std::string text = concat("st.global.", hint, ".b", bits, " [$0], $1;");
    auto* asm_ = llvm::InlineAsm::get(fty, text, concat("l,", register_class(bits), ",~{memory}"), true);
    b.CreateCall(asm_, {global_address(l, p), raw});
    return {nullptr, inf.type};
  };
}

}  // namespace

void register_cache_hints(std::map<std::string, IntrinsicFn>& table) {
  for (const char* hint : {"ca", "cg", "cs", "lu", "cv"}) table[concat("cuda.ld", hint)] = load(hint);
  for (const char* hint : {"cg", "cs", "wb", "wt"}) table[concat("cuda.st", hint)] = store(hint);
  table["cuda.nanosleep"] = [](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) -> Val {
    if (!l.hooks().is_gpu()) return {nullptr, inf.type};
    auto& b = l.b();
    llvm::Value* ns = l.expr_as(inf.ordered_args.at(0), ir::uint32()).v;
    auto* fty = llvm::FunctionType::get(b.getVoidTy(), {b.getInt32Ty()}, false);
    b.CreateCall(llvm::InlineAsm::get(fty, "nanosleep.u32 $0;", "r", true), {ns});
    return {nullptr, inf.type};
  };
}

}  // namespace cuhost::codegen
