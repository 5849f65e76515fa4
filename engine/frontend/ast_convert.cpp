// Reads Python `ast` node objects into the C++ AST. Every construct the
// kernel language does not accept is rejected here, at its own line and
// column, so later stages only see the supported subset.
#include "frontend/ast_convert.h"

#include <climits>

#include "frontend/capture.h"
#include "frontend/literal_folding.h"
#include "frontend/py_ref.h"
#include "ir/constant.h"

namespace cuhost::frontend {

namespace {

class Converter {
 public:
  explicit Converter(const ConvertContext& ctx) : ctx_(ctx) {}

  ConvertResult run(PyObject* node) {
    ConvertResult r;
    auto def = std::make_unique<ast::FunctionDef>();
    def->loc = loc_of(node);
    def->name = str_attr(node, "name");
    PyRef args = attr(node, "args");
    check_signature(args.get(), def->loc);
    for (const char* field : {"posonlyargs", "args"}) {
      PyRef list = attr(args.get(), field);
      for (Py_ssize_t i = 0; i < PyList_GET_SIZE(list.get()); ++i) {
        PyObject* a = PyList_GET_ITEM(list.get(), i);
        ast::Param p;
        p.name = str_attr(a, "arg");
        p.loc = loc_of(a);
        stored_.insert(p.name);
        def->params.push_back(std::move(p));
      }
    }
    // Defaults belong to the last parameters; written as constants in the
    // source (the capture of a top-level function replaces them with the
    // values the function object holds).
    PyRef defaults = attr(args.get(), "defaults");
    const Py_ssize_t ndefaults = PyList_GET_SIZE(defaults.get());
    for (Py_ssize_t i = 0; i < ndefaults; ++i) {
      ast::Param& p = def->params[def->params.size() - size_t(ndefaults) + size_t(i)];
      p.default_value = default_constant(PyList_GET_ITEM(defaults.get(), i));
    }
    PyRef vararg = attr(args.get(), "vararg");
    if (vararg.get() != Py_None) {
      ast::Param p;
      p.name = str_attr(vararg.get(), "arg");
      p.loc = loc_of(vararg.get());
      p.vararg = true;
      stored_.insert(p.name);
      def->params.push_back(std::move(p));
    }
    PyRef body = attr(node, "body");
    def->body = body_of(body.get());
    r.def = std::move(def);
    r.loaded = std::move(loaded_);
    r.stored = std::move(stored_);
    r.nested = std::move(nested_);
    // A nested function's own names are not this function's.
    for (const auto& n : r.nested) r.loaded.erase(n->name);
    return r;
  }

 private:
  // ---- helpers ---------------------------------------------------------------
  PyRef attr(PyObject* o, const char* name) {
    PyRef r(PyObject_GetAttrString(o, name));
    CUHOST_CHECK(r) << "ast node " << py_type_name(o) << " has no field " << name;
    return r;
  }
  std::string str_attr(PyObject* o, const char* name) { return py_str(attr(o, name).get()); }
  int int_attr(PyObject* o, const char* name) {
    PyRef v(PyObject_GetAttrString(o, name));
    if (!v || v.get() == Py_None) {
      PyErr_Clear();
      return 0;
    }
    long x = PyLong_AsLong(v.get());
    if (x == -1 && PyErr_Occurred()) {
      PyErr_Clear();
      return 0;
    }
    return static_cast<int>(x);
  }

  ast::SourceLoc loc_of(PyObject* node) {
    ast::SourceLoc l;
    int line = int_attr(node, "lineno");
    if (line > 0) {
      l.line = line + ctx_.line_offset;
      l.column = int_attr(node, "col_offset") + ctx_.column_offset;
      int end_line = int_attr(node, "end_lineno");
      l.end_line = end_line > 0 ? end_line + ctx_.line_offset : l.line;
      l.end_column = int_attr(node, "end_col_offset") + ctx_.column_offset;
    }
    return l;
  }

