// Stage 1 of the pipeline: find a Python function's source (cut from the
// file's lines, or inspect + textwrap.dedent as a fallback; then ast.parse),
// convert it to the C++ AST with file-absolute
// locations, and freeze every free name it reads. Runs with the GIL held.
#include "frontend/capture.h"

#include <set>

#include "frontend/ast_convert.h"
#include "frontend/closures.h"
#include "frontend/lambda_source.h"
#include "frontend/py_ref.h"
#include "frontend/source_block.h"

namespace cuhost::frontend {

namespace {

PyRef call_module(const char* module, const char* fn, PyObject* arg) {
  PyRef mod(PyImport_ImportModule(module));
  if (!mod) return PyRef();
  PyRef f(PyObject_GetAttrString(mod.get(), fn));
  if (!f) return PyRef();
  return PyRef(PyObject_CallFunctionObjArgs(f.get(), arg, nullptr));
}

int leading_spaces(const std::string& s) {
  int n = 0;
  while (n < static_cast<int>(s.size()) && (s[n] == ' ' || s[n] == '\t')) ++n;
  return n;
}

std::string first_line_of(const std::string& s) { return s.substr(0, s.find('\n')); }

// The value a free name refers to: closure cell, then module globals, then
// builtins; an empty ref when the name is not bound (NameError at use).
PyRef lookup_free_name(PyObject* func, PyObject* code, const std::string& name) {
  PyRef freevars = py_attr(code, "co_freevars");
  PyRef closure = py_attr(func, "__closure__");
  if (freevars && closure && closure.get() != Py_None) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(freevars.get()); ++i) {
      if (py_str(PyTuple_GET_ITEM(freevars.get(), i)) != name) continue;
      if (i >= PyTuple_GET_SIZE(closure.get())) break;
      PyObject* cell = PyTuple_GET_ITEM(closure.get(), i);
      PyObject* v = PyCell_GET(cell);
      if (!v) return PyRef();
      return PyRef::borrow(v);
    }
  }
  PyRef globals = py_attr(func, "__globals__");
  if (globals && PyDict_Check(globals.get())) {
    if (PyObject* v = PyDict_GetItemString(globals.get(), name.c_str())) return PyRef::borrow(v);
  }
  PyRef builtins(PyImport_ImportModule("builtins"));
  if (builtins) {
    PyRef v = py_attr(builtins.get(), name.c_str());
    if (v) return v;
  } else {
    PyErr_Clear();
  }
  return PyRef();
}

// Every `name.attr` the body reads (Attribute nodes on a bare Name), every
// `name.sub.attr` (as name, "sub.attr"), and every `name["key"]` (an Enum
// class's member by name: frozen the same way).
void collect_attrs(const ast::Expr* e, std::set<std::pair<std::string, std::string>>& out) {
  if (!e) return;
  switch (e->kind) {
    case ast::ExprKind::Attribute: {
      const auto& a = static_cast<const ast::Attribute&>(*e);
      if (a.value->kind == ast::ExprKind::Name) out.emplace(static_cast<const ast::Name&>(*a.value).id, a.attr);
      // `name.sub.attr` (np.random.seed): recorded as (name, "sub.attr").
      if (a.value->kind == ast::ExprKind::Attribute) {
        const auto& inner = static_cast<const ast::Attribute&>(*a.value);
        if (inner.value->kind == ast::ExprKind::Name)
          out.emplace(static_cast<const ast::Name&>(*inner.value).id, inner.attr + "." + a.attr);
      }
      collect_attrs(a.value.get(), out);
      break;
    }
    case ast::ExprKind::Subscript: {
      const auto& x = static_cast<const ast::Subscript&>(*e);
      if (x.value->kind == ast::ExprKind::Name && x.index->kind == ast::ExprKind::Constant &&
          static_cast<const ast::Constant&>(*x.index).value.kind == ir::ConstValue::Kind::String)
        out.emplace(static_cast<const ast::Name&>(*x.value).id, static_cast<const ast::Constant&>(*x.index).value.s);
      collect_attrs(x.value.get(), out);
      collect_attrs(x.index.get(), out);
      break;
    }
    case ast::ExprKind::Call: {
      const auto& x = static_cast<const ast::Call&>(*e);
      collect_attrs(x.func.get(), out);
      for (const auto& a : x.args) collect_attrs(a.get(), out);
      for (const auto& k : x.keywords) collect_attrs(k.value.get(), out);
      break;
    }
    case ast::ExprKind::BinOp: {
      const auto& x = static_cast<const ast::BinOp&>(*e);
      collect_attrs(x.left.get(), out);
      collect_attrs(x.right.get(), out);
      break;
    }
    case ast::ExprKind::UnaryOp: collect_attrs(static_cast<const ast::UnaryOp&>(*e).operand.get(), out); break;
    case ast::ExprKind::BoolOp:
      for (const auto& v : static_cast<const ast::BoolOp&>(*e).values) collect_attrs(v.get(), out);
      break;
    case ast::ExprKind::Compare: {
      const auto& x = static_cast<const ast::Compare&>(*e);
      collect_attrs(x.left.get(), out);
      for (const auto& c : x.comparators) collect_attrs(c.get(), out);
      break;
    }
    case ast::ExprKind::IfExp: {
      const auto& x = static_cast<const ast::IfExp&>(*e);
      collect_attrs(x.test.get(), out);
      collect_attrs(x.body.get(), out);
      collect_attrs(x.orelse.get(), out);
      break;
    }
    case ast::ExprKind::Tuple:
      for (const auto& v : static_cast<const ast::Tuple&>(*e).elts) collect_attrs(v.get(), out);
      break;
    case ast::ExprKind::Slice: {
      const auto& x = static_cast<const ast::Slice&>(*e);
      collect_attrs(x.lower.get(), out);
      collect_attrs(x.upper.get(), out);
      collect_attrs(x.step.get(), out);
      break;
    }
    default: break;
  }
}

