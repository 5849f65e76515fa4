// Functions compiled for calls from the host (runtime/host_function.h): the
// slot layout of codegen/host_entry.h, a direct call of the entry with
// packed arguments, raises reported to the calling thread's sink
// (cpu/host_call_errors.h), and the refusal of the CUDA kernel API.
#include <catch2/catch.hpp>

#include <cstring>

#include "codegen/host_entry.h"
#include "codegen_support.h"
#include "cpu/host_call_errors.h"
#include "frontend/exception_classes.h"
#include "ir/type_parser.h"
#include "runtime/compile_lookup.h"
#include "runtime/host_function.h"

using namespace cuhost;
using namespace cuhost::testing;

namespace {

// A host specialization through the one cache path, as njit calls get it.
std::shared_ptr<const runtime::CompiledHostFunction> compile_host_function(
    const std::shared_ptr<model::JitFunction>& fn, const std::vector<const ir::Type*>& arg_types,
    const ir::Type* declared_return, const runtime::HostCallOptions& options) {
  return runtime::lookup_host_function(fn, arg_types, declared_return, options).function;
}

const ir::Type* type(const char* spelling) { return ir::parse_type(spelling); }

std::uint64_t f64_bits(double d) {
  std::uint64_t b;
  std::memcpy(&b, &d, sizeof b);
  return b;
}

double f64_of(std::uint64_t b) {
  double d;
  std::memcpy(&d, &b, sizeof d);
  return d;
}

}  // namespace

TEST_CASE("host entry: slots of each kind of value", "[runtime][host_function]") {
  CHECK(codegen::host_slot_count(type("int64")) == 1);
  CHECK(codegen::host_slot_count(type("complex128")) == 2);
  CHECK(codegen::host_slot_count(type("float64[:, :]")) == 5);
  CHECK(codegen::host_slot_count(type("Tuple(int32, complex64, float32[::1])")) == 6);
  CHECK(codegen::host_slot_count(type("none")) == 0);
  CHECK(codegen::host_slot_count(type("OptionalType(int64)")) == 2);
}

TEST_CASE("host function: a compiled function called through its entry", "[runtime][host_function]") {
  const char* src = R"(
def f(a, x, t):
    s = 0.0
    for i in range(a.shape[0]):
        a[i] = a[i] * x
        s += a[i]
    return s + t[0], t[1] * 2
)";
  auto fn = jit_from_source(src, "f");
  auto compiled =
      compile_host_function(fn, {type("float64[::1]"), type("float64"), type("UniTuple(int64 x 2)")}, nullptr, {});
  REQUIRE(compiled->entry);
  CHECK(compiled->arg_slots == 3 + 1 + 2);
  CHECK(compiled->result_slots == 2);
  CHECK(compiled->return_type->str() == "Tuple(float64, int64)");
  double data[4] = {1, 2, 3, 4};
  std::uint64_t args[6] = {reinterpret_cast<std::uint64_t>(data), 4, 8, f64_bits(2.0), 5, 21};
  std::uint64_t result[2] = {};
  cpu::HostCallError error;
  std::int32_t status;
  {
    cpu::HostCallScope scope(&error);
    status = compiled->entry(args, result);
  }
  CHECK(status == 0);
  CHECK_FALSE(error.reported);
  CHECK(data[3] == 8.0);
  CHECK(f64_of(result[0]) == 2 + 4 + 6 + 8 + 5);
  CHECK(result[1] == 42);
  // One compilation per specialization.
  CHECK(compile_host_function(fn, compiled->arg_types, nullptr, {}) == compiled);
}

TEST_CASE("host function: raises are reported to the caller's sink", "[runtime][host_function]") {
  const char* src = R"(
def g(x):
    if x < 0:
        raise ValueError("negative")
    return x // 2
)";
  auto fn = jit_from_source(src, "g");
  auto compiled = compile_host_function(fn, {type("int64")}, nullptr, {});
  std::uint64_t result[1] = {};
  cpu::HostCallError error;
  std::uint64_t ok[1] = {9};
  {
    cpu::HostCallScope scope(&error);
    CHECK(compiled->entry(ok, result) == 0);
  }
  CHECK(result[0] == 4);
  std::uint64_t bad[1] = {static_cast<std::uint64_t>(-3)};
  std::int32_t status;
  {
    cpu::HostCallScope scope(&error);
    status = compiled->entry(bad, result);
  }
  CHECK(status != 0);
  // The raise arrives as data: the class key, its argument and where it was raised.
  REQUIRE(error.reported);
  const KernelErrorReport& r = error.report;
  CHECK(r.site.form == KernelErrorForm::Raise);
  CHECK(frontend::exception_name_of(r.site.class_key) == "ValueError");  // the class captured from the source
  CHECK(r.site.message == "negative");
  CHECK(r.site.function == "g");
  CHECK(r.site.line == 4);
  CHECK_FALSE(r.in_launch);
  CHECK(kernel_error_message(r) == "negative");
  CHECK(cpu::host_call_sink() == nullptr);
}

TEST_CASE("host function: the CUDA kernel API is refused", "[runtime][host_function]") {
  const char* src = R"(
from numba import cuda

def h(a):
    a[0] = cuda.threadIdx.x
)";
  auto fn = jit_from_source(src, "h");
  try {
    compile_host_function(fn, {type("int32[::1]")}, nullptr, {});
    FAIL("no error");
  } catch (const UserError& e) {
    CHECK(e.kind() == ErrorKind::TypingError);
    CHECK(std::string(e.what()).find("CUDA kernel API") != std::string::npos);
  }
}
