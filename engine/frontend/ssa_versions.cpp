// Versions of variables, as numba's SSA reconstruction makes them (see
// ssa_versions.h). One forward walk over the structured AST carries, for
// each variable assigned more than once, the version that reaches the
// current point; joins (after an `if`, a loop's head, a loop's exit) get a
// fresh version assigned on every incoming path; a last step drops the join
// copies no read needs.
#include "frontend/ssa_versions.h"

#include <map>
#include <optional>
#include <set>
#include <vector>

#include "frontend/ast_clone.h"
#include "frontend/loop_jumps.h"
#include "support/diagnostics.h"

namespace cuhost::frontend {

namespace {

// Each versioned variable -> the version that reaches this point ("" when
// none does: the variable is not assigned on any path here).
using State = std::map<std::string, std::string>;

// A point where copies go: in front of `before` in `body`, or at its end.
struct Site {
  ast::Body* body;
  const ast::Stmt* before;
  State state;
};

struct LoopFrame {
  std::vector<Site> back_edges;  // the end of the body and each `continue`
  std::vector<Site> breaks;
};

void count_target(const ast::Expr* target, std::map<std::string, int>& out) {
  if (!target) return;
  if (target->kind == ast::ExprKind::Name) {
    ++out[static_cast<const ast::Name*>(target)->id];
  } else if (target->kind == ast::ExprKind::Tuple) {
    for (const auto& e : static_cast<const ast::Tuple*>(target)->elts) count_target(e.get(), out);
  }
}

void names_assigned(const ast::Body& body, std::map<std::string, int>& out) {
  for (const auto& s : body) {
    switch (s->kind) {
      case ast::StmtKind::Assign:
        for (const auto& t : static_cast<const ast::Assign&>(*s).targets) count_target(t.get(), out);
        break;
      case ast::StmtKind::AugAssign: count_target(static_cast<const ast::AugAssign&>(*s).target.get(), out); break;
      case ast::StmtKind::For: {
        const auto& f = static_cast<const ast::For&>(*s);
        count_target(f.target.get(), out);
        names_assigned(f.body, out);
        break;
      }
      case ast::StmtKind::While: names_assigned(static_cast<const ast::While&>(*s).body, out); break;
      case ast::StmtKind::If: {
        const auto& i = static_cast<const ast::If&>(*s);
        names_assigned(i.body, out);
        names_assigned(i.orelse, out);
        break;
      }
      default: break;
    }
  }
}

// Calls `f` on every sub-expression slot of `e` (not `e` itself).
template <class F>
void for_each_child(ast::Expr& e, F&& f) {
  switch (e.kind) {
    case ast::ExprKind::Name:
    case ast::ExprKind::Constant: return;
    case ast::ExprKind::Attribute: f(static_cast<ast::Attribute&>(e).value); return;
    case ast::ExprKind::Subscript: {
      auto& s = static_cast<ast::Subscript&>(e);
      f(s.value);
      f(s.index);
      return;
    }
    case ast::ExprKind::Call: {
      auto& c = static_cast<ast::Call&>(e);
      f(c.func);
      for (auto& a : c.args) f(a);
      for (auto& k : c.keywords) f(k.value);
      return;
    }
    case ast::ExprKind::BinOp: {
      auto& b = static_cast<ast::BinOp&>(e);
      f(b.left);
      f(b.right);
      return;
    }
    case ast::ExprKind::UnaryOp: f(static_cast<ast::UnaryOp&>(e).operand); return;
    case ast::ExprKind::BoolOp:
      for (auto& v : static_cast<ast::BoolOp&>(e).values) f(v);
      return;
    case ast::ExprKind::Compare: {
      auto& c = static_cast<ast::Compare&>(e);
      f(c.left);
      for (auto& v : c.comparators) f(v);
      return;
    }
    case ast::ExprKind::IfExp: {
      auto& i = static_cast<ast::IfExp&>(e);
      f(i.test);
      f(i.body);
      f(i.orelse);
      return;
    }
    case ast::ExprKind::Tuple:
      for (auto& v : static_cast<ast::Tuple&>(e).elts) f(v);
      return;
    case ast::ExprKind::Slice: {
      auto& s = static_cast<ast::Slice&>(e);
      f(s.lower);
      f(s.upper);
      f(s.step);
      return;
    }
  }
}

// Every Name `e` reads (a target's subscript and attribute bases included,
// the names it assigns not).
void reads_of(ast::Expr* e, std::set<std::string>& out) {
  if (!e) return;
  if (e->kind == ast::ExprKind::Name) {
    out.insert(static_cast<ast::Name*>(e)->id);
    return;
  }
  for_each_child(*e, [&](ast::ExprPtr& c) { reads_of(c.get(), out); });
}

void target_reads(ast::Expr* t, std::set<std::string>& out) {
  if (t->kind == ast::ExprKind::Name) return;
  if (t->kind == ast::ExprKind::Tuple) {
    for (auto& e : static_cast<ast::Tuple*>(t)->elts) target_reads(e.get(), out);
    return;
  }
  reads_of(t, out);
}

ast::ExprPtr make_name(const std::string& id, const ast::SourceLoc& loc) {
  auto n = std::make_unique<ast::Name>();
  n->loc = loc;
  n->id = id;
  return n;
}

bool is_constant_true(const ast::Expr& test) {
  if (test.kind != ast::ExprKind::Constant) return false;
  const auto& c = static_cast<const ast::Constant&>(test).value;
  return (c.kind == ir::ConstValue::Kind::Bool && c.b) || (c.kind == ir::ConstValue::Kind::Int && c.i != 0);
}

class Versioner {
 public:
  Versioner(ast::FunctionDef& def, std::set<std::string> versioned) : def_(def), versioned_(std::move(versioned)) {}

