// numba's dead_branch_prune, re-decided on cuhost's AST. numba looks at the
// condition of each branch in its IR (after CPython folded literal
// expressions): a constant (a literal, a global, a variable whose only
// definition is one) prunes by its truth; a comparison prunes when both
// sides are constants (evaluated as Python does), or when a side is an
// argument and one side is None-typed (`x is None` with x None or omitted,
// decided on the types). `not`, `and` and `or` in a condition are jumps in
// the bytecode, so each operand is its own branch. Nothing else prunes (a
// boolean argument alone does not: find_const fails on an ir.Arg).
#include "sema/branch_pruning.h"

#include <map>

#include "sema/python_values.h"
#include "sema/typer.h"

namespace cuhost::sema {

namespace {

using K = ir::ConstValue::Kind;
using Value = ir::ConstValue;

using Globals = std::map<std::string, frontend::GlobalValue>;

// Whether the callee `f` only computes a value: a NumPy scalar constructor
// or function (`np.bool_(...)`, `np.int64(...)`), a `math` function, a type
// object (`float32(...)`) or a value builtin. numba prunes `x if (np.bool_(c)
// and False) else y` (CPython turns the constant operand into a jump), and
// skipping such a call here changes nothing; any other call may have an
// effect (an atomic in a device function), so one before the deciding
// operand keeps the condition undecided.
bool effect_free_callee(const ast::Expr* f, const Globals& globals) {
  const ast::Expr* base = f;
  if (f->kind == ast::ExprKind::Attribute) base = static_cast<const ast::Attribute*>(f)->value.get();
  if (base->kind != ast::ExprKind::Name) return false;
  auto g = globals.find(static_cast<const ast::Name*>(base)->id);
  if (g == globals.end()) return false;
  using GK = frontend::GlobalValue::Kind;
  const frontend::GlobalValue& v = g->second;
  if (f != base) return v.kind == GK::Module && (v.key == "math" || v.key == "numpy");
  if (v.kind == GK::TypeObject) return true;
  if (v.kind != GK::Intrinsic) return false;
  if (v.key.rfind("math.", 0) == 0) return true;
  static const char* const kValueBuiltins[] = {"builtins.abs",   "builtins.min",  "builtins.max",   "builtins.int",
                                               "builtins.float", "builtins.bool", "builtins.round", "builtins.len"};
  for (const char* k : kValueBuiltins)
    if (v.key == k) return true;
  return false;
}

// Whether evaluating `e` can have an effect (a call of anything but the
// value functions above): a condition decided here is not evaluated at all,
// so operands evaluated before the deciding one must have none.
bool pure(const ast::Expr* e, const Globals& g) {
  if (!e) return true;
  switch (e->kind) {
    case ast::ExprKind::Name:
    case ast::ExprKind::Constant: return true;
    case ast::ExprKind::Attribute: return pure(static_cast<const ast::Attribute*>(e)->value.get(), g);
    case ast::ExprKind::Subscript: {  // an element read
      auto* s = static_cast<const ast::Subscript*>(e);
      return pure(s->value.get(), g) && pure(s->index.get(), g);
    }
    case ast::ExprKind::Slice: {
      auto* s = static_cast<const ast::Slice*>(e);
      return pure(s->lower.get(), g) && pure(s->upper.get(), g) && pure(s->step.get(), g);
    }
    case ast::ExprKind::BinOp: {
      auto* b = static_cast<const ast::BinOp*>(e);
      return pure(b->left.get(), g) && pure(b->right.get(), g);
    }
    case ast::ExprKind::UnaryOp: return pure(static_cast<const ast::UnaryOp*>(e)->operand.get(), g);
    case ast::ExprKind::BoolOp:
      for (const auto& v : static_cast<const ast::BoolOp*>(e)->values)
        if (!pure(v.get(), g)) return false;
      return true;
    case ast::ExprKind::Compare: {
      auto* c = static_cast<const ast::Compare*>(e);
      if (!pure(c->left.get(), g)) return false;
      for (const auto& v : c->comparators)
        if (!pure(v.get(), g)) return false;
      return true;
    }
    case ast::ExprKind::Tuple:
      for (const auto& v : static_cast<const ast::Tuple*>(e)->elts)
        if (!pure(v.get(), g)) return false;
      return true;
    case ast::ExprKind::Call: {
      auto* c = static_cast<const ast::Call*>(e);
      if (!effect_free_callee(c->func.get(), g)) return false;
      for (const auto& a : c->args)
        if (!pure(a.get(), g)) return false;
      for (const auto& k : c->keywords)
        if (!pure(k.value.get(), g)) return false;
      return true;
    }
    default: return false;
  }
}

// The definitions of each local: the value of every plain `name = value`,
// null for any other store (augmented assignment, unpacking, loop target).
void collect_definitions(const ast::Body& body, std::map<std::string, std::vector<const ast::Expr*>>& out);

void collect_target(const ast::Expr* target, const ast::Expr* value,
                    std::map<std::string, std::vector<const ast::Expr*>>& out) {
  if (target->kind == ast::ExprKind::Name) {
    out[static_cast<const ast::Name*>(target)->id].push_back(value);
  } else if (target->kind == ast::ExprKind::Tuple) {
    for (const auto& e : static_cast<const ast::Tuple*>(target)->elts) collect_target(e.get(), nullptr, out);
  }
}

void collect_definitions(const ast::Body& body, std::map<std::string, std::vector<const ast::Expr*>>& out) {
  for (const auto& s : body) {
    switch (s->kind) {
      case ast::StmtKind::Assign: {
        const auto& a = static_cast<const ast::Assign&>(*s);
        for (const auto& t : a.targets) collect_target(t.get(), a.value.get(), out);
        break;
      }
      case ast::StmtKind::AugAssign:
        collect_target(static_cast<const ast::AugAssign&>(*s).target.get(), nullptr, out);
        break;
      case ast::StmtKind::For: {
        const auto& f = static_cast<const ast::For&>(*s);
        collect_target(f.target.get(), nullptr, out);
        collect_definitions(f.body, out);
        break;
      }
      case ast::StmtKind::While: collect_definitions(static_cast<const ast::While&>(*s).body, out); break;
      case ast::StmtKind::If: {
        const auto& i = static_cast<const ast::If&>(*s);
        collect_definitions(i.body, out);
        collect_definitions(i.orelse, out);
        break;
      }
      default: break;
    }
  }
}

// Whether the expression tree `e` holds `x`.
bool holds(const ast::Expr* e, const ast::Expr* x) {
  if (!e) return false;
  if (e == x) return true;
  switch (e->kind) {
    case ast::ExprKind::Attribute: return holds(static_cast<const ast::Attribute*>(e)->value.get(), x);
    case ast::ExprKind::Subscript: {
      auto* s = static_cast<const ast::Subscript*>(e);
      return holds(s->value.get(), x) || holds(s->index.get(), x);
    }
    case ast::ExprKind::Call: {
      auto* c = static_cast<const ast::Call*>(e);
      if (holds(c->func.get(), x)) return true;
      for (const auto& a : c->args)
        if (holds(a.get(), x)) return true;
      for (const auto& k : c->keywords)
        if (holds(k.value.get(), x)) return true;
      return false;
    }
    case ast::ExprKind::BinOp: {
      auto* b = static_cast<const ast::BinOp*>(e);
      return holds(b->left.get(), x) || holds(b->right.get(), x);
    }
    case ast::ExprKind::UnaryOp: return holds(static_cast<const ast::UnaryOp*>(e)->operand.get(), x);
    case ast::ExprKind::BoolOp:
      for (const auto& v : static_cast<const ast::BoolOp*>(e)->values)
        if (holds(v.get(), x)) return true;
      return false;
    case ast::ExprKind::Compare: {
      auto* c = static_cast<const ast::Compare*>(e);
      if (holds(c->left.get(), x)) return true;
      for (const auto& v : c->comparators)
        if (holds(v.get(), x)) return true;
      return false;
    }
    case ast::ExprKind::IfExp: {
      auto* i = static_cast<const ast::IfExp*>(e);
      return holds(i->test.get(), x) || holds(i->body.get(), x) || holds(i->orelse.get(), x);
    }
    case ast::ExprKind::Tuple:
      for (const auto& v : static_cast<const ast::Tuple*>(e)->elts)
        if (holds(v.get(), x)) return true;
      return false;
    case ast::ExprKind::Slice: {
      auto* s = static_cast<const ast::Slice*>(e);
      return holds(s->lower.get(), x) || holds(s->upper.get(), x) || holds(s->step.get(), x);
    }
    default: return false;
  }
}

// Whether statement `s` itself (not its nested blocks) evaluates `x`.
bool evaluates(const ast::Stmt* s, const ast::Expr* x) {
  switch (s->kind) {
    case ast::StmtKind::Assign: {
      auto* a = static_cast<const ast::Assign*>(s);
      for (const auto& t : a->targets)
        if (holds(t.get(), x)) return true;
      return holds(a->value.get(), x);
    }
    case ast::StmtKind::AugAssign: {
      auto* a = static_cast<const ast::AugAssign*>(s);
      return holds(a->target.get(), x) || holds(a->value.get(), x);
    }
    case ast::StmtKind::If: return holds(static_cast<const ast::If*>(s)->test.get(), x);
    case ast::StmtKind::While: return holds(static_cast<const ast::While*>(s)->test.get(), x);
    case ast::StmtKind::For: {
      auto* f = static_cast<const ast::For*>(s);
      return holds(f->target.get(), x) || holds(f->iter.get(), x);
    }
    case ast::StmtKind::Return: return holds(static_cast<const ast::Return*>(s)->value.get(), x);
    case ast::StmtKind::ExprStmt: return holds(static_cast<const ast::ExprStmt*>(s)->value.get(), x);
    case ast::StmtKind::Raise: return holds(static_cast<const ast::Raise*>(s)->exc.get(), x);
    default: return false;
  }
}

// One side of a comparison as numba's dead_branch_prune resolves it.
struct Side {
  enum class What { Unknown, Value, NoneArg, LiteralArg };
  What what = What::Unknown;
  Value value;
};

class Pruner {
 public:
  // `at`: the statement whose condition is decided; a name's assignment
  // just before it in its block is the definition that reaches it (numba
  // prunes after building SSA versions: `k = True; k = False; if k:`).
  // With `within` instead, the statement is the one that evaluates that
  // expression (a conditional expression's test).
  Pruner(Typer& t, const ast::Stmt* at, const ast::Expr* within = nullptr) : t_(t) {
    collect_definitions(t.captured().def->body, defs_);
    if (at || within) find_block(t.captured().def->body, at, within);
  }

