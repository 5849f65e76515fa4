// Folding of operators on number literals as CPython's AST optimizer does
// (Python/ast_opt.c): numbers only, each step computed by Python itself;
// integer results kept within 128 bits (CPython's MAX_INT_SIZE), and
// powers and shifts checked before computing so that `10**10**10` is not
// evaluated.
#include "frontend/literal_folding.h"

#include <string>

namespace cuhost::frontend {

namespace {

constexpr long long kMaxIntBits = 128;

bool is_number(PyObject* v) { return PyLong_Check(v) || PyFloat_Check(v) || PyComplex_Check(v); }

long long bit_length(PyObject* v) {
  if (!PyLong_Check(v)) return 0;
  PyRef n(PyObject_CallMethod(v, "bit_length", nullptr));
  if (!n) {
    PyErr_Clear();
    return kMaxIntBits + 1;
  }
  return PyLong_AsLongLong(n.get());
}

const char* operator_function(const std::string& op) {
  if (op == "Add") return "add";
  if (op == "Sub") return "sub";
  if (op == "Mult") return "mul";
  if (op == "Div") return "truediv";
  if (op == "FloorDiv") return "floordiv";
  if (op == "Mod") return "mod";
  if (op == "Pow") return "pow";
  if (op == "LShift") return "lshift";
  if (op == "RShift") return "rshift";
  if (op == "BitOr") return "or_";
  if (op == "BitXor") return "xor";
  if (op == "BitAnd") return "and_";
  if (op == "UAdd") return "pos";
  if (op == "USub") return "neg";
  if (op == "Invert") return "invert";
  if (op == "Not") return "not_";
  return nullptr;
}

// Whether computing `a op b` could build an integer far beyond the limit.
bool too_big(const std::string& op, PyObject* a, PyObject* b) {
  if (!PyLong_Check(a) || !PyLong_Check(b)) return false;
  if (op == "Pow") {
    long long base = bit_length(a);
    int overflow = 0;
    long long exp = PyLong_AsLongLongAndOverflow(b, &overflow);
    return overflow || (exp > 0 && base > 1 && base * exp > kMaxIntBits + 64) || exp > kMaxIntBits * 2;
  }
  if (op == "LShift") {
    int overflow = 0;
    long long shift = PyLong_AsLongLongAndOverflow(b, &overflow);
    return overflow || shift > kMaxIntBits;
  }
  return false;
}

PyRef fold(PyObject* node, PyObject* op_module) {
  std::string kind = py_type_name(node);
  if (kind == "Constant") {
    PyRef v = py_attr(node, "value");
    if (!v || !is_number(v.get())) return PyRef();  // bool is an int: included
    return v;
  }
  if (kind != "BinOp" && kind != "UnaryOp") return PyRef();
  PyRef op = py_attr(node, "op");
  const std::string op_name = op ? py_type_name(op.get()) : "";
  const char* fn_name = operator_function(op_name);
  if (!fn_name) return PyRef();
  PyRef fn = py_attr(op_module, fn_name);
  if (!fn) return PyRef();
  PyRef result;
  if (kind == "UnaryOp") {
    PyRef operand_node = py_attr(node, "operand");
    PyRef v = operand_node ? fold(operand_node.get(), op_module) : PyRef();
    if (!v) return PyRef();
    result = PyRef(PyObject_CallFunctionObjArgs(fn.get(), v.get(), nullptr));
  } else {
    PyRef left_node = py_attr(node, "left"), right_node = py_attr(node, "right");
    PyRef a = left_node ? fold(left_node.get(), op_module) : PyRef();
    if (!a) return PyRef();
    PyRef b = right_node ? fold(right_node.get(), op_module) : PyRef();
    if (!b || too_big(op_name, a.get(), b.get())) return PyRef();
    result = PyRef(PyObject_CallFunctionObjArgs(fn.get(), a.get(), b.get(), nullptr));
  }
  if (!result) {
    PyErr_Clear();  // ZeroDivisionError and the like: CPython leaves it to run time
    return PyRef();
  }
  if (!is_number(result.get()) || bit_length(result.get()) > kMaxIntBits) return PyRef();
  return result;
}

}  // namespace

PyRef fold_literal_operator(PyObject* node) {
  PyRef op_module(PyImport_ImportModule("operator"));
  if (!op_module) {
    PyErr_Clear();
    return PyRef();
  }
  return fold(node, op_module.get());
}

}  // namespace cuhost::frontend
