// Typing of CUDA vector types (ir/vector_types.h): the constructor
// `float32x4(...)` takes scalars and vectors of the same base type whose
// element counts add up to the vector's (numba-cuda's overloads: each scalar
// converts to the base type), and `.x .y .z .w` read the components.
// Vectors are immutable, as in numba-cuda.
#include "ir/vector_types.h"
#include "sema/typer.h"

namespace cuhost::sema {

const ir::Type* type_vector_ctor(Typer& t, const ast::Call& c, const ir::Type* vt, ExprInfo& info) {
  (void)info;
  if (!c.keywords.empty()) t.typing_error(&c, concat(vt->str(), "() takes no keyword arguments"));
  const ir::Type* base = vt->elements[0];
  size_t count = 0;
  std::vector<const ir::Type*> params;
  std::vector<const ast::Expr*> args;
  for (const auto& a : c.args) {
    const ir::Type* at = t.type_of(a.get());
    if (ir::is_vector_type(at)) {
      if (at->elements[0] != base)
        t.typing_error(a.get(),
                       concat(vt->str(), "() cannot take a ", at->str(), " (its elements are not ", base->str(), ")"));
      count += at->elements.size();
      params.push_back(at);
    } else if ((at->is_integer() || at->is_float() || at->kind == ir::TypeKind::Boolean) && can_convert(at, base)) {
      count += 1;
      params.push_back(base);
    } else {
      t.typing_error(a.get(),
                     concat(vt->str(), "() takes numbers and vectors of ", base->str(), ", not ", display(at)));
    }
    args.push_back(a.get());
  }
  if (count != vt->elements.size())
    t.typing_error(&c, concat(vt->str(), " expects ", vt->elements.size(), " elements, got ", count));
  ExprInfo& inf = t.info(&c);
  inf.intrinsic = "vector.make";
  inf.param_types = params;
  inf.ordered_args = args;
  return vt;
}

const ir::Type* type_vector_attribute(Typer& t, const ast::Attribute& a, const ir::Type* base) {
  if (!ir::is_vector_type(base)) return nullptr;
  static const std::string names = "xyzw";
  size_t k = a.attr.size() == 1 ? names.find(a.attr[0]) : std::string::npos;
  if (k == std::string::npos || k >= base->elements.size())
    t.typing_error(&a, concat("Unknown attribute '", a.attr, "' of type ", base->str()));
  ExprInfo& inf = t.info(&a);
  inf.intrinsic = "vector.attr";
  inf.shape = {static_cast<std::int64_t>(k)};
  return base->elements[k];
}

}  // namespace cuhost::sema