  // The truth of `e` as the condition of a branch.
  std::optional<bool> condition(const ast::Expr* e, int depth = 0) {
    if (depth > 32) return std::nullopt;
    switch (e->kind) {
      case ast::ExprKind::UnaryOp: {
        auto* u = static_cast<const ast::UnaryOp*>(e);
        if (u->op != ast::UnaryOpKind::Not) break;
        auto r = condition(u->operand.get(), depth + 1);  // `if not x` jumps on x
        if (!r) return std::nullopt;
        return !*r;
      }
      case ast::ExprKind::BoolOp: {
        auto* b = static_cast<const ast::BoolOp*>(e);
        bool is_and = b->op == ast::BoolOpKind::And;
        bool unknown = false;
        for (size_t i = 0; i < b->values.size(); ++i) {
          auto r = condition(b->values[i].get(), depth + 1);
          if (!r) {
            unknown = true;
            continue;
          }
          // A false operand of `and` (true of `or`) decides every path through it.
          if (*r != is_and) return evaluated_before_pure(b->values, i) ? std::optional<bool>(*r) : std::nullopt;
        }
        if (unknown) return std::nullopt;
        return is_and;
      }
      case ast::ExprKind::Compare: {
        auto* c = static_cast<const ast::Compare*>(e);
        bool unknown = false;
        std::vector<const ast::Expr*> evaluated{c->left.get()};
        for (size_t i = 0; i < c->ops.size(); ++i) {
          const ast::Expr* lhs = i == 0 ? c->left.get() : c->comparators[i - 1].get();
          auto r = link(lhs, c->ops[i], c->comparators[i].get());
          if (r && !*r) {
            for (const ast::Expr* x : evaluated)
              if (!pure(x, t_.captured().globals)) return std::nullopt;
            return false;
          }
          evaluated.push_back(c->comparators[i].get());
          if (!r) unknown = true;
        }
        if (unknown) return std::nullopt;
        return true;
      }
      default: break;
    }
    return value_truth(e, depth);
  }

