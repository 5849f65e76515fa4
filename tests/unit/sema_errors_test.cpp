// Bad kernels, table-driven: each case asserts the error class, the exact
// message, and the line and column it points at. Covers constructs capture
// rejects and typing errors (operands, names, cuda API misuse, indexing,
// unification, calls).
#include <catch2/catch.hpp>

#include "sema_support.h"

using namespace cuhost;

namespace {

struct BadCase {
  const char* source;
  std::vector<std::string> args;
  bool kernel;
  ErrorKind kind;
  const char* message;
  int line;
  int column;
};

const char* kFunc = "f";

}  // namespace

TEST_CASE("bad kernels report the error, message, line and column", "[sema][frontend]") {
  const std::vector<BadCase> cases = {
      // ---- constructs outside the kernel language (capture) ----
      {"def f(a):\n    try:\n        a[0] = 1\n    except Exception:\n        pass\n", {"float32[:]"}, true,
       ErrorKind::UnsupportedError, "try statements are not supported in kernels", 2, 5},
      {"def f(a):\n    with a:\n        pass\n", {"float32[:]"}, true, ErrorKind::UnsupportedError,
       "with statements are not supported in kernels", 2, 5},
      {"def f(a):\n    g = lambda x: x\n", {"float32[:]"}, true, ErrorKind::UnsupportedError,
       "lambda expressions are not supported in kernels", 2, 9},
      {"def f(a):\n    yield a\n", {"float32[:]"}, true, ErrorKind::UnsupportedError,
       "generators (yield) are not supported in kernels", 2, 5},
      {"def f(a):\n    b = [x for x in range(3)]\n", {"float32[:]"}, true, ErrorKind::UnsupportedError,
       "comprehensions are not supported in kernels", 2, 9},
      {"def f(a):\n    b = sum(x for x in range(3))\n", {"float32[:]"}, true, ErrorKind::UnsupportedError,
       "generator expressions are not supported in kernels", 2, 12},
      {"def f(a):\n    b = f\"{a}\"\n", {"float32[:]"}, true, ErrorKind::UnsupportedError,
       "f-strings are not supported in kernels", 2, 9},
      {"def f(a):\n    g(*a)\n", {"float32[:]"}, true, ErrorKind::UnsupportedError,
       "starred arguments (*args) are not supported in kernels", 2, 7},
      {"def f(a):\n    del a\n", {"float32[:]"}, true, ErrorKind::UnsupportedError,
       "del statements are not supported in kernels", 2, 5},
      {"def f(a):\n    global X\n    X = 1\n", {"float32[:]"}, true, ErrorKind::UnsupportedError,
       "global statements are not supported in kernels", 2, 5},
      {"def f(a):\n    import math\n", {"float32[:]"}, true, ErrorKind::UnsupportedError,
       "import statements are not supported in kernels", 2, 5},
      {"def f(a):\n    assert a[0] > 0\n", {"float32[:]"}, true, ErrorKind::UnsupportedError,
       "assert statements are not supported in kernels", 2, 5},
      {"def f(a):\n    for i in range(3):\n        pass\n    else:\n        a[0] = 1\n", {"float32[:]"}, true,
       ErrorKind::UnsupportedError, "else clauses on loops are not supported in kernels", 5, 9},
      {"def f(a):\n    while a[0] > 0:\n        pass\n    else:\n        pass\n", {"float32[:]"}, true,
       ErrorKind::UnsupportedError, "else clauses on loops are not supported in kernels", 5, 9},
      {"def f(a):\n    def g():\n        pass\n", {"float32[:]"}, true, ErrorKind::UnsupportedError,
       "nested function definitions are not supported in kernels", 2, 5},
      {"def f(a):\n    class C:\n        pass\n", {"float32[:]"}, true, ErrorKind::UnsupportedError,
       "class definitions are not supported in kernels", 2, 5},
      {"def f(a):\n    if (b := a[0]) > 0:\n        pass\n", {"float32[:]"}, true, ErrorKind::UnsupportedError,
       "assignment expressions (:=) are not supported in kernels", 2, 9},
      {"def f(a):\n    b = {}\n", {"float32[:]"}, true, ErrorKind::UnsupportedError,
       "dict literals are not supported in kernels", 2, 9},
      {"def f(a):\n    b = {1, 2}\n", {"float32[:]"}, true, ErrorKind::UnsupportedError,
       "set literals are not supported in kernels", 2, 9},
      {"def f(a, b=1):\n    pass\n", {"float32[:]", "int64"}, true, ErrorKind::UnsupportedError,
       "default argument values are not supported in kernels", 1, 12},
      {"def f(*args):\n    pass\n", {}, true, ErrorKind::UnsupportedError, "*args is not supported in kernels", 1, 8},
      {"def f(a, **kw):\n    pass\n", {"int64"}, true, ErrorKind::UnsupportedError,
       "**kwargs is not supported in kernels", 1, 12},
      {"def f(a):\n    raise ValueError(\"x\")\n", {"float32[:]"}, true, ErrorKind::UnsupportedError,
       "raise statements are not supported in kernels", 2, 5},
      {"def f(a):\n    a.x = 1\n", {"float32[:]"}, true, ErrorKind::UnsupportedError,
       "assignment to attributes is not supported in kernels", 2, 5},
      {"def f(a):\n    b = 1 in a\n", {"float32[:]"}, true, ErrorKind::UnsupportedError,
       "the 'in' operator is not supported in kernels", 2, 9},
      {"def f(a):\n    b = a @ a\n", {"float32[:]"}, true, ErrorKind::UnsupportedError,
       "the @ operator is not supported in kernels", 2, 9},
      {"def f(a):\n    b = b\"x\"\n", {"float32[:]"}, true, ErrorKind::UnsupportedError,
       "bytes literals are not supported in kernels", 2, 9},
      {"class K:\n    def f(a):\n        b = {}\n", {"float32[:]"}, true, ErrorKind::UnsupportedError,
       "dict literals are not supported in kernels", 3, 13},
      // ---- typing ----
      {"def f(a):\n    b = a + \"x\"\n", {"float32"}, false, ErrorKind::TypingError, "cannot add float32 and str", 2, 9},
      {"def f(a):\n    b = a - a\n", {"float32[:]"}, false, ErrorKind::TypingError,
       "cannot subtract array(float32, 1d, A) and array(float32, 1d, A)", 2, 9},
      {"def f(a):\n    b = a << 1.5\n", {"int32"}, false, ErrorKind::TypingError,
       "cannot left-shift int32 and float64", 2, 9},
      {"def f(a):\n    b = a & 1\n", {"float32"}, false, ErrorKind::TypingError, "cannot bitwise-and float32 and int64", 2,
       9},
      {"def f(a):\n    b = foo + 1\n", {"float32"}, false, ErrorKind::NameError, "name 'foo' is not defined", 2, 9},
      {"from numba import cuda\ndef f(a):\n    i = cuda.grid(a)\n", {"int64"}, true, ErrorKind::TypingError,
       "cuda.grid() needs a literal 1, 2 or 3", 3, 19},
      {"from numba import cuda\ndef f(a):\n    i = cuda.grid(4)\n", {"int64"}, true, ErrorKind::TypingError,
       "cuda.grid() needs a literal 1, 2 or 3", 3, 19},
      {"from numba import cuda\ndef f(a):\n    i = cuda.gridsize(0)\n", {"int64"}, true, ErrorKind::TypingError,
       "cuda.gridsize() needs a literal 1, 2 or 3", 3, 23},
      {"def f(a):\n    return 1\n", {"int64"}, true, ErrorKind::TypingError, "kernels must not return a value", 2, 5},
      {"from numba import cuda\ndef f(a):\n    b = cuda.foo\n", {"int64"}, true, ErrorKind::TypingError,
       "module 'cuda' has no attribute 'foo'", 3, 9},
      {"import math\ndef f(a):\n    b = math.tau2\n", {"int64"}, true, ErrorKind::TypingError,
       "module 'math' has no attribute 'tau2'", 3, 9},
      {"def f(a):\n    b = a.bar\n", {"float32[::1]"}, true, ErrorKind::TypingError,
       "array(float32, 1d, C) has no attribute 'bar'", 2, 9},
      {"import math\ndef f(a):\n    b = math.sin(a, a)\n", {"float32"}, false, ErrorKind::TypingError,
       "sin() takes 1 argument (2 given)", 3, 9},
      {"import math\ndef f(a):\n    b = math.atan2(a)\n", {"float32"}, false, ErrorKind::TypingError,
       "atan2() takes 2 arguments (1 given)", 3, 9},
      {"def f(a):\n    x = 1\n    x = a\n", {"float32[:]"}, true, ErrorKind::TypingError,
       "cannot unify int64 and array(float32, 1d, A) for variable 'x'", 3, 5},
      {"def f(a):\n    b = y\n    y = b\n", {"int64"}, true, ErrorKind::NameError,
       "local variable 'y' is referenced before assignment", 2, 9},
      {"def f(a):\n    b = a[1.5]\n", {"float32[:]"}, true, ErrorKind::TypingError,
       "array index must be an integer, not float64", 2, 11},
      {"def f(a):\n    b = a[0]\n", {"float32[:, :]"}, true, ErrorKind::UnsupportedError,
       "partial indexing of array(float32, 2d, A) with 1 index is not supported in kernels (index all 2 dimensions)",
       2, 9},
      {"def f(a):\n    b = a[0, 1]\n", {"float32[:]"}, true, ErrorKind::TypingError,
       "too many indices for array(float32, 1d, A): 2 given", 2, 9},
      {"def f(a):\n    b = a[1:3]\n", {"float32[:]"}, true, ErrorKind::UnsupportedError,
       "array slicing is not supported in kernels", 2, 11},
      {"def f(a):\n    b = (1, 2)[5]\n", {"int64"}, true, ErrorKind::IndexError, "tuple index out of range", 2, 9},
      {"def f(a):\n    t = (1, 2.0)\n    b = t[a]\n", {"int64"}, true, ErrorKind::TypingError,
       "an index into Tuple(int64, float64) must be a literal integer", 3, 11},
      {"def f(a):\n    b = a[0]\n", {"float32"}, true, ErrorKind::TypingError, "'float32' object is not subscriptable",
       2, 9},
      {"import numpy as np\nT = np.zeros(3)\ndef f(a):\n    T[0] = a\n", {"float64"}, true, ErrorKind::TypingError,
       "cannot store into a readonly array(float64, 1d, C)", 4, 5},
      {"def f(a, b):\n    a[0] = b\n", {"float32[:]", "float32[:]"}, true, ErrorKind::TypingError,
       "cannot store a value of type array(float32, 1d, A) into an element of type float32", 2, 5},
      {"import numpy as np\nfrom numba import cuda\ndef f(a):\n    s = cuda.shared.array(a, np.float32)\n", {"int64"},
       true, ErrorKind::TypingError, "cuda.shared.array() needs a literal shape (an integer or a tuple of integers)",
       4, 27},
      {"from numba import cuda\ndef f(a):\n    s = cuda.shared.array(4, 3)\n", {"int64"}, true,
       ErrorKind::TypingError, "cuda.shared.array() needs a dtype such as float32 or np.float32, not int64", 3, 30},
      {"import numpy as np\nfrom numba import cuda\ndef f(a):\n    s = cuda.shared.array(4, np.float32, foo=1)\n",
       {"int64"}, true, ErrorKind::TypingError, "array() got an unexpected keyword argument 'foo'", 4, 42},
      {"import numpy as np\nfrom numba import cuda\ndef f(a):\n    s = cuda.shared.array(4)\n", {"int64"}, true,
       ErrorKind::TypingError, "array() takes 2 arguments (1 given)", 4, 9},
      {"from numba import cuda\ndef f(a):\n    cuda.atomic.and_(a, 0, 1)\n", {"float32[:]"}, true,
       ErrorKind::TypingError, "cuda.atomic.and_() does not support array(float32, 1d, A)", 3, 5},
      {"from numba import cuda\ndef f(a):\n    cuda.atomic.add(a, 0, 1)\n", {"float32[:, :]"}, true,
       ErrorKind::TypingError, "cuda.atomic.add(): an index into array(float32, 2d, A) needs 2 integers", 3, 24},
      {"from numba import cuda\ndef f(a):\n    cuda.atomic.add(a[0], 0, 1)\n", {"float32[:]"}, true,
       ErrorKind::TypingError, "cuda.atomic.add() needs an array as its first argument, not float32", 3, 21},
      {"from cffi import FFI\nffi = FFI()\ndef f(a):\n    p = ffi.from_buffer(a)\n", {"float32[:]"}, true,
       ErrorKind::TypingError, "ffi.from_buffer() needs a C- or F-contiguous array, got array(float32, 1d, A)", 4,
       25},
      {"def f(a):\n    for i in range(a):\n        pass\n", {"float32"}, true, ErrorKind::TypingError,
       "range() arguments must be integers, not float32", 2, 20},
      {"def f(a):\n    for i in range(1, 10, 0):\n        pass\n", {"float32"}, true, ErrorKind::ValueError,
       "range() arg 3 must not be zero", 2, 27},
      {"def f(a):\n    for i in a:\n        pass\n", {"float32[:]"}, true, ErrorKind::UnsupportedError,
       "for loops in kernels only iterate over range(...)", 2, 14},
      {"def f(a):\n    if a:\n        pass\n", {"float32[:]"}, true, ErrorKind::TypingError,
       "cannot use a value of type array(float32, 1d, A) as a condition", 2, 8},
      {"def f(a):\n    b = a.shape[2]\n", {"int64[:, :]"}, true, ErrorKind::IndexError, "tuple index out of range", 2, 9},
      {"X = [1, 2]\ndef f(a):\n    b = X\n", {"int64"}, true, ErrorKind::TypingError,
       "untyped global name 'X': cannot determine the type of [1, 2]", 3, 9},
      {"def f(a):\n    pass\n", {"int64", "int64"}, true, ErrorKind::TypeError,
       "f() takes 1 positional argument but 2 were given", 1, 1},
      {"def f(a):\n    print(a)\n", {"int64"}, true, ErrorKind::UnsupportedError, "print() is not supported in kernels",
       2, 5},
      {"from numba import cuda\ndef f(a):\n    b = cuda.shfl_sync(0xffffffff, a, 0)\n", {"float32[:]"}, true,
       ErrorKind::TypingError, "shfl_sync() cannot shuffle a value of type array(float32, 1d, A)", 3, 36},
      {"from numba import cuda\ndef f(a):\n    cuda.syncthreads(a)\n", {"int64"}, true, ErrorKind::TypingError,
       "syncthreads() takes 0 arguments (1 given)", 3, 5},
      {"def f(a):\n    b = a(1)\n", {"int64"}, true, ErrorKind::TypingError, "'int64' object is not callable", 2, 9},
      {"def f(a):\n    b = 1 if a else a\n    c = b < \"s\"\n", {"int64"}, true, ErrorKind::TypingError,
       "cannot compare int64 and str with '<'", 3, 9},
      {"def f(a):\n    b = a is a\n", {"int64"}, true, ErrorKind::TypingError,
       "'is' comparisons in kernels are only supported with None", 2, 9},
      {"def f(a):\n    b = round(a, 1.5)\n", {"float64"}, true, ErrorKind::TypingError,
       "round() ndigits must be an integer, not float64", 2, 18},
      {"def f(a):\n    b = len(a)\n", {"float64"}, true, ErrorKind::TypingError,
       "len() of unsized object of type float64", 2, 9},
      {"def f(a):\n    b = min(a)\n", {"float64"}, true, ErrorKind::TypingError,
       "min() in kernels takes at least 2 scalar arguments (1 given)", 2, 9},
      {"def f(a):\n    x, y, z = a.shape\n", {"float64[:, :]"}, true, ErrorKind::TypingError,
       "cannot unpack a value of type UniTuple(int64 x 2) into 3 variables", 2, 5},
      {"def f(a):\n    if a > 0:\n        return 1\n", {"int64"}, false, ErrorKind::TypingError,
       "device function 'f' returns a value on some paths and falls off the end (returning None) on others", 1, 1},
      {"def f(a):\n    if a[0] > 0:\n        return 1\n    return a\n", {"float32[:]"}, false, ErrorKind::TypingError,
       "cannot unify return types int64 and array(float32, 1d, A)", 4, 5},
      {"import numpy as np\ndef f(a):\n    b = np.float32(a)\n", {"float32[:]"}, false, ErrorKind::TypingError,
       "cannot convert array(float32, 1d, A) to float32", 3, 9},
      {"def f(a):\n    b = 123456789012345678901234567890\n", {"int64"}, false, ErrorKind::TypingError,
       "integer literal 123456789012345678901234567890 does not fit in 64 bits", 2, 9},
  };
  int index = 0;
  for (const auto& c : cases) {
    INFO("case " << index++ << ":\n" << c.source);
    testing::Gil gil;
    bool thrown = false;
    try {
      PyObject* g = testing::load_module(c.source);
      PyObject* obj = PyDict_GetItemString(g, kFunc);
      if (!obj) {
        // Method inside a class body.
        PyObject* cls = PyDict_GetItemString(g, "K");
        REQUIRE(cls != nullptr);
        obj = PyObject_GetAttrString(cls, kFunc);
      }
      REQUIRE(obj != nullptr);
      auto fn = std::make_shared<runtime::JitFunction>();
      fn->name = kFunc;
      fn->captured = frontend::capture(obj);
      auto types = testing::types_of(c.args);
      if (c.kernel) {
        sema::infer_kernel(fn, types);
      } else {
        sema::infer_device(fn, types);
      }
    } catch (const UserError& e) {
      thrown = true;
      CHECK(error_kind_name(e.kind()) == std::string(error_kind_name(c.kind)));
      CHECK(e.message() == c.message);
      CHECK(e.location().line == c.line);
      CHECK(e.location().column == c.column);
      CHECK(e.function() == "f");
      CHECK_FALSE(e.location().source_line.empty());
    }
    CHECK(thrown);
  }
}