  void run() {
    single_constants_ = single_definition_constants(def_);
    collect_taken(def_.body);
    State state;
    for (const auto& v : versioned_) state[v] = "";
    for (const auto& p : def_.params) {
      taken_.insert(p.name);
      def_loc_[p.name] = p.loc;
      if (!versioned_.count(p.name)) continue;
      state[p.name] = p.name;
      plain_taken_.insert(p.name);
    }
    walk(def_.body, state);
    prune();
  }

 private:
  ast::FunctionDef& def_;
  std::set<std::string> versioned_;
  std::set<std::string> taken_;        // every name of the function, so fresh ones clash with none
  std::set<std::string> plain_taken_;  // variables whose first assignment kept the plain name
  std::map<std::string, int> next_;
  std::map<std::string, ast::SourceLoc> def_loc_;   // version -> where it is assigned
  std::map<std::string, ir::ConstValue> constant_;  // version -> the literal it was assigned, if one
  SingleConstants single_constants_;                // what numba's pruning before SSA reads as constants
  std::vector<LoopFrame> loops_;
  std::set<const ast::Stmt*> copy_statements_;                   // the join copies this pass placed
  std::vector<std::pair<std::string, std::string>> copy_edges_;  // (target, source) of each

  void collect_taken(ast::Body& body) {
    std::map<std::string, int> assigned;
    names_assigned(body, assigned);
    for (const auto& a : assigned) taken_.insert(a.first);
    visit_statements(body, [&](ast::Stmt& s) {
      std::set<std::string> r;
      statement_reads(s, r);
      taken_.insert(r.begin(), r.end());
    });
  }

  std::string fresh(const std::string& v) {
    for (;;) {
      std::string id = concat(v, ".", ++next_[v]);
      if (taken_.insert(id).second) return id;
    }
  }

  // The version a new assignment of `v` at `loc` creates.
  std::string define(const std::string& v, const ast::SourceLoc& loc) {
    std::string id = plain_taken_.insert(v).second ? v : fresh(v);
    def_loc_[id] = loc;
    return id;
  }

  void read(ast::ExprPtr& e, const State& s) {
    if (!e) return;
    if (e->kind == ast::ExprKind::Name) {
      auto& n = static_cast<ast::Name&>(*e);
      auto it = s.find(n.id);
      if (it != s.end() && !it->second.empty()) n.id = it->second;
      return;
    }
    for_each_child(*e, [&](ast::ExprPtr& c) { read(c, s); });
  }