  SourceLocation where(const ast::SourceLoc& l) {
    SourceLocation w;
    w.file = ctx_.filename;
    w.line = l.line;
    w.column = l.column;
    if (ctx_.file_lines && l.line >= 1 && static_cast<size_t>(l.line) <= ctx_.file_lines->size()) {
      w.source_line = (*ctx_.file_lines)[l.line - 1];
      while (!w.source_line.empty() && (w.source_line.back() == '\n' || w.source_line.back() == '\r'))
        w.source_line.pop_back();
    }
    return w;
  }

  [[noreturn]] void unsupported(PyObject* node, const std::string& what) {
    throw UserError(ErrorKind::UnsupportedError, what + " not supported in kernels", where(loc_of(node)),
                    ctx_.function_name);
  }
  [[noreturn]] void unsupported_at(const ast::SourceLoc& l, const std::string& what) {
    throw UserError(ErrorKind::UnsupportedError, what + " not supported in kernels", where(l), ctx_.function_name);
  }

  void check_signature(PyObject* args, const ast::SourceLoc& def_loc) {
    PyRef kwarg = attr(args, "kwarg");
    if (kwarg.get() != Py_None) unsupported(kwarg.get(), "**kwargs is");
    PyRef kwonly = attr(args, "kwonlyargs");
    if (PyList_GET_SIZE(kwonly.get()) > 0) unsupported(PyList_GET_ITEM(kwonly.get(), 0), "keyword-only arguments are");
    (void)def_loc;
  }

  // A default value written in the source, when it is a literal
  // (ast.literal_eval's language: numbers, strings, tuples, None, unary
  // minus); nothing otherwise: a top-level function's capture takes the
  // values its function object holds, and a call that leaves out a parameter
  // without a usable default is a typing error naming it.
  std::optional<ir::ConstValue> default_constant(PyObject* node) {
    PyRef ast(PyImport_ImportModule("ast"));
    PyRef value = ast ? PyRef(PyObject_CallMethod(ast.get(), "literal_eval", "O", node)) : PyRef();
    if (!value) {
      PyErr_Clear();
      return std::nullopt;
    }
    GlobalValue g = freeze_global(value.get());
    if (g.kind != GlobalValue::Kind::Constant) return std::nullopt;
    return g.constant;
  }

  // `def inner(...)` inside the body: converted on its own (see ConvertResult::nested).
  void nested_function(PyObject* node) {
    auto n = std::make_unique<NestedFunction>();
    n->name = str_attr(node, "name");
    n->loc = loc_of(node);
    PyRef decorators = attr(node, "decorator_list");
    if (PyList_GET_SIZE(decorators.get()) > 0)
      unsupported(PyList_GET_ITEM(decorators.get(), 0), "decorators on nested functions are");
    ConvertContext inner = ctx_;
    inner.function_name = n->name;
    Converter c(inner);
    n->result = c.run(node);
    // The inner function's free names are read by this function too (its
    // closure variables and globals are found from here).
    for (const std::string& name : n->result.loaded)
      if (!n->result.stored.count(name)) loaded_.insert(name);
    nested_.push_back(std::move(n));
  }

  // ---- statements --------------------------------------------------------------
  ast::Body body_of(PyObject* list) {
    ast::Body out;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(list); ++i) stmt_into(PyList_GET_ITEM(list, i), out);
    return out;
  }

  // ---- loop else clauses -------------------------------------------------------
  // `for/while ... else: E` becomes `$brk = False; loop (each break of this
  // loop first sets $brk = True); if not $brk: E`, so later stages only see
  // plain loops. `$` names cannot clash with Python names.
  static ast::ExprPtr name_expr(const std::string& id, const ast::SourceLoc& l) {
    auto n = std::make_unique<ast::Name>();
    n->loc = l;
    n->id = id;
    return n;
  }
  static ast::StmtPtr assign_flag(const std::string& id, bool value, const ast::SourceLoc& l) {
    auto a = std::make_unique<ast::Assign>();
    a->loc = l;
    a->targets.push_back(name_expr(id, l));
    auto c = std::make_unique<ast::Constant>();
    c->loc = l;
    c->value = ir::ConstValue::boolean(value);
    a->value = std::move(c);
    return a;
  }