TEST_CASE("errors in device functions carry a note naming the call", "[sema]") {
  testing::Gil gil;
  PyObject* g = testing::load_module(R"PY(from numba import cuda
@cuda.jit(device=True)
def helper(x):
    return x + "s"
def k(a):
    a[0] = helper(a[0])
)PY");
  auto fn = testing::jit_of(g, "k");
  try {
    sema::infer_kernel(fn, testing::types_of({"float32[:]"}));
    FAIL("no error");
  } catch (const UserError& e) {
    CHECK(e.message() == "cannot add float32 and str");
    CHECK(e.function() == "helper");
    CHECK(e.location().line == 4);
    CHECK(e.location().column == 12);
    REQUIRE(e.notes().size() == 1);
    CHECK(e.notes()[0].find("while typing call to device function 'helper'") == 0);
  }
}

TEST_CASE("recursion between device functions is reported", "[sema]") {
  testing::Gil gil;
  PyObject* g = testing::load_module(R"PY(from numba import cuda
@cuda.jit(device=True)
def r(n):
    return r(n - 1)
def k(a):
    a[0] = r(3)
)PY");
  auto fn = testing::jit_of(g, "k");
  try {
    sema::infer_kernel(fn, testing::types_of({"int64[:]"}));
    FAIL("no error");
  } catch (const UserError& e) {
    CHECK(e.kind() == ErrorKind::TypingError);
    CHECK(e.message() == "recursive calls are not supported in kernels (k -> r -> r)");
  }
}