  void assign_target(ast::ExprPtr& t, State& s) {
    if (t->kind == ast::ExprKind::Name) {
      auto& n = static_cast<ast::Name&>(*t);
      if (!versioned_.count(n.id)) return;
      const std::string v = n.id;
      n.id = define(v, t->loc);
      s[v] = n.id;
      return;
    }
    if (t->kind == ast::ExprKind::Tuple) {
      for (auto& e : static_cast<ast::Tuple&>(*t).elts) assign_target(e, s);
      return;
    }
    read(t, s);  // a[i] = v, r.x = v: the base and index are reads
  }

  // `target = source`, a join's copy on one incoming path. It stands where
  // the versions meet (the `if` or loop: an error unifying them points
  // there); its value where the source version was assigned.
  ast::StmtPtr copy_statement(const std::string& target, const std::string& source) {
    const ast::SourceLoc& join = def_loc_[target];
    auto a = std::make_unique<ast::Assign>();
    a->loc = join;
    a->targets.push_back(make_name(target, join));
    a->value = make_name(source, def_loc_[source]);
    return a;
  }

  void place_copy(ast::Body* body, const ast::Stmt* before, const std::string& target, const std::string& source) {
    ast::StmtPtr c = copy_here(target, source);
    auto at = body->end();
    if (before) {
      for (auto it = body->begin(); it != body->end(); ++it)
        if (it->get() == before) at = it;
    }
    body->insert(at, std::move(c));
  }

  // Walks `body` with `s` the versions at its start; leaves `s` the versions
  // at its end. False when no path falls off the end.
  bool walk(ast::Body& body, State& s) {
    ast::Body old = std::move(body);
    body.clear();
    bool falls = true;
    for (auto& st : old) falls = statement(std::move(st), body, s) && falls;
    return falls;
  }

  bool statement(ast::StmtPtr sp, ast::Body& out, State& s) {
    ast::Stmt& st = *sp;
    switch (st.kind) {
      case ast::StmtKind::Assign: {
        auto& a = static_cast<ast::Assign&>(st);
        read(a.value, s);
        for (auto& t : a.targets) {
          assign_target(t, s);
          if (t->kind == ast::ExprKind::Name && a.value->kind == ast::ExprKind::Constant)
            constant_[static_cast<ast::Name&>(*t).id] = static_cast<ast::Constant&>(*a.value).value;
        }
        out.push_back(std::move(sp));
        return true;
      }
      case ast::StmtKind::AugAssign: {
        auto& a = static_cast<ast::AugAssign&>(st);
        read(a.value, s);
        if (a.target->kind == ast::ExprKind::Name && versioned_.count(static_cast<ast::Name&>(*a.target).id)) {
          // x += v on a versioned x: the new version is the operation on the old one.
          const std::string v = static_cast<ast::Name&>(*a.target).id;
          auto op = std::make_unique<ast::BinOp>();
          op->loc = a.loc;
          op->op = a.op;
          op->left = std::move(a.target);
          read(op->left, s);
          op->right = std::move(a.value);
          auto as = std::make_unique<ast::Assign>();
          as->loc = a.loc;
          const std::string id = define(v, op->left->loc);
          s[v] = id;
          as->targets.push_back(make_name(id, op->left->loc));
          as->value = std::move(op);
          out.push_back(std::move(as));
          return true;
        }
        read(a.target, s);
        out.push_back(std::move(sp));
        return true;
      }
      case ast::StmtKind::If: {
        auto& i = static_cast<ast::If&>(st);
        read(i.test, s);
        State then_state = s, else_state = s;
        bool then_falls = walk(i.body, then_state);
        bool else_falls = walk(i.orelse, else_state);
        if (then_falls && else_falls) {
          for (const auto& v : versioned_) {
            const std::string &a = then_state[v], &b = else_state[v];
            if (a == b) {
              s[v] = a;
              continue;
            }
            const std::string j = fresh(v);
            def_loc_[j] = i.loc;
            if (!a.empty()) place_copy(&i.body, nullptr, j, a);
            if (!b.empty()) place_copy(&i.orelse, nullptr, j, b);
            s[v] = j;
          }
        } else if (then_falls) {
          s = then_state;
        } else if (else_falls) {
          s = else_state;
        }
        out.push_back(std::move(sp));
        return then_falls || else_falls;
      }
      case ast::StmtKind::While: {
        auto& w = static_cast<ast::While&>(st);
        // A live `continue` jumps back to the test in front of the loop
        // (CPython's loop inversion), which then reads a join numba cannot
        // prune on; with two or more live ways out (a break and the test at
        // the end), numba's pruning keeps the entry's version in the exit's
        // join (loop_jumps.h).
        const LoopJumps jumps = loop_jumps(w.body, single_constants_);
        const bool enters = jumps.continues == 0 && entered_for_sure(*w.test, s);
        const bool keeps_entry = enters && jumps.breaks + (jumps.falls_through ? 1 : 0) >= 2;
        return loop(std::move(sp), out, s, nullptr, w.test, w.body, !is_constant_true(*w.test), enters, keeps_entry);
      }
      case ast::StmtKind::For: {
        auto& f = static_cast<ast::For&>(st);
        read(f.iter, s);  // evaluated once, before the loop
        return loop(std::move(sp), out, s, &f.target, f.iter, f.body, true, false, false);
      }
      case ast::StmtKind::Break:
        if (!loops_.empty()) loops_.back().breaks.push_back(Site{&out, sp.get(), s});
        out.push_back(std::move(sp));
        return false;
      case ast::StmtKind::Continue:
        if (!loops_.empty()) loops_.back().back_edges.push_back(Site{&out, sp.get(), s});
        out.push_back(std::move(sp));
        return false;
      case ast::StmtKind::Return: read(static_cast<ast::Return&>(st).value, s); break;
      case ast::StmtKind::Raise: read(static_cast<ast::Raise&>(st).exc, s); break;
      case ast::StmtKind::ExprStmt:
        read(static_cast<ast::ExprStmt&>(st).value, s);
        out.push_back(std::move(sp));
        return true;
      case ast::StmtKind::Pass: out.push_back(std::move(sp)); return true;
    }
    out.push_back(std::move(sp));
    return false;  // return, raise
  }

