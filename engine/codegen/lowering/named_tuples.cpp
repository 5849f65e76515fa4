// Lowering of a named tuple's field read (`p.x`, sema/typing/named_tuples.cpp):
// the element at the field's index of the tuple's value struct.
#include "codegen/lowering/lowerer.h"

namespace cuhost::codegen {

void register_named_tuples(std::map<std::string, IntrinsicFn>& table) {
  table["namedtuple.attr"] = [](Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) -> Val {
    Val v = l.expr(static_cast<const ast::Attribute*>(e)->value.get());
    unsigned k = static_cast<unsigned>(inf.shape.at(0));
    return l.convert({l.b().CreateExtractValue(v.v, {k}), v.t->elements[k]}, inf.type);
  };
}

}  // namespace cuhost::codegen