  // The truth of `e` where numba branches on its value (an operand of a
  // boolean expression, or a condition that is no jump of its own).
  std::optional<bool> value_truth(const ast::Expr* e, int depth = 0) {
    if (depth > 32) return std::nullopt;
    const ast::Expr* d = definition(e);
    if (auto r = single_comparison(d)) return r;
    if (auto v = find_const(e)) return truth(*v);
    return std::nullopt;
  }

  // A comparison `a op b` (one operator), or `not (a is b)` that CPython
  // rewrites to `a is not b` (also in/not in): numba's binop condition.
  std::optional<bool> single_comparison(const ast::Expr* e) {
    if (!e) return std::nullopt;
    bool negate = false;
    if (e->kind == ast::ExprKind::UnaryOp) {
      auto* u = static_cast<const ast::UnaryOp*>(e);
      if (u->op != ast::UnaryOpKind::Not || u->operand->kind != ast::ExprKind::Compare) return std::nullopt;
      auto* c = static_cast<const ast::Compare*>(u->operand.get());
      if (c->ops.size() != 1) return std::nullopt;
      using C = ast::CompareOpKind;
      C op = c->ops[0];
      if (op != C::Is && op != C::IsNot && op != C::In && op != C::NotIn) return std::nullopt;
      e = c;
      negate = true;
    }
    if (e->kind != ast::ExprKind::Compare) return std::nullopt;
    auto* c = static_cast<const ast::Compare*>(e);
    if (c->ops.size() != 1) return std::nullopt;
    auto r = link(c->left.get(), c->ops[0], c->comparators[0].get());
    if (!r) return std::nullopt;
    return negate ? !*r : *r;
  }

