// Per-loop copies of loop variables (see loop_variables.h).
#include "frontend/loop_variables.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace cuhost::frontend {

namespace {

struct Usage {
  std::vector<ast::For*> loops;  // the loops whose target is the name, in source order
  bool disqualified = false;
};

class Survey {
 public:
  std::map<std::string, Usage> names;

  void body(ast::Body& b) {
    for (auto& s : b) stmt(*s);
  }

 private:
  std::map<std::string, int> bound_;  // names bound by the loops around the current statement

  void read(const ast::Expr* e) {
    if (!e) return;
    switch (e->kind) {
      case ast::ExprKind::Name: {
        const auto& id = static_cast<const ast::Name&>(*e).id;
        if (!bound_[id]) names[id].disqualified = true;  // read where no loop of it binds it
        return;
      }
      case ast::ExprKind::Constant: return;
      case ast::ExprKind::Attribute: read(static_cast<const ast::Attribute&>(*e).value.get()); return;
      case ast::ExprKind::Subscript: {
        const auto& x = static_cast<const ast::Subscript&>(*e);
        read(x.value.get());
        read(x.index.get());
        return;
      }
      case ast::ExprKind::Call: {
        const auto& x = static_cast<const ast::Call&>(*e);
        read(x.func.get());
        for (const auto& a : x.args) read(a.get());
        for (const auto& k : x.keywords) read(k.value.get());
        return;
      }
      case ast::ExprKind::BinOp: {
        const auto& x = static_cast<const ast::BinOp&>(*e);
        read(x.left.get());
        read(x.right.get());
        return;
      }
      case ast::ExprKind::UnaryOp: read(static_cast<const ast::UnaryOp&>(*e).operand.get()); return;
      case ast::ExprKind::BoolOp:
        for (const auto& v : static_cast<const ast::BoolOp&>(*e).values) read(v.get());
        return;
      case ast::ExprKind::Compare: {
        const auto& x = static_cast<const ast::Compare&>(*e);
        read(x.left.get());
        for (const auto& c : x.comparators) read(c.get());
        return;
      }
      case ast::ExprKind::IfExp: {
        const auto& x = static_cast<const ast::IfExp&>(*e);
        read(x.test.get());
        read(x.body.get());
        read(x.orelse.get());
        return;
      }
      case ast::ExprKind::Tuple:
        for (const auto& v : static_cast<const ast::Tuple&>(*e).elts) read(v.get());
        return;
      case ast::ExprKind::Slice: {
        const auto& x = static_cast<const ast::Slice&>(*e);
        read(x.lower.get());
        read(x.upper.get());
        read(x.step.get());
        return;
      }
    }
  }

  // An assignment target: names assigned outside a loop header keep one variable.
  void assigned(const ast::Expr* e) {
    if (e->kind == ast::ExprKind::Name) {
      names[static_cast<const ast::Name&>(*e).id].disqualified = true;
    } else if (e->kind == ast::ExprKind::Tuple) {
      for (const auto& v : static_cast<const ast::Tuple&>(*e).elts) assigned(v.get());
    } else {
      read(e);  // a[i] = v reads a and i
    }
  }

