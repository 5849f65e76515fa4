// Typing of numba's OptionalType: unification with None, return types of
// device functions that may return None, the contexts that keep or unwrap
// an Optional, the C-ABI flattening and which functions get a status
// channel (TypedFunction::raises).
#include <catch2/catch.hpp>

#include "sema/numeric.h"
#include "sema_support.h"

using namespace cuhost;
using cuhost::testing::infer_source;
using cuhost::testing::local_type;

TEST_CASE("None unifies with values into OptionalType", "[sema][optional]") {
  using namespace cuhost::ir;
  CHECK(sema::unify(none_type(), int64()) == optional(int64()));
  CHECK(sema::unify(float32(), none_type()) == optional(float32()));
  CHECK(sema::unify(optional(int64()), float64()) == optional(float64()));
  CHECK(sema::unify(optional(int32()), none_type()) == optional(int32()));
  CHECK(sema::unify(optional(int32()), optional(int64())) == optional(int64()));
  CHECK(sema::unify(none_type(), none_type()) == none_type());
  CHECK(sema::unify(optional(int64()), array(float32(), 1, Layout::C)) == nullptr);
  CHECK(sema::unify(none_type(), string_literal("s")) == nullptr);
  CHECK(optional(int64())->str() == "OptionalType(int64)");
  // An Optional converts where its payload converts (checked at run time).
  CHECK(sema::can_convert(optional(int32()), float64()));
  CHECK_FALSE(sema::can_convert(optional(int32()), array(float32(), 1, Layout::C)));
  CHECK(sema::can_convert(none_type(), optional(int32())));
}

TEST_CASE("device functions returning None on some paths return OptionalType", "[sema][optional]") {
  auto t1 = infer_source("def f(x):\n    if x > 0:\n        return x\n    return None\n", "f", {"int32"});
  CHECK(t1->return_type->str() == "OptionalType(int32)");
  CHECK_FALSE(t1->raises);  // producing an Optional cannot fail
  auto t2 = infer_source("def f(x):\n    if x > 0:\n        return x\n", "f", {"float32"});
  CHECK(t2->return_type->str() == "OptionalType(float32)");
  auto t3 = infer_source(
      "def f(x):\n    if x > 0:\n        return 1\n    elif x < -5:\n        return\n    return 2.5\n", "f", {"int64"});
  CHECK(t3->return_type->str() == "OptionalType(float64)");
  auto t4 = infer_source("def f(x):\n    return None\n", "f", {"int64"});
  CHECK(t4->return_type->str() == "none");
}

TEST_CASE("Optional locals unwrap where a value is needed", "[sema][optional]") {
  auto tf = infer_source(R"PY(def f(x):
    v = None
    if x > 3:
        v = x
    w = v
    n = v is None
    s = v + 1
    return s
)PY",
                         "f", {"int32"});
  CHECK(local_type(*tf, "v") == "none");  // versions: None, x, their join
  CHECK(local_type(*tf, "v.1") == "int32");
  CHECK(local_type(*tf, "v.2") == "OptionalType(int32)");
  CHECK(local_type(*tf, "w") == "OptionalType(int32)");  // assignment keeps the Optional
  CHECK(local_type(*tf, "n") == "bool");
  CHECK(local_type(*tf, "s") == "int64");  // v + 1 uses the payload
  CHECK(tf->return_type->str() == "int64");
  CHECK(tf->raises);  // the unwrap of v can meet a None

  auto tg = infer_source(
      "def g(x):\n    v = None\n    if x > 3:\n        v = x\n    if v is not None:\n        pass\n"
      "    return v\n",
      "g", {"int32"});
  CHECK_FALSE(tg->raises);  // only tested and returned
}

TEST_CASE("C-ABI functions flatten an Optional return", "[sema][optional]") {
  testing::Gil gil;
  PyObject* g = testing::load_module(R"PY(from numba import cuda
@cuda.jit(device=True)
def maybe(x):
    if x > 0:
        return x
@cuda.jit(device=True, abi="c")
def flat(x):
    return maybe(x)
@cuda.jit(device=True)
def unwraps(x):
    return maybe(x) * 2
def k(out, a):
    i = cuda.grid(1)
    out[i] = flat(a[i]) + unwraps(a[i])
)PY");
  auto tf = sema::infer_kernel(testing::jit_of(g, "k"), testing::types_of({"int32[::1]", "int32[::1]"}));
  REQUIRE(tf->callees.size() == 2);
  CHECK(tf->callees[0]->signature() == "(int32) -> int32");  // flat: OptionalType(int32) flattened
  CHECK_FALSE(tf->callees[0]->raises);                       // the C ABI has no status
  REQUIRE(tf->callees[0]->callees.size() == 1);
  CHECK(tf->callees[0]->callees[0]->signature() == "(int32) -> OptionalType(int32)");
  CHECK(tf->callees[1]->signature() == "(int32) -> int64");
  CHECK(tf->callees[1]->raises);
  CHECK_FALSE(tf->raises);  // kernels have no status channel
}
