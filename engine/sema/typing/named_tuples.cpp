// Typing of a named tuple's fields (`p.x` for a collections.namedtuple or
// typing.NamedTuple value; ir/named_tuples.h): the element of that field,
// read by "namedtuple.attr" (codegen/lowering/named_tuples.cpp).
#include "ir/named_tuples.h"
#include "sema/typer.h"

namespace cuhost::sema {

const ir::Type* type_named_tuple_attribute(Typer& t, const ast::Attribute& a, const ir::Type* base) {
  const ir::NamedTupleInfo* named = ir::named_tuple_info(base);
  if (!named) return nullptr;
  int k = ir::named_tuple_field(base, a.attr);
  if (k < 0) return nullptr;  // methods and unknown names: the usual "has no attribute" error
  ExprInfo& inf = t.info(&a);
  inf.intrinsic = "namedtuple.attr";
  inf.shape = {static_cast<std::int64_t>(k)};
  return base->elements[static_cast<size_t>(k)];
}

}  // namespace cuhost::sema