  void stmt_into(PyObject* node, ast::Body& out) {
    const std::string k = py_type_name(node);
    if (k == "Break" && !loop_flags_.empty() && !loop_flags_.back().empty()) {
      out.push_back(assign_flag(loop_flags_.back(), true, loc_of(node)));
      out.push_back(stmt(node));
      return;
    }
    if (k != "For" && k != "While") {
      out.push_back(stmt(node));
      return;
    }
    PyRef orelse = attr(node, "orelse");
    if (PyList_GET_SIZE(orelse.get()) == 0) {
      loop_flags_.push_back("");
      out.push_back(stmt(node));
      loop_flags_.pop_back();
      return;
    }
    ast::SourceLoc l = loc_of(node);
    std::string flag = concat("$loop_broke.", l.line, ".", l.column);
    stored_.insert(flag);
    out.push_back(assign_flag(flag, false, l));
    loop_flags_.push_back(flag);
    out.push_back(stmt(node));
    loop_flags_.pop_back();
    auto test = std::make_unique<ast::UnaryOp>();
    test->loc = l;
    test->op = ast::UnaryOpKind::Not;
    test->operand = name_expr(flag, l);
    auto i = std::make_unique<ast::If>();
    i->loc = loc_of(PyList_GET_ITEM(orelse.get(), 0));
    i->test = std::move(test);
    i->body = body_of(orelse.get());
    out.push_back(std::move(i));
  }

