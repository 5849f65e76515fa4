// Capture unit tests: source locations (file-absolute lines, 1-based columns,
// decorators and indentation), the C++ AST shape, and the freezing of
// globals and closure variables into compile-time values.
#include <catch2/catch.hpp>
#include <cstring>

#include "sema_support.h"

using namespace cuhost;
using frontend::GlobalValue;

TEST_CASE("capture builds the AST with locations", "[frontend]") {
  testing::Gil gil;
  PyObject* g = testing::load_module(R"PY(def deco(f):
    return f

if True:
    @deco
    def kern(a, b):
        """doc"""
        c = a[0] + b * 2
        for i in range(3):
            c += i
        return c
)PY");
  PyObject* obj = PyDict_GetItemString(g, "kern");
  auto cap = frontend::capture(obj);
  CHECK(cap->name == "kern");
  CHECK(cap->first_line == 6);
  REQUIRE(cap->def);
  CHECK(cap->def->loc.line == 6);
  CHECK(cap->def->loc.column == 5);
  REQUIRE(cap->def->params.size() == 2);
  CHECK(cap->def->params[1].name == "b");
  CHECK(cap->def->params[1].loc.column == 17);
  REQUIRE(cap->def->body.size() == 4);  // docstring (a pass), assign, for, return
  CHECK(cap->def->body[0]->kind == ast::StmtKind::Pass);
  const auto& assign = static_cast<const ast::Assign&>(*cap->def->body[1]);
  CHECK(assign.loc.line == 8);
  CHECK(assign.loc.column == 9);
  const auto& add = static_cast<const ast::BinOp&>(*assign.value);
  CHECK(add.op == ast::BinOpKind::Add);
  CHECK(add.loc.column == 13);
  CHECK(add.right->loc.column == 20);
  CHECK(add.right->loc.end_column == 25);
  const auto& loop = static_cast<const ast::For&>(*cap->def->body[2]);
  CHECK(loop.loc.line == 9);
  CHECK(loop.body[0]->kind == ast::StmtKind::AugAssign);
  CHECK(cap->where(add.loc).source_line == "        c = a[0] + b * 2");
  CHECK(cap->source.rfind("@deco\ndef kern(a, b):", 0) == 0);
  CHECK(cap->globals.count("range") == 1);
  CHECK(cap->globals.at("range").key == "builtins.range");
  CHECK(cap->globals.count("c") == 0);
  CHECK(cap->globals.count("a") == 0);
}

TEST_CASE("globals and closure variables are frozen by kind", "[frontend]") {
  testing::Gil gil;
  PyObject* g = testing::load_module(R"PY(import math
import numpy as np
import numba
from numba import cuda, float32
from math import sqrt

I = 7
U = 2**64 - 1
F = 0.25
B = True
N = None
S = "float32"
C = 1 + 2j
T = (1, 2.5, (True, None))
NP32 = np.float32(1.5)
NPU8 = np.uint8(200)
ARR = np.arange(6, dtype=np.int32).reshape(2, 3).T
DT = np.float64
OBJ = object()

def make(z):
    def kern():
        return (I, U, F, B, N, S, C, T, NP32, NPU8, ARR, DT, OBJ, math, np, cuda, float32, sqrt, abs, min,
                cuda.syncthreads, numba, z, undefined_name)
    return kern

kern = make(np.int16(3))
)PY");
  PyObject* obj = PyDict_GetItemString(g, "kern");
  auto cap = frontend::capture(obj);
  const auto& gl = cap->globals;
  auto kind = [&](const char* n) { return gl.at(n).kind; };
  CHECK(kind("I") == GlobalValue::Kind::Constant);
  CHECK(gl.at("I").constant.type->str() == "int64");
  CHECK(gl.at("I").constant.i == 7);
  CHECK(gl.at("U").constant.type->str() == "uint64");
  CHECK(gl.at("U").constant.u == 18446744073709551615ull);
  CHECK(gl.at("F").constant.f == 0.25);
  CHECK(gl.at("B").constant.type->str() == "bool");
  CHECK(gl.at("N").constant.type->str() == "none");
  CHECK(gl.at("S").constant.s == "float32");
  CHECK(gl.at("C").constant.type->str() == "complex128");
  CHECK(gl.at("T").constant.type->str() == "Tuple(int64, float64, Tuple(bool, none))");
  CHECK(gl.at("NP32").constant.type->str() == "float32");
  CHECK(gl.at("NP32").constant.f == 1.5);
  CHECK(gl.at("NPU8").constant.type->str() == "uint8");
  CHECK(gl.at("NPU8").constant.u == 200);
  REQUIRE(kind("ARR") == GlobalValue::Kind::Array);
  const auto& arr = *gl.at("ARR").array;
  CHECK(arr.dtype->str() == "int32");
  CHECK(arr.shape == std::vector<std::int64_t>{3, 2});
  CHECK(arr.strides == std::vector<std::int64_t>{8, 4});
  REQUIRE(arr.data.size() == 24);
  // The transpose copied C-contiguously: [[0,3],[1,4],[2,5]].
  std::vector<std::int32_t> values(6);
  std::memcpy(values.data(), arr.data.data(), 24);
  CHECK(values == std::vector<std::int32_t>{0, 3, 1, 4, 2, 5});
  CHECK(kind("DT") == GlobalValue::Kind::TypeObject);
  CHECK(gl.at("DT").type_object->str() == "float64");
  CHECK(kind("OBJ") == GlobalValue::Kind::Unsupported);
  CHECK(gl.at("OBJ").repr.find("<object object") == 0);
  CHECK(kind("math") == GlobalValue::Kind::Module);
  CHECK(gl.at("math").key == "math");
  CHECK(gl.at("np").key == "numpy");
  CHECK(gl.at("cuda").key == "cuda");
  CHECK(gl.at("numba").key == "numba");
  CHECK(kind("float32") == GlobalValue::Kind::TypeObject);
  CHECK(gl.at("float32").type_object->str() == "float32");
  CHECK(kind("sqrt") == GlobalValue::Kind::Intrinsic);
  CHECK(gl.at("sqrt").key == "math.sqrt");
  CHECK(gl.at("abs").key == "builtins.abs");
  CHECK(gl.at("min").key == "builtins.min");
  CHECK(gl.at("z").constant.type->str() == "int16");
  CHECK(gl.at("z").constant.i == 3);
  CHECK(gl.count("undefined_name") == 0);
}

TEST_CASE("capture rejects functions without source", "[frontend]") {
  testing::Gil gil;
  PyObject* globals = PyDict_New();
  PyDict_SetItemString(globals, "__builtins__", PyEval_GetBuiltins());
  PyObject* r = PyRun_String("def nosrc(a):\n    return a\n", Py_file_input, globals, globals);
  REQUIRE(r != nullptr);
  Py_DECREF(r);
  PyObject* fn = PyDict_GetItemString(globals, "nosrc");
  try {
    frontend::capture(fn);
    FAIL("no error");
  } catch (const UserError& e) {
    CHECK(e.kind() == ErrorKind::RuntimeError);
    CHECK(e.message().find("cannot find the source code of 'nosrc'") == 0);
  }
  try {
    frontend::capture(Py_None);
    FAIL("no error");
  } catch (const UserError& e) {
    CHECK(e.kind() == ErrorKind::TypeError);
    CHECK(e.message() == "cannot compile None: not a Python function");
  }
}
