// Deep copies of AST nodes (see ast_clone.h).
#include "frontend/ast_clone.h"

#include "support/diagnostics.h"

namespace cuhost::ast {

namespace {

ExprPtr clone_or_null(const ExprPtr& e, const CloneOptions& o) { return e ? clone(*e, o) : nullptr; }

template <class T>
std::unique_ptr<T> with_loc(const T& from) {
  auto out = std::make_unique<T>();
  out->loc = from.loc;
  return out;
}

StmtPtr clone_stmt(const Stmt& s, const CloneOptions& o) {
  switch (s.kind) {
    case StmtKind::Assign: {
      const auto& a = static_cast<const Assign&>(s);
      auto out = with_loc(a);
      for (const auto& t : a.targets) out->targets.push_back(clone(*t, o));
      out->value = clone(*a.value, o);
      return out;
    }
    case StmtKind::AugAssign: {
      const auto& a = static_cast<const AugAssign&>(s);
      auto out = with_loc(a);
      out->target = clone(*a.target, o);
      out->op = a.op;
      out->value = clone(*a.value, o);
      return out;
    }
    case StmtKind::If: {
      const auto& i = static_cast<const If&>(s);
      auto out = with_loc(i);
      out->test = clone(*i.test, o);
      out->body = clone(i.body, o);
      out->orelse = clone(i.orelse, o);
      return out;
    }
    case StmtKind::While: {
      const auto& w = static_cast<const While&>(s);
      auto out = with_loc(w);
      out->test = clone(*w.test, o);
      out->body = clone(w.body, o);
      return out;
    }
    case StmtKind::For: {
      const auto& f = static_cast<const For&>(s);
      auto out = with_loc(f);
      out->target = clone(*f.target, o);
      out->iter = clone(*f.iter, o);
      out->body = clone(f.body, o);
      return out;
    }
    case StmtKind::Break: return with_loc(static_cast<const Break&>(s));
    case StmtKind::Continue: return with_loc(static_cast<const Continue&>(s));
    case StmtKind::Pass: return with_loc(static_cast<const Pass&>(s));
    case StmtKind::Return: {
      const auto& r = static_cast<const Return&>(s);
      auto out = with_loc(r);
      out->value = clone_or_null(r.value, o);
      return out;
    }
    case StmtKind::ExprStmt: {
      const auto& e = static_cast<const ExprStmt&>(s);
      auto out = with_loc(e);
      out->value = clone(*e.value, o);
      return out;
    }
    case StmtKind::Raise: {
      const auto& r = static_cast<const Raise&>(s);
      auto out = with_loc(r);
      out->exc = clone_or_null(r.exc, o);
      return out;
    }
  }
  CUHOST_CHECK(false) << "clone of an unknown statement kind";
  return nullptr;
}

}  // namespace

ExprPtr clone(const Expr& e, const CloneOptions& o) {
  switch (e.kind) {
    case ExprKind::Name: {
      const auto& n = static_cast<const Name&>(e);
      auto out = with_loc(n);
      auto it = o.rename.find(n.id);
      out->id = it == o.rename.end() ? n.id : it->second;
      return out;
    }
    case ExprKind::Constant: {
      const auto& c = static_cast<const Constant&>(e);
      auto out = with_loc(c);
      out->value = c.value;
      return out;
    }
    case ExprKind::Attribute: {
      const auto& a = static_cast<const Attribute&>(e);
      auto out = with_loc(a);
      out->value = clone(*a.value, o);
      out->attr = a.attr;
      return out;
    }
    case ExprKind::Subscript: {
      const auto& s = static_cast<const Subscript&>(e);
      auto out = with_loc(s);
      out->value = clone(*s.value, o);
      out->index = clone(*s.index, o);
      return out;
    }
    case ExprKind::Call: {
      const auto& c = static_cast<const Call&>(e);
      auto out = with_loc(c);
      out->func = clone(*c.func, o);
      for (const auto& a : c.args) out->args.push_back(clone(*a, o));
      out->starred = c.starred;
      for (const auto& k : c.keywords) out->keywords.push_back(Keyword{k.name, clone(*k.value, o), k.loc});
      return out;
    }
    case ExprKind::BinOp: {
      const auto& b = static_cast<const BinOp&>(e);
      auto out = with_loc(b);
      out->op = b.op;
      out->left = clone(*b.left, o);
      out->right = clone(*b.right, o);
      return out;
    }
    case ExprKind::UnaryOp: {
      const auto& u = static_cast<const UnaryOp&>(e);
      auto out = with_loc(u);
      out->op = u.op;
      out->operand = clone(*u.operand, o);
      return out;
    }
    case ExprKind::BoolOp: {
      const auto& b = static_cast<const BoolOp&>(e);
      auto out = with_loc(b);
      out->op = b.op;
      for (const auto& v : b.values) out->values.push_back(clone(*v, o));
      return out;
    }
    case ExprKind::Compare: {
      const auto& c = static_cast<const Compare&>(e);
      auto out = with_loc(c);
      out->left = clone(*c.left, o);
      out->ops = c.ops;
      for (const auto& v : c.comparators) out->comparators.push_back(clone(*v, o));
      return out;
    }
    case ExprKind::IfExp: {
      const auto& i = static_cast<const IfExp&>(e);
      auto out = with_loc(i);
      out->test = clone(*i.test, o);
      out->body = clone(*i.body, o);
      out->orelse = clone(*i.orelse, o);
      return out;
    }
    case ExprKind::Tuple: {
      const auto& t = static_cast<const Tuple&>(e);
      auto out = with_loc(t);
      out->is_list = t.is_list;
      for (const auto& v : t.elts) out->elts.push_back(clone(*v, o));
      return out;
    }
    case ExprKind::Slice: {
      const auto& s = static_cast<const Slice&>(e);
      auto out = with_loc(s);
      out->lower = clone_or_null(s.lower, o);
      out->upper = clone_or_null(s.upper, o);
      out->step = clone_or_null(s.step, o);
      return out;
    }
  }
  CUHOST_CHECK(false) << "clone of an unknown expression kind";
  return nullptr;
}

Body clone(const Body& body, const CloneOptions& o) {
  Body out;
  for (const auto& s : body) {
    if (o.replace && o.replace(*s, out)) continue;
    out.push_back(clone_stmt(*s, o));
  }
  return out;
}

std::unique_ptr<FunctionDef> clone(const FunctionDef& def, const CloneOptions& o) {
  auto out = std::make_unique<FunctionDef>();
  out->name = def.name;
  out->params = def.params;
  out->loc = def.loc;
  out->body = clone(def.body, o);
  return out;
}

}  // namespace cuhost::ast