void collect_attrs(const ast::Body& body, std::set<std::pair<std::string, std::string>>& out) {
  for (const auto& s : body) {
    switch (s->kind) {
      case ast::StmtKind::Assign: {
        const auto& x = static_cast<const ast::Assign&>(*s);
        for (const auto& t : x.targets) collect_attrs(t.get(), out);
        collect_attrs(x.value.get(), out);
        break;
      }
      case ast::StmtKind::AugAssign: {
        const auto& x = static_cast<const ast::AugAssign&>(*s);
        collect_attrs(x.target.get(), out);
        collect_attrs(x.value.get(), out);
        break;
      }
      case ast::StmtKind::If: {
        const auto& x = static_cast<const ast::If&>(*s);
        collect_attrs(x.test.get(), out);
        collect_attrs(x.body, out);
        collect_attrs(x.orelse, out);
        break;
      }
      case ast::StmtKind::While: {
        const auto& x = static_cast<const ast::While&>(*s);
        collect_attrs(x.test.get(), out);
        collect_attrs(x.body, out);
        break;
      }
      case ast::StmtKind::For: {
        const auto& x = static_cast<const ast::For&>(*s);
        collect_attrs(x.iter.get(), out);
        collect_attrs(x.body, out);
        break;
      }
      case ast::StmtKind::Return: collect_attrs(static_cast<const ast::Return&>(*s).value.get(), out); break;
      case ast::StmtKind::ExprStmt: collect_attrs(static_cast<const ast::ExprStmt&>(*s).value.get(), out); break;
      default: break;
    }
  }
}

// Module keys the typing layer resolves by name (no freezing needed).
bool known_namespace(const std::string& key) {
  // cuda.random holds jitted device functions: its attributes freeze like a user module's.
  if (key == "cuda.random") return false;
  return key == "cuda" || key == "math" || key == "cmath" || key == "numpy" || key == "numba" || key == "numba.types" ||
         key == "builtins" || key.rfind("cuda.", 0) == 0;
}

// `name.sub.attr` where `sub` is a submodule typing has no key for
// (np.random, np.random.seed): "name.sub" is frozen as that module and
// "name.sub.attr" by value, as attributes of user modules are.
void freeze_submodule_attr(CapturedFunction& out, const std::string& name, PyObject* module, const std::string& sub,
                           const std::string& attr) {
  PyRef submodule = py_attr(module, sub.c_str());
  if (!submodule || !PyModule_Check(submodule.get())) return;
  GlobalValue g = freeze_global(submodule.get());
  if (g.kind != GlobalValue::Kind::Module || known_namespace(g.key)) return;
  PyRef value = py_attr(submodule.get(), attr.c_str());
  if (!value) return;
  out.globals.emplace(name + "." + sub, std::move(g));
  out.globals.emplace(name + "." + sub + "." + attr, freeze_global(value.get()));
}

}  // namespace

