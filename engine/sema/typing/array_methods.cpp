// Typing of array methods and attributes beyond shape/size/strides: the
// reduction methods (a.sum() ...: typing/reductions.cpp), a.view(dtype)
// (the same bytes read as another dtype; a different item size rescales
// the last axis, which must then be contiguous: ValueError otherwise, as
// numba), a.copy() (a C-ordered copy in the thread's local memory: kernels
// have no heap, so the shape must be known at compile time -- a global or
// const array, or a cuda.local/shared array; under the NRT a heap array of
// any shape), and a.ctypes.data (the
// address of the first element, uintp), a.real and a.imag (views of the
// parts of a complex array; a.real of a real array is the array), and
// a.reshape(shape) (a view of a contiguous array under another shape, one
// extent of which may be -1: numba's rules and ValueErrors).
// Lowering: codegen/lowering/array_methods.cpp.
#include <optional>

#include "ir/records.h"
#include "sema/nrt_scope.h"
#include "sema/typer.h"

namespace cuhost::sema {

namespace {

// The compile-time shape of an array expression, when it has one.
std::optional<std::vector<std::int64_t>> known_shape(Typer& t, const ast::Expr* e) {
  if (e->kind == ast::ExprKind::Name) {
    const auto& id = static_cast<const ast::Name*>(e)->id;
    auto g = t.captured().globals.find(id);
    if (!t.is_local(id) && g != t.captured().globals.end() && g->second.array) return g->second.array->shape;
    if (const auto* shape = t.local_shape(id)) return *shape;
  }
  if (e->kind == ast::ExprKind::Call) {
    const ExprInfo& inf = t.info(e);
    if ((inf.intrinsic == "cuda.local.array" || inf.intrinsic == "cuda.shared.array" ||
         inf.intrinsic == "cuda.const.array_like" || inf.intrinsic == "array.method.copy") &&
        !inf.shape.empty())
      return inf.shape;
  }
  return std::nullopt;
}

}  // namespace

const ir::Type* type_array_method(Typer& t, const ast::Attribute& a, const ir::Type* base) {
  if (base->kind == ir::TypeKind::Intrinsic && base->key == "array.ctypes") {
    if (a.attr != "data") t.typing_error(&a, concat("ctypes attribute '", a.attr, "' is not supported in kernels"));
    t.info(&a).intrinsic = "array.ctypes.data";
    return ir::uint64();
  }
  if (!base->is_array()) return nullptr;
  if (is_reduction_method(a.attr)) return ir::intrinsic("array." + a.attr);
  if (a.attr == "view" || a.attr == "copy" || a.attr == "reshape") return ir::intrinsic("array.method." + a.attr);
  if (a.attr == "ctypes") return ir::intrinsic("array.ctypes");
  if (base->dtype->kind == ir::TypeKind::Record) {
    // numba's attribute view of a structured array (np.recarray style):
    // `a.x` is the field of every element, same shape and byte strides (an
    // array field adds its own dimensions), as a['x'] (typing/records.cpp).
    const ir::RecordLayout& layout = ir::record_layout(base->dtype);
    if (const ir::RecordField* f = layout.find(a.attr)) {
      t.info(&a).intrinsic = "array.record_field";
      t.info(&a).record_field = static_cast<int>(f - layout.fields.data());
      const bool unaligned = base->unaligned || !layout.aligned;  // align=False: fields at any offset
      if (f->type->kind == ir::TypeKind::NestedArray)
        return ir::array(f->type->dtype, base->ndim + f->type->ndim, ir::Layout::A, base->readonly, unaligned);
      return ir::array(f->type, base->ndim, ir::Layout::A, base->readonly, unaligned);
    }
  }
  if (a.attr == "real" || a.attr == "imag") {
    const ir::Type* dt = base->dtype;
    if (dt->kind == ir::TypeKind::Complex) {
      // A view of the real or imaginary parts: same shape and byte strides.
      t.info(&a).intrinsic = "array." + a.attr;
      return ir::array(dt->bits == 64 ? ir::float32() : ir::float64(), base->ndim, ir::Layout::A, base->readonly,
                       base->unaligned);
    }
    if (a.attr == "real") {
      t.info(&a).intrinsic = "array.real";
      return base;
    }
    t.fail(ErrorKind::UnsupportedError, a.loc,
           "the .imag of a real array is a new array of zeros, which kernels cannot allocate");
  }
  return nullptr;
}

namespace {

// a.reshape(n), a.reshape((n, m, ...)) or a.reshape(n, m, ...): integers
// known at run time. numba reshapes contiguous arrays only (typing error
// otherwise) and keeps their order: the result is a view, C or F as the
// array.
const ir::Type* type_reshape(Typer& t, const ast::Call& c, const ast::Expr* receiver, const ir::Type* at) {
  if (!c.keywords.empty()) t.typing_error(&c, "array.reshape() takes no keyword arguments in kernels");
  if (at->layout != ir::Layout::C && at->layout != ir::Layout::F)
    t.typing_error(&c, concat("reshape() supports contiguous array only, not ", display(at)));
  if (c.args.empty()) t.typing_error(&c, "reshape() needs the new shape");
  for (size_t i = 0; i < c.args.size(); ++i)
    if (c.is_starred(i)) t.typing_error(c.args[i].get(), "reshape(*shape) is not supported: pass the tuple itself");
  ExprInfo& ri = t.info(&c);
  ri.ordered_args = {receiver};
  ri.param_types = {at};
  int ndim = 0;
  for (const auto& arg : c.args) {
    const ir::Type* st = t.type_of(arg.get());
    if (c.args.size() == 1 && st->is_tuple()) {
      for (const ir::Type* e : st->elements)
        if (!e->is_integer())
          t.typing_error(arg.get(), concat("reshape() extents must be integers, not ", display(st)));
      ndim = int(st->elements.size());
    } else if (st->is_integer()) {
      ++ndim;
    } else {
      t.typing_error(arg.get(), concat("reshape() takes integers or a tuple of integers, not ", display(st)));
    }
    ri.ordered_args.push_back(arg.get());
    ri.param_types.push_back(st);
  }
  if (ndim == 0) t.typing_error(&c, "reshape() to a 0-d array is not supported in kernels");
  t.note_unwrap();  // a size that does not match raises ValueError
  return ir::array(at->dtype, ndim, at->layout, at->readonly, at->unaligned);
}

}  // namespace

const ir::Type* type_array_method_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info) {
  (void)info;
  if (key != "array.method.view" && key != "array.method.copy" && key != "array.method.reshape") return nullptr;
  CUHOST_CHECK(c.func->kind == ast::ExprKind::Attribute) << "array method without a receiver";
  const ast::Expr* receiver = static_cast<const ast::Attribute&>(*c.func).value.get();
  const ir::Type* at = t.type_of(receiver);
  if (key == "array.method.reshape") return type_reshape(t, c, receiver, at);
  ExprInfo& inf = t.info(&c);
  if (key == "array.method.copy") {
    if (!c.args.empty() || !c.keywords.empty())
      t.fail(ErrorKind::UnsupportedError, c.loc,
             "array.copy() takes no arguments in kernels (order= is not supported)");
    if (typing_with_nrt()) {  // under the NRT the copy is a heap array of any shape (lowering/nrt_arrays.cpp)
      ExprInfo& ci = t.info(&c);
      ci.ordered_args = {receiver};
      ci.param_types = {at};
      ci.intrinsic = "nrt.copy";
      return ir::array(at->dtype, at->ndim, ir::Layout::C);
    }
    auto shape = known_shape(t, receiver);
    if (!shape)
      t.fail(ErrorKind::UnsupportedError, c.loc,
             "array.copy() in kernels needs an array whose shape is known at compile time (a global or const "
             "array, or a cuda.local/shared array): kernels have no heap to allocate the copy from");
    ExprInfo& ci = t.info(&c);
    ci.shape = *shape;
    ci.ordered_args = {receiver};
    ci.param_types = {at};
    return ir::array(at->dtype, at->ndim, ir::Layout::C);
  }
  auto args = t.bind(c, "view", {"dtype"}, 1, inf);
  const ir::Type* dt = dtype_arg(t, args[0], "view");
  if (dt->kind == ir::TypeKind::Record || at->dtype->kind == ir::TypeKind::Record)
    t.fail(ErrorKind::UnsupportedError, c.loc, "array.view() between record dtypes is not supported in kernels");
  if (dt->byte_size() != at->dtype->byte_size()) {
    if (at->ndim == 0)
      t.typing_error(&c, "Changing the dtype of a 0d array is only supported if the itemsize is unchanged");
    t.note_unwrap();  // a non-contiguous last axis or a ragged byte length raises ValueError
  }
  ExprInfo& vi = t.info(&c);
  vi.ordered_args = {receiver};
  vi.param_types = {at};
  return ir::array(dt, at->ndim, at->layout, at->readonly, at->unaligned);
}

}  // namespace cuhost::sema
