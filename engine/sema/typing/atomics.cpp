// Typing of cuda.atomic.*: (array, index, value) returning the old value,
// with numba's supported dtypes per operation; the index is an integer or a
// tuple with one integer per dimension.
#include <set>

#include "sema/typer.h"

namespace cuhost::sema {

namespace {

bool int_like(const ir::Type* t) { return t->kind == ir::TypeKind::Boolean || t->is_integer(); }

bool dtype_ok(const std::string& op, const ir::Type* d) {
  bool i32_64 = d->is_integer() && (d->bits == 32 || d->bits == 64);
  bool f = d->is_float();
  if (op == "add" || op == "sub" || op == "max" || op == "min" || op == "exch" || op == "nanmax" || op == "nanmin")
    return i32_64 || f;
  if (op == "and_" || op == "or_" || op == "xor" || op == "cas" || op == "compare_and_swap") return i32_64;
  if (op == "inc" || op == "dec") return d == ir::uint32() || d == ir::uint64();
  return false;
}

}  // namespace

// The converted index type of `idx` into `arr` (int64 or UniTuple(int64 x n)).
const ir::Type* array_index_type(Typer& t, const ast::Expr* idx, const ir::Type* arr, const std::string& what) {
  const ir::Type* it = t.type_of(idx);
  if (int_like(it) && it->kind != ir::TypeKind::Boolean) {
    if (arr->ndim != 1) {
      t.typing_error(idx, concat(what, ": an index into ", display(arr), " needs ", arr->ndim, " integers"));
    }
    return ir::int64();
  }
  if (it->is_tuple()) {
    for (const ir::Type* e : it->elements) {
      if (!e->is_integer()) t.typing_error(idx, concat(what, ": index must be integers, not ", display(it)));
    }
    if (static_cast<int>(it->elements.size()) != arr->ndim) {
      t.typing_error(idx, concat(what, ": an index into ", display(arr), " needs ", arr->ndim, " integers, got ",
                                 it->elements.size()));
    }
    return ir::tuple(std::vector<const ir::Type*>(it->elements.size(), ir::int64()));
  }
  t.typing_error(idx, concat(what, ": index must be an integer or a tuple of integers, not ", display(it)));
}

const ir::Type* type_atomic_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info) {
  (void)info;
  if (key.rfind("cuda.atomic.", 0) != 0) return nullptr;
  std::string op = key.substr(12);
  static const std::set<std::string> ops = {"add", "sub", "max",  "min", "nanmax", "nanmin", "and_",
                                            "or_", "xor", "exch", "inc", "dec",    "cas",    "compare_and_swap"};
  if (!ops.count(op)) return nullptr;
  if (op == "compare_and_swap") {
    // compare_and_swap(ary, old, val): cas on ary[0] of a 1-d array.
    auto args = t.bind(c, op, {"ary", "old", "val"}, 3, t.info(&c));
    const ir::Type* arr = t.type_of(args[0]);
    if (!arr->is_array() || arr->ndim != 1)
      t.typing_error(args[0], concat("cuda.atomic.compare_and_swap() needs a 1-d array, not ", display(arr)));
    if (arr->readonly)
      t.typing_error(args[0], concat("cuda.atomic.compare_and_swap() cannot modify a readonly ", display(arr)));
    if (!dtype_ok(op, arr->dtype))
      t.typing_error(&c, concat("cuda.atomic.compare_and_swap() does not support ", display(arr)));
    for (size_t i = 1; i < 3; ++i) {
      const ir::Type* v = t.type_of(args[i]);
      if (!(v->kind == ir::TypeKind::Boolean || v->is_integer()))
        t.typing_error(args[i], concat("cuda.atomic.compare_and_swap() value must be an integer, not ", display(v)));
    }
    t.info(&c).param_types = {arr, arr->dtype, arr->dtype};
    return arr->dtype;
  }
  std::string fname = "cuda.atomic." + op;
  std::vector<std::string> params = op == "cas" ? std::vector<std::string>{"ary", "idx", "old", "val"}
                                                : std::vector<std::string>{"ary", "idx", "val"};
  auto args = t.bind(c, op, params, params.size(), t.info(&c));
  const ir::Type* arr = t.type_of(args[0]);
  if (!arr->is_array())
    t.typing_error(args[0], concat(fname, "() needs an array as its first argument, not ", display(arr)));
  if (arr->readonly) t.typing_error(args[0], concat(fname, "() cannot modify a readonly ", display(arr)));
  if (!dtype_ok(op, arr->dtype)) t.typing_error(&c, concat(fname, "() does not support ", display(arr)));
  // numba-cuda keeps a tuple index into a multi-dimensional array as given
  // and casts each element to intp when it lowers the address, so real
  // (float) elements are accepted and truncated there; other indexing
  // takes integers only.
  const ir::Type* given = t.type_of(args[1]);
  bool real_tuple = arr->ndim > 1 && given->is_tuple() && static_cast<int>(given->elements.size()) == arr->ndim;
  if (real_tuple)
    for (const ir::Type* e : given->elements) real_tuple = real_tuple && (e->is_integer() || e->is_float());
  const ir::Type* idx = real_tuple ? ir::tuple(std::vector<const ir::Type*>(given->elements.size(), ir::int64()))
                                   : array_index_type(t, args[1], arr, fname + "()");
  std::vector<const ir::Type*> param_types = {arr, idx};
  for (size_t i = 2; i < args.size(); ++i) {
    const ir::Type* v = t.type_of(args[i]);
    if (!(v->kind == ir::TypeKind::Boolean || v->is_integer() || v->is_float())) {
      t.typing_error(args[i], concat(fname, "() value must be a real number, not ", display(v)));
    }
    param_types.push_back(arr->dtype);
  }
  t.info(&c).param_types = param_types;
  return arr->dtype;
}

}  // namespace cuhost::sema
