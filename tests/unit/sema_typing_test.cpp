// Typing unit tests: numba's rules for literals, arithmetic, division and
// modulo, comparisons, unification, builtins, math, casts, tuples, arrays
// and the cuda API, checked on captured Python functions.
#include <catch2/catch.hpp>

#include <set>

#include "sema/intrinsics.h"
#include "sema_support.h"

using namespace cuhost;
using cuhost::testing::infer_source;
using cuhost::testing::local_type;

namespace {

struct ExprCase {
  const char* expr;  // uses a, b, c
  std::vector<std::string> args;
  const char* expected;
};

std::string type_of_expr(const ExprCase& c) {
  std::string src = std::string("import math\nimport numpy as np\nfrom numba import cuda\n") +
                    "def f(a, b, c):\n    r = " + c.expr + "\n    return r\n";
  std::vector<std::string> args = c.args;
  while (args.size() < 3) args.push_back("int64");
  auto tf = infer_source(src, "f", args);
  return local_type(*tf, "r");
}

}  // namespace

TEST_CASE("expression typing follows numba", "[sema]") {
  const std::vector<ExprCase> cases = {
      // literals
      {"1", {}, "int64"},
      {"1.5", {}, "float64"},
      {"True", {}, "bool"},
      {"18446744073709551615", {}, "uint64"},
      {"np.float32(2)", {}, "float32"},
      // integer arithmetic widens to 64 bits
      {"a + b", {"int32", "int32"}, "int64"},
      {"a + b", {"int8", "uint8"}, "int64"},
      {"a + b", {"uint32", "uint32"}, "uint64"},
      {"a + b", {"uint64", "uint64"}, "uint64"},
      {"a + b", {"int64", "uint64"}, "int64"},  // numba's integer_binop_cases, not NumPy
      {"a | b", {"uint64", "int64"}, "int64"},
      {"a - b", {"uint32", "int64"}, "int64"},
      {"a * b", {"bool", "bool"}, "int64"},
      {"a + 1", {"uint64"}, "int64"},
      // floats
      {"a + b", {"float32", "float32"}, "float32"},
      {"a + b", {"float32", "float64"}, "float64"},
      {"a + b", {"float32", "int64"}, "float64"},
      {"a + b", {"float32", "int32"}, "float64"},
      {"a + b", {"float32", "int16"}, "float32"},
      {"a * 2", {"float32"}, "float64"},
      {"a * 2.0", {"float32"}, "float64"},
      {"a * np.float32(2)", {"float32"}, "float32"},
      {"a + b", {"complex64", "float32"}, "complex64"},
      {"a + b", {"complex64", "float64"}, "complex128"},
      // true division
      {"a / b", {"int64", "int64"}, "float64"},
      {"a / b", {"int32", "int32"}, "float64"},
      {"a / b", {"float32", "float32"}, "float32"},
      {"a / b", {"float32", "int64"}, "float64"},
      // floor division and modulo (Python semantics, numba types)
      {"a // b", {"int64", "int64"}, "int64"},
      {"-7 // 2", {}, "int64"},
      {"a % b", {"int32", "int32"}, "int64"},
      {"-7 % b", {"int64", "int64"}, "int64"},
      {"a // b", {"float32", "float32"}, "float32"},
      {"a % b", {"float64", "int64"}, "float64"},
      {"a % b", {"uint32", "uint32"}, "uint64"},
      // power
      {"a ** b", {"int64", "int64"}, "int64"},
      {"a ** 2", {"float32"}, "float32"},
      {"a ** b", {"float32", "int32"}, "float32"},
      {"a ** b", {"float64", "uint8"}, "float64"},
      {"a ** b", {"int32", "float32"}, "float64"},
      {"a ** b", {"uint32", "uint8"}, "uint64"},
      {"a ** b", {"float32", "float32"}, "float32"},
      // bitwise and shifts
      {"a & b", {"int32", "int32"}, "int64"},
      {"a | b", {"bool", "bool"}, "bool"},
      {"a << 2", {"uint32"}, "uint64"},
      {"a << b", {"int32", "uint64"}, "int64"},
      {"a >> 3", {"uint64"}, "uint64"},
      {"a >> b", {"uint64", "uint32"}, "uint64"},
      {"a ^ b", {"uint8", "uint16"}, "uint64"},
      // unary
      {"-a", {"bool"}, "int64"},
      {"-a", {"int32"}, "int64"},
      {"-a", {"float32"}, "float32"},
      {"~a", {"uint32"}, "uint64"},
      {"not a", {"float64"}, "bool"},
      // comparisons and boolean operators
      {"a < b", {"float32", "int64"}, "bool"},
      {"a < b < c", {"int32", "float64", "uint8"}, "bool"},
      {"a == b", {"int64", "uint64"}, "bool"},
      {"a is None", {"float32"}, "bool"},
      {"a > 0 and b > 0", {"int32", "int32"}, "bool"},
      {"a or b", {"int32", "float32"}, "float64"},
      {"a if c else b", {"int32", "float32", "bool"}, "float64"},
      // builtins
      {"abs(a)", {"int32"}, "int32"},
      {"abs(a)", {"float32"}, "float32"},
      {"abs(a)", {"complex128"}, "float64"},
      {"min(a, b)", {"int32", "int32"}, "int32"},
      {"max(a, b)", {"int32", "float32"}, "float64"},
      {"max(a, b, c)", {"int8", "int16", "uint8"}, "int16"},
      {"round(a)", {"float32"}, "int64"},
      {"round(a, 2)", {"float32"}, "float32"},
      {"round(a, 2)", {"float64"}, "float64"},
      {"int(a)", {"float32"}, "int64"},
      {"float(a)", {"int32"}, "float64"},
      {"float(a)", {"float32"}, "float32"},
      {"int(a)", {"int16"}, "int16"},
      {"int(a)", {"bool"}, "int64"},
      {"bool(a)", {"int32"}, "bool"},
      {"len(a)", {"float32[:, :]"}, "int64"},
      {"len((1, 2, 3))", {}, "int64"},
      // math
      {"math.sqrt(a)", {"float32"}, "float32"},
      {"math.sqrt(a)", {"int64"}, "float64"},
      {"math.sin(a)", {"float64"}, "float64"},
      {"math.atan2(a, b)", {"float32", "float32"}, "float32"},
      {"math.atan2(a, b)", {"float32", "float64"}, "float64"},
      {"math.pow(a, b)", {"int32", "int32"}, "float64"},
      {"math.floor(a)", {"float32"}, "int64"},
      {"math.ceil(a)", {"float64"}, "int64"},
      {"math.trunc(a)", {"int32"}, "int64"},
      {"math.floor(a)", {"uint64"}, "uint64"},
      {"math.isnan(a)", {"float32"}, "bool"},
      {"math.isinf(a)", {"int32"}, "bool"},
      {"math.pi", {}, "float64"},
      {"math.inf * a", {"float32"}, "float64"},
      {"np.sqrt(a)", {"float32"}, "float32"},
      {"math.erf(a)", {"float32"}, "float32"},
      // casts by type objects
      {"np.float32(a)", {"float64"}, "float32"},
      {"np.int16(a)", {"float64"}, "int16"},
      {"cuda.float32(a)", {"int64"}, "float32"},
      {"np.uint8(a)", {"int64"}, "uint8"},
      // tuples
      {"(a, b)", {"int32", "float32"}, "Tuple(int32, float32)"},
      {"(a, b)", {"int32", "int32"}, "UniTuple(int32 x 2)"},
      {"(a, b)[1]", {"int32", "float32"}, "float32"},
      {"(a, b)[-1]", {"int32", "float32"}, "float32"},
      {"a[c]", {"UniTuple(int64 x 3)", "int64", "int32"}, "int64"},
      // arrays
      {"a[c]", {"float32[::1]", "int64", "int32"}, "float32"},
      {"a[b, c]", {"float64[:, ::1]", "int32", "uint64"}, "float64"},
      {"a[b]", {"float64[:, :]", "UniTuple(int64 x 2)"}, "float64"},
      {"a.shape", {"float32[:, :, :]"}, "UniTuple(int64 x 3)"},
      {"a.shape[0]", {"float32[:]"}, "int64"},
      {"a.size", {"int8[:, :]"}, "int64"},
      {"a.ndim", {"int8[:, :]"}, "int64"},
      {"a.strides", {"int8[:, :]"}, "UniTuple(int64 x 2)"},
      {"a[0] + a[1]", {"int16[:]"}, "int64"},
      {"a[0] * a[1]", {"float32[::1]"}, "float32"},
      {"b[0]", {"int64", "CPointer(float32)"}, "float32"},
      // cuda
      {"cuda.threadIdx.x", {}, "int32"},
      {"cuda.blockIdx.y * cuda.blockDim.y", {}, "int64"},
      {"cuda.gridDim.z", {}, "int32"},
      {"cuda.laneid", {}, "int32"},
      {"cuda.warpsize", {}, "int32"},
      {"cuda.grid(1)", {}, "int64"},
      {"cuda.grid(2)", {}, "UniTuple(int64 x 2)"},
      {"cuda.gridsize(3)", {}, "UniTuple(int64 x 3)"},
      {"cuda.syncthreads_count(a > 0)", {}, "int32"},
      {"cuda.atomic.add(a, 0, 1)", {"float32[::1]"}, "float32"},
      {"cuda.atomic.max(a, (b, c), 1.5)", {"float64[:, :]", "int32", "int32"}, "float64"},
      {"cuda.atomic.cas(a, 0, 1, 2)", {"int32[:]"}, "int32"},
      {"cuda.atomic.inc(a, 0, 10)", {"uint32[:]"}, "uint32"},
      {"cuda.shfl_sync(0xffffffff, a, 0)", {"float32"}, "float32"},
      {"cuda.shfl_down_sync(0xffffffff, a, 1)", {"int8"}, "int32"},
      {"cuda.ballot_sync(0xffffffff, a > 0)", {"int32"}, "uint32"},
      {"cuda.all_sync(0xffffffff, a)", {"int32"}, "bool"},
      {"cuda.activemask()", {}, "uint32"},
      {"cuda.lanemask_lt()", {}, "uint32"},
      {"cuda.fma(a, b, c)", {"float32", "float32", "float32"}, "float32"},
      {"cuda.fma(a, b, c)", {"float32", "float64", "float32"}, "float64"},
      {"cuda.cbrt(a)", {"float32"}, "float32"},
      {"cuda.brev(a)", {"uint64"}, "uint64"},
      {"cuda.popc(a)", {"int64"}, "int32"},
      {"cuda.ffs(a)", {"uint32"}, "uint32"},
      {"cuda.selp(a > 0, b, c)", {"int32", "float32", "float32"}, "float32"},
      {"cuda.libdevice.sinf(a)", {"float32"}, "float32"},
      {"cuda.libdevice.pow(a, b)", {"float64", "int32"}, "float64"},
      {"cuda.shared.array(16, np.float32)", {}, "array(float32, 1d, C)"},
      {"cuda.shared.array((4, 8), dtype=cuda.int32)", {}, "array(int32, 2d, C)"},
      {"cuda.local.array((2, 3), np.float64)", {}, "array(float64, 2d, C)"},
      {"cuda.shared.array(shape=0, dtype=np.uint8)", {}, "array(uint8, 1d, C)"},
  };
  for (const auto& c : cases) {
    INFO("expr: " << c.expr);
    CHECK(type_of_expr(c) == c.expected);
  }
}

