// Host JIT tests: the symbol whitelist (libm and the compiler builtins LLVM
// emits resolve; anything else is a LinkerError naming the symbol), host
// triple/data layout, and independent modules defining the same names.
#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/SourceMgr.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <set>

#include "codegen/host_target.h"
#include "cpu/host_symbols.h"
#include "cpu/jit.h"
#include "support/diagnostics.h"

using namespace cuhost;

namespace {

std::vector<void*> compile(const std::string& ir, const std::vector<std::string>& symbols, const char* name = "m") {
  auto ctx = std::make_unique<llvm::LLVMContext>();
  llvm::SMDiagnostic diag;
  auto module = llvm::parseAssemblyString(ir, diag, *ctx);
  REQUIRE(module);
  module->setModuleIdentifier(name);
  return cpu::add_module(std::move(module), std::move(ctx), symbols);
}

ErrorKind compile_error(const std::string& ir, const std::vector<std::string>& symbols, std::string* message) {
  try {
    compile(ir, symbols, "bad_module");
  } catch (const UserError& e) {
    *message = e.message();
    return e.kind();
  }
  FAIL("compile did not throw");
  return ErrorKind::RuntimeError;
}

}  // namespace

TEST_CASE("cpu: host triple, data layout and CPU name describe this machine", "[cpu]") {
  CHECK_FALSE(codegen::host_target().triple.empty());
  CHECK_FALSE(codegen::host_target().data_layout.empty());
  CHECK_FALSE(codegen::host_target().cpu.empty());
#if defined(__x86_64__)
  CHECK_THAT(codegen::host_target().triple, Catch::StartsWith("x86_64"));
#endif
}

TEST_CASE("cpu: libm calls and the builtins LLVM emits resolve", "[cpu]") {
  const char* ir = R"(
declare double @llvm.powi.f64.i32(double, i32)
declare float @llvm.powi.f32.i32(float, i32)
declare double @sin(double)
declare float @atan2f(float, float)
declare double @llvm.exp.f64(double)
define double @math(double %x, i32 %k) {
  %p = call double @llvm.powi.f64.i32(double %x, i32 %k)
  %s = call double @sin(double %x)
  %e = call double @llvm.exp.f64(double %x)
  %a = fadd double %p, %s
  %r = fadd double %a, %e
  ret double %r
}
define float @mathf(float %x, float %y, i32 %k) {
  %p = call float @llvm.powi.f32.i32(float %x, i32 %k)
  %a = call float @atan2f(float %x, float %y)
  %r = fadd float %p, %a
  ret float %r
}
define float @half_round_trip(double %x) {
  %h = fptrunc double %x to half
  %f = fpext half %h to float
  ret float %f
}
define i128 @div128(i128 %a, i128 %b) {
  %q = sdiv i128 %a, %b
  ret i128 %q
}
define void @copy(ptr %d, ptr %s, i64 %n) {
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 %n, i1 false)
  ret void
}
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
)";
  auto fns = compile(ir, {"math", "mathf", "half_round_trip", "div128", "copy"}, "libm_module");
  auto math = reinterpret_cast<double (*)(double, int)>(fns[0]);
  auto mathf = reinterpret_cast<float (*)(float, float, int)>(fns[1]);
  auto half = reinterpret_cast<float (*)(double)>(fns[2]);
  auto div128 = reinterpret_cast<__int128 (*)(__int128, __int128)>(fns[3]);
  auto copy = reinterpret_cast<void (*)(void*, const void*, std::int64_t)>(fns[4]);
  for (double x : {0.3, 1.7, -2.25}) CHECK(math(x, 5) == Approx(std::pow(x, 5) + std::sin(x) + std::exp(x)));
  CHECK(mathf(1.5f, -0.5f, 3) == Approx(std::pow(1.5f, 3) + std::atan2(1.5f, -0.5f)));
  CHECK(half(1.0 / 3.0) == 0.333251953125f);  // nearest binary16 to 1/3
  __int128 big = (__int128(1) << 100) + 12345;
  CHECK(div128(big, 7) == big / 7);
  int src[5] = {4, 8, 15, 16, 23}, dst[5] = {};
  copy(dst, src, sizeof src);
  CHECK(dst[4] == 23);
}

