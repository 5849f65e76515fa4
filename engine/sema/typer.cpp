// The fixed-point walk of type inference: statements, locals unification,
// names, attributes and the dispatch of calls to the feature rules in
// sema/typing/. Feature-specific typing lives in those files.
#include "sema/typer.h"

#include "frontend/loop_jumps.h"
#include "frontend/ssa_versions.h"
#include "ir/layout.h"
#include "ir/vector_types.h"
#include "sema/branch_pruning.h"
#include "sema/extension_typing.h"
#include "sema/function_values.h"
#include "sema/unroll.h"

namespace cuhost::sema {

namespace {

// Whether control can never fall off the end of `body`.
bool always_returns(const ast::Body& body) {
  if (body.empty()) return false;
  const ast::Stmt& last = *body.back();
  if (last.kind == ast::StmtKind::Return || last.kind == ast::StmtKind::Raise) return true;
  if (last.kind == ast::StmtKind::If) {
    const auto& i = static_cast<const ast::If&>(last);
    return always_returns(i.body) && always_returns(i.orelse);
  }
  if (last.kind == ast::StmtKind::While) {
    const auto& w = static_cast<const ast::While&>(last);
    if (w.test->kind == ast::ExprKind::Constant) {
      const auto& c = static_cast<const ast::Constant&>(*w.test).value;
      return c.kind == ir::ConstValue::Kind::Bool && c.b;
    }
  }
  return false;
}

}  // namespace

Typer::Typer(std::shared_ptr<TypedFunction> out) : out_(std::move(out)) {}

void Typer::fail(ErrorKind kind, const ast::SourceLoc& l, const std::string& message) const {
  throw UserError(kind, message, where(l), function_name());
}

void Typer::run() {
  const ast::FunctionDef& def = *captured().def;
  if (def.params.size() != out_->arg_types.size()) {
    fail(ErrorKind::TypeError, def.loc,
         concat(def.name, "() takes ", def.params.size(), " positional argument", def.params.size() == 1 ? "" : "s",
                " but ", out_->arg_types.size(), (out_->arg_types.size() == 1 ? " was" : " were"), " given"));
  }
  for (const auto& p : def.params) ++assignment_count_[p.name];
  frontend::count_assignments(def.body, assignment_count_);
  for (size_t i = 0; i < def.params.size(); ++i) {
    locals_[def.params[i].name] = out_->arg_types[i];
    // A literal argument: reads of the never-reassigned parameter fold to it.
    if (i < out_->arg_constants.size() && out_->arg_constants[i] && assignment_count_[def.params[i].name] == 1)
      const_locals_[def.params[i].name] = *out_->arg_constants[i];
  }
  for (const auto& s : assignment_count_) locals_.emplace(s.first, nullptr);

  for (int iteration = 0;; ++iteration) {
    CUHOST_CHECK(iteration < 200) << "type inference of " << def.name << " did not converge";
    pass();
    if (!changed_ && !pending_) break;
    if (!changed_ && pending_ && outer_pending_) throw *outer_pending_;  // mutual recursion: the caller waits too
    if (!changed_ && pending_) {
      strict_ = true;
      pass();  // reports the first read of an unassigned local
      CUHOST_CHECK(!pending_) << "strict pass left pending statements";
      break;
    }
  }

  // Return type.
  if (out_->is_kernel) {
    out_->return_type = ir::none_type();
  } else {
    const ir::Type* rt = nullptr;
    for (size_t i = 0; i < returns_.size(); ++i) {
      const ir::Type* r = returns_[i];
      if (!rt) {
        rt = r;
        continue;
      }
      const ir::Type* u = unify(rt, r);
      if (!u) {
        fail(ErrorKind::TypingError, return_stmts_[i]->loc,
             concat("cannot unify return types ", display(rt), " and ", display(r)));
      }
      rt = u;
    }
    // Falling off the end returns None: with values elsewhere the function
    // returns OptionalType(T), as in numba.
    if (rt && !always_returns(def.body)) {
      const ir::Type* u = unify(rt, ir::none_type());
      if (!u) {
        fail(ErrorKind::TypingError, def.loc,
             concat("device function '", def.name, "' returns ", display(rt),
                    " on some paths and falls off the end (returning None) on others"));
      }
      rt = u;
    }
    out_->return_type = rt ? rt : ir::none_type();
    // A C-ABI function has no None: OptionalType(T) is flattened to T, None
    // becoming a zero T (FFI.md, C -> numba edges).
    if (out_->abi == ir::Abi::C && out_->return_type->kind == ir::TypeKind::Optional)
      out_->return_type = out_->return_type->pointee;
  }
  for (auto& [name, type] : locals_)
    if (type) out_->locals[name] = type;
  out_->uses_barriers = uses_barriers_;
  out_->uses_warp_ops = uses_warp_ops_;
  out_->uses_grid_sync = uses_grid_sync_;
  out_->callees = callees_;
  out_->foreign_callees = foreign_;
  bool raises = unwraps_;
  for (const auto& c : callees_) {
    out_->uses_barriers = out_->uses_barriers || c->uses_barriers;
    out_->uses_warp_ops = out_->uses_warp_ops || c->uses_warp_ops;
    out_->uses_grid_sync = out_->uses_grid_sync || c->uses_grid_sync;
    raises = raises || (c->raises && c->abi == ir::Abi::Numba);
  }
  for (const auto& f : foreign_) raises = raises || f->abi == ir::Abi::Numba;
  out_->raises = !out_->is_kernel && out_->abi == ir::Abi::Numba && raises;
}

void Typer::pass() {
  out_->exprs.clear();
  typed_.clear();
  returns_.clear();
  return_stmts_.clear();
  widened_.clear();
  changed_ = false;
  pending_ = false;
  outer_pending_.reset();
  loop_depth_ = 0;
  uses_barriers_ = false;
  uses_warp_ops_ = false;
  uses_grid_sync_ = false;
  unwraps_ = false;
  callees_.clear();
  foreign_.clear();
  body(captured().def->body);
  provisional_return();
}

void Typer::provisional_return() {
  // Without a declared return type, a recursive call uses the unification of
  // the return types seen so far; a change means another pass.
  if (out_->is_kernel || (out_->function && out_->function->options.return_type)) return;
  const ir::Type* rt = nullptr;
  for (const ir::Type* r : returns_) {
    const ir::Type* u = rt ? unify(rt, r) : r;
    if (!u && recursive_)
      fail(ErrorKind::TypingError, captured().def->loc,
           concat("Return type of recursive function does not converge: '", function_name(), "' returns ", display(rt),
                  " and ", display(r)));
    if (u) rt = u;
  }
  if (rt == out_->return_type) return;
  out_->return_type = rt;
  // A recursive call (or a statement waiting for one) sees the new type in the next pass.
  if (!recursive_ && !pending_) return;
  changed_ = true;
  if (++provisional_changes_ > 20)
    fail(ErrorKind::TypingError, captured().def->loc,
         concat("Return type of recursive function does not converge: '", function_name(), "' returns ", display(rt),
                " after ", provisional_changes_, " passes"));
}

void Typer::body(const ast::Body& b) {
  auto pruned = [this](const ast::Expr* test) { return pruned_condition(*this, test); };
  for (const auto& s : b) {
    stmt(*s);
    // Past an `if` pruned to a side that leaves the block, the rest is dead
    // code numba never types (lowering skips it too).
    if (s->kind == ast::StmtKind::If) {
      const auto& i = static_cast<const ast::If&>(*s);
      auto live = pruned_condition(*this, i.test.get(), s.get());
      if (live && leaves_block(*live ? i.body : i.orelse, pruned)) return;
    }
  }
}

void Typer::guarded(const std::function<void()>& f) {
  try {
    f();
  } catch (const Pending& p) {
    pending_ = true;
    if (p.waiting_on && p.waiting_on != static_cast<const void*>(out_->function.get())) outer_pending_ = p;
  }
}

void Typer::add_callee(std::shared_ptr<const TypedFunction> f) {
  for (const auto& c : callees_)
    if (c == f) return;
  callees_.push_back(std::move(f));
}

void Typer::add_foreign(std::shared_ptr<const ir::ForeignFunction> f) {
  for (const auto& c : foreign_)
    if (c == f) return;
  foreign_.push_back(std::move(f));
}

void Typer::check_truthy(const ast::Expr* e) {
  const ir::Type* t = type_of_optional(e);
  if (t->kind == ir::TypeKind::Optional) t = t->pointee;  // None is false, as in Python
  if (t->kind == ir::TypeKind::Boolean || t->is_number() || t->kind == ir::TypeKind::NoneType) return;
  typing_error(e, concat("cannot use a value of type ", display(t), " as a condition"));
}

void Typer::imprecise_type_error(const ast::Expr* value, const std::string& imprecise) const {
  if (value == naming_value_ && naming_target_)
    typing_error(value, concat("Cannot infer the type of variable '", *naming_target_,
                               "', have imprecise type: ", imprecise, "."));
  typing_error(value, concat("Cannot infer the type of a temporary value, have imprecise type: ", imprecise, "."));
}

void Typer::stmt(const ast::Stmt& s) {
  switch (s.kind) {
    case ast::StmtKind::Assign: {
      const auto& a = static_cast<const ast::Assign&>(s);
      guarded([&] {
        struct Naming {
          Typer& t;
          ~Naming() { t.naming_value_ = nullptr, t.naming_target_ = nullptr; }
        } naming{*this};
        if (a.targets.size() == 1 && a.targets[0]->kind == ast::ExprKind::Name) {
          naming_value_ = a.value.get();
          naming_target_ = &static_cast<const ast::Name&>(*a.targets[0]).id;
        }
        const ir::Type* vt = type_of_optional(a.value.get());
        naming_value_ = nullptr, naming_target_ = nullptr;
        for (const auto& t : a.targets) {
          assigned_value_ = a.value.get();
          struct Reset {
            const ast::Expr*& p;
            ~Reset() { p = nullptr; }
          } reset{assigned_value_};
          assign_to(t.get(), vt, a.loc);
          const auto& c = info(a.value.get()).constant;
          if (t->kind == ast::ExprKind::Name && c && c->kind != ir::ConstValue::Kind::String) {
            const std::string& id = static_cast<const ast::Name&>(*t).id;
            if (assignment_count_[id] == 1 && locals_[id] == c->type) const_locals_[id] = *c;
          }
          const ExprInfo& vi = info(a.value.get());
          if (t->kind == ast::ExprKind::Name && !vi.shape.empty() && vt->is_array() &&
              assignment_count_[static_cast<const ast::Name&>(*t).id] == 1)
            shaped_locals_[static_cast<const ast::Name&>(*t).id] = vi.shape;
        }
      });
      return;
    }
    case ast::StmtKind::AugAssign: {
      const auto& a = static_cast<const ast::AugAssign&>(s);
      guarded([&] {
        const ir::Type* lt;
        ExprInfo* tinfo;
        if (a.target->kind == ast::ExprKind::Name) {
          const auto& n = static_cast<const ast::Name&>(*a.target);
          lt = locals_[n.id];
          if (!lt) {
            if (strict_)
              fail(ErrorKind::NameError, a.target->loc,
                   concat("local variable '", frontend::source_variable_name(n.id),
                          "' is referenced before assignment"));
            throw Pending{n.id, a.target->loc};
          }
          tinfo = &info(a.target.get());
        } else if (a.target->kind == ast::ExprKind::Attribute) {  // r.x += v (a whole array or record
          // field is refused by the operator's typing, a TypingError as in numba-cuda)
          const auto& at = static_cast<const ast::Attribute&>(*a.target);
          const ir::Type* base = type_of(at.value.get());
          lt = type_record_attribute(*this, at, base, true);
          if (!lt)
            typing_error(a.target.get(), concat("cannot assign to attribute '", at.attr, "' of ", display(base)));
        } else {
          tinfo = &info(a.target.get());
          lt = type_subscript(*this, static_cast<const ast::Subscript&>(*a.target), *tinfo, true);
          if (info(a.target.get()).intrinsic == "array.setslice")
            fail(ErrorKind::UnsupportedError, a.target->loc,
                 "augmented assignment to an array slice is not supported in kernels");
        }
        const ir::Type* rt = type_of(a.value.get());
        std::vector<const ir::Type*> operands;
        const ir::Type* op_lt = lt;
        if (lt->kind == ir::TypeKind::Optional) {  // `v += 1` on an Optional local uses its payload
          op_lt = lt->pointee;
          note_unwrap();
        }
        const ir::Type* result = type_binop_types(*this, a.op, op_lt, rt, a.target.get(), &operands);
        if (a.target->kind == ast::ExprKind::Name) {
          const auto& n = static_cast<const ast::Name&>(*a.target);
          assign_local(n.id, result, a.target.get());
          lt = locals_[n.id];
        } else if (!can_convert(result, lt)) {
          typing_error(a.target.get(), concat("cannot store a value of type ", display(result),
                                              " into an element of type ", display(lt)));
        }
        tinfo = &info(a.target.get());
        tinfo->type = lt;
        tinfo->operand_types = operands;
        tinfo->param_types = {result};
        typed_.insert(a.target.get());
      });
      return;
    }
    case ast::StmtKind::If: {
      const auto& i = static_cast<const ast::If&>(s);
      // numba prunes a branch whose condition it decides before typing
      // (sema/branch_pruning.h): the dead branch is never typed, and
      // lowering skips it (constant_truth).
      if (auto live = pruned_condition(*this, i.test.get(), &s)) {
        body(*live ? i.body : i.orelse);
        return;
      }
      guarded([&] { check_truthy(i.test.get()); });
      body(i.body);
      body(i.orelse);
      return;
    }
    case ast::StmtKind::While: {
      const auto& w = static_cast<const ast::While&>(s);
      // A live `continue` jumps back to the test before the loop, so that
      // test reads a join numba does not prune on (frontend/loop_jumps.h).
      std::optional<bool> entry;
      if (frontend::loop_jumps(w.body, frontend::single_definition_constants(*captured().def)).continues == 0)
        entry = entry_condition(*this, w.test.get(), &s);
      if (entry && !*entry) {  // `while False:`, `w = 0; while w < 0:`: numba prunes the body
        set_typed(w.test.get(), ir::boolean());
        info(w.test.get()).constant = ir::ConstValue::boolean(false);
        return;
      }
      auto live = pruned_loop_condition(*this, w.test.get());
      if (!live) guarded([&] { check_truthy(w.test.get()); });
      ++loop_depth_;
      body(w.body);
      --loop_depth_;
      return;
    }
    case ast::StmtKind::For: for_stmt(static_cast<const ast::For&>(s)); return;
    case ast::StmtKind::Break:
    case ast::StmtKind::Continue:
      if (loop_depth_ == 0) {
        fail(ErrorKind::SyntaxError, s.loc,
             concat("'", s.kind == ast::StmtKind::Break ? "break" : "continue", "' outside loop"));
      }
      return;
    case ast::StmtKind::Return: {
      const auto& r = static_cast<const ast::Return&>(s);
      if (out_->is_kernel) {
        if (r.value && !(r.value->kind == ast::ExprKind::Constant &&
                         static_cast<const ast::Constant&>(*r.value).value.kind == ir::ConstValue::Kind::None)) {
          // The value is typed first: an error in it (an untyped name) is the one to report.
          guarded([&] { type_of_optional(r.value.get()); });
          // compile_ptx() raises numba-cuda's TypeError for this one (runtime/compiler.cpp).
          throw UserError(ErrorKind::TypingError, "kernels must not return a value", where(r.loc), function_name())
              .set_cause(ErrorCause::KernelReturnsValue);
        }
        if (r.value) guarded([&] { type_of(r.value.get()); });  // `return None`: lowering evaluates it
        return;
      }
      guarded([&] {
        returns_.push_back(r.value ? type_of_optional(r.value.get()) : ir::none_type());
        return_stmts_.push_back(&r);
      });
      return;
    }
    case ast::StmtKind::Pass: return;
    case ast::StmtKind::Raise: guarded([&] { type_raise(*this, static_cast<const ast::Raise&>(s)); }); return;
    case ast::StmtKind::ExprStmt:
      // A discarded Optional result is not unwrapped (a None there is fine).
      guarded([&] { type_of_optional(static_cast<const ast::ExprStmt&>(s).value.get()); });
      return;
  }
}

const ir::Type* Typer::type_of(const ast::Expr* e) {
  if (typed_.count(e)) return info(e).type;
  ExprInfo& inf = info(e);
  inf = ExprInfo{};
  const ir::Type* t = type_expr(e, inf);
  CUHOST_CHECK(t) << "no type for expression at line " << e->loc.line;
  if (t->kind == ir::TypeKind::Optional && !keep_optional_.count(e)) {
    // Lowering converts the Optional value to this payload type, with a
    // check that ends the thread on None.
    t = t->pointee;
    note_unwrap();
  }
  // An IntEnum member read where a number is wanted is its integer (numba's
  // IntEnumMember converts to int); the contexts that keep Optionals keep
  // the member too. Only values lowering converts by their type: locals
  // and constants.
  if (ir::is_int_enum(t) && !keep_optional_.count(e) && (e->kind == ast::ExprKind::Name || info(e).constant))
    t = t->pointee;
  ExprInfo& again = info(e);  // same element (references stay valid)
  again.type = t;
  typed_.insert(e);
  return t;
}

const ir::Type* Typer::type_of_optional(const ast::Expr* e) {
  keep_optional_.insert(e);
  return type_of(e);
}

std::optional<std::int64_t> Typer::literal_int(const ast::Expr* e) {
  type_of(e);
  const auto& c = info(e).constant;
  if (!c) return std::nullopt;
  if (c->kind == ir::ConstValue::Kind::Int) return c->i;
  if (c->kind == ir::ConstValue::Kind::UInt) return static_cast<std::int64_t>(c->u);
  return std::nullopt;
}

std::vector<const ast::Expr*> Typer::bind(const ast::Call& call, const std::string& fname,
                                          const std::vector<std::string>& params, size_t required, ExprInfo& inf) {
  std::vector<const ast::Expr*> out(params.size(), nullptr);
  size_t given = call.args.size() + call.keywords.size();
  auto count_error = [&] {
    std::string takes;
    if (required == params.size()) {
      takes = concat(params.size(), " argument", params.size() == 1 ? "" : "s");
    } else {
      takes = concat("from ", required, " to ", params.size(), " arguments");
    }
    fail(ErrorKind::TypingError, call.loc, concat(fname, "() takes ", takes, " (", given, " given)"));
  };
  if (call.args.size() > params.size()) count_error();
  for (size_t i = 0; i < call.args.size(); ++i) out[i] = call.args[i].get();
  for (const auto& kw : call.keywords) {
    size_t k = 0;
    while (k < params.size() && params[k] != kw.name) ++k;
    if (k == params.size()) {
      fail(ErrorKind::TypingError, kw.loc, concat(fname, "() got an unexpected keyword argument '", kw.name, "'"));
    }
    if (out[k]) {
      fail(ErrorKind::TypingError, kw.loc, concat(fname, "() got multiple values for argument '", kw.name, "'"));
    }
    out[k] = kw.value.get();
  }
  for (size_t i = 0; i < required; ++i) {
    if (!out[i]) {
      if (given < required) count_error();
      fail(ErrorKind::TypingError, call.loc, concat(fname, "() missing required argument '", params[i], "'"));
    }
  }
  inf.ordered_args = out;
  return out;
}

bool Typer::resolve_key(const std::string& key, const ast::Expr* e, ExprInfo& inf) {
  return resolve_builtin_key(*this, key, e, inf);
}

const ir::Type* Typer::type_expr(const ast::Expr* e, ExprInfo& inf) {
  switch (e->kind) {
    case ast::ExprKind::Name: return type_name(static_cast<const ast::Name&>(*e), inf);
    case ast::ExprKind::Constant: {
      const auto& c = static_cast<const ast::Constant&>(*e);
      inf.constant = c.value;
      return c.value.type;
    }
    case ast::ExprKind::Attribute: return type_attribute(static_cast<const ast::Attribute&>(*e), inf);
    case ast::ExprKind::Subscript: return type_subscript(*this, static_cast<const ast::Subscript&>(*e), inf, false);
    case ast::ExprKind::Call: return type_call(static_cast<const ast::Call&>(*e), inf);
    case ast::ExprKind::BinOp: return type_arith(*this, static_cast<const ast::BinOp&>(*e), inf);
    case ast::ExprKind::UnaryOp: return type_unary(*this, static_cast<const ast::UnaryOp&>(*e), inf);
    case ast::ExprKind::BoolOp: return type_boolop(*this, static_cast<const ast::BoolOp&>(*e), inf);
    case ast::ExprKind::Compare: return type_compare(*this, static_cast<const ast::Compare&>(*e), inf);
    case ast::ExprKind::IfExp: {
      const auto& x = static_cast<const ast::IfExp&>(*e);
      // `a if True else b`: numba types only the live branch (sema/branch_pruning.h).
      if (auto live = pruned_condition(*this, x.test.get())) {
        const ir::Type* u = type_of_optional(*live ? x.body.get() : x.orelse.get());
        ExprInfo& again = info(e);
        again.operand_types = {u, u};
        return u;
      }
      check_truthy(x.test.get());
      const ir::Type* b = type_of_optional(x.body.get());
      const ir::Type* o = type_of_optional(x.orelse.get());
      const ir::Type* u = unify(b, o);
      if (!u) typing_error(e, concat("cannot unify ", display(b), " and ", display(o), " in a conditional expression"));
      ExprInfo& again = info(e);
      again.operand_types = {u, u};
      return u;
    }
    case ast::ExprKind::Tuple: {
      const auto& x = static_cast<const ast::Tuple&>(*e);
      std::vector<const ir::Type*> elems;
      std::vector<ir::ConstValue> consts;
      bool all_const = true;
      for (const auto& el : x.elts) {
        elems.push_back(type_of(el.get()));
        const auto& c = info(el.get()).constant;
        if (c)
          consts.push_back(*c);
        else
          all_const = false;
      }
      if (all_const) info(e).constant = ir::ConstValue::tuple(std::move(consts));
      return ir::tuple(elems);
    }
    case ast::ExprKind::Slice: fail(ErrorKind::UnsupportedError, e->loc, "slices are not supported in kernels");
  }
  return nullptr;
}

const ir::Type* Typer::type_name(const ast::Name& n, ExprInfo& inf) {
  auto local = locals_.find(n.id);
  if (local != locals_.end()) {
    if (!local->second) {
      if (strict_)
        fail(ErrorKind::NameError, n.loc,
             concat("local variable '", frontend::source_variable_name(n.id), "' is referenced before assignment"));
      throw Pending{n.id, n.loc};
    }
    auto c = const_locals_.find(n.id);
    if (c != const_locals_.end()) inf.constant = c->second;
    return local->second;
  }
  auto it = captured().globals.find(n.id);
  if (it == captured().globals.end()) fail(ErrorKind::NameError, n.loc, concat("name '", n.id, "' is not defined"));
  return type_global(it->second, n, n.id, inf);
}

namespace {

// The type of a frozen tuple of arrays: constants keep their literal types,
// arrays are read-only C arrays (as a global array read alone).
const ir::Type* global_tuple_type(const frontend::GlobalValue& g) {
  using K = frontend::GlobalValue::Kind;
  std::vector<const ir::Type*> elems;
  for (const auto& item : g.items) {
    if (item.kind == K::Constant) {
      elems.push_back(item.constant.type);
    } else if (item.kind == K::Array) {
      elems.push_back(ir::array(item.array->dtype, static_cast<int>(item.array->shape.size()), ir::Layout::C, true));
    } else {
      elems.push_back(global_tuple_type(item));
    }
  }
  return ir::tuple(elems);
}

}  // namespace

const ir::Type* Typer::type_global(const frontend::GlobalValue& g, const ast::Expr& e, const std::string& shown,
                                   ExprInfo& inf) {
  using K = frontend::GlobalValue::Kind;
  switch (g.kind) {
    case K::Constant: inf.constant = g.constant; return g.constant.type;
    case K::Array:
      inf.intrinsic = "global.array";
      return ir::array(g.array->dtype, static_cast<int>(g.array->shape.size()), ir::Layout::C, true);
    case K::DeviceArray: {
      const frontend::DeviceArrayRef& d = *g.device_array;
      inf.intrinsic = "global.device_array";
      int ndim = static_cast<int>(d.shape.size());
      return ir::array(d.dtype, ndim,
                       ir::layout_of_strides(ndim, d.shape.data(), d.strides.data(), d.dtype->byte_size()), d.readonly);
    }
    case K::Module:
      if (resolve_key(g.key, &e, inf)) return info(&e).type;
      return ir::module(g.key);
    case K::Intrinsic:
      if (resolve_key(g.key, &e, inf)) return info(&e).type;
      return ir::intrinsic(g.key);
    case K::JitFunction: remember_function(g.function); return ir::dispatcher(g.function.get());
    case K::Foreign: remember_function(g.foreign); return ir::foreign(g.foreign.get());
    case K::TypeObject: return ir::type_ref(g.type_object);
    case K::Ffi: return ir::ffi();
    case K::Extension: return ir::extension_function(g.extension.get());
    case K::Tuple: {
      inf.intrinsic = "global.tuple";
      return global_tuple_type(g);
    }
    case K::Unsupported: break;
  }
  fail(ErrorKind::TypingError, e.loc,
       concat("Untyped global name '", shown,
              "': ", g.refusal.empty() ? "cannot determine the type of " + g.repr : g.refusal));
}

const ir::Type* Typer::type_frozen_global(const std::string& frozen, const ast::Expr& e, ExprInfo& inf) {
  auto it = captured().globals.find(frozen);
  if (it == captured().globals.end()) return nullptr;
  return type_global(it->second, e, frozen, inf);
}

const ir::Type* Typer::type_attribute(const ast::Attribute& a, ExprInfo& inf) {
  const ir::Type* base = type_of(a.value.get());
  if (base->kind == ir::TypeKind::Intrinsic && base->key == "array.ctypes") {
    if (const ir::Type* t = type_array_method(*this, a, base)) return t;
  }
  if (base->kind == ir::TypeKind::Module || base->kind == ir::TypeKind::Intrinsic) {
    std::string key = base->key + "." + a.attr;
    if (resolve_key(key, &a, inf)) return info(&a).type;
    // An attribute of a user module, frozen by capture as "<name>.<attr>".
    if (base->kind == ir::TypeKind::Module && a.value->kind == ast::ExprKind::Name) {
      std::string frozen = static_cast<const ast::Name&>(*a.value).id + "." + a.attr;
      auto it = captured().globals.find(frozen);
      if (it != captured().globals.end()) return type_global(it->second, a, frozen, inf);
    }
    // An attribute of a submodule, frozen as "<name>.<sub>.<attr>" (np.random.seed).
    if (base->kind == ir::TypeKind::Module && a.value->kind == ast::ExprKind::Attribute) {
      const auto& inner = static_cast<const ast::Attribute&>(*a.value);
      if (inner.value->kind == ast::ExprKind::Name) {
        std::string frozen = static_cast<const ast::Name&>(*inner.value).id + "." + inner.attr + "." + a.attr;
        auto it = captured().globals.find(frozen);
        if (it != captured().globals.end()) return type_global(it->second, a, frozen, inf);
      }
    }
    if (base->kind == ir::TypeKind::Module) {
      fail(ErrorKind::TypingError, a.loc, concat("module '", base->key, "' has no attribute '", a.attr, "'"));
    }
    fail(ErrorKind::TypingError, a.loc, concat("'", base->key, "' has no attribute '", a.attr, "'"));
  }
  if (base->kind == ir::TypeKind::Ffi) {
    if (a.attr == "from_buffer") return ir::intrinsic("ffi.from_buffer");
    fail(ErrorKind::TypingError, a.loc, concat("FFI object has no attribute '", a.attr, "' usable in kernels"));
  }
  if (const ir::Type* t = type_value_attribute(*this, a, base, inf)) return t;
  if (const ir::Type* t = type_array_method(*this, a, base)) return t;
  if (const ir::Type* t = type_record_attribute(*this, a, base, false)) return t;
  if (const ir::Type* t = type_vector_attribute(*this, a, base)) return t;
  if (const ir::Type* t = type_named_tuple_attribute(*this, a, base)) return t;
  if (const ir::Type* t = type_number_attribute(*this, a, base, inf)) return t;
  if (const ir::Type* t = type_storage_attribute(*this, a, base, inf)) return t;
  if (const ir::Type* t = type_extension_attribute(*this, a, base, inf)) return t;
  // numba's type inference words an unknown attribute of any value this way.
  fail(ErrorKind::TypingError, a.loc, concat("Unknown attribute '", a.attr, "' of type ", display(base)));
}

const ir::Type* Typer::type_call(const ast::Call& c, ExprInfo& inf) {
  // np.<ufunc>(..., out) first: np.greater and friends have no scalar key.
  if (const ir::Type* t = type_numpy_ufunc_out(*this, c, inf)) return t;
  const ir::Type* ft = type_of(c.func.get());
  // *arguments: in calls of jitted functions, and of complex() (typing/complex.cpp).
  bool unpacks =
      ft->kind == ir::TypeKind::Dispatcher || (ft->kind == ir::TypeKind::Intrinsic && ft->key == "builtins.complex");
  for (size_t i = 0; i < c.args.size(); ++i)
    if (c.is_starred(i) && !unpacks)
      fail(ErrorKind::UnsupportedError, c.args[i]->loc,
           "*arguments are only supported in calls of jitted functions and of complex() in kernels");
  switch (ft->kind) {
    case ir::TypeKind::Intrinsic: {
      const std::string& key = ft->key;
      // cuhost's functions applied to extension-type values: the extension API's overloads (@overload(len)).
      if (c.keywords.empty() && !c.args.empty()) {
        std::vector<const ir::Type*> types;
        std::vector<const ast::Expr*> operands;
        for (const auto& a : c.args) {
          types.push_back(type_of(a.get()));
          operands.push_back(a.get());
        }
        if (has_extension_operand(types)) {
          if (const ir::Type* x = type_builtin_extension(*this, &c, key, operands)) return x;
        }
      }
      using Rule = const ir::Type* (*)(Typer&, const ast::Call&, const std::string&, ExprInfo&);
      for (Rule rule : {type_half_call,     type_fp8_call,           type_builtin_call,
                        type_math_call,     type_cuda_indexing_call, type_atomic_call,
                        type_warp_call,     type_array_call,         type_libdevice_call,
                        type_ffi_call,      type_print_call,         type_complex_call,
                        type_cg_call,       type_cache_hint_call,    type_inline_ptx_call,
                        type_wmma_call,     type_mma_call,           type_cluster_call,
                        type_tuple_call,    type_reduction_call,     type_array_method_call,
                        type_nrt_array_call}) {
        if (const ir::Type* t = rule(*this, c, key, info(&c))) {
          info(&c).intrinsic = info(&c).intrinsic.empty() ? key : info(&c).intrinsic;
          return t;
        }
      }
      std::string shown = key.rfind("builtins.", 0) == 0 ? key.substr(9) : key;
      fail(ErrorKind::UnsupportedError, c.loc, concat(shown, "() is not supported in kernels"));
    }
    case ir::TypeKind::TypeRef:
      if (ir::is_vector_type(ft->pointee)) return type_vector_ctor(*this, c, ft->pointee, inf);
      return type_cast_call(*this, c, ft->pointee, ft->pointee->str(), inf);
    case ir::TypeKind::Dispatcher: return type_device_call(*this, c, ft, inf);
    case ir::TypeKind::Foreign: return type_foreign_call(*this, c, ft, inf);
    case ir::TypeKind::ExtensionFunction: return type_extension_call(*this, c, ft, inf);
    case ir::TypeKind::ExtensionMethod: return type_extension_method_call(*this, c, ft, inf);
    case ir::TypeKind::Module: fail(ErrorKind::TypingError, c.loc, concat("module '", ft->key, "' is not callable"));
    default: break;
  }
  fail(ErrorKind::TypingError, c.loc, concat("'", display(ft), "' object is not callable"));
}

}  // namespace cuhost::sema
