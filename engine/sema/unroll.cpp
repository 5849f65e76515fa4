// literal_unroll by AST rewriting (see unroll.h).
#include "sema/unroll.h"

#include <set>

#include "frontend/ast_clone.h"

namespace cuhost::sema {

namespace {

void collect_names(const ast::Expr& target, std::set<std::string>& out) {
  if (target.kind == ast::ExprKind::Name) {
    out.insert(static_cast<const ast::Name&>(target).id);
  } else if (target.kind == ast::ExprKind::Tuple) {
    for (const auto& e : static_cast<const ast::Tuple&>(target).elts) collect_names(*e, out);
  }
}

ast::ExprPtr name(const std::string& id, const ast::SourceLoc& loc) {
  auto n = std::make_unique<ast::Name>();
  n->loc = loc;
  n->id = id;
  return n;
}

ast::ExprPtr constant(ir::ConstValue v, const ast::SourceLoc& loc) {
  auto c = std::make_unique<ast::Constant>();
  c->loc = loc;
  c->value = std::move(v);
  return c;
}

ast::StmtPtr assign(ast::ExprPtr target, ast::ExprPtr value, const ast::SourceLoc& loc) {
  auto a = std::make_unique<ast::Assign>();
  a->loc = loc;
  a->targets.push_back(std::move(target));
  a->value = std::move(value);
  return a;
}

// Replaces the breaks of this loop level (not those of nested loops) by
// `flag = True; break`; returns whether there was one.
bool rewrite_breaks(ast::Body& body, const std::string& flag) {
  bool found = false;
  for (size_t i = 0; i < body.size(); ++i) {
    ast::Stmt& s = *body[i];
    if (s.kind == ast::StmtKind::If) {
      auto& f = static_cast<ast::If&>(s);
      found = rewrite_breaks(f.body, flag) || found;
      found = rewrite_breaks(f.orelse, flag) || found;
    } else if (s.kind == ast::StmtKind::Break) {
      body.insert(body.begin() + static_cast<std::ptrdiff_t>(i),
                  assign(name(flag, s.loc), constant(ir::ConstValue::boolean(true), s.loc), s.loc));
      ++i;
      found = true;
    }
  }
  return found;
}

}  // namespace

std::shared_ptr<const frontend::CapturedFunction> unroll_loop(const frontend::CapturedFunction& f,
                                                              const UnrollRequest& request) {
  int serial = 0;
  while (f.globals.count(concat("$unroll", serial, ".range"))) ++serial;
  const std::string base = concat("$unroll", serial);
  const std::string range_name = base + ".range";
  const std::string flag = base + ".break";
  const ast::For& loop = *request.loop;

  std::set<std::string> targets;
  collect_names(*loop.target, targets);

  ast::CloneOptions outer;
  outer.replace = [&](const ast::Stmt& s, ast::Body& out) {
    if (&s != &loop) return false;
    const ast::SourceLoc& loc = loop.loc;
    ast::CloneOptions plain;
    out.push_back(assign(name(base, loc), ast::clone(*loop.iter, plain), loc));
    bool has_break = false;
    std::vector<ast::StmtPtr> copies;
    for (std::size_t k = 0; k < request.count; ++k) {
      ast::CloneOptions version;
      for (const auto& t : targets) version.rename[t] = concat(t, ".", k);
      // The body may itself hold loops to unroll: they are found when the
      // copy is typed, and unrolled by a later request.
      ast::Body body;
      auto sub = std::make_unique<ast::Subscript>();
      sub->loc = loop.target->loc;
      sub->value = name(base, loc);
      sub->index = constant(ir::ConstValue::integer(static_cast<std::int64_t>(k)), loc);
      body.push_back(assign(ast::clone(*loop.target, version), std::move(sub), loop.target->loc));
      for (auto& st : ast::clone(loop.body, version)) body.push_back(std::move(st));
      has_break = rewrite_breaks(body, flag) || has_break;
      auto once = std::make_unique<ast::For>();
      once->loc = loc;
      once->target = name(base + ".once", loc);
      auto call = std::make_unique<ast::Call>();
      call->loc = loc;
      call->func = name(range_name, loc);
      call->args.push_back(constant(ir::ConstValue::integer(1), loc));
      once->iter = std::move(call);
      once->body = std::move(body);
      copies.push_back(std::move(once));
    }
    if (has_break) out.push_back(assign(name(flag, loc), constant(ir::ConstValue::boolean(false), loc), loc));
    for (std::size_t k = 0; k < copies.size(); ++k) {
      if (k == 0 || !has_break) {
        out.push_back(std::move(copies[k]));
        continue;
      }
      auto guard = std::make_unique<ast::If>();
      guard->loc = loop.loc;
      auto test = std::make_unique<ast::UnaryOp>();
      test->loc = loop.loc;
      test->op = ast::UnaryOpKind::Not;
      test->operand = name(flag, loop.loc);
      guard->test = std::move(test);
      guard->body.push_back(std::move(copies[k]));
      out.push_back(std::move(guard));
    }
    return true;
  };

  auto out = frontend::with_definition(f, ast::clone(*f.def, outer));
  frontend::GlobalValue range;
  range.kind = frontend::GlobalValue::Kind::Intrinsic;
  range.key = "builtins.range";
  range.repr = "<class 'range'>";
  out->globals[range_name] = range;
  return out;
}

}  // namespace cuhost::sema
