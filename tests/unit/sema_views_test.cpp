// Typing of array views and tuple operations: the rank and layout numba
// gives a view (integers on the outer dimensions keep C order, a column or a
// stepped or runtime-bounded slice gives 'A', F arrays mirrored), tuple
// concatenation and literal slicing, iteration over a homogeneous tuple.
#include <catch2/catch.hpp>

#include "sema_support.h"

using namespace cuhost;
using cuhost::testing::infer_source;
using cuhost::testing::local_type;

namespace {

struct ViewCase {
  const char* expr;  // uses a (the array), i and j (int64)
  const char* array;
  const char* expected;
};

std::string view_type(const ViewCase& c) {
  std::string src = std::string("def f(a, i, j):\n    r = ") + c.expr + "\n    return r\n";
  auto tf = infer_source(src, "f", {c.array, "int64", "int64"});
  return local_type(*tf, "r");
}

}  // namespace

TEST_CASE("array views get numba's rank and layout", "[sema][arrays]") {
  const std::vector<ViewCase> cases = {
      {"a[i]", "float32[:, ::1]", "array(float32, 1d, C)"},
      {"a[i, :]", "float32[:, ::1]", "array(float32, 1d, C)"},
      {"a[:, j]", "float32[:, ::1]", "array(float32, 1d, A)"},
      {"a[1:3]", "float64[::1]", "array(float64, 1d, C)"},
      {"a[:]", "float64[::1]", "array(float64, 1d, C)"},
      {"a[-3:]", "float64[::1]", "array(float64, 1d, C)"},
      {"a[::2]", "float64[::1]", "array(float64, 1d, A)"},
      {"a[i:j]", "float64[::1]", "array(float64, 1d, C)"},  // numba: any two-part slice
      {"a[i:]", "float64[::1]", "array(float64, 1d, C)"},
      {"a[i:j:1]", "float64[::1]", "array(float64, 1d, A)"},
      {"a[1:3, :]", "float64[:, ::1]", "array(float64, 2d, A)"},
      {"a[i, 1:3]", "float64[:, ::1]", "array(float64, 1d, C)"},
      {"a[i]", "int8[:, :, ::1]", "array(int8, 2d, C)"},
      {"a[i, j]", "int8[:, :, ::1]", "array(int8, 1d, C)"},
      {"a[i]", "float32[:, :]", "array(float32, 1d, A)"},
      {"a[:, j]", "float32[::1, :]", "array(float32, 1d, C)"},  // 1-d F spells C
      {"a[i]", "float32[::1, :]", "array(float32, 1d, A)"},
      {"a[i, :]", "float32[::1, :]", "array(float32, 1d, A)"},
      {"a[i][j]", "float32[:, ::1]", "float32"},
      {"a[i][1:]", "float32[:, ::1]", "array(float32, 1d, C)"},
      {"a[(i, j)]", "float32[:, :, ::1]", "array(float32, 1d, C)"},
  };
  for (const auto& c : cases) {
    INFO(c.expr << " on " << c.array);
    CHECK(view_type(c) == c.expected);
  }
}

TEST_CASE("tuple concatenation, slicing and iteration types", "[sema][arrays]") {
  auto r = [](const char* expr, const char* a) {
    std::string src = std::string("def f(a):\n    r = ") + expr + "\n    return r\n";
    return local_type(*infer_source(src, "f", {a}), "r");
  };
  CHECK(r("a.shape + (1,)", "float32[:, :]") == "UniTuple(int64 x 3)");
  CHECK(r("(a, 1.5) + (2,)", "int32") == "Tuple(int32, float64, int64)");
  CHECK(r("(1, 2.5, a)[1:]", "int32") == "Tuple(float64, int32)");
  CHECK(r("(1, 2.5, a)[::-2]", "int32") == "Tuple(int32, int64)");
  CHECK(r("(1, 2.5, a)[5:]", "int32") == "Tuple()");
  CHECK(r("len((1, 2) + (a,))", "int32") == "int64");
  std::string loop = "def f(a):\n    s = 0.0\n    for x in (a, 2.0, 3.0):\n        s += x\n    return s\n";
  CHECK(local_type(*infer_source(loop, "f", {"float64"}), "x") == "float64");
  std::string over_array = "def f(a):\n    for x in a:\n        r = x\n    return 0\n";
  CHECK(local_type(*infer_source(over_array, "f", {"float32[:, ::1]"}), "r") == "array(float32, 1d, A)");
  CHECK(local_type(*infer_source(over_array, "f", {"int16[::1]"}), "r") == "int16");
}
