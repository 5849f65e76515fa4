// Lowering of print(...) ("builtins.print", typed in sema/typing/print.cpp):
// one printf-style format for the whole call ("%lld" / "%llu" / "%f" / "%s" /
// "(%d, %d, %d)" per item, tuples as "(%lld, %f)", joined by spaces, ending in a newline) and the
// values packed into one naturally aligned struct, handed to the target's vprintf (CUDA's
// `vprintf(fmt, args)` on the GPU, the host runtime's formatter on the CPU).
// As in numba-cuda, more than 32 items print the raw format instead (vprintf
// takes at most 32 arguments).
#include <llvm/IR/Constants.h>

#include "codegen/lowering/lowerer.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {
namespace {

constexpr std::size_t kMaxPrintItems = 32;

std::string escape_percent(const std::string& s) {
  std::string out;
  for (char ch : s) {
    out += ch;
    if (ch == '%') out += '%';
  }
  return out;
}

// Appends the format and the values of one printed number, bool or tuple
// (Python's tuple text: "(1, 2)", "(1,)", nested tuples alike).
void append_item(Lowerer& l, Val v, std::string& format, std::vector<llvm::Value*>& values) {
  auto& b = l.b();
  switch (v.t->kind) {
    case ir::TypeKind::Boolean:
      format += "%s";
      values.push_back(
          b.CreateSelect(v.v, l.hooks().string_constant(l, "True"), l.hooks().string_constant(l, "False")));
      return;
    case ir::TypeKind::Float:
      format += "%f";
      values.push_back(v.v);
      return;
    case ir::TypeKind::Tuple:
      format += '(';
      for (unsigned i = 0; i < v.t->elements.size(); ++i) {
        if (i) format += ", ";
        append_item(l, {b.CreateExtractValue(v.v, {i}), v.t->elements[i]}, format, values);
      }
      if (v.t->elements.size() == 1) format += ',';
      format += ')';
      return;
    default:
      format += v.t->is_signed ? "%lld" : "%llu";
      values.push_back(v.v);
      return;
  }
}

SpecialReg dim3_reg(const std::string& key) {
  if (key == "cuda.threadIdx") return SpecialReg::Tid;
  if (key == "cuda.blockIdx") return SpecialReg::Bid;
  if (key == "cuda.blockDim") return SpecialReg::Bdim;
  CUHOST_CHECK(key == "cuda.gridDim") << "print() of " << key;
  return SpecialReg::Gdim;
}

Val lower_print(Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) {
  auto& b = l.b();
  std::string format;
  std::vector<llvm::Value*> values;
  for (std::size_t i = 0; i < inf.ordered_args.size(); ++i) {
    const ast::Expr* a = inf.ordered_args[i];
    const ir::Type* param = i < inf.param_types.size() ? inf.param_types[i] : nullptr;
    if (i) format += ' ';
    if (!param) {
      const ir::Type* st = l.info(a).type;
      if (st && st->kind == ir::TypeKind::Intrinsic) {
        format += "(%d, %d, %d)";
        SpecialReg reg = dim3_reg(st->key);
        for (int axis = 0; axis < 3; ++axis) values.push_back(l.hooks().special_reg(l, reg, axis));
        continue;
      }
      CUHOST_CHECK(st && st->kind == ir::TypeKind::StringLiteral) << "print() item without a printable type";
      format += "%s";
      values.push_back(l.hooks().string_constant(l, st->key));
      continue;
    }
    append_item(l, l.expr_as(a, param), format, values);
  }
  format += '\n';
  if (inf.ordered_args.size() > kMaxPrintItems) format = escape_percent(format);
  llvm::Value* packed = llvm::ConstantPointerNull::get(b.getPtrTy());
  if (!values.empty()) {
    std::vector<llvm::Type*> types;
    for (llvm::Value* v : values) types.push_back(v->getType());
    auto* st = llvm::StructType::get(l.ctx(), types);
    llvm::AllocaInst* slot = l.entry_alloca(st, "print.args");
    for (unsigned i = 0; i < values.size(); ++i) b.CreateStore(values[i], b.CreateStructGEP(st, slot, i));
    packed = slot;
  }
  l.hooks().vprintf(l, l.hooks().string_constant(l, format), packed);
  return {nullptr, inf.type};
}

}  // namespace

void register_print(std::map<std::string, IntrinsicFn>& table) { table["builtins.print"] = lower_print; }

}  // namespace cuhost::codegen
