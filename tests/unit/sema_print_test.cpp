// Typing of print() (sema/typing/print.cpp): the ExprInfo contract of
// "builtins.print" in sema/intrinsics.h for every printable kind of value.
#include <catch2/catch.hpp>

#include "sema_support.h"

using namespace cuhost;

TEST_CASE("print: typing converts each item to its printf type", "[print]") {
  auto tf = testing::infer_source(R"PY(from numba import cuda
import numpy as np
def f(a, u, x, b):
    print("v", a, np.int8(a), u, x, np.float32(x), b, a > 1, cuda.threadIdx)
)PY",
                                  "f", {"int32", "uint16", "float64", "bool"});
  const auto& stmt = static_cast<const ast::ExprStmt&>(*tf->captured->def->body[0]);
  const sema::ExprInfo& inf = tf->info(stmt.value.get());
  CHECK(inf.intrinsic == "builtins.print");
  CHECK(inf.type->str() == "none");
  REQUIRE(inf.ordered_args.size() == 9);
  std::vector<std::string> params;
  for (const ir::Type* t : inf.param_types) params.push_back(t ? t->str() : "-");
  CHECK(params == std::vector<std::string>{"-", "int64", "int64", "uint64", "float64", "float64", "bool", "bool", "-"});
  CHECK(tf->info(inf.ordered_args[0]).type->kind == ir::TypeKind::StringLiteral);
  CHECK(tf->info(inf.ordered_args[0]).type->key == "v");
  CHECK(tf->info(inf.ordered_args[8]).type->key == "cuda.threadIdx");
}