  // Whether a `while` test is true on entry, decided as numba prunes it: a
  // comparison of literals and of versions assigned a literal (`w = 0;
  // while w < 4:`). CPython tests a while loop's condition once before the
  // loop and again at the end of each iteration (its loop inversion), so
  // numba, pruning the first test, leaves such a loop only from the test at
  // the end of an iteration: the versions it leaves with are the body's,
  // never the one from before the loop.
  bool entered_for_sure(const ast::Expr& test, const State& s) const {
    if (test.kind != ast::ExprKind::Compare) return false;
    const auto& c = static_cast<const ast::Compare&>(test);
    if (c.ops.size() != 1) return false;
    auto number = [&](const ast::Expr& e) -> std::optional<double> {
      const ir::ConstValue* v = nullptr;
      if (e.kind == ast::ExprKind::Constant) v = &static_cast<const ast::Constant&>(e).value;
      if (e.kind == ast::ExprKind::Name) {  // the version reaching the loop
        const std::string& id = static_cast<const ast::Name&>(e).id;
        auto reaching = s.find(id);
        auto it = constant_.find(reaching != s.end() && !reaching->second.empty() ? reaching->second : id);
        if (it != constant_.end()) v = &it->second;
      }
      if (!v) return std::nullopt;
      switch (v->kind) {
        case ir::ConstValue::Kind::Bool: return v->b ? 1.0 : 0.0;
        case ir::ConstValue::Kind::Int: return double(v->i);
        case ir::ConstValue::Kind::Float: return v->f;
        default: return std::nullopt;
      }
    };
    auto l = number(*c.left), r = number(*c.comparators[0]);
    if (!l || !r) return false;
    switch (c.ops[0]) {
      case ast::CompareOpKind::Lt: return *l < *r;
      case ast::CompareOpKind::LtE: return *l <= *r;
      case ast::CompareOpKind::Gt: return *l > *r;
      case ast::CompareOpKind::GtE: return *l >= *r;
      case ast::CompareOpKind::Eq: return *l == *r;
      case ast::CompareOpKind::NotEq: return *l != *r;
      default: return false;
    }
  }

