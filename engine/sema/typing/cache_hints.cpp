// Typing of the cache-hinted loads and stores (cuda.ldca/ldcg/ldcs/ldlu/ldcv
// and cuda.stcg/stcs/stwb/stwt: PTX ld.global.<hint> / st.global.<hint> of
// one element of an array or C pointer) and of cuda.nanosleep, with
// numba-cuda's rules and messages: integer or float elements of 8 to 64
// bits; an integer index (any for pointers, 1-d arrays only) or a tuple of
// as many integers as the array has dimensions.
#include "sema/typer.h"

namespace cuhost::sema {

namespace {

bool is_load(const std::string& name) {
  return name == "ldca" || name == "ldcg" || name == "ldcs" || name == "ldlu" || name == "ldcv";
}
bool is_store(const std::string& name) { return name == "stcg" || name == "stcs" || name == "stwb" || name == "stwt"; }

void check_index(Typer& t, const std::string& fname, const ir::Type* target, const ast::Expr* index) {
  const ir::Type* it = t.type_of(index);
  const bool pointer = target->kind == ir::TypeKind::CPointer;
  if (it->is_integer()) {
    if (!pointer && target->ndim != 1)
      t.typing_error(index, concat("Expected ", target->ndim, " indices, got a scalar"));
    return;
  }
  if (it->is_tuple() && !it->elements.empty()) {
    bool uniform = true;
    for (const ir::Type* e : it->elements) uniform = uniform && e == it->elements[0];
    if (uniform) {
      if (pointer)
        t.typing_error(index, concat("Pointers only support scalar indexing, got tuple of ", it->elements.size()));
      if (int(it->elements.size()) != target->ndim)
        t.typing_error(index, concat("Expected ", target->ndim, " indices, got ", it->elements.size()));
      if (it->elements[0]->is_integer()) return;
    }
  }
  (void)fname;
  t.typing_error(index, concat(display(it), " is not a valid index"));
}

const ir::Type* element_type(Typer& t, const std::string& fname, const ast::Expr* target_expr) {
  const ir::Type* target = t.type_of(target_expr);
  if (!target->is_array() && target->kind != ir::TypeKind::CPointer)
    t.typing_error(target_expr, concat(fname, " operates on arrays or pointers. Got type ", display(target)));
  const ir::Type* dtype = target->is_array() ? target->dtype : target->pointee;
  if (!dtype->is_integer() && dtype->kind != ir::TypeKind::Float)
    t.typing_error(target_expr, concat(fname, " requires array of integer or float type, got ", display(dtype)));
  if (dtype->bits != 8 && dtype->bits != 16 && dtype->bits != 32 && dtype->bits != 64)
    t.typing_error(target_expr, concat(fname,
                                       " requires array dtype with bitwidth in [1, 8, 16, 32, 64, 128], got "
                                       "bitwidth ",
                                       dtype->bits));
  return dtype;
}

}  // namespace

const ir::Type* type_cache_hint_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info) {
  (void)info;
  if (key.rfind("cuda.", 0) != 0) return nullptr;
  const std::string name = key.substr(5);
  if (name == "nanosleep") {
    auto args = t.bind(c, name, {"ns"}, 1, t.info(&c));
    const ir::Type* ns = t.type_of(args[0]);
    if (!ns->is_integer()) t.typing_error(args[0], concat("nanosleep() needs an integer, not ", display(ns)));
    t.info(&c).param_types = {ir::uint32()};
    return ir::none_type();
  }
  if (is_load(name)) {
    auto args = t.bind(c, name, {"array", "i"}, 2, t.info(&c));
    const ir::Type* dtype = element_type(t, name, args[0]);
    check_index(t, name, t.type_of(args[0]), args[1]);
    t.info(&c).param_types = {nullptr, nullptr};
    return dtype;
  }
  if (is_store(name)) {
    auto args = t.bind(c, name, {"array", "i", "value"}, 3, t.info(&c));
    const ir::Type* dtype = element_type(t, name, args[0]);
    const ir::Type* target = t.type_of(args[0]);
    if (target->is_array() && target->readonly)
      t.typing_error(args[0], concat(name, " cannot store into a read-only array"));
    check_index(t, name, target, args[1]);
    const ir::Type* v = t.type_of(args[2]);
    if (!can_convert(v, dtype))
      t.typing_error(args[2],
                     concat(name, " cannot store a value of type ", display(v), " into an array of ", display(dtype)));
    t.info(&c).param_types = {nullptr, nullptr, dtype};
    return ir::none_type();
  }
  return nullptr;
}

}  // namespace cuhost::sema