  ast::StmtPtr stmt(PyObject* node) {
    const std::string k = py_type_name(node);
    ast::SourceLoc l = loc_of(node);
    if (k == "Assign") {
      auto s = std::make_unique<ast::Assign>();
      s->loc = l;
      s->value = expr(attr(node, "value").get());
      PyRef targets = attr(node, "targets");
      for (Py_ssize_t i = 0; i < PyList_GET_SIZE(targets.get()); ++i)
        s->targets.push_back(target(PyList_GET_ITEM(targets.get(), i)));
      return s;
    }
    if (k == "AugAssign") {
      auto s = std::make_unique<ast::AugAssign>();
      s->loc = l;
      s->op = binop_kind(attr(node, "op").get());
      s->value = expr(attr(node, "value").get());
      PyObject* t = attr(node, "target").get();
      PyRef tref = attr(node, "target");
      std::string tk = py_type_name(tref.get());
      if (tk != "Name" && tk != "Subscript" && tk != "Attribute")
        unsupported(tref.get(), "augmented assignment to " + describe(tk) + " is");
      s->target = target(tref.get());
      if (tk == "Name") loaded_.insert(static_cast<ast::Name*>(s->target.get())->id);
      (void)t;
      return s;
    }
    if (k == "AnnAssign") unsupported(node, "annotated assignments are");
    if (k == "If") {
      auto s = std::make_unique<ast::If>();
      s->loc = l;
      s->test = expr(attr(node, "test").get());
      s->body = body_of(attr(node, "body").get());
      s->orelse = body_of(attr(node, "orelse").get());
      return s;
    }
    if (k == "While") {
      auto s = std::make_unique<ast::While>();
      s->loc = l;
      s->test = expr(attr(node, "test").get());
      s->body = body_of(attr(node, "body").get());
      return s;
    }
    if (k == "For") {
      auto s = std::make_unique<ast::For>();
      s->loc = l;
      PyRef t = attr(node, "target");
      std::string tk = py_type_name(t.get());
      if (tk != "Name" && tk != "Tuple") unsupported(t.get(), "this loop target is");
      s->target = target(t.get());
      s->iter = expr(attr(node, "iter").get());
      s->body = body_of(attr(node, "body").get());
      return s;
    }
    if (k == "Break") {
      auto s = std::make_unique<ast::Break>();
      s->loc = l;
      return s;
    }
    if (k == "Continue") {
      auto s = std::make_unique<ast::Continue>();
      s->loc = l;
      return s;
    }
    if (k == "Pass") {
      auto s = std::make_unique<ast::Pass>();
      s->loc = l;
      return s;
    }
    if (k == "Return") {
      auto s = std::make_unique<ast::Return>();
      s->loc = l;
      PyRef v = attr(node, "value");
      if (v.get() != Py_None) s->value = expr(v.get());
      return s;
    }
    if (k == "Expr") {
      auto s = std::make_unique<ast::ExprStmt>();
      s->loc = l;
      PyRef v = attr(node, "value");
      // A docstring (or any bare constant) is a no-op.
      if (py_type_name(v.get()) == "Constant") {
        auto p = std::make_unique<ast::Pass>();
        p->loc = l;
        return p;
      }
      s->value = expr(v.get());
      return s;
    }
    if (k == "ClassDef") unsupported(node, "class definitions are");
    if (k == "Try" || k == "TryStar") unsupported(node, "try statements are");
    if (k == "With" || k == "AsyncWith") unsupported(node, "with statements are");
    if (k == "Raise") {
      PyRef exc = attr(node, "exc");
      if (exc.get() == Py_None) unsupported(node, "a bare raise (re-raising) is");
      PyRef cause = attr(node, "cause");
      if (cause.get() != Py_None) unsupported(cause.get(), "raise ... from is");
      auto s = std::make_unique<ast::Raise>();
      s->loc = l;
      s->exc = expr(exc.get());
      return s;
    }
    if (k == "Assert") {
      // if not test: raise AssertionError(msg)
      auto call = std::make_unique<ast::Call>();
      call->loc = l;
      call->func = name_expr("AssertionError", l);
      loaded_.insert("AssertionError");
      PyRef msg = attr(node, "msg");
      if (msg.get() != Py_None) call->args.push_back(expr(msg.get()));
      auto r = std::make_unique<ast::Raise>();
      r->loc = l;
      r->exc = std::move(call);
      auto test = std::make_unique<ast::UnaryOp>();
      test->loc = l;
      test->op = ast::UnaryOpKind::Not;
      test->operand = expr(attr(node, "test").get());
      auto i = std::make_unique<ast::If>();
      i->loc = l;
      i->test = std::move(test);
      i->body.push_back(std::move(r));
      return i;
    }
    if (k == "Delete") unsupported(node, "del statements are");
    if (k == "Global") unsupported(node, "global statements are");
    if (k == "Nonlocal") unsupported(node, "nonlocal statements are");
    if (k == "Import" || k == "ImportFrom") unsupported(node, "import statements are");
    if (k == "FunctionDef") {
      nested_function(node);
      auto p = std::make_unique<ast::Pass>();
      p->loc = l;
      return p;
    }
    if (k == "AsyncFunctionDef" || k == "AsyncFor") unsupported(node, "async functions are");
    if (k == "Match") unsupported(node, "match statements are");
    unsupported(node, "'" + k + "' statements are");
  }

  static std::string describe(const std::string& k) {
    if (k == "Attribute") return "attributes";
    if (k == "Tuple" || k == "List") return "tuples";
    if (k == "Starred") return "starred targets";
    return "this target";
  }

  ast::ExprPtr target(PyObject* node) {
    const std::string k = py_type_name(node);
    if (k == "Name") {
      auto n = std::make_unique<ast::Name>();
      n->loc = loc_of(node);
      n->id = str_attr(node, "id");
      stored_.insert(n->id);
      return n;
    }
    if (k == "Subscript") return expr(node);
    if (k == "Tuple" || k == "List") {
      auto t = std::make_unique<ast::Tuple>();
      t->loc = loc_of(node);
      PyRef elts = attr(node, "elts");
      for (Py_ssize_t i = 0; i < PyList_GET_SIZE(elts.get()); ++i) {
        PyObject* e = PyList_GET_ITEM(elts.get(), i);
        std::string ek = py_type_name(e);
        if (ek == "Starred") unsupported(e, "starred assignment targets are");
        t->elts.push_back(target(e));
      }
      return t;
    }
    if (k == "Attribute") return expr(node);  // r.x = v: record fields (typing decides what is assignable)
    if (k == "Starred") unsupported(node, "starred assignment targets are");
    unsupported(node, "this assignment target is");
  }