  // A while loop (target null: `test` is read at the head) or a for loop
  // (`target` assigned at the head of each iteration; `test` is the
  // iterable, already read). `exits_at_head`: the head may leave the loop;
  // `enters`: a while loop's test is true on entry (entered_for_sure), so it
  // leaves only from the test at the end of an iteration; `keeps_entry`:
  // such a loop leaves on two or more paths, and numba's dead_branch_prune
  // then drops from the exit's phi only the values of dead blocks, so the
  // value from before the loop (a live block whose edge to the exit is
  // gone) stays in it: the exit version's type unifies it, though the value
  // is always one an iteration assigned.
  bool loop(ast::StmtPtr sp, ast::Body& out, State& s, ast::ExprPtr* target, ast::ExprPtr& test, ast::Body& body,
            bool exits_at_head, bool enters, bool keeps_entry) {
    const ast::SourceLoc loc = sp->loc;
    const State before = s;
    std::map<std::string, int> assigned;
    names_assigned(body, assigned);
    if (target) count_target(target->get(), assigned);
    std::map<std::string, std::string> head;  // variable -> its version at the loop's head
    State at_head = s;
    for (const auto& a : assigned) {
      if (!versioned_.count(a.first)) continue;
      const std::string h = fresh(a.first);
      def_loc_[h] = loc;
      head[a.first] = h;
      at_head[a.first] = h;
    }
    if (!target) read(test, at_head);
    State in_body = at_head;
    if (target) assign_target(*target, in_body);
    loops_.emplace_back();
    if (walk(body, in_body)) loops_.back().back_edges.push_back(Site{&body, nullptr, in_body});
    LoopFrame frame = std::move(loops_.back());
    loops_.pop_back();

    for (const auto& [v, h] : head) {
      // The head's version is assigned before the loop and on each back edge.
      bool head_assigned = !before.at(v).empty();
      if (head_assigned) out.push_back(copy_here(h, before.at(v)));
      for (const Site& e : frame.back_edges) {
        const std::string& cur = e.state.at(v);
        if (cur.empty() || cur == h) continue;
        place_copy(e.body, e.before, h, cur);
        head_assigned = true;
      }
      // The versions the loop leaves with: the head's where it may leave
      // there (or, a loop entered for sure, each iteration's end: the test
      // CPython repeats there), each break's. Where they differ, an exit
      // version of its own, assigned on each of those paths.
      const bool from_entry = exits_at_head && !enters;
      const bool from_bottom = exits_at_head && enters;
      auto at_end = [&](const Site& e) {
        const std::string& cur = e.state.at(v);
        return cur.empty() ? h : cur;
      };
      std::set<std::string> leaving;
      if (from_entry && head_assigned) leaving.insert(h);
      const bool entry_kept = keeps_entry && !before.at(v).empty();
      if (entry_kept) leaving.insert(before.at(v));
      if (from_bottom)
        for (const Site& e : frame.back_edges) leaving.insert(at_end(e));
      for (const Site& b : frame.breaks)
        if (!b.state.at(v).empty()) leaving.insert(b.state.at(v));
      if (leaving.size() <= 1) {
        s[v] = leaving.empty() ? std::string() : *leaving.begin();
        continue;
      }
      const std::string x = fresh(v);
      def_loc_[x] = loc;
      if (from_entry) {
        if (!before.at(v).empty()) out.push_back(copy_here(x, h));
        for (const Site& e : frame.back_edges) place_copy(e.body, e.before, x, h);
      }
      if (entry_kept) out.push_back(copy_here(x, before.at(v)));
      if (from_bottom)
        for (const Site& e : frame.back_edges) place_copy(e.body, e.before, x, at_end(e));
      for (const Site& b : frame.breaks)
        if (!b.state.at(v).empty()) place_copy(b.body, b.before, x, b.state.at(v));
      s[v] = x;
    }
    out.push_back(std::move(sp));
    return exits_at_head || !frame.breaks.empty();  // `while True` without a break never falls through
  }

  // A copy placed at the current end of the body being built.
  ast::StmtPtr copy_here(const std::string& target, const std::string& source) {
    ast::StmtPtr c = copy_statement(target, source);
    copy_statements_.insert(c.get());
    copy_edges_.emplace_back(target, source);
    return c;
  }

