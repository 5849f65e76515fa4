// Typing of tuple operations beyond construction and indexing: `+`
// concatenation (any element types: `a.shape + (1,)`), `*` repetition by a
// literal count, slicing by literal
// bounds (`t[1:]`, `t[::-1]`), and the element type of `for x in t` over a
// homogeneous tuple (numba iterates UniTuples only; a heterogeneous tuple
// needs literal_unroll, whose loops sema/unroll.cpp unrolls), and
// literal_unroll(t) itself.
#include <algorithm>

#include "sema/typer.h"

namespace cuhost::sema {

// `t * k` / `k * t`: the tuple repeated k times (k a literal integer, as numba
// needs it to know the result's length; k <= 0 gives the empty tuple).
const ir::Type* type_tuple_repeat(Typer& t, const ast::BinOp& e, const ir::Type* l, const ir::Type* r) {
  const bool tuple_left = l->is_tuple();
  const ir::Type* tup = tuple_left ? l : r;
  const ast::Expr* count_expr = tuple_left ? e.right.get() : e.left.get();
  const ir::Type* count_type = tuple_left ? r : l;
  if (!count_type->is_integer())
    t.typing_error(&e, concat("can't multiply a tuple by a non-integer (", display(count_type), ")"));
  auto k = t.literal_int(count_expr);
  if (!k) t.typing_error(count_expr, "a tuple can only be repeated a literal number of times");
  const std::int64_t times = std::max<std::int64_t>(*k, 0);
  if (times * std::int64_t(tup->elements.size()) > 4096)
    t.typing_error(&e,
                   concat("a repeated tuple of ", times * std::int64_t(tup->elements.size()), " elements is too long"));
  ExprInfo& inf = t.info(&e);
  inf.intrinsic = "tuple.repeat";
  std::vector<const ir::Type*> elems;
  for (std::int64_t i = 0; i < times; ++i) elems.insert(elems.end(), tup->elements.begin(), tup->elements.end());
  const auto& tc = t.constant(tuple_left ? e.left.get() : e.right.get());
  if (tc && tc->kind == ir::ConstValue::Kind::Tuple) {
    std::vector<ir::ConstValue> items;
    for (std::int64_t i = 0; i < times; ++i) items.insert(items.end(), tc->items.begin(), tc->items.end());
    inf.constant = ir::ConstValue::tuple(std::move(items));
  }
  return ir::tuple(elems);
}

const ir::Type* type_tuple_binop(Typer& t, const ast::BinOp& e, const ir::Type* l, const ir::Type* r) {
  if (e.op == ast::BinOpKind::Mult && (l->is_tuple() != r->is_tuple())) return type_tuple_repeat(t, e, l, r);
  if (e.op != ast::BinOpKind::Add || !l->is_tuple() || !r->is_tuple()) return nullptr;
  std::vector<const ir::Type*> elems = l->elements;
  elems.insert(elems.end(), r->elements.begin(), r->elements.end());
  ExprInfo& inf = t.info(&e);
  inf.intrinsic = "tuple.concat";
  const auto& lc = t.constant(e.left.get());
  const auto& rc = t.constant(e.right.get());
  if (lc && rc && lc->kind == ir::ConstValue::Kind::Tuple && rc->kind == ir::ConstValue::Kind::Tuple) {
    std::vector<ir::ConstValue> items = lc->items;
    items.insert(items.end(), rc->items.begin(), rc->items.end());
    t.info(&e).constant = ir::ConstValue::tuple(std::move(items));
  }
  return ir::tuple(elems);
}

const ir::Type* type_tuple_slice(Typer& t, const ast::Subscript& s, const ast::Slice& sl, const ir::Type* tup) {
  auto literal = [&](const ast::Expr* e, const char* what) -> std::optional<std::int64_t> {
    if (!e) return std::nullopt;
    const ir::Type* bt = t.type_of(e);
    if (bt->kind == ir::TypeKind::NoneType) return std::nullopt;
    if (!bt->is_integer()) t.typing_error(e, concat("slice indices must be integers or None, not ", display(bt)));
    auto k = t.literal_int(e);
    if (!k) t.typing_error(e, concat("the ", what, " of a tuple slice must be a literal integer"));
    return k;
  };
  auto lo = literal(sl.lower.get(), "start");
  auto hi = literal(sl.upper.get(), "stop");
  auto st = literal(sl.step.get(), "step");
  std::int64_t step = st ? *st : 1;
  if (step == 0) t.fail(ErrorKind::ValueError, sl.step->loc, "slice step cannot be zero");
  // Python's PySlice_AdjustIndices.
  std::int64_t n = static_cast<std::int64_t>(tup->elements.size());
  auto adjust = [&](std::int64_t x) {
    if (x < 0) {
      x += n;
      if (x < 0) x = step < 0 ? -1 : 0;
    } else if (x >= n) {
      x = step < 0 ? n - 1 : n;
    }
    return x;
  };
  std::int64_t start = lo ? adjust(*lo) : (step < 0 ? n - 1 : 0);
  std::int64_t stop = hi ? adjust(*hi) : (step < 0 ? -1 : n);
  std::vector<std::int64_t> picked;
  for (std::int64_t i = start; step > 0 ? i < stop : i > stop; i += step) picked.push_back(i);
  std::vector<const ir::Type*> elems;
  for (std::int64_t i : picked) elems.push_back(tup->elements[static_cast<size_t>(i)]);
  ExprInfo& inf = t.info(&s);
  inf.intrinsic = "tuple.slice";
  inf.shape = picked;  // the element positions taken, in order
  const auto& c = t.constant(s.value.get());
  if (c && c->kind == ir::ConstValue::Kind::Tuple) {
    std::vector<ir::ConstValue> items;
    for (std::int64_t i : picked) items.push_back(c->items[static_cast<size_t>(i)]);
    t.info(&s).constant = ir::ConstValue::tuple(std::move(items));
  }
  return ir::tuple(elems);
}

// literal_unroll(t): t itself (a loop over a heterogeneous t was unrolled
// before typing: sema/unroll.h).
const ir::Type* type_tuple_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info) {
  (void)info;
  if (key != "cuda.literal_unroll") return nullptr;
  auto args = t.bind(c, "literal_unroll", {"container"}, 1, t.info(&c));
  const ir::Type* tt = t.type_of(args[0]);
  t.info(&c).param_types = {tt};
  return tt;
}

const ir::Type* tuple_iter_type(Typer& t, const ast::Expr* iter, const ir::Type* tup) {
  if (tup->elements.empty()) t.typing_error(iter, "cannot iterate over an empty tuple in a kernel");
  for (const ir::Type* e : tup->elements) {
    if (e != tup->elements[0]) {
      t.fail(ErrorKind::UnsupportedError, iter->loc,
             concat("iterating over the heterogeneous ", display(tup),
                    " needs literal_unroll(): for x in literal_unroll(t)"));
    }
  }
  return tup->elements[0];
}

}  // namespace cuhost::sema
