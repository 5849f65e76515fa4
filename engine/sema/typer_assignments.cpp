// Assignments in type inference: a local takes the unification of the
// values assigned to it (noting when one widened it, which sends the
// function to per-version typing: frontend/ssa_versions.h), and targets
// (names, subscripts, record attributes, tuples) and for-loop targets are
// typed from the value they receive.
#include "frontend/ssa_versions.h"
#include "sema/typer.h"
#include "sema/unroll.h"

namespace cuhost::sema {

void Typer::assign_local(const std::string& name, const ir::Type* t, const ast::Expr* at) {
  auto it = locals_.find(name);
  CUHOST_CHECK(it != locals_.end()) << "assignment to unknown local " << name;
  if (t->kind == ir::TypeKind::Void)
    typing_error(at, concat("cannot assign the result of a call that returns nothing to '",
                            frontend::source_variable_name(name), "'"));
  // Where the value comes from: the assignment's value (for a join's copy,
  // where the version it copies was assigned).
  const ast::SourceLoc& from = assigned_value_ ? assigned_value_->loc : at->loc;
  if (!it->second) {
    it->second = t;
    first_assignment_[name] = from;
    changed_ = true;
    return;
  }
  if (t != it->second) widened_.insert(name);
  const ir::Type* u = unify(it->second, t);
  if (!u) {
    typing_error(at, concat("cannot unify ", display(it->second), " and ", display(t), " for variable '",
                            frontend::source_variable_name(name), "' (assigned at lines ", first_assignment_[name].line,
                            " and ", from.line, ")"));
  }
  if (u != it->second) {
    it->second = u;
    changed_ = true;
  }
}

void Typer::assign_to(const ast::Expr* target, const ir::Type* vt, const ast::SourceLoc& where_loc) {
  (void)where_loc;
  switch (target->kind) {
    case ast::ExprKind::Name: {
      const auto& n = static_cast<const ast::Name&>(*target);
      assign_local(n.id, vt, target);
      info(target).type = locals_[n.id];
      typed_.insert(target);
      return;
    }
    case ast::ExprKind::Subscript: {
      ExprInfo& inf = info(target);
      const ir::Type* slot = type_subscript(*this, static_cast<const ast::Subscript&>(*target), inf, true);
      inf.type = slot;
      typed_.insert(target);
      if ((vt->is_array() || vt->is_tuple()) && info(target).intrinsic == "array.setslice") {
        type_slice_source(*this, target, vt);  // a[1:3] = b: typing/slicing.cpp
        return;
      }
      if (info(target).intrinsic.rfind("record.", 0) == 0) {  // r['x'] = v: typing/records.cpp
        type_record_store(*this, target, slot, vt);
        return;
      }
      if (!can_convert(vt, slot)) {
        typing_error(target,
                     concat("cannot store a value of type ", display(vt), " into an element of type ", display(slot)));
      }
      if (vt->kind == ir::TypeKind::Optional) note_unwrap();
      return;
    }
    case ast::ExprKind::Attribute: {  // r.x = v (records; typing/records.cpp)
      const auto& a = static_cast<const ast::Attribute&>(*target);
      const ir::Type* base = type_of(a.value.get());
      const ir::Type* slot = type_record_attribute(*this, a, base, true);
      if (!slot) typing_error(target, concat("cannot assign to attribute '", a.attr, "' of ", display(base)));
      info(target).type = slot;
      typed_.insert(target);
      type_record_store(*this, target, slot, vt);
      return;
    }
    case ast::ExprKind::Tuple: {
      const auto& tup = static_cast<const ast::Tuple&>(*target);
      if (vt->kind == ir::TypeKind::Optional && vt->pointee->is_tuple()) {
        vt = vt->pointee;
        note_unwrap();
      }
      if (!vt->is_tuple() || vt->elements.size() != tup.elts.size()) {
        typing_error(target,
                     concat("cannot unpack a value of type ", display(vt), " into ", tup.elts.size(), " variables"));
      }
      info(target).type = vt;
      typed_.insert(target);
      for (size_t i = 0; i < tup.elts.size(); ++i) assign_to(tup.elts[i].get(), vt->elements[i], where_loc);
      return;
    }
    default: typing_error(target, "cannot assign to this expression");
  }
}

void Typer::for_stmt(const ast::For& f) {
  guarded([&] {
    const ast::Expr* iter = f.iter.get();
    bool is_range = false;
    if (iter->kind == ast::ExprKind::Call) {
      const ir::Type* ft = type_of(static_cast<const ast::Call*>(iter)->func.get());
      is_range = ft->kind == ir::TypeKind::Intrinsic && ft->key == "builtins.range";
    }
    if (!is_range && iter->kind == ast::ExprKind::Call) {  // enumerate(...) / zip(...): typing/iterators.cpp
      const ir::Type* ft = type_of(static_cast<const ast::Call*>(iter)->func.get());
      if (ft->kind == ir::TypeKind::Intrinsic && is_sequence_iterator(ft->key)) {
        assign_to(f.target.get(), iteration_item_type(*this, iter), f.loc);
        return;
      }
    }
    if (!is_range && iter->kind == ast::ExprKind::Call) {
      // for x in literal_unroll(t): a heterogeneous t gets one body per element (sema/unroll.h).
      const auto& call = static_cast<const ast::Call&>(*iter);
      const ir::Type* ft = type_of(call.func.get());
      if (ft->kind == ir::TypeKind::Intrinsic && ft->key == "cuda.literal_unroll" && call.args.size() == 1) {
        const ir::Type* tt = type_of(call.args[0].get());
        bool mixed = false;
        if (tt->is_tuple())
          for (const ir::Type* e : tt->elements) mixed = mixed || e != tt->elements[0];
        if (mixed) throw UnrollRequest{&f, tt->elements.size()};
      }
    }
    if (!is_range) {
      const ir::Type* it = type_of(iter);
      if (it->is_tuple()) {  // for x in (a, b, c): typing/tuples.cpp
        assign_to(f.target.get(), tuple_iter_type(*this, iter, it), f.loc);
        return;
      }
      if (it->is_array()) {  // for x in arr: elements or row views (typing/slicing.cpp)
        assign_to(f.target.get(), array_iter_type(it), f.loc);
        return;
      }
      fail(ErrorKind::UnsupportedError, iter->loc,
           "for loops in kernels only iterate over range(...), an array, a homogeneous tuple, or enumerate/zip "
           "of those");
    }
    const ir::Type* rt = type_of(iter);
    if (f.target->kind != ast::ExprKind::Name) {
      fail(ErrorKind::UnsupportedError, f.target->loc, "a range loop needs a single loop variable");
    }
    assign_to(f.target.get(), rt->pointee, f.loc);
  });
  ++loop_depth_;
  body(f.body);
  --loop_depth_;
}

}  // namespace cuhost::sema