TEST_CASE("versions of locals unify where they meet: joins and loop heads", "[sema]") {
  auto tf = infer_source(R"PY(def f(n, x):
    acc = 0
    for i in range(n):
        acc += x
    j = 1
    j = 2.5
    k = n
    while k > 0:
        k = k - 1
    return acc
)PY",
                         "f", {"int32", "float32"});
  // Each assignment is a version of its own (numba's SSA form); the loop's
  // head joins the version before the loop with the body's.
  CHECK(local_type(*tf, "acc") == "int64");
  CHECK(local_type(*tf, "acc.1") == "float64");  // the head: int64 joined with float64
  CHECK(local_type(*tf, "acc.2") == "float64");
  CHECK(local_type(*tf, "i") == "int32");  // numba: range(int32) -> range_state32
  CHECK(local_type(*tf, "j") == "int64");
  CHECK(local_type(*tf, "j.1") == "float64");
  CHECK(local_type(*tf, "k") == "int32");
  CHECK(local_type(*tf, "k.1") == "int64");  // the head: int32 joined with k - 1 (int64)
  CHECK(tf->return_type->str() == "float64");

  auto tu = infer_source("def g(n):\n    for i in range(n):\n        pass\n    return i\n", "g", {"uint64"});
  CHECK(local_type(*tu, "i") == "uint64");
  auto t64 = infer_source("def g(n):\n    for i in range(0, n):\n        pass\n    return i\n", "g", {"int32"});
  CHECK(local_type(*t64, "i") == "int64");

  auto tt = infer_source(R"PY(def h(a):
    x, y = a.shape
    p, q = q2 = (1, 2.0)
    s = x + y
    return s, q2
)PY",
                         "h", {"float32[:, :]"});
  CHECK(local_type(*tt, "x") == "int64");
  CHECK(local_type(*tt, "q") == "float64");
  CHECK(local_type(*tt, "q2") == "Tuple(int64, float64)");
  CHECK(tt->return_type->str() == "Tuple(int64, Tuple(int64, float64))");
}