  // ---- expressions -------------------------------------------------------------
  ast::BinOpKind binop_kind(PyObject* op) {
    const std::string k = py_type_name(op);
    if (k == "Add") return ast::BinOpKind::Add;
    if (k == "Sub") return ast::BinOpKind::Sub;
    if (k == "Mult") return ast::BinOpKind::Mult;
    if (k == "Div") return ast::BinOpKind::Div;
    if (k == "FloorDiv") return ast::BinOpKind::FloorDiv;
    if (k == "Mod") return ast::BinOpKind::Mod;
    if (k == "Pow") return ast::BinOpKind::Pow;
    if (k == "LShift") return ast::BinOpKind::LShift;
    if (k == "RShift") return ast::BinOpKind::RShift;
    if (k == "BitOr") return ast::BinOpKind::BitOr;
    if (k == "BitXor") return ast::BinOpKind::BitXor;
    if (k == "BitAnd") return ast::BinOpKind::BitAnd;
    return ast::BinOpKind::MatMult;
  }

  ast::CompareOpKind compare_kind(PyObject* op) {
    const std::string k = py_type_name(op);
    if (k == "Eq") return ast::CompareOpKind::Eq;
    if (k == "NotEq") return ast::CompareOpKind::NotEq;
    if (k == "Lt") return ast::CompareOpKind::Lt;
    if (k == "LtE") return ast::CompareOpKind::LtE;
    if (k == "Gt") return ast::CompareOpKind::Gt;
    if (k == "GtE") return ast::CompareOpKind::GtE;
    if (k == "Is") return ast::CompareOpKind::Is;
    if (k == "IsNot") return ast::CompareOpKind::IsNot;
    if (k == "In") return ast::CompareOpKind::In;
    return ast::CompareOpKind::NotIn;
  }

  static bool fits_64_bits(PyObject* v) {
    if (!PyLong_Check(v)) return true;
    int overflow = 0;
    PyLong_AsLongLongAndOverflow(v, &overflow);
    if (!overflow) return true;
    PyLong_AsUnsignedLongLong(v);
    if (!PyErr_Occurred()) return true;
    PyErr_Clear();
    return false;
  }

  ir::ConstValue constant_of(PyObject* node, PyObject* v) {
    if (v == Py_None) return ir::ConstValue::none();
    if (PyBool_Check(v)) return ir::ConstValue::boolean(v == Py_True);
    if (PyLong_Check(v)) {
      int overflow = 0;
      long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
      if (!overflow) return ir::ConstValue::integer(x);
      unsigned long long u = PyLong_AsUnsignedLongLong(v);
      if (!PyErr_Occurred()) return ir::ConstValue::unsigned_integer(u);
      PyErr_Clear();
      throw UserError(ErrorKind::TypingError, concat("integer literal ", py_repr(v), " does not fit in 64 bits"),
                      where(loc_of(node)), ctx_.function_name);
    }
    if (PyFloat_Check(v)) return ir::ConstValue::floating(PyFloat_AsDouble(v));
    if (PyComplex_Check(v)) return ir::ConstValue::complex({PyComplex_RealAsDouble(v), PyComplex_ImagAsDouble(v)});
    if (PyUnicode_Check(v)) return ir::ConstValue::string(py_str(v));
    if (PyBytes_Check(v)) return ir::ConstValue::bytes(std::string(PyBytes_AS_STRING(v), PyBytes_GET_SIZE(v)));
    unsupported(node, "the constant " + py_repr(v) + " is");
  }

  std::vector<ast::ExprPtr> expr_list(PyObject* list) {
    std::vector<ast::ExprPtr> out;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(list); ++i) out.push_back(expr(PyList_GET_ITEM(list, i)));
    return out;
  }

