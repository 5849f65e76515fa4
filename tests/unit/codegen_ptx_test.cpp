// Golden checks (FileCheck, tests/data/codegen/*.check) of the LLVM IR and
// PTX our NVPTX path emits for representative kernels; every PTX produced
// here is also assembled for sm_90 by nvJitLink in-process.
#include <catch2/catch.hpp>

#include "codegen_support.h"

using namespace cuhost;
using namespace cuhost::testing;

namespace {

std::shared_ptr<const runtime::CompiledKernel> gpu_kernel(const std::string& src, const std::string& name,
                                                          const std::vector<std::string>& args,
                                                          model::JitOptions opts = {}) {
  return compile_source(src, name, args, runtime::Target::NVPTX, opts);
}

void golden(const runtime::CompiledKernel& k, const std::string& check_file) {
  std::string ir = file_check(k.llvm_ir, check_file, "IR");
  INFO("IR check failed:\n" << ir << "\n--- IR ---\n" << k.llvm_ir);
  CHECK(ir.empty());
  std::string ptx = file_check(k.ptx, check_file, "PTX");
  INFO("PTX check failed:\n" << ptx << "\n--- PTX ---\n" << k.ptx);
  CHECK(ptx.empty());
  cuda::LinkResult r = assemble(k.ptx, k.name);
  CHECK(r.cubin.compare(0, 4,
                        "\x7f"
                        "ELF") == 0);
}

const char* kSaxpy = R"(
from numba import cuda

def saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = a * x[i] + y[i]
)";

const char* kReduce = R"(
from numba import cuda
import numpy as np

def reduce(x, out):
    buf = cuda.shared.array(256, np.float32)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[tid] = x[i] if i < x.shape[0] else np.float32(0)
    cuda.syncthreads()
    s = 128
    while s > 0:
        if tid < s:
            buf[tid] += buf[tid + s]
        cuda.syncthreads()
        s //= 2
    if tid == 0:
        cuda.atomic.add(out, 0, buf[0])
)";

const char* kAtomics = R"(
from numba import cuda

def atomics(counts, big, small, wrap, flags, fmax, val):
    i = cuda.grid(1)
    cuda.atomic.add(counts, i % 4, 1)
    cuda.atomic.max(big, 0, i)
    cuda.atomic.min(small, 0, i)
    cuda.atomic.inc(wrap, 0, 15)
    cuda.atomic.cas(flags, 0, 0, 1)
    cuda.atomic.max(fmax, 0, val[i])
)";

const char* kWarp = R"(
from numba import cuda

def warp_sum(x, y, out, lanes):
    i = cuda.grid(1)
    v = x[i]
    w = y[i]
    k = 16
    while k > 0:
        v += cuda.shfl_down_sync(0xffffffff, v, k)
        w += cuda.shfl_down_sync(0xffffffff, w, k)
        k //= 2
    m = cuda.ballot_sync(0xffffffff, v > 0)
    if cuda.laneid == 0:
        out[i // 32] = v + w
        lanes[i // 32] = m
)";

const char* kMath = R"(
from numba import cuda
import math

def trig(x, y, out32, out64):
    i = cuda.grid(1)
    out32[i] = math.sin(x[i]) * math.sqrt(x[i])
    out64[i] = math.exp(y[i]) + math.fabs(y[i])
)";

}  // namespace

TEST_CASE("codegen: saxpy has noalias/readonly params and ld.global.nc", "[codegen]") {
  auto k = gpu_kernel(kSaxpy, "saxpy", {"float32", "float32[::1]", "float32[::1]", "float32[::1]"});
  golden(*k, "saxpy.check");
  CHECK(k->symbol.find("saxpy") != std::string::npos);
  CHECK(k->link.empty());
}

TEST_CASE("codegen: shared-memory reduction with syncthreads", "[codegen]") {
  auto k = gpu_kernel(kReduce, "reduce", {"float32[::1]", "float32[::1]"});
  golden(*k, "reduce.check");
  CHECK(k->uses_barriers);
  CHECK(k->static_shared_bytes == 256 * 4);
}

TEST_CASE("codegen: atomics", "[codegen]") {
  auto k = gpu_kernel(
      kAtomics, "atomics",
      {"int32[::1]", "int64[::1]", "uint32[::1]", "uint32[::1]", "int32[::1]", "float64[::1]", "float64[::1]"});
  golden(*k, "atomics.check");
}

TEST_CASE("codegen: warp shuffles and votes", "[codegen]") {
  auto k = gpu_kernel(kWarp, "warp_sum", {"float32[::1]", "float64[::1]", "float64[::1]", "uint32[::1]"});
  golden(*k, "warp.check");
  CHECK(k->uses_warp_ops);
}

TEST_CASE("codegen: math links only the libdevice functions used", "[codegen]") {
  auto k = gpu_kernel(kMath, "trig", {"float32[::1]", "float64[::1]", "float32[::1]", "float64[::1]"});
  golden(*k, "math.check");
}

TEST_CASE("codegen: bounds checks only in debug mode", "[codegen]") {
  auto plain = gpu_kernel(kSaxpy, "saxpy", {"float32", "float32[:]", "float32[:]", "float32[:]"});
  CHECK(plain->ptx.find("trap") == std::string::npos);
  CHECK(plain->ptx.find("cuhost_error_record") == std::string::npos);
  model::JitOptions debug;
  debug.debug = true;
  auto checked = gpu_kernel(kSaxpy, "saxpy", {"float32", "float32[:]", "float32[:]", "float32[:]"}, debug);
  // A failed check fills the visible error record (first thread wins) instead of trapping.
  CHECK(checked->ptx.find(".visible .global .align 8 .b8 cuhost_error_record[88];") != std::string::npos);
  CHECK(checked->ptx.find("atom.global.cas.b64") != std::string::npos);
  CHECK(checked->ptx.find(".visible .global .align 1 .b8 cuhost_error_site_0[") != std::string::npos);
  CHECK(checked->ptx.find("trap;") == std::string::npos);
  assemble(checked->ptx, "saxpy_debug");
}