TEST_CASE("expression side table records conversions and intrinsics", "[sema]") {
  testing::Gil gil;
  PyObject* g = testing::load_module(R"PY(import math
from numba import cuda
def k(out, x):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = math.sqrt(x[i]) // 2
    cuda.syncthreads()
)PY");
  auto fn = testing::jit_of(g, "k");
  auto tf = sema::infer_kernel(fn, testing::types_of({"float32[::1]", "int32[:]"}));
  CHECK(tf->return_type->str() == "none");
  CHECK(tf->uses_barriers);
  CHECK_FALSE(tf->uses_warp_ops);
  CHECK(tf->symbol.rfind("_cuhost_k_", 0) == 0);
  CHECK(tf->signature() == "(array(float32, 1d, C), array(int32, 1d, A)) -> none");
  // Find the store and the floor division.
  const auto& body = tf->captured->def->body;
  const auto& iff = static_cast<const ast::If&>(*body[1]);
  const auto& store = static_cast<const ast::Assign&>(*iff.body[0]);
  const sema::ExprInfo& target = tf->info(store.targets[0].get());
  CHECK(target.intrinsic == "array.setitem");
  CHECK(target.type->str() == "float32");
  CHECK(target.param_types.at(0)->str() == "int64");
  const auto& floordiv = static_cast<const ast::BinOp&>(*store.value);
  const sema::ExprInfo& fd = tf->info(&floordiv);
  CHECK(fd.type->str() == "float64");
  CHECK(fd.operand_types.at(0)->str() == "float64");
  const sema::ExprInfo& sq = tf->info(floordiv.left.get());
  CHECK(sq.intrinsic == "math.sqrt");
  CHECK(sq.type->str() == "float64");  // int32 argument
  CHECK(sq.param_types.at(0)->str() == "float64");
  const auto& grid_assign = static_cast<const ast::Assign&>(*body[0]);
  const sema::ExprInfo& grid = tf->info(grid_assign.value.get());
  CHECK(grid.intrinsic == "cuda.grid");
  CHECK(grid.shape == std::vector<std::int64_t>{1});
  // Same arguments: the cached specialization.
  CHECK(sema::infer_kernel(fn, testing::types_of({"float32[::1]", "int32[:]"})) == tf);
}