TEST_CASE("cpu: an unresolved symbol is a LinkerError naming it", "[cpu]") {
  std::string message;
  CHECK(compile_error(R"(
declare double @my_secret_function(double)
declare i32 @printf(ptr, ...)
define double @f(double %x) {
  %r = call double @my_secret_function(double %x)
  %u = call i32 (ptr, ...) @printf(ptr null)
  ret double %r
}
)",
                      {"f"}, &message) == ErrorKind::LinkerError);
  CHECK(message ==
        "unresolved symbols 'my_secret_function', 'printf' in module 'bad_module': only the CPU runtime, libm and "
        "memcpy/memset/memmove can be called from host code");
  // A libcall LLVM introduces while compiling (sin of fp128 -> sinf128/sinl)
  // is caught from ORC's error, without aborting.
  CHECK(compile_error(R"(
declare fp128 @llvm.sin.f128(fp128)
define fp128 @g(fp128 %x) {
  %r = call fp128 @llvm.sin.f128(fp128 %x)
  ret fp128 %r
}
)",
                      {"g"}, &message) == ErrorKind::LinkerError);
  CHECK_THAT(message, Catch::StartsWith("cannot compile 'g' for the host: "));
  CHECK_THAT(message, Catch::Contains("sin"));
  CHECK_THAT(message, Catch::Contains("not found"));
}

TEST_CASE("cpu: modules defining the same names stay independent", "[cpu]") {
  auto a = compile("define i32 @k(i32 %x) {\n  %r = add i32 %x, 1\n  ret i32 %r\n}\n", {"k"});
  auto b = compile("define i32 @k(i32 %x) {\n  %r = mul i32 %x, 3\n  ret i32 %r\n}\n", {"k"});
  CHECK(reinterpret_cast<int (*)(int)>(a[0])(10) == 11);
  CHECK(reinterpret_cast<int (*)(int)>(b[0])(10) == 30);
}

TEST_CASE("cpu: the host symbol whitelist holds the runtime, libm and builtins, and nothing else", "[cpu]") {
  std::set<std::string> names;
  for (const auto& [name, addr] : cpu::host_symbols()) {
    CHECK(addr != nullptr);
    names.insert(name);
  }
  for (const char* want : {"cuhost_cpu_syncthreads",
                           "cuhost_cpu_syncthreads_count",
                           "cuhost_cpu_syncthreads_and",
                           "cuhost_cpu_syncthreads_or",
                           "cuhost_cpu_syncwarp",
                           "cuhost_cpu_shfl",
                           "cuhost_cpu_vote",
                           "cuhost_cpu_activemask",
                           "cuhost_cpu_index_error",
                           "cuhost_cpu_kernel_error",
                           "sin",
                           "sinf",
                           "sincos",
                           "sincosf",
                           "atan2",
                           "atan2f",
                           "pow",
                           "powf",
                           "exp10",
                           "erfcf",
                           "tgamma",
                           "lgammaf",
                           "fmod",
                           "fmodf",
                           "hypot",
                           "cbrtf",
                           "nearbyint",
                           "frexp",
                           "ldexpf",
                           "memcpy",
                           "memset",
                           "cuhost_cpu_nrt_malloc",
                           "cuhost_cpu_nrt_free",
                           "cuhost_nrt_stats",
                           "memmove",
                           "__powidf2",
                           "__powisf2",
                           "__extendhfsf2",
                           "__truncsfhf2",
                           "__truncdfhf2",
                           "__divti3",
                           "__udivti3",
                           "__modti3",
                           "__umodti3"}) {
    INFO(want);
    CHECK(names.count(want) == 1);
  }
  for (const char* banned : {"printf", "malloc", "free", "system", "exit", "abort", "fopen", "dlopen"}) {
    INFO(banned);
    CHECK(names.count(banned) == 0);
  }
}