 private:
  bool evaluated_before_pure(const std::vector<ast::ExprPtr>& values, size_t i) {
    for (size_t k = 0; k < i; ++k)
      if (!pure(values[k].get(), t_.captured().globals)) return false;
    return true;
  }

  bool is_parameter(const std::string& id) const {
    for (const auto& p : t_.captured().def->params)
      if (p.name == id) return true;
    return false;
  }

  // The parameter index of a never reassigned parameter named by `e`, or -1.
  int argument(const ast::Expr* e) {
    if (e->kind != ast::ExprKind::Name) return -1;
    const std::string& id = static_cast<const ast::Name*>(e)->id;
    const auto& params = t_.captured().def->params;
    for (size_t i = 0; i < params.size(); ++i)
      if (params[i].name == id) return defs_.count(id) ? -1 : static_cast<int>(i);
    return -1;
  }

  // The expression a name stands for: numba's get_definition follows
  // variables with a single definition (`y = x` reads as x).
  // Finds the block holding `at` (or, with `within`, the statement that
  // evaluates that expression) and its index there.
  bool find_block(const ast::Body& b, const ast::Stmt* at, const ast::Expr* within = nullptr) {
    for (size_t i = 0; i < b.size(); ++i) {
      const ast::Stmt* s = b[i].get();
      if (within ? evaluates(s, within) : s == at) {
        block_ = &b;
        index_ = i;
        return true;
      }
      switch (s->kind) {
        case ast::StmtKind::If: {
          const auto& x = static_cast<const ast::If&>(*s);
          if (find_block(x.body, at, within) || find_block(x.orelse, at, within)) return true;
          break;
        }
        case ast::StmtKind::While:
          if (find_block(static_cast<const ast::While&>(*s).body, at, within)) return true;
          break;
        case ast::StmtKind::For:
          if (find_block(static_cast<const ast::For&>(*s).body, at, within)) return true;
          break;
        default: break;
      }
    }
    return false;
  }