TEST_CASE("shared arrays record their literal shape", "[sema]") {
  testing::Gil gil;
  PyObject* g = testing::load_module(R"PY(import numpy as np
from numba import cuda, float32
N = 8
TABLE = np.arange(6, dtype=np.int16).reshape(2, 3)
def k(out):
    s = cuda.shared.array((N, N * 2), float32)
    d = cuda.shared.array(0, dtype=np.float64)
    c = cuda.const.array_like(TABLE)
    out[0] = s[1, 2] + d[0] + c[1, 2] + TABLE[0, 1]
)PY");
  auto tf = sema::infer_kernel(testing::jit_of(g, "k"), testing::types_of({"float64[:]"}));
  const auto& body = tf->captured->def->body;
  auto shape_of = [&](int i) { return tf->info(static_cast<const ast::Assign&>(*body[i]).value.get()).shape; };
  CHECK(shape_of(0) == std::vector<std::int64_t>{8, 16});
  CHECK(shape_of(1) == std::vector<std::int64_t>{0});
  CHECK(shape_of(2) == std::vector<std::int64_t>{2, 3});
  CHECK(local_type(*tf, "s") == "array(float32, 2d, C)");
  CHECK(local_type(*tf, "c") == "array(int16, 2d, C)");
  const auto& g_table = tf->captured->globals.at("TABLE");
  REQUIRE(g_table.kind == frontend::GlobalValue::Kind::Array);
  CHECK(g_table.array->data.size() == 12);
  CHECK(g_table.array->data[2] == 1);
}