TEST_CASE("codegen: compile_text exports a C-ABI device function", "[codegen]") {
  const char* src = "def f(a, b):\n    return a + b\n";
  model::JitOptions opts;
  opts.device = true;
  opts.abi = ir::Abi::C;
  opts.abi_name = "f_c";
  auto fn = jit_from_source(src, "f", opts);
  runtime::TargetOptions t;
  t.target = runtime::Target::NVPTX;
  runtime::CompiledText r = *runtime::lookup_text(fn, types_of({"float32", "float32"}), true, t, "ptx").text;
  CHECK(r.return_type == ir::float32());
  std::string out = file_check(r.text, "device_c_abi.check", "PTX");
  INFO(out << "\n" << r.text);
  CHECK(out.empty());
  CHECK(r.text.find(".visible .func (.param .b32 func_retval0) f_c(") != std::string::npos);
  assemble(r.text, "f_c");
}

TEST_CASE("codegen: compile_text with the numba ABI returns a status", "[codegen]") {
  const char* src = "def g(a, b):\n    return a * b\n";
  model::JitOptions opts;
  opts.device = true;
  auto fn = jit_from_source(src, "g", opts);
  runtime::TargetOptions t;
  t.target = runtime::Target::NVPTX;
  runtime::CompiledText r = *runtime::lookup_text(fn, types_of({"int32", "int32"}), true, t, "ptx").text;
  CHECK(r.return_type == ir::int64());
  // i32 f(i64* ret, i32 a, i32 b)
  CHECK(r.text.find(".visible .func (.param .b32 func_retval0)") != std::string::npos);
  CHECK(r.text.find("st.u64") != std::string::npos);
  assemble(r.text, "g");
}

TEST_CASE("codegen: output='ltoir' is refused with NotImplementedError", "[codegen]") {
  auto fn = jit_from_source("def f(a):\n    return a\n", "f");
  runtime::TargetOptions t;
  t.target = runtime::Target::NVPTX;
  try {
    runtime::lookup_text(fn, types_of({"float32"}), true, t, "ltoir");
    FAIL("ltoir accepted");
  } catch (const UserError& e) {
    CHECK(e.kind() == ErrorKind::NotImplementedError);
    CHECK_THAT(e.message(), Catch::Contains("LTO-IR"));
  }
}

TEST_CASE("codegen: compiled kernels are memoized per function and types", "[codegen]") {
  auto fn = jit_from_source(kSaxpy, "saxpy");
  runtime::TargetOptions t;
  t.target = runtime::Target::NVPTX;
  auto a = runtime::compile_kernel(fn, types_of({"float32", "float32[::1]", "float32[::1]", "float32[::1]"}), t);
  auto b = runtime::compile_kernel(fn, types_of({"float32", "float32[::1]", "float32[::1]", "float32[::1]"}), t);
  auto c = runtime::compile_kernel(fn, types_of({"float64", "float64[::1]", "float64[::1]", "float64[::1]"}), t);
  CHECK(a == b);
  CHECK(a != c);
  CHECK(c->ptx.find("ld.global.nc.f64") != std::string::npos);
}

TEST_CASE("codegen: foreign calls use the numba ABI with a status check", "[codegen]") {
  const char* src = R"PY(
from numba import cuda

mul = cuda.declare_device("mul_f32_f32", "float32(float32, float32)")
lerp = cuda.declare_device("lerp_c", "float32(float32, float32, float32)", abi="c")

def k(r, x, y):
    i = cuda.grid(1)
    if i < r.size:
        r[i] = mul(x[i], y[i]) + lerp(x[i], y[i], 0.5)
)PY";
  auto k = gpu_kernel(src, "k", {"float32[::1]", "float32[::1]", "float32[::1]"});
  // numba ABI: i32 f(T* ret, args...), the call's status decides whether the thread returns.
  CHECK(k->llvm_ir.find("declare i32 @mul_f32_f32(ptr") != std::string::npos);
  CHECK(k->llvm_ir.find("declare float @lerp_c(float, float, float)") != std::string::npos);
  CHECK(k->ptx.find(".extern .func (.param .b32 func_retval0) mul_f32_f32") != std::string::npos);
  CHECK(k->ptx.find(".extern .func (.param .b32 func_retval0) lerp_c") != std::string::npos);
  // Linking without the foreign code names the missing symbol.
  try {
    assemble(k->ptx, "k");
    FAIL("linked with unresolved foreign functions");
  } catch (const UserError& e) {
    CHECK(e.kind() == ErrorKind::LinkerError);
    CHECK_THAT(e.message(), Catch::Contains("mul_f32_f32") || Catch::Contains("lerp_c"));
  }
}

TEST_CASE("codegen: dynamic shared memory is one extern segment sized at launch", "[codegen]") {
  const char* src = R"PY(
from numba import cuda
import numpy as np

def rev(a):
    dyn = cuda.shared.array(0, dtype=np.float32)
    t = cuda.threadIdx.x
    dyn[t] = a[t]
    cuda.syncthreads()
    a[t] = dyn[len(dyn) - 1 - t]
)PY";
  auto k = gpu_kernel(src, "rev", {"float32[::1]"});
  CHECK(k->ptx.find(".extern .shared .align 16 .b8 cuhost_dynamic_shared[];") != std::string::npos);
  CHECK(k->ptx.find("%dynamic_smem_size") != std::string::npos);
  CHECK(k->static_shared_bytes == 0);
  assemble(k->ptx, "rev");
}
