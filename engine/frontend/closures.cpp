// Nested functions and their closure variables (see closures.h).
#include "frontend/closures.h"

#include <map>

namespace cuhost::frontend {

namespace {

// An enclosing function while its nested functions are captured.
struct Scope {
  const ast::FunctionDef* def;
  const std::set<std::string>* stored;                                   // its locals and parameters
  std::map<std::string, std::shared_ptr<model::JitFunction>> functions;  // its nested functions so far
  const CapturedFunction* captured;                                      // for its frozen globals
  const Scope* parent;
};

// Every assignment of `name` in `body`: the assigned expression of a plain
// `name = value` (null for any other kind: augmented, a loop variable, a
// tuple target).
void collect_assignments(const ast::Body& body, const std::string& name, std::vector<const ast::Expr*>& out) {
  auto target_names = [&](const ast::Expr* t, const ast::Expr* value, auto& self) -> void {
    if (t->kind == ast::ExprKind::Name) {
      if (static_cast<const ast::Name*>(t)->id == name) out.push_back(value);
    } else if (t->kind == ast::ExprKind::Tuple) {
      for (const auto& e : static_cast<const ast::Tuple*>(t)->elts) self(e.get(), nullptr, self);
    }
  };
  for (const auto& s : body) {
    switch (s->kind) {
      case ast::StmtKind::Assign: {
        const auto& a = static_cast<const ast::Assign&>(*s);
        for (const auto& t : a.targets) target_names(t.get(), a.value.get(), target_names);
        break;
      }
      case ast::StmtKind::AugAssign: {
        const auto& a = static_cast<const ast::AugAssign&>(*s);
        target_names(a.target.get(), nullptr, target_names);
        break;
      }
      case ast::StmtKind::For: {
        const auto& f = static_cast<const ast::For&>(*s);
        target_names(f.target.get(), nullptr, target_names);
        collect_assignments(f.body, name, out);
        break;
      }
      case ast::StmtKind::While: collect_assignments(static_cast<const ast::While&>(*s).body, name, out); break;
      case ast::StmtKind::If: {
        const auto& i = static_cast<const ast::If&>(*s);
        collect_assignments(i.body, name, out);
        collect_assignments(i.orelse, name, out);
        break;
      }
      default: break;
    }
  }
}

// The constant an expression spells: a literal, a signed literal, a tuple
// of those, or a global frozen as a constant.
std::optional<ir::ConstValue> constant_of(const ast::Expr* e, const CapturedFunction& scope) {
  if (!e) return std::nullopt;
  switch (e->kind) {
    case ast::ExprKind::Constant: return static_cast<const ast::Constant*>(e)->value;
    case ast::ExprKind::UnaryOp: {
      const auto& u = static_cast<const ast::UnaryOp&>(*e);
      auto v = constant_of(u.operand.get(), scope);
      if (!v || (u.op != ast::UnaryOpKind::USub && u.op != ast::UnaryOpKind::UAdd)) return std::nullopt;
      if (u.op == ast::UnaryOpKind::UAdd) return v;
      if (v->kind == ir::ConstValue::Kind::Int) return ir::ConstValue::integer(-v->i, v->type);
      if (v->kind == ir::ConstValue::Kind::Float) return ir::ConstValue::floating(-v->f, v->type);
      return std::nullopt;
    }
    case ast::ExprKind::Tuple: {
      std::vector<ir::ConstValue> items;
      for (const auto& el : static_cast<const ast::Tuple*>(e)->elts) {
        auto v = constant_of(el.get(), scope);
        if (!v) return std::nullopt;
        items.push_back(*v);
      }
      return ir::ConstValue::tuple(std::move(items));
    }
    case ast::ExprKind::Name: {
      auto it = scope.globals.find(static_cast<const ast::Name*>(e)->id);
      if (it != scope.globals.end() && it->second.kind == GlobalValue::Kind::Constant) return it->second.constant;
      return std::nullopt;
    }
    default: return std::nullopt;
  }
}

[[noreturn]] void capture_error(const CapturedFunction& where, const ast::SourceLoc& loc, const std::string& message) {
  throw UserError(ErrorKind::TypingError, message, where.where(loc), where.name);
}

// A variable of the enclosing function `s`, captured by value.
GlobalValue closure_variable(const Scope& s, const std::string& name, const ast::SourceLoc& def_loc) {
  for (const auto& p : s.def->params)
    if (p.name == name)
      capture_error(*s.captured, def_loc,
                    concat("Cannot capture the non-constant value associated with variable '", name,
                           "' in a function that may escape."));
  std::vector<const ast::Expr*> assigned;
  collect_assignments(s.def->body, name, assigned);
  if (assigned.size() != 1)
    capture_error(
        *s.captured, def_loc,
        concat("Cannot capture a constant value for variable '", name, "' as there are multiple definitions present."));
  std::optional<ir::ConstValue> value = constant_of(assigned[0], *s.captured);
  if (!value)
    capture_error(*s.captured, def_loc,
                  concat("Cannot capture the non-constant value associated with variable '", name,
                         "' in a function that may escape."));
  GlobalValue g;
  g.kind = GlobalValue::Kind::Constant;
  g.constant = *value;
  g.repr = value->repr();
  return g;
}

// The source lines of a nested definition, for the cache key and error displays.
std::string source_lines(const CapturedFunction& outer, const ast::SourceLoc& loc, const ast::FunctionDef& def) {
  int last = loc.line;
  for (const auto& s : def.body) last = std::max(last, s->loc.end_line);
  std::string out;
  for (int l = loc.line; l >= 1 && l <= last && size_t(l) <= outer.file_lines.size(); ++l)
    out += outer.file_lines[size_t(l - 1)];
  return out;
}

void capture_in_scope(Scope& scope, CapturedFunction& outer, ConvertResult& converted,
                      const GlobalResolver& resolve_global) {
  for (auto& n : converted.nested) {
    if (scope.functions.count(n->name))
      throw UserError(ErrorKind::UnsupportedError,
                      concat("function '", n->name, "' is defined more than once in '", outer.name, "'"),
                      outer.where(n->loc), outer.name);
    auto captured = std::make_shared<CapturedFunction>();
    captured->name = n->name;
    captured->qualname = outer.qualname + ".<locals>." + n->name;
    captured->filename = outer.filename;
    captured->file_lines = outer.file_lines;
    captured->first_line = n->loc.line;
    captured->source = source_lines(outer, n->loc, *n->result.def);
    captured->def = std::move(n->result.def);
    for (const std::string& name : n->result.loaded) {
      if (n->result.stored.count(name)) continue;
      std::optional<GlobalValue> value;
      for (const Scope* s = &scope; s && !value; s = s->parent) {
        auto f = s->functions.find(name);
        if (f != s->functions.end()) {
          GlobalValue g;
          g.kind = GlobalValue::Kind::JitFunction;
          g.function = f->second;
          value = g;
        } else if (s->stored->count(name)) {
          value = closure_variable(*s, name, n->loc);
        }
      }
      if (!value) value = resolve_global(name);
      if (value) captured->globals.emplace(name, std::move(*value));
    }
    Scope inner{captured->def.get(), &n->result.stored, {}, captured.get(), &scope};
    capture_in_scope(inner, *captured, n->result, resolve_global);
    auto fn = std::make_shared<model::JitFunction>();
    fn->name = n->name;
    fn->options.device = true;
    fn->captured = captured;
    scope.functions[n->name] = fn;
    GlobalValue g;
    g.kind = GlobalValue::Kind::JitFunction;
    g.function = fn;
    g.repr = concat("<function ", captured->qualname, ">");
    outer.globals[n->name] = std::move(g);
  }
}

}  // namespace

void capture_nested_functions(CapturedFunction& outer, ConvertResult& converted, const GlobalResolver& resolve_global) {
  if (converted.nested.empty()) return;
  Scope scope{outer.def.get(), &converted.stored, {}, &outer, nullptr};
  capture_in_scope(scope, outer, converted, resolve_global);
}

}  // namespace cuhost::frontend
