// Typing of array views: partial indexing (`a[i]` on a 2-d array) and basic
// slicing (`a[i, :]`, `a[:, j]`, `a[lo:hi:step]`) give an array of lower or
// equal rank over the same memory. The layout of the view follows numba's
// rule: integers on the outer dimensions and, on the innermost indexed
// dimension, an integer or a slice without a step keep a C array C
// (an F array F, mirrored); anything else gives 'A'. A store through a view
// target (`a[1:3] = 0`, `a[i] = v` on a 2-d array) fills it with a scalar.
#include "sema/typer.h"

namespace cuhost::sema {

namespace {

enum class Part { Integer, ContiguousSlice, Slice };

bool none_or_absent(Typer& t, const ast::Expr* e) { return !e || t.type_of(e)->kind == ir::TypeKind::NoneType; }

// Types one slice bound or step.
void slice_bound(Typer& t, const ast::Expr* e) {
  if (none_or_absent(t, e)) return;
  const ir::Type* bt = t.type_of(e);
  if (!bt->is_integer()) t.typing_error(e, concat("slice indices must be integers or None, not ", display(bt)));
}

// numba types `a[lo:hi]` (whatever the bounds) as a two-part slice, which
// keeps contiguity on the innermost indexed dimension; any step makes it a
// three-part slice, which does not.
Part slice_part(Typer& t, const ast::Slice& s) {
  slice_bound(t, s.lower.get());
  slice_bound(t, s.upper.get());
  if (none_or_absent(t, s.step.get())) return Part::ContiguousSlice;
  slice_bound(t, s.step.get());
  auto k = t.literal_int(s.step.get());
  if (k && *k == 0) t.fail(ErrorKind::ValueError, s.step->loc, "slice step cannot be zero");
  return Part::Slice;
}

bool keeps_contiguity(Part p, bool innermost) {
  return p == Part::Integer || (innermost && p == Part::ContiguousSlice);
}

// Whether indexing with `parts` (outer to inner in memory order) keeps the
// array contiguous.
bool contiguous(const std::vector<Part>& parts) {
  for (size_t i = 0; i + 1 < parts.size(); ++i)
    if (!keeps_contiguity(parts[i], false)) return false;
  return parts.empty() || keeps_contiguity(parts.back(), true);
}

}  // namespace

const ir::Type* type_array_view(Typer& t, const ast::Subscript& s, const ir::Type* arr, bool store) {
  const ast::Expr* idx = s.index.get();
  std::vector<Part> parts;
  auto integer_part = [&](const ast::Expr* e, const ir::Type* it) {
    if (!it->is_integer()) t.typing_error(e, concat("array index must be an integer or a slice, not ", display(it)));
    parts.push_back(Part::Integer);
  };
  auto part_of = [&](const ast::Expr* e) {
    if (e->kind == ast::ExprKind::Slice)
      parts.push_back(slice_part(t, static_cast<const ast::Slice&>(*e)));
    else
      integer_part(e, t.type_of(e));
  };
  if (idx->kind == ast::ExprKind::Tuple) {
    for (const auto& e : static_cast<const ast::Tuple&>(*idx).elts) part_of(e.get());
  } else if (idx->kind == ast::ExprKind::Slice) {
    part_of(idx);
  } else {
    const ir::Type* it = t.type_of(idx);
    if (it->is_tuple()) {
      for (const ir::Type* e : it->elements) integer_part(idx, e);
    } else {
      integer_part(idx, it);
    }
  }
  if (static_cast<int>(parts.size()) > arr->ndim)
    t.typing_error(&s, concat("too many indices for ", display(arr), ": ", parts.size(), " given"));
  int ndim = arr->ndim;
  for (Part p : parts)
    if (p == Part::Integer) --ndim;
  ir::Layout layout = arr->layout;
  if (layout == ir::Layout::C) {
    if (!contiguous(parts)) layout = ir::Layout::A;
  } else if (layout == ir::Layout::F) {
    // Integers on the right keep an F array F; a partial index leaves the
    // trailing dimensions whole, which numba treats as breaking F order.
    if (static_cast<int>(parts.size()) < arr->ndim) {
      layout = ir::Layout::A;
    } else {
      std::vector<Part> reversed(parts.rbegin(), parts.rend());
      if (!contiguous(reversed)) layout = ir::Layout::A;
    }
  }
  const ir::Type* view = ir::array(arr->dtype, ndim, layout, arr->readonly, arr->unaligned);
  ExprInfo& inf = t.info(&s);
  if (store) {
    if (arr->readonly) t.typing_error(&s, concat("cannot store into a ", display(arr)));
    inf.intrinsic = "array.setslice";
    inf.param_types = {view};
    return arr->dtype;
  }
  inf.intrinsic = "array.view";
  inf.param_types = {view};
  return view;
}

const ir::Type* array_iter_type(const ir::Type* arr) {
  if (arr->ndim == 1) return arr->dtype;
  return ir::array(arr->dtype, arr->ndim - 1, ir::Layout::A, arr->readonly, arr->unaligned);
}

void type_slice_source(Typer& t, const ast::Expr* target, const ir::Type* value) {
  const ir::Type* view = t.info(target).param_types.at(0);
  if (value->is_array()) {
    // numba: the source broadcasts to the view's shape, its dtype converts.
    if (value->ndim > view->ndim) {
      t.typing_error(target, concat("cannot assign a ", value->ndim, "-d array to a ", view->ndim, "-d array slice"));
    }
    if (!can_convert(value->dtype, view->dtype)) {
      t.typing_error(target, concat("cannot store a value of type ", display(value->dtype), " into an element of type ",
                                    display(view->dtype)));
    }
    return;
  }
  // A tuple (numba's sequence source) fills a 1-d view element by element.
  if (view->ndim != 1) {
    t.fail(ErrorKind::UnsupportedError, target->loc,
           concat("assigning a tuple to a ", view->ndim, "-d array slice is not supported in kernels"));
  }
  for (const ir::Type* e : value->elements) {
    if (!can_convert(e, view->dtype)) {
      t.typing_error(target, concat("cannot store a value of type ", display(e), " into an element of type ",
                                    display(view->dtype)));
    }
  }
}

}  // namespace cuhost::sema
