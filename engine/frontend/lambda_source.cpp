// Finding a lambda's source in its file (see lambda_source.h).
#include "frontend/lambda_source.h"

namespace cuhost::frontend {

namespace {

std::vector<std::string> parameter_names(PyObject* code) {
  std::vector<std::string> out;
  PyRef names = py_attr(code, "co_varnames");
  PyRef argcount = py_attr(code, "co_argcount");
  PyRef kwonly = py_attr(code, "co_kwonlyargcount");
  PyRef flags = py_attr(code, "co_flags");
  if (!names || !argcount || !PyTuple_Check(names.get())) return out;
  Py_ssize_t n = PyLong_AsSsize_t(argcount.get()) + (kwonly ? PyLong_AsSsize_t(kwonly.get()) : 0);
  long f = flags ? PyLong_AsLong(flags.get()) : 0;
  if (f & CO_VARARGS) ++n;
  if (f & CO_VARKEYWORDS) ++n;
  for (Py_ssize_t i = 0; i < n && i < PyTuple_GET_SIZE(names.get()); ++i)
    out.push_back(py_str(PyTuple_GET_ITEM(names.get(), i)));
  return out;
}

// The names an ast.arguments node binds, in co_varnames' order.
std::vector<std::string> argument_names(PyObject* arguments) {
  std::vector<std::string> out;
  for (const char* field : {"posonlyargs", "args", "kwonlyargs"}) {
    PyRef list = py_attr(arguments, field);
    if (!list || !PyList_Check(list.get())) continue;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(list.get()); ++i)
      out.push_back(py_str(py_attr(PyList_GET_ITEM(list.get(), i), "arg").get()));
  }
  for (const char* field : {"vararg", "kwarg"}) {
    PyRef a = py_attr(arguments, field);
    if (a && a.get() != Py_None) out.push_back(py_str(py_attr(a.get(), "arg").get()));
  }
  return out;
}

void copy_location(PyObject* ast_module, PyObject* to, PyObject* from) {
  PyRef r(PyObject_CallMethod(ast_module, "copy_location", "OO", to, from));
  if (!r) PyErr_Clear();
}

}  // namespace

LambdaSource lambda_source(const std::vector<std::string>& file_lines, PyObject* code) {
  LambdaSource out;
  PyRef first = py_attr(code, "co_firstlineno");
  if (!first || file_lines.empty()) return out;
  const long line = PyLong_AsLong(first.get());
  std::string text;
  for (const std::string& l : file_lines) text += l;
  PyRef ast(PyImport_ImportModule("ast"));
  PyRef module = ast ? PyRef(PyObject_CallMethod(ast.get(), "parse", "s", text.c_str())) : PyRef();
  PyRef nodes = module ? PyRef(PyObject_CallMethod(ast.get(), "walk", "O", module.get())) : PyRef();
  PyRef lambda_type = ast ? py_attr(ast.get(), "Lambda") : PyRef();
  if (!nodes || !lambda_type) {
    PyErr_Clear();
    return out;
  }
  const std::vector<std::string> params = parameter_names(code);
  PyRef found;
  PyRef it(PyObject_GetIter(nodes.get()));
  while (it) {
    PyRef node(PyIter_Next(it.get()));
    if (!node) break;
    if (!PyObject_IsInstance(node.get(), lambda_type.get())) continue;
    PyRef lineno = py_attr(node.get(), "lineno");
    if (!lineno || PyLong_AsLong(lineno.get()) != line) continue;
    PyRef args = py_attr(node.get(), "args");
    if (args && argument_names(args.get()) == params) {
      found = node;
      break;
    }
  }
  PyErr_Clear();
  if (!found) return out;
  // def <lambda>(args): return body
  PyRef body = py_attr(found.get(), "body");
  PyRef args = py_attr(found.get(), "args");
  PyRef name = py_attr(code, "co_name");
  PyRef ret(PyObject_CallMethod(ast.get(), "Return", "O", body.get()));
  if (!ret) {
    PyErr_Clear();
    return out;
  }
  copy_location(ast.get(), ret.get(), body.get());
  PyRef stmts(Py_BuildValue("[O]", ret.get()));
  PyRef empty(PyList_New(0));
  PyRef kwargs(Py_BuildValue("{s:O,s:O,s:O,s:O,s:O,s:O}", "name", name.get(), "args", args.get(), "body", stmts.get(),
                             "decorator_list", empty.get(), "returns", Py_None, "type_comment", Py_None));
  PyRef def_type = py_attr(ast.get(), "FunctionDef");
  PyRef noargs(PyTuple_New(0));
  PyRef def(def_type && kwargs ? PyObject_Call(def_type.get(), noargs.get(), kwargs.get()) : nullptr);
  if (!def) {
    PyErr_Clear();
    return out;
  }
  copy_location(ast.get(), def.get(), found.get());
  PyRef segment(PyObject_CallMethod(ast.get(), "get_source_segment", "sO", text.c_str(), found.get()));
  out.source = segment && segment.get() != Py_None ? py_str(segment.get()) : std::string();
  PyErr_Clear();
  out.def_node = def;
  return out;
}

}  // namespace cuhost::frontend