  // Whether statement `s` (nested blocks included) stores `id`.
  static bool stores(const ast::Stmt* s, const std::string& id) {
    std::map<std::string, std::vector<const ast::Expr*>> d;
    switch (s->kind) {
      case ast::StmtKind::Assign:
        for (const auto& tg : static_cast<const ast::Assign*>(s)->targets) collect_target(tg.get(), nullptr, d);
        break;
      case ast::StmtKind::AugAssign:
        collect_target(static_cast<const ast::AugAssign*>(s)->target.get(), nullptr, d);
        break;
      case ast::StmtKind::For: {
        const auto* f = static_cast<const ast::For*>(s);
        collect_target(f->target.get(), nullptr, d);
        collect_definitions(f->body, d);
        break;
      }
      case ast::StmtKind::While: collect_definitions(static_cast<const ast::While*>(s)->body, d); break;
      case ast::StmtKind::If: {
        const auto* x = static_cast<const ast::If*>(s);
        collect_definitions(x->body, d);
        collect_definitions(x->orelse, d);
        break;
      }
      default: break;
    }
    return d.count(id) > 0;
  }

  // The value of the last `id = value` before the decided statement in its
  // block: {true, value}; {true, null} when the last store there is another
  // kind; {false, null} when the block stores no `id` before it.
  std::pair<bool, const ast::Expr*> reaching(const std::string& id) {
    if (!block_) return {false, nullptr};
    for (size_t k = index_; k-- > 0;) {
      const ast::Stmt* s = (*block_)[k].get();
      if (!stores(s, id)) continue;
      if (s->kind == ast::StmtKind::Assign) {
        const auto* a = static_cast<const ast::Assign*>(s);
        if (a->targets.size() == 1 && a->targets[0]->kind == ast::ExprKind::Name) return {true, a->value.get()};
      }
      return {true, nullptr};
    }
    return {false, nullptr};
  }

  const ast::Expr* definition(const ast::Expr* e) {
    for (int depth = 0; depth < 32 && e && e->kind == ast::ExprKind::Name; ++depth) {
      const std::string& id = static_cast<const ast::Name*>(e)->id;
      if (depth == 0 && t_.is_local(id)) {
        auto r = reaching(id);
        if (r.first) {
          e = r.second;
          continue;
        }
      }
      if (argument(e) >= 0 || !t_.is_local(id)) return e;
      if (is_parameter(id)) return nullptr;  // reassigned: which definition reaches is not known here
      auto it = defs_.find(id);
      if (it == defs_.end() || it->second.size() != 1 || !it->second[0]) return nullptr;
      e = it->second[0];
    }
    return e;
  }

  // numba's find_const: a literal (after CPython's folding), a global
  // constant, or a local whose only definition is one of those.
  std::optional<Value> find_const(const ast::Expr* e) {
    const ast::Expr* d = definition(e);
    if (!d) return std::nullopt;
    if (d->kind == ast::ExprKind::Name) {
      const std::string& id = static_cast<const ast::Name*>(d)->id;
      if (t_.is_local(id)) return std::nullopt;  // an argument (ir.Arg)
      auto g = t_.captured().globals.find(id);
      if (g == t_.captured().globals.end() || g->second.kind != frontend::GlobalValue::Kind::Constant)
        return std::nullopt;
      return g->second.constant;
    }
    if (auto v = semantic_constant(d)) return v;
    return cpython_fold(d);
  }

