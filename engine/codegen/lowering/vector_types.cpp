// Lowering of CUDA vector types: a vector is a value struct of its
// components (like a tuple); the constructor flattens its scalar and vector
// arguments into the components, and .x .y .z .w extract them.
#include <llvm/IR/Constants.h>

#include "codegen/lowering/lowerer.h"
#include "ir/vector_types.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {

void register_vector_types(std::map<std::string, IntrinsicFn>& table) {
  table["vector.make"] = [](Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) -> Val {
    const ir::Type* vt = inf.type;
    const ir::Type* base = vt->elements[0];
    llvm::Value* agg = llvm::UndefValue::get(l.llvm_type(vt));
    unsigned k = 0;
    for (size_t i = 0; i < inf.ordered_args.size(); ++i) {
      Val v = l.expr(inf.ordered_args[i]);
      if (ir::is_vector_type(inf.param_types[i])) {
        for (unsigned j = 0; j < inf.param_types[i]->elements.size(); ++j)
          agg = l.b().CreateInsertValue(agg, l.b().CreateExtractValue(v.v, {j}), {k++});
      } else {
        agg = l.b().CreateInsertValue(agg, l.convert(v, base).v, {k++});
      }
    }
    CUHOST_CHECK(k == vt->elements.size()) << "vector constructor of " << vt->str() << " filled " << k;
    return {agg, vt};
  };
  table["vector.attr"] = [](Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) -> Val {
    Val v = l.expr(static_cast<const ast::Attribute*>(e)->value.get());
    unsigned k = static_cast<unsigned>(inf.shape.at(0));
    return l.convert({l.b().CreateExtractValue(v.v, {k}), v.t->elements[k]}, inf.type);
  };
}

}  // namespace cuhost::codegen