TEST_CASE("device functions are typed per call site specialization", "[sema]") {
  testing::Gil gil;
  PyObject* g = testing::load_module(R"PY(from numba import cuda
@cuda.jit(device=True)
def mul(x, y):
    return x * y
@cuda.jit(device=True)
def warp_sum(v):
    return cuda.shfl_down_sync(0xffffffff, v, 1) + v
def k(out, a):
    i = cuda.grid(1)
    out[i] = mul(a[i], 2) + mul(a[i], a[i]) + warp_sum(a[i])
)PY");
  auto fn = testing::jit_of(g, "k");
  auto tf = sema::infer_kernel(fn, testing::types_of({"float64[::1]", "float32[::1]"}));
  REQUIRE(tf->callees.size() == 3);
  CHECK(tf->callees[0]->signature() == "(float32, int64) -> float64");
  CHECK(tf->callees[1]->signature() == "(float32, float32) -> float32");
  CHECK(tf->callees[2]->uses_warp_ops);
  CHECK(tf->uses_warp_ops);
  CHECK(tf->callees[0]->symbol != tf->callees[1]->symbol);
  for (const auto& c : tf->callees) {
    for (char ch : c->symbol) CHECK((std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'));
  }
}

TEST_CASE("every intrinsic key is listed once", "[sema]") {
  const auto& keys = sema::intrinsic_keys();
  std::set<std::string> unique(keys.begin(), keys.end());
  CHECK(unique.size() == keys.size());
  CHECK(unique.count("cuda.atomic.cas") == 1);
  CHECK(unique.count("cast") == 1);
}

TEST_CASE("locals assigned one constant fold like numba literals", "[sema]") {
  auto tf = infer_source(R"PY(from numba import cuda
import numpy as np
def k(out):
    n = 2
    shape = (4, 8)
    i, j = cuda.grid(n)
    s = cuda.shared.array(shape, np.float32)
    m = 3
    m = m + 1
    out[i, j] = s[0, 0]
)PY",
                         "k", {"float32[:, :]"}, true);
  CHECK(local_type(*tf, "i") == "int64");
  CHECK(local_type(*tf, "s") == "array(float32, 2d, C)");
  const auto& body = tf->captured->def->body;
  const auto& sa = static_cast<const ast::Assign&>(*body[3]);
  CHECK(tf->info(sa.value.get()).shape == std::vector<std::int64_t>{4, 8});
  // `m` is assigned twice: reads are not folded.
  const auto& m2 = static_cast<const ast::Assign&>(*body[5]);
  const auto& add = static_cast<const ast::BinOp&>(*m2.value);
  CHECK_FALSE(tf->info(add.left.get()).constant.has_value());
}

TEST_CASE("attributes of user modules are frozen and typed", "[sema][frontend]") {
  testing::Gil gil;
  {
    std::ofstream out("/tmp/cuhost_sema_usermod.py");
    out << "import numpy as np\nSCALE = 3\nTABLE = np.arange(4, dtype=np.float32)\n"
           "from numba import cuda\n@cuda.jit(device=True)\ndef helper(x):\n    return x * SCALE\n";
  }
  PyObject* g = testing::load_module(R"PY(import sys
sys.path.insert(0, "/tmp")
import cuhost_sema_usermod as um
def k(out):
    out[0] = um.helper(out[1]) + um.SCALE + um.TABLE[2]
)PY");
  auto fn = testing::jit_of(g, "k");
  CHECK(fn->captured->globals.at("um.SCALE").constant.i == 3);
  CHECK(fn->captured->globals.at("um.TABLE").kind == frontend::GlobalValue::Kind::Array);
  auto tf = sema::infer_kernel(fn, testing::types_of({"int32[:]"}));
  REQUIRE(tf->callees.size() == 1);
  CHECK(tf->callees[0]->signature() == "(int32) -> int64");
}

TEST_CASE("foreign calls convert arguments and check arity and kinds", "[sema]") {
  testing::Gil gil;
  PyObject* g = testing::load_module(R"PY(from numba import cuda
from cffi import FFI
ffi = FFI()
scale = cuda.declare_device("scale_f32", "float32(float32, int32)")
fill = cuda.declare_device("fill_f32", "void(CPointer(float32), int32)")
def k(out, n):
    out[0] = scale(out[1], n)
    fill(ffi.from_buffer(out), 3)
def bad(out):
    out[0] = scale(out, 1)
def bad_arity(out):
    out[0] = scale(out[0])
)PY");
  auto tf = sema::infer_kernel(testing::jit_of(g, "k"), testing::types_of({"float32[::1]", "int64"}));
  REQUIRE(tf->foreign_callees.size() == 2);
  CHECK(tf->foreign_callees[0]->name == "scale_f32");
  const auto& body = tf->captured->def->body;
  const auto& call = static_cast<const ast::Assign&>(*body[0]).value;
  const sema::ExprInfo& ci = tf->info(call.get());
  REQUIRE(ci.foreign);
  CHECK(ci.type->str() == "float32");
  CHECK(ci.param_types.at(1)->str() == "int32");
  const auto& fill_call = static_cast<const ast::Call&>(*static_cast<const ast::ExprStmt&>(*body[1]).value);
  CHECK(tf->info(fill_call.args[0].get()).type->str() == "CPointer(float32)");
  CHECK(tf->info(fill_call.args[0].get()).intrinsic == "ffi.from_buffer");
  for (const char* name : {"bad", "bad_arity"}) {
    try {
      sema::infer_kernel(testing::jit_of(g, name), testing::types_of({"float32[::1]"}));
      FAIL("no error for " << name);
    } catch (const UserError& e) {
      CHECK(e.kind() == ErrorKind::TypingError);
      CHECK(e.message().find("invalid call of foreign function '") == 0);
      CHECK(e.message().find("it is declared float32(float32, int32)") != std::string::npos);
      CHECK(e.location().line == (std::string(name) == "bad" ? 10 : 12));
    }
  }
}

TEST_CASE("a while loop with a live continue or break leaves with numba's join", "[sema]") {
  // numba prunes the test in front of `w = 0; while w < 4:` only without a
  // live `continue` (which jumps back to it), and keeps the entry's version
  // in the exit's join when a live `break` gives the exit a second way in
  // (frontend/loop_jumps.h): `~v` is then int64, else the body's uint8 (the
  // signatures numba 0.68.1's njit gives these functions).
  auto ret = [](const std::string& jump) {
    const std::string src =
        "def f(a, t):\n    c = False\n    v = a[0] * 3\n    w = 0\n    while w < 4:\n"
        "        w += 1\n        v = np.uint8(a[w] + t)\n        if " +
        jump + "\n    return ~v\n";
    return infer_source("import numpy as np\n" + src, "f", {"int64[:]", "int64"})->return_type->str();
  };
  CHECK(ret("a[w] < t:\n            continue") == "int64");
  CHECK(ret("a[w] > t:\n            break") == "int64");
  CHECK(ret("a[w] > t:\n            pass") == "uint64");
  CHECK(ret("(2 < -1):\n            continue") == "uint64");  // CPython/numba remove it before SSA
  CHECK(ret("c:\n            continue") == "uint64");         // `c` is assigned once, from a literal
  // The continue after a break is dead; with `if True:` the break is the
  // only way out (the test at the end is never reached): one predecessor.
  CHECK(ret("a[w] > t:\n            break\n            continue") == "int64");
  CHECK(ret("True:\n            break\n            continue") == "uint64");
}
