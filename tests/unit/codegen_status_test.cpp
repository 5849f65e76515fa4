// The status channel of device functions (lowering/status.cpp) in the LLVM
// IR of the NVPTX path: only functions that can raise take a result pointer
// and return an i32 status; the kernel returns when a status is not zero;
// C-ABI functions keep their plain signature; the PTX assembles for sm_90.
#include <catch2/catch.hpp>

#include "codegen_support.h"

using namespace cuhost;
using namespace cuhost::testing;

namespace {

const char* kSource = R"(
from numba import cuda

@cuda.jit(device=True)
def maybe(x):
    if x > 0:
        return x

@cuda.jit(device=True)
def raises(x):
    return maybe(x) * 2

@cuda.jit(device=True)
def plain(x):
    return x + 1

@cuda.jit(device=True, abi="c")
def flat(x):
    return maybe(x) + raises(x)  # ignores the status of raises()

@cuda.jit(device=True, abi="c")
def flat_none(x):
    return maybe(x)

def k(out, xs):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = raises(xs[i]) + plain(xs[i]) + flat(xs[i]) + flat_none(xs[i])
        r = maybe(xs[i])
        if r is not None:
            out[i] += r
)";

}  // namespace

TEST_CASE("codegen: only raising device functions get a status channel", "[codegen][optional]") {
  model::JitOptions opts;
  opts.opt = 0;  // keep the internal functions visible
  auto k = compile_source(kSource, "k", {"int64[::1]", "int32[::1]"}, runtime::Target::NVPTX, opts);
  const std::string& ir = k->llvm_ir;
  INFO(ir);
  // raises(int32) -> int64: i32 status, result through the first pointer.
  CHECK(matches(ir, R"(define internal i32 @_ZN6cuhost6raisesB17h[0-9a-f]{16}E\(ptr [^,]*, i32 )"));
  // maybe returns OptionalType(int32) as {i1, i32}, with no status.
  CHECK(matches(ir, R"(define internal \{ i1, i32 \} @_ZN6cuhost5maybeB17h[0-9a-f]{16}E\(i32 )"));
  CHECK(matches(ir, R"(define internal i64 @_ZN6cuhost5plainB17h[0-9a-f]{16}E\(i32 )"));
  // The C-ABI function flattens OptionalType and never has a status.
  CHECK(matches(ir, R"(define internal i64 @flat\.impl\(i32 )"));
  CHECK(matches(ir, R"(define internal i32 @flat_none\.impl\(i32 )"));
  CHECK(matches(ir, R"(define i32 @flat_none\(i32 )"));  // the C symbol foreign code can call
  // The kernel tests the status of raises() and returns when it is not 0.
  CHECK(matches(ir, R"(%status = call i32 @_ZN6cuhost6raisesB17h[0-9a-f]{16}E\(ptr )"));
  cuda::LinkResult r = assemble(k->ptx, k->name);
  CHECK(r.cubin.compare(0, 4,
                        "\x7f"
                        "ELF") == 0);
}