  void stmt(ast::Stmt& s) {
    switch (s.kind) {
      case ast::StmtKind::Assign: {
        auto& x = static_cast<ast::Assign&>(s);
        read(x.value.get());
        for (const auto& t : x.targets) assigned(t.get());
        return;
      }
      case ast::StmtKind::AugAssign: {
        auto& x = static_cast<ast::AugAssign&>(s);
        read(x.value.get());
        read(x.target.get());
        assigned(x.target.get());
        return;
      }
      case ast::StmtKind::If: {
        auto& x = static_cast<ast::If&>(s);
        read(x.test.get());
        body(x.body);
        body(x.orelse);
        return;
      }
      case ast::StmtKind::While: {
        auto& x = static_cast<ast::While&>(s);
        read(x.test.get());
        body(x.body);
        return;
      }
      case ast::StmtKind::For: {
        auto& x = static_cast<ast::For&>(s);
        read(x.iter.get());
        if (x.target->kind != ast::ExprKind::Name) {
          assigned(x.target.get());
          body(x.body);
          return;
        }
        const std::string id = static_cast<const ast::Name&>(*x.target).id;
        Usage& u = names[id];
        if (bound_[id]) u.disqualified = true;  // a loop of it inside another
        u.loops.push_back(&x);
        ++bound_[id];
        body(x.body);
        --bound_[id];
        return;
      }
      case ast::StmtKind::Return: read(static_cast<ast::Return&>(s).value.get()); return;
      case ast::StmtKind::ExprStmt: read(static_cast<ast::ExprStmt&>(s).value.get()); return;
      case ast::StmtKind::Raise: read(static_cast<ast::Raise&>(s).exc.get()); return;
      case ast::StmtKind::Break:
      case ast::StmtKind::Continue:
      case ast::StmtKind::Pass: return;
    }
  }
};

void rename(ast::Expr* e, const std::string& from, const std::string& to);

void rename_body(ast::Body& b, const std::string& from, const std::string& to) {
  for (auto& s : b) {
    switch (s->kind) {
      case ast::StmtKind::Assign: {
        auto& x = static_cast<ast::Assign&>(*s);
        rename(x.value.get(), from, to);
        for (auto& t : x.targets) rename(t.get(), from, to);
        break;
      }
      case ast::StmtKind::AugAssign: {
        auto& x = static_cast<ast::AugAssign&>(*s);
        rename(x.value.get(), from, to);
        rename(x.target.get(), from, to);
        break;
      }
      case ast::StmtKind::If: {
        auto& x = static_cast<ast::If&>(*s);
        rename(x.test.get(), from, to);
        rename_body(x.body, from, to);
        rename_body(x.orelse, from, to);
        break;
      }
      case ast::StmtKind::While: {
        auto& x = static_cast<ast::While&>(*s);
        rename(x.test.get(), from, to);
        rename_body(x.body, from, to);
        break;
      }
      case ast::StmtKind::For: {
        auto& x = static_cast<ast::For&>(*s);
        rename(x.iter.get(), from, to);
        rename(x.target.get(), from, to);
        rename_body(x.body, from, to);
        break;
      }
      case ast::StmtKind::Return: rename(static_cast<ast::Return&>(*s).value.get(), from, to); break;
      case ast::StmtKind::ExprStmt: rename(static_cast<ast::ExprStmt&>(*s).value.get(), from, to); break;
      case ast::StmtKind::Raise: rename(static_cast<ast::Raise&>(*s).exc.get(), from, to); break;
      default: break;
    }
  }
}

void rename(ast::Expr* e, const std::string& from, const std::string& to) {
  if (!e) return;
  switch (e->kind) {
    case ast::ExprKind::Name: {
      auto& n = static_cast<ast::Name&>(*e);
      if (n.id == from) n.id = to;
      return;
    }
    case ast::ExprKind::Constant: return;
    case ast::ExprKind::Attribute: rename(static_cast<ast::Attribute&>(*e).value.get(), from, to); return;
    case ast::ExprKind::Subscript: {
      auto& x = static_cast<ast::Subscript&>(*e);
      rename(x.value.get(), from, to);
      rename(x.index.get(), from, to);
      return;
    }
    case ast::ExprKind::Call: {
      auto& x = static_cast<ast::Call&>(*e);
      rename(x.func.get(), from, to);
      for (auto& a : x.args) rename(a.get(), from, to);
      for (auto& k : x.keywords) rename(k.value.get(), from, to);
      return;
    }
    case ast::ExprKind::BinOp: {
      auto& x = static_cast<ast::BinOp&>(*e);
      rename(x.left.get(), from, to);
      rename(x.right.get(), from, to);
      return;
    }
    case ast::ExprKind::UnaryOp: rename(static_cast<ast::UnaryOp&>(*e).operand.get(), from, to); return;
    case ast::ExprKind::BoolOp:
      for (auto& v : static_cast<ast::BoolOp&>(*e).values) rename(v.get(), from, to);
      return;
    case ast::ExprKind::Compare: {
      auto& x = static_cast<ast::Compare&>(*e);
      rename(x.left.get(), from, to);
      for (auto& c : x.comparators) rename(c.get(), from, to);
      return;
    }
    case ast::ExprKind::IfExp: {
      auto& x = static_cast<ast::IfExp&>(*e);
      rename(x.test.get(), from, to);
      rename(x.body.get(), from, to);
      rename(x.orelse.get(), from, to);
      return;
    }
    case ast::ExprKind::Tuple:
      for (auto& v : static_cast<ast::Tuple&>(*e).elts) rename(v.get(), from, to);
      return;
    case ast::ExprKind::Slice: {
      auto& x = static_cast<ast::Slice&>(*e);
      rename(x.lower.get(), from, to);
      rename(x.upper.get(), from, to);
      rename(x.step.get(), from, to);
      return;
    }
  }
}

void names_read_by_nested(const ConvertResult& r, std::set<std::string>& out) {
  for (const auto& n : r.nested) {
    out.insert(n->result.loaded.begin(), n->result.loaded.end());
    names_read_by_nested(n->result, out);
  }
}

}  // namespace

void split_loop_variables(ConvertResult& result) {
  Survey survey;
  survey.body(result.def->body);
  std::set<std::string> params, nested_reads;
  for (const auto& p : result.def->params) params.insert(p.name);
  names_read_by_nested(result, nested_reads);
  for (auto& [name, usage] : survey.names) {
    if (usage.disqualified || usage.loops.size() < 2 || params.count(name) || nested_reads.count(name)) continue;
    for (size_t k = 1; k < usage.loops.size(); ++k) {
      std::string fresh = name + "." + std::to_string(k);
      ast::For& loop = *usage.loops[k];
      rename(loop.target.get(), name, fresh);
      rename_body(loop.body, name, fresh);
      result.stored.insert(fresh);
    }
  }
}

}  // namespace cuhost::frontend