  // Drops the copies into versions nothing reads (numba places a phi node
  // only where a read needs one): a copy is needed when its target is read
  // by the function's own statements or by a needed copy.
  void prune() {
    std::set<std::string> needed;
    visit_statements(def_.body, [&](ast::Stmt& s) {
      if (!copy_statements_.count(&s)) statement_reads(s, needed);
    });
    for (bool changed = true; changed;) {
      changed = false;
      for (const auto& [target, source] : copy_edges_)
        if (needed.count(target) && needed.insert(source).second) changed = true;
    }
    erase_unneeded(def_.body, needed);
  }

  void erase_unneeded(ast::Body& body, const std::set<std::string>& needed) {
    ast::Body kept;
    for (auto& s : body) {
      if (copy_statements_.count(s.get())) {
        const auto& a = static_cast<const ast::Assign&>(*s);
        if (!needed.count(static_cast<const ast::Name&>(*a.targets[0]).id)) continue;
      }
      switch (s->kind) {
        case ast::StmtKind::If:
          erase_unneeded(static_cast<ast::If&>(*s).body, needed);
          erase_unneeded(static_cast<ast::If&>(*s).orelse, needed);
          break;
        case ast::StmtKind::While: erase_unneeded(static_cast<ast::While&>(*s).body, needed); break;
        case ast::StmtKind::For: erase_unneeded(static_cast<ast::For&>(*s).body, needed); break;
        default: break;
      }
      kept.push_back(std::move(s));
    }
    body = std::move(kept);
  }

  template <class F>
  void visit_statements(ast::Body& body, F&& f) {
    for (auto& s : body) {
      f(*s);
      switch (s->kind) {
        case ast::StmtKind::If:
          visit_statements(static_cast<ast::If&>(*s).body, f);
          visit_statements(static_cast<ast::If&>(*s).orelse, f);
          break;
        case ast::StmtKind::While: visit_statements(static_cast<ast::While&>(*s).body, f); break;
        case ast::StmtKind::For: visit_statements(static_cast<ast::For&>(*s).body, f); break;
        default: break;
      }
    }
  }

  // The names a statement reads itself (not those of nested statements).
  static void statement_reads(ast::Stmt& s, std::set<std::string>& out) {
    switch (s.kind) {
      case ast::StmtKind::Assign: {
        auto& a = static_cast<ast::Assign&>(s);
        reads_of(a.value.get(), out);
        for (auto& t : a.targets) target_reads(t.get(), out);
        return;
      }
      case ast::StmtKind::AugAssign: {
        auto& a = static_cast<ast::AugAssign&>(s);
        reads_of(a.value.get(), out);
        reads_of(a.target.get(), out);
        return;
      }
      case ast::StmtKind::If: reads_of(static_cast<ast::If&>(s).test.get(), out); return;
      case ast::StmtKind::While: reads_of(static_cast<ast::While&>(s).test.get(), out); return;
      case ast::StmtKind::For: reads_of(static_cast<ast::For&>(s).iter.get(), out); return;
      case ast::StmtKind::Return: reads_of(static_cast<ast::Return&>(s).value.get(), out); return;
      case ast::StmtKind::Raise: reads_of(static_cast<ast::Raise&>(s).exc.get(), out); return;
      case ast::StmtKind::ExprStmt: reads_of(static_cast<ast::ExprStmt&>(s).value.get(), out); return;
      default: return;
    }
  }
};

}  // namespace

std::unique_ptr<ast::FunctionDef> version_variables(const ast::FunctionDef& def) {
  std::map<std::string, int> assigned;
  for (const auto& p : def.params) ++assigned[p.name];
  names_assigned(def.body, assigned);
  std::set<std::string> versioned;
  for (const auto& [name, count] : assigned)
    if (count > 1) versioned.insert(name);
  if (versioned.empty()) return nullptr;
  auto out = ast::clone(def);
  Versioner(*out, std::move(versioned)).run();
  return out;
}

void count_assignments(const ast::Body& body, std::map<std::string, int>& counts) { names_assigned(body, counts); }

std::string source_variable_name(const std::string& id) {
  auto dot = id.find('.');
  return dot == std::string::npos || dot == 0 ? id : id.substr(0, dot);
}

}  // namespace cuhost::frontend
