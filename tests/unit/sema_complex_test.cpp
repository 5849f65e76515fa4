// Typing of complex numbers: numba's promotion of complex64/complex128 with
// other numbers, the .real/.imag/.conjugate() members, complex(a, b), casts,
// cmath result types, signature spellings, and the errors for what numba
// refuses (ordering, floor division, math functions, atomics).
#include <catch2/catch.hpp>

#include "ir/type_parser.h"
#include "sema_support.h"

using namespace cuhost;
using cuhost::testing::infer_source;
using cuhost::testing::local_type;

namespace {

std::string type_of(const char* expr, std::vector<std::string> args) {
  std::string src = std::string("import cmath\nimport numpy as np\nfrom numba import cuda\n") +
                    "def f(a, b):\n    r = " + expr + "\n    return r\n";
  while (args.size() < 2) args.push_back("int64");
  auto tf = infer_source(src, "f", args);
  return local_type(*tf, "r");
}

}  // namespace

TEST_CASE("complex typing follows numba", "[sema][complex]") {
  struct Case {
    const char* expr;
    std::vector<std::string> args;
    const char* expected;
  };
  const std::vector<Case> cases = {
      {"1j", {}, "complex128"},
      {"a * b", {"complex64", "complex64"}, "complex64"},
      {"a / b", {"complex64", "float32"}, "complex64"},
      {"a - b", {"complex64", "float64"}, "complex128"},
      {"a + b", {"complex64", "int64"}, "complex128"},
      {"a + b", {"complex64", "int16"}, "complex64"},
      {"a + b", {"complex64", "complex128"}, "complex128"},
      {"a * 1j", {"float32"}, "complex128"},
      {"-a", {"complex64"}, "complex64"},
      {"a ** 2", {"complex64"}, "complex128"},
      {"a ** b", {"complex128", "complex128"}, "complex128"},
      {"a.real", {"complex64"}, "float32"},
      {"a.imag", {"complex128"}, "float64"},
      {"a.real", {"float32"}, "float32"},
      {"a.imag", {"int32"}, "int32"},
      {"a.conjugate()", {"complex64"}, "complex64"},
      {"abs(a)", {"complex64"}, "float32"},
      {"a == b", {"complex64", "float64"}, "bool"},
      {"complex(a, b)", {"float32", "float32"}, "complex64"},
      {"complex(a, b)", {"float32", "float64"}, "complex128"},
      {"complex(a, b)", {"int64", "int64"}, "complex128"},
      {"complex(a)", {"float32"}, "complex64"},
      {"complex(a)", {"complex64"}, "complex64"},
      {"complex(a)", {"int32"}, "complex128"},
      {"np.complex64(a)", {"float64"}, "complex64"},
      {"bool(a)", {"complex64"}, "bool"},
      {"a if b else 1.5", {"complex64", "bool"}, "complex128"},
      {"np.complex128(a)", {"complex64"}, "complex128"},
      {"cmath.sqrt(a)", {"complex64"}, "complex64"},
      {"cmath.exp(a)", {"float32"}, "complex64"},
      {"cmath.log(a)", {"float64"}, "complex128"},
      {"cmath.log(a, b)", {"complex64", "float64"}, "complex128"},
      {"cmath.phase(a)", {"complex64"}, "float32"},
      {"cmath.polar(a)", {"complex128"}, "UniTuple(float64 x 2)"},
      {"cmath.rect(a, b)", {"float32", "float32"}, "complex64"},
      {"cmath.rect(a, b)", {"float32", "int64"}, "complex128"},
      {"cmath.isnan(a)", {"complex64"}, "bool"},
      {"cmath.atanh(a)", {"complex64"}, "complex64"},
      {"cmath.acos(a)", {"int64"}, "complex128"},
      {"cmath.isfinite(a)", {"int64"}, "bool"},
      {"cmath.pi * a", {"complex64"}, "complex128"},
      {"np.sqrt(a)", {"complex64"}, "complex64"},
      {"np.sqrt(a)", {"float32"}, "float32"},
      {"np.sqrt(a)", {"int64"}, "float64"},
      {"np.arcsinh(a)", {"complex128"}, "complex128"},
      {"np.abs(a)", {"complex64"}, "float32"},
      {"np.absolute(a)", {"int16"}, "int16"},
      {"np.conj(a)", {"complex64"}, "complex64"},
      {"np.conjugate(a)", {"float64"}, "float64"},
      {"np.isnan(a)", {"complex128"}, "bool"},
      {"np.real(a)", {"complex64"}, "float32"},
      {"np.imag(a)", {"int32"}, "int32"},
      {"np.angle(a)", {"complex128"}, "float64"},
  };
  for (const auto& c : cases) {
    INFO(c.expr << " with " << (c.args.empty() ? "" : c.args[0]) << ", " << (c.args.size() > 1 ? c.args[1] : ""));
    CHECK(type_of(c.expr, c.args) == c.expected);
  }
}

