// cuda.inline_ptx (typing/inline_ptx.cpp): one llvm::InlineAsm call with the
// constraints CUDA C's asm statement has (sema/typing/inline_ptx_spec.h). The
// NVPTX backend prints the template into the PTX as it is, with $N replaced
// by the operands' registers or immediates. PTX cannot run on the CPU
// backend: there the call is an error naming the alternatives.
#include <llvm/IR/InlineAsm.h>
#include <llvm/Support/Error.h>

#include "codegen/lowering/lowerer.h"
#include "sema/typing/inline_ptx_spec.h"

namespace cuhost::codegen {

namespace {

llvm::Type* register_type(llvm::LLVMContext& c, char letter) {
  switch (letter) {
    case 'h': return llvm::Type::getInt16Ty(c);
    case 'r': return llvm::Type::getInt32Ty(c);
    case 'l': return llvm::Type::getInt64Ty(c);
    case 'f': return llvm::Type::getFloatTy(c);
    default: return llvm::Type::getDoubleTy(c);
  }
}

// The register value of an input of type `t` (already converted to it).
llvm::Value* to_register(Lowerer& l, llvm::Value* v, const ir::Type* t, char letter) {
  auto& b = l.b();
  if (t->kind == ir::TypeKind::CPointer) return b.CreatePtrToInt(v, b.getInt64Ty());
  if (letter == 'h' && t->is_float()) return b.CreateBitCast(v, b.getInt16Ty());
  return v;
}

// An output register value as a value of type `t`.
llvm::Value* from_register(Lowerer& l, llvm::Value* v, const ir::Type* t) {
  auto& b = l.b();
  if (t->kind == ir::TypeKind::CPointer) return b.CreateIntToPtr(v, l.llvm_type(t));
  if (t->is_float() && t->bits == 16) return b.CreateBitCast(v, l.llvm_type(t));
  return v;
}

Val lower_inline_ptx(Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) {
  if (!l.hooks().is_gpu())
    l.unsupported(e->loc,
                  "cuda.inline_ptx() inlines PTX, which only the CUDA backend can run: this kernel cannot run on the "
                  "CPU backend (run it with --backend cuda, or write the operation with the cuda module's functions, "
                  "which both backends have)");
  auto& b = l.b();
  const std::string& ptx = l.info(inf.ordered_args.at(0)).type->key;
  const std::string& constraints = l.info(inf.ordered_args.at(1)).type->key;
  sema::InlinePtxSpec spec;
  sema::parse_inline_ptx_constraints(constraints, &spec);  // typing checked it
  std::string text;
  sema::translate_inline_ptx_template(ptx, spec.outputs.size() + spec.inputs.size(), &text);
  bool is_volatile = true;
  if (const ast::Expr* v = inf.ordered_args.at(2)) is_volatile = l.info(v).constant->b;

  std::vector<llvm::Value*> args;
  std::vector<llvm::Type*> arg_types;
  for (size_t i = 0; i < spec.inputs.size(); ++i) {
    const ast::Expr* arg = inf.ordered_args.at(3 + i);
    const ir::Type* pt = inf.param_types.at(3 + i);
    llvm::Value* v = nullptr;
    if (spec.inputs[i] == 'n') {
      const ir::ConstValue& c = *l.info(arg).constant;
      const std::int64_t n = c.kind == ir::ConstValue::Kind::UInt ? std::int64_t(c.u) : c.i;
      v = n >= INT32_MIN && n <= INT32_MAX ? b.getInt32(std::int32_t(n)) : b.getInt64(n);
    } else {
      v = to_register(l, l.expr_as(arg, pt).v, pt, spec.inputs[i]);
    }
    args.push_back(v);
    arg_types.push_back(v->getType());
  }
  std::vector<const ir::Type*> outs;
  if (inf.type->is_tuple())
    outs = inf.type->elements;
  else if (inf.type->kind != ir::TypeKind::NoneType)
    outs = {inf.type};
  std::vector<llvm::Type*> out_types;
  for (char letter : spec.outputs) out_types.push_back(register_type(l.ctx(), letter));
  llvm::Type* ret = out_types.empty()       ? b.getVoidTy()
                    : out_types.size() == 1 ? out_types[0]
                                            : llvm::StructType::get(l.ctx(), out_types);
  auto* fty = llvm::FunctionType::get(ret, arg_types, false);
  if (llvm::Error err = llvm::InlineAsm::verify(fty, spec.llvm_constraints))
    l.unsupported(e->loc, concat("cuda.inline_ptx(): LLVM rejects the constraints \"", spec.llvm_constraints,
                                 "\": ", llvm::toString(std::move(err))));
  auto* asm_ = llvm::InlineAsm::get(fty, text, spec.llvm_constraints, is_volatile);
  llvm::Value* call = b.CreateCall(fty, asm_, args);
  if (outs.empty()) return {nullptr, inf.type};
  if (outs.size() == 1) return {from_register(l, call, outs[0]), inf.type};
  llvm::Value* agg = llvm::UndefValue::get(l.llvm_type(inf.type));
  for (unsigned i = 0; i < outs.size(); ++i)
    agg = b.CreateInsertValue(agg, from_register(l, b.CreateExtractValue(call, {i}), outs[i]), {i});
  return {agg, inf.type};
}

}  // namespace

void register_inline_ptx(std::map<std::string, IntrinsicFn>& table) { table["cuda.inline_ptx"] = lower_inline_ptx; }

}  // namespace cuhost::codegen