  ast::ExprPtr expr(PyObject* node) {
    const std::string k = py_type_name(node);
    ast::SourceLoc l = loc_of(node);
    if (k == "Name") {
      auto n = std::make_unique<ast::Name>();
      n->loc = l;
      n->id = str_attr(node, "id");
      loaded_.insert(n->id);
      return n;
    }
    if (k == "Constant") {
      auto c = std::make_unique<ast::Constant>();
      c->loc = l;
      PyRef v = attr(node, "value");
      if (v.get() == Py_Ellipsis) unsupported(node, "'...' is");
      c->value = constant_of(node, v.get());
      return c;
    }
    if (k == "Attribute") {
      auto a = std::make_unique<ast::Attribute>();
      a->loc = l;
      a->value = expr(attr(node, "value").get());
      a->attr = str_attr(node, "attr");
      return a;
    }
    if (k == "Subscript") {
      auto s = std::make_unique<ast::Subscript>();
      s->loc = l;
      s->value = expr(attr(node, "value").get());
      s->index = expr(attr(node, "slice").get());
      return s;
    }
    if (k == "Call") {
      auto c = std::make_unique<ast::Call>();
      c->loc = l;
      c->func = expr(attr(node, "func").get());
      PyRef args = attr(node, "args");
      for (Py_ssize_t i = 0; i < PyList_GET_SIZE(args.get()); ++i) {
        PyObject* a = PyList_GET_ITEM(args.get(), i);
        if (py_type_name(a) == "Starred") {
          c->starred.resize(size_t(i), false);
          c->starred.push_back(true);
          c->args.push_back(expr(attr(a, "value").get()));
          continue;
        }
        if (!c->starred.empty()) c->starred.push_back(false);
        c->args.push_back(expr(a));
      }
      PyRef kws = attr(node, "keywords");
      for (Py_ssize_t i = 0; i < PyList_GET_SIZE(kws.get()); ++i) {
        PyObject* kw = PyList_GET_ITEM(kws.get(), i);
        PyRef name = attr(kw, "arg");
        if (name.get() == Py_None) unsupported(kw, "keyword argument unpacking (**kwargs) is");
        ast::Keyword K;
        K.name = py_str(name.get());
        K.loc = loc_of(kw);
        K.value = expr(attr(kw, "value").get());
        c->keywords.push_back(std::move(K));
      }
      return c;
    }
    if (k == "BinOp" || k == "UnaryOp") {
      // `2**63`, `-1`, `1 << 40`: the constant CPython's compiler folds them
      // to (frontend/literal_folding.h). An integer beyond 64 bits stays an
      // operation: numba refuses to type such a constant, but only where it
      // types it (not in a pruned branch), so capture must not refuse it.
      if (PyRef v = fold_literal_operator(node); v && fits_64_bits(v.get())) {
        auto c = std::make_unique<ast::Constant>();
        c->loc = l;
        c->value = constant_of(node, v.get());
        return c;
      }
    }
    if (k == "BinOp") {
      auto b = std::make_unique<ast::BinOp>();
      b->loc = l;
      b->op = binop_kind(attr(node, "op").get());
      if (b->op == ast::BinOpKind::MatMult) unsupported(node, "the @ operator is");
      b->left = expr(attr(node, "left").get());
      b->right = expr(attr(node, "right").get());
      return b;
    }
    if (k == "UnaryOp") {
      auto u = std::make_unique<ast::UnaryOp>();
      u->loc = l;
      std::string ok = py_type_name(attr(node, "op").get());
      u->op = ok == "UAdd"   ? ast::UnaryOpKind::UAdd
              : ok == "USub" ? ast::UnaryOpKind::USub
              : ok == "Not"  ? ast::UnaryOpKind::Not
                             : ast::UnaryOpKind::Invert;
      u->operand = expr(attr(node, "operand").get());
      return u;
    }
    if (k == "BoolOp") {
      auto b = std::make_unique<ast::BoolOp>();
      b->loc = l;
      b->op = py_type_name(attr(node, "op").get()) == "And" ? ast::BoolOpKind::And : ast::BoolOpKind::Or;
      b->values = expr_list(attr(node, "values").get());
      return b;
    }
    if (k == "Compare") {
      auto c = std::make_unique<ast::Compare>();
      c->loc = l;
      c->left = expr(attr(node, "left").get());
      PyRef ops = attr(node, "ops");
      for (Py_ssize_t i = 0; i < PyList_GET_SIZE(ops.get()); ++i) {
        c->ops.push_back(compare_kind(PyList_GET_ITEM(ops.get(), i)));
      }
      c->comparators = expr_list(attr(node, "comparators").get());
      return c;
    }
    if (k == "IfExp") {
      auto e = std::make_unique<ast::IfExp>();
      e->loc = l;
      e->test = expr(attr(node, "test").get());
      e->body = expr(attr(node, "body").get());
      e->orelse = expr(attr(node, "orelse").get());
      return e;
    }
    if (k == "Tuple" || k == "List") {
      auto t = std::make_unique<ast::Tuple>();
      t->loc = l;
      t->is_list = k == "List";
      PyRef elts = attr(node, "elts");
      for (Py_ssize_t i = 0; i < PyList_GET_SIZE(elts.get()); ++i) {
        PyObject* e = PyList_GET_ITEM(elts.get(), i);
        if (py_type_name(e) == "Starred") unsupported(e, "starred expressions are");
        t->elts.push_back(expr(e));
      }
      return t;
    }
    if (k == "Slice") {
      auto s = std::make_unique<ast::Slice>();
      s->loc = l;
      for (auto [field, slot] :
           {std::pair<const char*, ast::ExprPtr*>{"lower", &s->lower}, {"upper", &s->upper}, {"step", &s->step}}) {
        PyRef v = attr(node, field);
        if (v.get() != Py_None) *slot = expr(v.get());
      }
      return s;
    }
    if (k == "Lambda") unsupported(node, "lambda expressions are");
    if (k == "ListComp" || k == "SetComp" || k == "DictComp") unsupported(node, "comprehensions are");
    if (k == "GeneratorExp") unsupported(node, "generator expressions are");
    if (k == "Yield" || k == "YieldFrom") unsupported(node, "generators (yield) are");
    if (k == "Await") unsupported(node, "await expressions are");
    if (k == "JoinedStr" || k == "FormattedValue") unsupported(node, "f-strings are");
    if (k == "Starred") unsupported(node, "starred expressions are");
    if (k == "NamedExpr") unsupported(node, "assignment expressions (:=) are");
    if (k == "Dict") unsupported(node, "dict literals are");
    if (k == "Set") unsupported(node, "set literals are");
    unsupported(node, "'" + k + "' expressions are");
  }

  const ConvertContext& ctx_;
  std::set<std::string> loaded_;
  std::set<std::string> stored_;
  std::vector<std::unique_ptr<NestedFunction>> nested_;
  std::vector<std::string> loop_flags_;  // per enclosing loop: its else flag, or ""
};

}  // namespace

ConvertResult convert_function(PyObject* node, const ConvertContext& ctx) {
  const std::string k = py_type_name(node);
  if (k == "AsyncFunctionDef") {
    Converter c(ctx);
    // Location of the def line for the error.
    PyRef line(PyObject_GetAttrString(node, "lineno"));
    SourceLocation w;
    w.file = ctx.filename;
    w.line = static_cast<int>(PyLong_AsLong(line.get())) + ctx.line_offset;
    w.column = 1 + ctx.column_offset - 1;
    throw UserError(ErrorKind::UnsupportedError, "async functions are not supported in kernels", w, ctx.function_name);
  }
  CUHOST_CHECK(k == "FunctionDef") << "capture expected a function definition, got " << k;
  Converter c(ctx);
  return c.run(node);
}

}  // namespace cuhost::frontend