  // numba's rewrite_semantic_constants, which runs before the pruning:
  // `a.ndim` of an array argument and `len(t)` of a tuple argument.
  std::optional<Value> semantic_constant(const ast::Expr* e) {
    const ast::Expr* of = nullptr;
    if (e->kind == ast::ExprKind::Attribute && static_cast<const ast::Attribute*>(e)->attr == "ndim") {
      of = static_cast<const ast::Attribute*>(e)->value.get();
    } else if (e->kind == ast::ExprKind::Call) {
      auto* c = static_cast<const ast::Call*>(e);
      if (c->func->kind != ast::ExprKind::Name || c->args.size() != 1 || !c->keywords.empty() || c->is_starred(0))
        return std::nullopt;
      const std::string& fn = static_cast<const ast::Name*>(c->func.get())->id;
      auto g = t_.captured().globals.find(fn);
      if (t_.is_local(fn) || g == t_.captured().globals.end() ||
          g->second.kind != frontend::GlobalValue::Kind::Intrinsic || g->second.key != "builtins.len")
        return std::nullopt;
      of = c->args[0].get();
    } else {
      return std::nullopt;
    }
    const ast::Expr* d = definition(of);
    int i = d ? argument(d) : -1;
    if (i < 0 || static_cast<size_t>(i) >= t_.out().arg_types.size()) return std::nullopt;
    const ir::Type* at = t_.out().arg_types[i];
    if (e->kind == ast::ExprKind::Attribute) {
      if (!at->is_array()) return std::nullopt;
      return Value::integer(at->ndim);
    }
    if (!at->is_tuple()) return std::nullopt;
    return Value::integer(static_cast<std::int64_t>(at->elements.size()));
  }

  // A literal expression as CPython's compiler folds it: constants, unary
  // and binary operators on them, tuples of them. Names are not folded.
  std::optional<Value> cpython_fold(const ast::Expr* e) {
    switch (e->kind) {
      case ast::ExprKind::Constant: return static_cast<const ast::Constant*>(e)->value;
      case ast::ExprKind::UnaryOp: {
        auto* u = static_cast<const ast::UnaryOp*>(e);
        auto v = cpython_fold(u->operand.get());
        if (!v) return std::nullopt;
        return fold_unary(u->op, *v);
      }
      case ast::ExprKind::BinOp: {
        auto* b = static_cast<const ast::BinOp*>(e);
        auto l = cpython_fold(b->left.get());
        if (!l) return std::nullopt;
        auto r = cpython_fold(b->right.get());
        if (!r) return std::nullopt;
        return fold_binop(b->op, *l, *r);
      }
      case ast::ExprKind::Tuple: {
        auto* tu = static_cast<const ast::Tuple*>(e);
        if (tu->is_list) return std::nullopt;
        std::vector<Value> items;
        for (const auto& x : tu->elts) {
          auto v = cpython_fold(x.get());
          if (!v) return std::nullopt;
          items.push_back(*v);
        }
        return Value::tuple(std::move(items));
      }
      default: return std::nullopt;
    }
  }

  Side side(const ast::Expr* e) {
    Side s;
    const ast::Expr* d = definition(e);
    if (d) {
      int i = argument(d);
      if (i >= 0) {
        const TypedFunction& f = t_.out();
        const ir::Type* at = static_cast<size_t>(i) < f.arg_types.size() ? f.arg_types[i] : nullptr;
        const auto* c =
            static_cast<size_t>(i) < f.arg_constants.size() && f.arg_constants[i] ? &*f.arg_constants[i] : nullptr;
        if ((at && at->kind == ir::TypeKind::NoneType) || (c && c->kind == K::None)) {
          s.what = Side::What::NoneArg;
        } else if (c) {
          s.what = Side::What::LiteralArg;  // numba compares its literal_type, never None
        }
        return s;
      }
    }
    if (auto v = find_const(e)) {
      s.what = Side::What::Value;
      s.value = *v;
    }
    return s;
  }