TEST_CASE("complex signature spellings", "[sema][complex]") {
  CHECK(ir::parse_type("complex64") == ir::complex64());
  CHECK(ir::parse_type("c8") == ir::complex64());
  CHECK(ir::parse_type("complex128") == ir::complex128());
  CHECK(ir::parse_type("c16") == ir::complex128());
  CHECK(ir::parse_type("c8[:, ::1]")->str() == "array(complex64, 2d, C)");
}

TEST_CASE("complex values unify with reals where versions of a variable meet", "[sema][complex]") {
  // Each version of r has its own type (numba's SSA versions); they unify at a join.
  auto tf = infer_source("def f(a, z):\n    r = a\n    r = z\n    return r\n", "f", {"float32", "complex64"});
  CHECK(local_type(*tf, "r") == "float32");
  CHECK(local_type(*tf, "r.1") == "complex64");
  CHECK(tf->return_type->str() == "complex64");
  auto tj = infer_source("def f(a, z, c):\n    r = a\n    if c:\n        r = z\n    return r\n", "f",
                         {"float32", "complex64", "boolean"});
  CHECK(local_type(*tj, "r.2") == "complex64");  // the join of float32 and complex64
  CHECK(tj->return_type->str() == "complex64");
}

TEST_CASE("complex misuse is a clear error at its location", "[sema][complex]") {
  struct Bad {
    const char* body;  // the statement on line 7, column 5
    std::vector<std::string> args;
    const char* message;
    int column;
  };
  const std::vector<Bad> cases = {
      {"r = a < b", {"complex64", "complex64"}, "cannot order complex values (complex64 and complex64)", 9},
      {"r = a >= 1.0", {"complex128", "int64"}, "cannot order complex values (complex128 and float64)", 9},
      {"r = a // b", {"complex128", "complex128"}, "cannot floor-divide complex128 and complex128", 9},
      {"r = a % 2", {"complex64", "int64"}, "cannot take the modulo of complex64 and int64", 9},
      {"r = math.sqrt(a)", {"complex128", "int64"}, "sqrt() needs a real number, not complex128", 19},
      {"r = int(a)", {"complex64", "int64"}, "cannot convert complex64 to int64", 9},
      {"r = np.float32(a)", {"complex64", "int64"}, "cannot convert complex64 to float32", 9},
      {"r = ~a", {"complex64", "int64"}, "cannot apply unary '~' to complex64", 9},
      {"r = complex(a, b)",
       {"complex64", "float32"},
       "complex() arguments in kernels must be real numbers, not complex64",
       17},
      {"r = cmath.rect(a, b)", {"complex64", "float32"}, "cmath.rect() needs a real number, not complex64", 20},
      {"r = a.conjugate(1)", {"complex64", "int64"}, "conjugate() takes no arguments (1 given)", 9},
      {"r = cuda.atomic.add(b, 0, a)",
       {"complex64", "complex64[:]"},
       "cuda.atomic.add() does not support array(complex64, 1d, A)",
       9},
      {"r = max(a, b)", {"complex64", "float32"}, "max() arguments must be real numbers, not complex64", 13},
  };
  for (const auto& c : cases) {
    INFO(c.body);
    std::string src =
        std::string("import cmath\nimport math\nimport numpy as np\nfrom numba import cuda\n\ndef f(a, b):\n    ") +
        c.body + "\n    return 0\n";
    bool thrown = false;
    try {
      infer_source(src, "f", c.args);
    } catch (const UserError& e) {
      thrown = true;
      CHECK(e.kind() == ErrorKind::TypingError);
      CHECK(e.message() == c.message);
      CHECK(e.location().line == 7);
      CHECK(e.location().column == c.column);
      CHECK(e.function() == "f");
    }
    CHECK(thrown);
  }
}
