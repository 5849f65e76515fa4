// Typing of arrays in kernels: element loads and stores (one integer per
// dimension, negative indices wrap; views in typing/slicing.cpp), CPointer
// indexing, tuple indexing,
// the shape/size/ndim/strides attributes, and the array constructors
// cuda.shared.array, cuda.local.array and cuda.const.array_like.
#include "ir/records.h"
#include "sema/typer.h"

namespace cuhost::sema {

namespace {

bool int_like(const ir::Type* t) { return t->kind == ir::TypeKind::Boolean || t->is_integer(); }

const ir::Type* array_subscript(Typer& t, const ast::Subscript& s, const ir::Type* arr, ExprInfo& info, bool store) {
  (void)info;
  const ast::Expr* idx = s.index.get();
  std::string what = concat("indexing ", display(arr));
  size_t given;
  bool sliced = idx->kind == ast::ExprKind::Slice;
  if (idx->kind == ast::ExprKind::Tuple) {
    const auto& tup = static_cast<const ast::Tuple&>(*idx);
    for (const auto& e : tup.elts) sliced = sliced || e->kind == ast::ExprKind::Slice;
    given = tup.elts.size();
  } else if (sliced) {
    given = 1;
  } else {
    const ir::Type* it = t.type_of(idx);
    given = it->is_tuple() ? it->elements.size() : 1;
  }
  // Slices and partial indices make a view (typing/slicing.cpp).
  if (sliced || static_cast<int>(given) < arr->ndim) return type_array_view(t, s, arr, store);
  if (static_cast<int>(given) > arr->ndim) {
    t.typing_error(&s, concat("too many indices for ", display(arr), ": ", given, " given"));
  }
  const ir::Type* it = t.type_of(idx);
  // A 0-d integer array indexes as its value (numba reads it as a scalar).
  if (it->is_array() && it->ndim == 0 && it->dtype->is_integer()) {
    if (arr->ndim != 1)
      t.typing_error(idx, concat(what, ": an index into ", display(arr), " needs ", arr->ndim, " integers"));
    if (store && arr->readonly) t.typing_error(&s, concat("cannot store into a ", display(arr)));
    ExprInfo& inf = t.info(&s);
    inf.intrinsic = store ? "array.setitem" : "array.getitem";
    inf.param_types = {ir::int64()};
    return arr->dtype;
  }
  if (it->kind == ir::TypeKind::Boolean || (it->is_tuple() && [&] {
        for (auto* e : it->elements)
          if (e->kind == ir::TypeKind::Boolean) return true;
        return false;
      }())) {
    t.typing_error(idx, concat("array index must be an integer, not ", display(it)));
  }
  if (!int_like(it) && !it->is_tuple()) {
    t.typing_error(idx, concat("array index must be an integer, not ", display(it)));
  }
  if (it->is_tuple()) {
    for (auto* e : it->elements)
      if (!e->is_integer()) t.typing_error(idx, concat("array index must be integers, not ", display(it)));
  }
  const ir::Type* index_type = array_index_type(t, idx, arr, what);
  if (store && arr->readonly) t.typing_error(&s, concat("cannot store into a ", display(arr)));
  ExprInfo& inf = t.info(&s);
  inf.intrinsic = store ? "array.setitem" : "array.getitem";
  inf.param_types = {index_type};
  return arr->dtype;
}

const ir::Type* tuple_subscript(Typer& t, const ast::Subscript& s, const ir::Type* tup, bool store) {
  if (store) t.typing_error(&s, concat("cannot assign to an element of ", display(tup), ": tuples are immutable"));
  const ast::Expr* idx = s.index.get();
  if (idx->kind == ast::ExprKind::Slice) return type_tuple_slice(t, s, static_cast<const ast::Slice&>(*idx), tup);
  const ir::Type* it = t.type_of(idx);
  if (!int_like(it)) t.typing_error(idx, concat("tuple indices must be integers, not ", display(it)));
  auto k = t.literal_int(idx);
  ExprInfo& inf = t.info(&s);
  inf.intrinsic = "tuple.getitem";
  std::int64_t n = static_cast<std::int64_t>(tup->elements.size());
  if (k) {
    std::int64_t i = *k < 0 ? *k + n : *k;
    if (i < 0 || i >= n) t.fail(ErrorKind::IndexError, s.loc, "tuple index out of range");
    if (*k < 0) t.info(idx).constant = ir::ConstValue::integer(i);
    inf.param_types = {ir::int64()};
    return tup->elements[static_cast<size_t>(i)];
  }
  bool uniform = n > 0;
  for (auto* e : tup->elements) uniform = uniform && e == tup->elements[0];
  if (!uniform) t.typing_error(idx, concat("an index into ", display(tup), " must be a literal integer"));
  inf.param_types = {ir::int64()};
  return tup->elements[0];
}

// How numba shows an argument type in a resolution failure: literal
// integers as Literal[int](n), tuple displays element by element.
std::string numba_argument(Typer& t, const ast::Expr* e) {
  if (e->kind == ast::ExprKind::Tuple && static_cast<const ast::Tuple&>(*e).is_list) {
    // numba's reflected list of literal integers: list(int64)<iv=[5, 6]>.
    std::string values;
    bool literal_ints = true;
    for (const auto& el : static_cast<const ast::Tuple&>(*e).elts) {
      t.type_of(el.get());
      const auto& c = t.constant(el.get());
      literal_ints = literal_ints && c && c->kind == ir::ConstValue::Kind::Int;
      if (literal_ints) values += (values.empty() ? "" : ", ") + std::to_string(c->i);
    }
    return literal_ints ? concat("list(int64)<iv=[", values, "]>") : std::string("list(...)");
  }
  if (e->kind == ast::ExprKind::Tuple) {
    std::vector<std::string> items;
    for (const auto& el : static_cast<const ast::Tuple&>(*e).elts) items.push_back(numba_argument(t, el.get()));
    bool uniform = !items.empty();
    for (const auto& i : items) uniform = uniform && i == items[0];
    if (uniform) return concat("UniTuple(", items[0], " x ", items.size(), ")");
    std::string out = "Tuple(";
    for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + items[i];
    return out + ")";
  }
  const ir::Type* type = t.type_of(e);
  if (auto k = literal_argument_of(t, e, type)) {
    if (k->kind == ir::ConstValue::Kind::Int) return concat("Literal[int](", k->i, ")");
    if (k->kind == ir::ConstValue::Kind::UInt) return concat("Literal[int](", k->u, ")");
    if (k->kind == ir::ConstValue::Kind::Bool) return concat("Literal[bool](", k->b ? "True" : "False", ")");
  }
  return display(type);
}

// numba's message when cuda.shared.array / cuda.local.array get arguments
// no implementation takes (the shape must be literal integers).
[[noreturn]] void array_resolution_error(Typer& t, const ast::Call& c, const ast::Expr* at, const std::string& fname,
                                         const std::string& why) {
  std::string short_name = fname.substr(5);  // "shared.array" / "local.array"
  std::string args;
  for (const auto& a : c.args) args += (args.empty() ? "" : ", ") + numba_argument(t, a.get());
  for (const auto& k : c.keywords) args += (args.empty() ? "" : ", ") + k.name + "=" + numba_argument(t, k.value.get());
  t.typing_error(
      at,
      concat("No implementation of function Function(<function ", short_name, ">) found for signature:\n \n >>> array(",
             args, ")\n \nThere are 2 candidate implementations:\n  - Of which 2 did not match due to:\n", "  ", why));
}

std::vector<std::int64_t> literal_shape(Typer& t, const ast::Call& call, const ast::Expr* shape,
                                        const std::string& fname) {
  t.type_of(shape);
  const auto& c = t.constant(shape);
  std::vector<std::int64_t> out;
  auto bad = [&] {
    array_resolution_error(t, call, shape, fname,
                           concat(fname, "() needs a literal shape (an integer or a tuple of integers)"));
  };
  if (shape->kind == ast::ExprKind::Tuple && static_cast<const ast::Tuple&>(*shape).is_list) bad();  // as numba
  if (!c) bad();
  if (c->kind == ir::ConstValue::Kind::Int || c->kind == ir::ConstValue::Kind::UInt) {
    out.push_back(c->i);
  } else if (c->kind == ir::ConstValue::Kind::Tuple) {
    for (const auto& item : c->items) {
      if (item.kind != ir::ConstValue::Kind::Int && item.kind != ir::ConstValue::Kind::UInt) bad();
      out.push_back(item.i);
    }
    if (out.empty()) bad();
  } else {
    bad();
  }
  for (std::int64_t e : out) {
    if (e < 0) t.fail(ErrorKind::ValueError, shape->loc, concat(fname, "() shape extents must not be negative"));
  }
  return out;
}

// numba-cuda's rules for `alignment=`: None or a literal integer (else a
// TypingError naming RequireLiteralValue), and then positive, a power of two
// and a multiple of the pointer size (else a ValueError). 0 stands for None.
// cuhost also bounds it by a page (4096 bytes): the most the CPU backend's
// shared memory and fiber stacks can honour, and far beyond any GPU need.
std::int64_t alignment_arg(Typer& t, const ast::Expr* e) {
  t.type_of(e);
  const auto& c = t.constant(e);
  if (c && c->kind == ir::ConstValue::Kind::None) return 0;
  if (!c || (c->kind != ir::ConstValue::Kind::Int && c->kind != ir::ConstValue::Kind::UInt))
    t.typing_error(e, "RequireLiteralValue: alignment must be a constant integer");
  const std::int64_t a = c->i;
  if (a <= 0) t.fail(ErrorKind::ValueError, e->loc, "Alignment must be positive");
  if ((a & (a - 1)) != 0) t.fail(ErrorKind::ValueError, e->loc, "Alignment must be a power of 2");
  if (a % 8 != 0) t.fail(ErrorKind::ValueError, e->loc, "Alignment must be a multiple of 8");
  if (a > 4096) t.fail(ErrorKind::ValueError, e->loc, concat("Alignment must be at most 4096, not ", a));
  return a;
}

}  // namespace

namespace {

// The dtype a value names: a type object (np.float32) or a dtype name
// ('float32', 'f4'); null when it names none.
// numba's pyobject, the dtype of np.dtype('O'): no kernel value has it.
const ir::Type* object_dtype() { return ir::intrinsic("pyobject"); }

const ir::Type* named_dtype(const ir::Type* dt) {
  if (dt->kind == ir::TypeKind::TypeRef) return dt->pointee;
  if (dt->kind == ir::TypeKind::StringLiteral) return ir::scalar_by_name(dt->key);
  return nullptr;
}

}  // namespace

const ir::Type* dtype_arg(Typer& t, const ast::Expr* d, const std::string& fname) {
  const ir::Type* dt = t.type_of(d);
  const ir::Type* scalar = named_dtype(dt);
  if (!scalar && dt->kind == ir::TypeKind::StringLiteral)
    t.typing_error(d, concat("Invalid NumPy dtype specified: '", dt->key, "'"));
  if (!scalar || !ir::is_array_dtype(scalar)) {
    t.typing_error(d, concat(fname, "() needs a dtype such as float32 or np.float32, not ", display(dt)));
  }
  return scalar;
}

const ir::Type* type_subscript(Typer& t, const ast::Subscript& s, ExprInfo& info, bool store) {
  const ir::Type* base = t.type_of(s.value.get());
  // a['x'] of a structured array: the field of every element (typing/records.cpp).
  if (base->is_array() && base->dtype->kind == ir::TypeKind::Record &&
      t.type_of(s.index.get())->kind == ir::TypeKind::StringLiteral)
    return type_record_subscript(t, s, base, store);
  if (base->is_array()) return array_subscript(t, s, base, info, store);
  if (base->is_tuple()) return tuple_subscript(t, s, base, store);
  if (base->kind == ir::TypeKind::Record) return type_record_subscript(t, s, base, store);
  if (base->kind == ir::TypeKind::CPointer) {
    const ir::Type* it = t.type_of(s.index.get());
    if (!it->is_integer()) t.typing_error(s.index.get(), concat("pointer index must be an integer, not ", display(it)));
    ExprInfo& inf = t.info(&s);
    inf.intrinsic = store ? "array.setitem" : "array.getitem";
    inf.param_types = {ir::int64()};
    return base->pointee;
  }
  if (base->kind == ir::TypeKind::Module && base->key.rfind("enum ", 0) == 0 && s.value->kind == ast::ExprKind::Name &&
      s.index->kind == ast::ExprKind::Constant && !store) {
    // An Enum class's member by name (`Color["red"]`), frozen by capture like `Color.red`.
    const auto& key = static_cast<const ast::Constant&>(*s.index).value;
    if (key.kind == ir::ConstValue::Kind::String) {
      std::string frozen = static_cast<const ast::Name&>(*s.value).id + "." + key.s;
      if (const ir::Type* m = t.type_frozen_global(frozen, s, info)) return m;
      t.typing_error(
          &s, concat("enum class '", static_cast<const ast::Name&>(*s.value).id, "' has no member '", key.s, "'"));
    }
  }
  if (base->kind == ir::TypeKind::TypeRef) {
    t.fail(ErrorKind::UnsupportedError, s.loc,
           "array type spellings such as float32[:] are not supported inside kernels");
  }
  t.typing_error(&s, concat("'", display(base), "' object is not subscriptable"));
}

const ir::Type* type_value_attribute(Typer& t, const ast::Attribute& a, const ir::Type* base, ExprInfo& info) {
  (void)info;
  if (!base->is_array()) return nullptr;
  ExprInfo& inf = t.info(&a);
  if (a.attr == "shape" || a.attr == "strides") {
    inf.intrinsic = "array." + a.attr;
    return ir::tuple(std::vector<const ir::Type*>(static_cast<size_t>(base->ndim), ir::int64()));
  }
  if (a.attr == "size") {
    inf.intrinsic = "array.size";
    return ir::int64();
  }
  if (a.attr == "ndim") {
    inf.constant = ir::ConstValue::integer(base->ndim);
    return ir::int64();
  }
  if (a.attr == "dtype") return ir::type_ref(base->dtype);
  return nullptr;
}

const ir::Type* type_array_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info) {
  (void)info;
  if (key == "cuda.shared.array" || key == "cuda.local.array") {
    std::string fname = key;
    auto args = t.bind(c, "array", {"shape", "dtype", "alignment"}, 2, t.info(&c));
    std::vector<std::int64_t> shape = literal_shape(t, c, args[0], fname);
    if (named_dtype(t.type_of(args[1])) == object_dtype())
      t.imprecise_type_error(&c, concat("array(pyobject, ", shape.size(), "d, C)"));
    const ir::Type* dtype = dtype_arg(t, args[1], fname);
    const std::int64_t alignment = args[2] ? alignment_arg(t, args[2]) : 0;
    if (key == "cuda.local.array") {
      for (auto e : shape)
        if (e == 0) t.fail(ErrorKind::ValueError, args[0]->loc, "cuda.local.array() extents must be positive");
    } else if (shape.size() > 1) {
      for (auto e : shape)
        if (e == 0) t.fail(ErrorKind::ValueError, args[0]->loc, "dynamic shared memory (shape 0) must be 1-d");
    }
    ExprInfo& inf = t.info(&c);
    inf.shape = shape;
    inf.alignment = alignment;
    inf.param_types = {nullptr, nullptr, nullptr};
    return ir::array(dtype, static_cast<int>(shape.size()), ir::Layout::C);
  }
  if (key == "numpy_support.carray" || key == "numpy_support.farray") {
    // numba's carray/farray: an array over the memory a typed pointer points
    // to; the shape (an int or a tuple of ints) is known at run time.
    const bool fortran = key == "numpy_support.farray";
    const std::string fname = fortran ? "farray" : "carray";
    auto args = t.bind(c, fname, {"ptr", "shape", "dtype"}, 2, t.info(&c));
    const ir::Type* pt = t.type_of(args[0]);
    if (pt->kind != ir::TypeKind::CPointer)
      t.typing_error(args[0], concat(fname, "() needs a typed pointer (CPointer), not ", display(pt)));
    const ir::Type* dtype = pt->pointee;
    if (args[2] && dtype_arg(t, args[2], fname) != dtype)
      t.typing_error(
          args[2], concat("mismatching dtype '", display(dtype_arg(t, args[2], fname)), "' for pointer ", display(pt)));
    const ir::Type* st = t.type_of(args[1]);
    int ndim = 1;
    if (st->is_tuple()) {
      for (const ir::Type* e : st->elements)
        if (!e->is_integer()) t.typing_error(args[1], concat(fname, "() extents must be integers, not ", display(st)));
      ndim = int(st->elements.size());
    } else if (!st->is_integer()) {
      t.typing_error(args[1], concat(fname, "() takes an int or a tuple of ints as the shape, not ", display(st)));
    }
    if (ndim == 0) t.typing_error(args[1], concat(fname, "() of a 0-d shape is not supported in kernels"));
    ExprInfo& inf = t.info(&c);
    inf.ordered_args = {args[0], args[1]};
    inf.param_types = {pt, st};
    return ir::array(dtype, ndim, fortran ? ir::Layout::F : ir::Layout::C);
  }
  if (key == "numpy.dtype") {
    // A dtype known at compile time: the scalar type, usable wherever a
    // dtype is (cuda.local.array(..., dtype=np.dtype('f4')), casts).
    auto args = t.bind(c, "dtype", {"dtype"}, 1, t.info(&c));
    const ir::Type* at = t.type_of(args[0]);
    if (at->kind == ir::TypeKind::StringLiteral && (at->key == "O" || at->key == "object")) {
      // numba types np.dtype('O') as dtype(pyobject); what is made of it
      // (an array of Python objects) has no type kernels can hold.
      t.info(&c).param_types = {nullptr};
      return ir::type_ref(object_dtype());
    }
    const ir::Type* scalar = named_dtype(at);
    if (!scalar || !ir::is_array_dtype(scalar))
      t.typing_error(args[0],
                     concat("np.dtype(", at->kind == ir::TypeKind::StringLiteral ? "'" + at->key + "'" : display(at),
                            ") is not a dtype kernels support (numbers, booleans, records: "
                            "np.dtype('float32'), np.dtype(np.int8))"));
    t.info(&c).param_types = {nullptr};
    return ir::type_ref(scalar);
  }
  if (key == "cuda.const.array_like") {
    auto args = t.bind(c, "array_like", {"ary"}, 1, t.info(&c));
    const ast::Expr* a = args[0];
    const ir::Type* at = t.type_of(a);
    const frontend::GlobalValue* g = nullptr;
    if (a->kind == ast::ExprKind::Name) {
      auto it = t.captured().globals.find(static_cast<const ast::Name*>(a)->id);
      if (it != t.captured().globals.end() && it->second.kind == frontend::GlobalValue::Kind::Array) g = &it->second;
    }
    if (!g || !at->is_array()) {
      t.typing_error(a, concat("cuda.const.array_like() needs a global NumPy array, not ", display(at)));
    }
    ExprInfo& inf = t.info(&c);
    inf.shape = g->array->shape;
    inf.param_types = {nullptr};
    return ir::array(g->array->dtype, static_cast<int>(g->array->shape.size()), ir::Layout::C);
  }
  return nullptr;
}

}  // namespace cuhost::sema