  // One comparison `a op b` of a condition.
  std::optional<bool> link(const ast::Expr* a, ast::CompareOpKind op, const ast::Expr* b) {
    Side l = side(a), r = side(b);
    if (l.what == Side::What::Unknown || r.what == Side::What::Unknown) return std::nullopt;
    using W = Side::What;
    if (l.what == W::Value && r.what == W::Value) return compare_values(l.value, op, r.value);
    // An argument on a side: numba decides on the types, and only with a
    // None-typed side (NoneType equals, and is, only itself).
    auto none_typed = [](const Side& s) {
      return s.what == W::NoneArg || (s.what == W::Value && s.value.kind == K::None);
    };
    if (!none_typed(l) && !none_typed(r)) return std::nullopt;
    bool same = none_typed(l) && none_typed(r);
    using C = ast::CompareOpKind;
    switch (op) {
      case C::Is:
      case C::Eq: return same;
      case C::IsNot:
      case C::NotEq: return !same;
      default: return std::nullopt;
    }
  }

  Typer& t_;
  std::map<std::string, std::vector<const ast::Expr*>> defs_;
  const ast::Body* block_ = nullptr;  // the block of the decided statement
  size_t index_ = 0;
};

}  // namespace

std::optional<bool> entry_condition(Typer& t, const ast::Expr* test, const ast::Stmt* at) {
  Pruner p(t, at);
  return p.condition(test);
}

namespace {

std::optional<bool> settle(Typer& t, const ast::Expr* test, std::optional<bool> r) {
  if (!r) return std::nullopt;
  t.set_typed(test, ir::boolean());
  t.info(test).constant = Value::boolean(*r);
  return r;
}

}  // namespace

std::optional<bool> pruned_condition(Typer& t, const ast::Expr* test, const ast::Stmt* at) {
  Pruner p(t, at, at ? nullptr : test);
  return settle(t, test, p.condition(test));
}

std::optional<bool> pruned_loop_condition(Typer& t, const ast::Expr* test) {
  Pruner p(t, nullptr);  // every iteration: no definition before the loop decides it
  return settle(t, test, p.condition(test));
}

bool leaves_block(const ast::Body& b, const std::function<std::optional<bool>(const ast::Expr*)>& truth) {
  // The first statement that leaves decides: what follows it is dead (and
  // may be untyped), so it is never looked at.
  for (const auto& s : b) {
    switch (s->kind) {
      case ast::StmtKind::Return:
      case ast::StmtKind::Raise:
      case ast::StmtKind::Break:
      case ast::StmtKind::Continue: return true;
      case ast::StmtKind::If: {
        const auto& i = static_cast<const ast::If&>(*s);
        if (auto live = truth(i.test.get())) {
          if (leaves_block(*live ? i.body : i.orelse, truth)) return true;
        } else if (leaves_block(i.body, truth) && leaves_block(i.orelse, truth)) {
          return true;
        }
        break;
      }
      default: break;
    }
  }
  return false;
}

std::optional<bool> pruned_operand(Typer& t, const ast::Expr* operand) {
  Pruner p(t, nullptr, operand);
  auto r = p.value_truth(operand);
  if (!r) return std::nullopt;
  // Lowering reads the operand's constant, so it must hold the operand's
  // value: one the typer folded, or the boolean of a comparison.
  ExprInfo& inf = t.info(operand);
  if (inf.constant) return constant_truth(inf.constant) == r ? r : std::nullopt;
  if (inf.type != ir::boolean()) return std::nullopt;
  inf.constant = Value::boolean(*r);
  return r;
}

}  // namespace cuhost::sema