std::shared_ptr<const CapturedFunction> capture(PyObject* pyfunc) {
  if (!PyFunction_Check(pyfunc)) {
    throw UserError(ErrorKind::TypeError, concat("cannot compile ", py_repr(pyfunc), ": not a Python function"));
  }
  auto out = std::make_shared<CapturedFunction>();
  PyRef code = py_attr(pyfunc, "__code__");
  CUHOST_CHECK(code) << "function without __code__";
  out->name = py_str(py_attr(pyfunc, "__name__").get());
  out->qualname = py_str(py_attr(pyfunc, "__qualname__").get());
  out->filename = py_str(py_attr(code.get(), "co_filename").get());
  PyRef firstline = py_attr(code.get(), "co_firstlineno");
  int code_first_line = firstline ? static_cast<int>(PyLong_AsLong(firstline.get())) : 1;

  out->function_repr = py_repr(pyfunc);

  // The file's lines as linecache knows them (the file on disk, or text a
  // notebook registered): what inspect and debuggers can show.
  std::vector<std::string> cached_lines;
  {
    PyRef linecache(PyImport_ImportModule("linecache"));
    PyRef globals = py_attr(pyfunc, "__globals__");
    PyRef lines;
    if (linecache)
      lines = PyRef(PyObject_CallMethod(linecache.get(), "getlines", "sO", out->filename.c_str(),
                                        globals ? globals.get() : Py_None));
    if (lines && PyList_Check(lines.get())) {
      for (Py_ssize_t i = 0; i < PyList_GET_SIZE(lines.get()); ++i)
        cached_lines.push_back(py_str(PyList_GET_ITEM(lines.get(), i)));
    } else {
      PyErr_Clear();
    }
  }
  out->source_findable = !cached_lines.empty();

  // The source lines of the whole file, for caret displays and the fast cut:
  // the text given to exec()/compile() when the function came from one (its
  // "<string>" file name may name other text in linecache), else the file's.
  if (std::string text = exec_source_of(code.get()); !text.empty()) {
    size_t start = 0;
    while (start < text.size()) {
      size_t end = text.find('\n', start);
      end = end == std::string::npos ? text.size() : end + 1;
      out->file_lines.push_back(text.substr(start, end - start));
      start = end;
    }
  } else {
    out->file_lines = std::move(cached_lines);
  }

  // The function's own source, dedented and parsed: cut from the file lines
  // by indentation (fast), else through inspect.getsource.
  int indent = 0;
  int line_shift = 0;  // -1 when the source was parsed behind an extra first line
  PyRef module;
  PyObject* def_node = nullptr;
  // A lambda is found in its file's parsed text (lambda_source.h).
  LambdaSource lambda;
  if (out->name == "<lambda>") {
    lambda = lambda_source(out->file_lines, code.get());
    if (lambda.def_node) {
      def_node = lambda.def_node.get();
      out->source = lambda.source;
      line_shift = 1 - code_first_line;  // the node's lines are the file's
    }
  }
  std::optional<SourceBlock> block;
  if (!def_node) block = function_block(out->file_lines, code_first_line);
  if (block) {
    PyRef text(PyUnicode_FromStringAndSize(block->text.data(), static_cast<Py_ssize_t>(block->text.size())));
    if (text) module = call_module("ast", "parse", text.get());
    PyRef body = module ? py_attr(module.get(), "body") : PyRef();
    if (body && PyList_Check(body.get()) && PyList_GET_SIZE(body.get()) == 1) {
      PyObject* node = PyList_GET_ITEM(body.get(), 0);
      // The def's name is the code's: __name__ may have been reassigned since.
      PyRef name = py_attr(node, "name");
      PyRef code_name = py_attr(code.get(), "co_name");
      if (name && code_name && py_str(name.get()) == py_str(code_name.get())) {
        def_node = node;
        out->source = block->text;
        indent = block->indent;
      }
    }
    if (!def_node) {
      PyErr_Clear();
      module = PyRef();
    }
  }
  if (!def_node) {
    PyRef source = call_module("inspect", "getsource", pyfunc);
    if (!source) {
      std::string why = fetch_python_error();
      throw UserError(
          ErrorKind::RuntimeError,
          concat("cannot find the source code of '", out->name,
                 "': functions defined at the interactive prompt or with exec() cannot be compiled (", why, ")"));
    }
    std::string raw = py_str(source.get());
    PyRef dedented = call_module("textwrap", "dedent", source.get());
    if (!dedented) throw UserError(ErrorKind::RuntimeError, "textwrap.dedent failed: " + fetch_python_error());
    out->source = py_str(dedented.get());
    indent = leading_spaces(first_line_of(raw)) - leading_spaces(first_line_of(out->source));
    module = call_module("ast", "parse", dedented.get());
    PyRef body = module ? py_attr(module.get(), "body") : PyRef();
    if (body && PyList_Check(body.get()) && PyList_GET_SIZE(body.get()) >= 1) {
      def_node = PyList_GET_ITEM(body.get(), 0);
    } else if (leading_spaces(first_line_of(raw)) > 0) {
      // dedent cannot remove a margin that a string or a continued line
      // dips below: parse the source as it stands, inside an `if 1:` block.
      std::string why = fetch_python_error();
      PyRef wrapped(PyUnicode_FromString(("if 1:\n" + raw).c_str()));
      module = wrapped ? call_module("ast", "parse", wrapped.get()) : PyRef();
      PyRef outer = module ? py_attr(module.get(), "body") : PyRef();
      PyRef inner = outer && PyList_Check(outer.get()) && PyList_GET_SIZE(outer.get()) == 1
                        ? py_attr(PyList_GET_ITEM(outer.get(), 0), "body")
                        : PyRef();
      if (!inner || !PyList_Check(inner.get()) || PyList_GET_SIZE(inner.get()) < 1)
        throw UserError(ErrorKind::SyntaxError, concat("cannot parse the source of '", out->name, "': ", why));
      def_node = PyList_GET_ITEM(inner.get(), 0);
      out->source = raw;
      indent = 0;
      line_shift = -1;
    } else {
      std::string why = fetch_python_error();
      throw UserError(ErrorKind::SyntaxError, concat("cannot parse the source of '", out->name, "': ", why));
    }
  }

  // inspect.getsource starts at the first decorator, like co_firstlineno.
  ConvertContext ctx;
  ctx.line_offset = code_first_line - 1 + line_shift;
  ctx.column_offset = indent + 1;
  ctx.filename = out->filename;
  ctx.function_name = out->name;
  ctx.file_lines = &out->file_lines;
  ConvertResult converted = convert_function(def_node, ctx);
  out->def = std::move(converted.def);
  out->first_line = out->def->loc.line;
  // Default values are the function object's (evaluated when it was defined),
  // frozen once: `defaults` keeps them all (the cache key and the typing
  // errors read them), the last positional parameters the constant ones.
  if (PyRef defaults = py_attr(pyfunc, "__defaults__"); defaults && PyTuple_Check(defaults.get())) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(defaults.get()); ++i)
      out->defaults.push_back(freeze_global(PyTuple_GET_ITEM(defaults.get(), i)));
    std::vector<ast::Param*> positional;
    for (auto& p : out->def->params)
      if (!p.vararg) positional.push_back(&p);
    const size_t n = out->defaults.size();
    for (size_t i = 0; i < n && n <= positional.size(); ++i) {
      const GlobalValue& g = out->defaults[i];
      ast::Param* p = positional[positional.size() - n + i];
      if (g.kind == GlobalValue::Kind::Constant)
        p->default_value = g.constant;
      else
        p->default_value.reset();  // not a constant: callers must pass it
    }
  }
  for (const std::string& name : converted.loaded) {
    if (converted.stored.count(name)) continue;
    PyRef value = lookup_free_name(pyfunc, code.get(), name);
    if (!value) {
      PyErr_Clear();
      continue;  // unbound: NameError where it is used
    }
    out->globals.emplace(name, freeze_global(value.get()));
  }
  // Attributes of user modules (`mod.CONST`, `mod.helper`) are frozen under
  // "mod.attr"; the known namespaces are resolved by typing.
  std::set<std::pair<std::string, std::string>> attrs;
  collect_attrs(out->def->body, attrs);
  for (const auto& [name, attr] : attrs) {
    auto g = out->globals.find(name);
    if (g == out->globals.end() || g->second.kind != GlobalValue::Kind::Module) continue;
    bool known = known_namespace(g->second.key);
    PyRef module = lookup_free_name(pyfunc, code.get(), name);
    if (!module) continue;
    if (size_t dot = attr.find('.'); dot != std::string::npos) {
      freeze_submodule_attr(*out, name, module.get(), attr.substr(0, dot), attr.substr(dot + 1));
      continue;
    }
    PyRef value = py_attr(module.get(), attr.c_str());
    if (!value) continue;
    // Of the known namespaces only type objects typing has no key for
    // (cuda.float32x4, cuda.short2: vector types) are frozen by value.
    if (known && !PyObject_HasAttrString(value.get(), "_cuhost_vector_type")) continue;
    out->globals.emplace(name + "." + attr, freeze_global(value.get()));
  }
  // Functions defined in the body (closures.h).
  capture_nested_functions(*out, converted, [&](const std::string& name) -> std::optional<GlobalValue> {
    PyRef value = lookup_free_name(pyfunc, code.get(), name);
    if (!value) {
      PyErr_Clear();
      return std::nullopt;
    }
    return freeze_global(value.get());
  });
  if (PyErr_Occurred()) PyErr_Clear();
  return out;
}

}  // namespace cuhost::frontend
