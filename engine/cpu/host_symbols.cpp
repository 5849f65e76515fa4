// The host symbol whitelist (see host_symbols.h). The runtime functions are
// taken by address; C library and builtin functions are looked up by name in
// the process (libm and libgcc_s are always loaded with libstdc++), so a
// name missing on some platform simply stays unresolved.
#include "cpu/host_symbols.h"

#include <dlfcn.h>

#include "cpu/cancellation.h"
#include "cpu/cluster_runtime.h"
#include "cpu/mma_runtime.h"
#include "cpu/np_random_runtime.h"
#include "cpu/nrt_runtime.h"
#include "cpu/rounding_runtime.h"
#include "cpu/wmma_runtime.h"
#include "model/cpu_abi.h"

namespace cuhost::cpu {

namespace {

// libm: every function in its double and float (suffix f) form.
const char* const kMathStems[] = {
    "sin",       "cos",    "tan",   "asin",      "acos",      "atan",    "atan2",       "sinh",
    "cosh",      "tanh",   "asinh", "acosh",     "atanh",     "exp",     "expm1",       "exp2",
    "exp10",     "log",    "log1p", "log2",      "log10",     "pow",     "fabs",        "floor",
    "ceil",      "trunc",  "fmod",  "hypot",     "erf",       "erfc",    "tgamma",      "lgamma",
    "copysign",  "cbrt",   "round", "nearbyint", "rint",      "fma",     "ldexp",       "frexp",
    "sqrt",      "fmin",   "fmax",  "fdim",      "remainder", "remquo",  "scalbn",      "scalbln",
    "logb",      "ilogb",  "modf",  "nextafter", "lround",    "llround", "lrint",       "llrint",
    "roundeven", "sincos", "j0",    "j1",        "y0",        "y1",      "significand", "lgamma_r",
};

// Other C library functions LLVM may call for intrinsics.
const char* const kLibc[] = {"memcpy", "memset", "memmove", "memcmp", "bcmp"};

// compiler-rt / libgcc builtins the x86-64 and AArch64 backends emit.
const char* const kBuiltins[] = {
    "__powidf2",    "__powisf2",     "__extendhfsf2", "__truncsfhf2",   "__truncdfhf2",   "__extendhfdf2",
    "__truncsfbf2", "__truncdfbf2",  "__divti3",      "__udivti3",      "__modti3",       "__umodti3",
    "__multi3",     "__fixdfti",     "__fixsfti",     "__fixunsdfti",   "__fixunssfti",   "__floattidf",
    "__floattisf",  "__floatuntidf", "__floatuntisf", "__muloti4",      "__mulodi4",      "__divdc3",
    "__divsc3",     "__muldc3",      "__mulsc3",      "__gnu_h2f_ieee", "__gnu_f2h_ieee",
};

std::vector<std::pair<std::string, void*>> build() {
  std::vector<std::pair<std::string, void*>> out;
  auto add = [&](const char* name, void* addr) {
    if (addr) out.emplace_back(name, addr);
  };
  auto lookup = [&](const std::string& name) {
    if (void* p = dlsym(RTLD_DEFAULT, name.c_str())) out.emplace_back(name, p);
  };
  add("cuhost_cpu_syncthreads", reinterpret_cast<void*>(&cuhost_cpu_syncthreads));
  add("cuhost_cpu_cancel_requested", reinterpret_cast<void*>(&cuhost_cpu_cancel_requested));
  add("cuhost_cpu_cancelled", reinterpret_cast<void*>(&cuhost_cpu_cancelled));
  add("cuhost_cpu_trap", reinterpret_cast<void*>(&cuhost_cpu_trap));
  add("cuhost_cpu_assert_fail", reinterpret_cast<void*>(&cuhost_cpu_assert_fail));
  add("cuhost_cpu_grid_sync", reinterpret_cast<void*>(&cuhost_cpu_grid_sync));
  add("cuhost_cpu_syncthreads_count", reinterpret_cast<void*>(&cuhost_cpu_syncthreads_count));
  add("cuhost_cpu_syncthreads_and", reinterpret_cast<void*>(&cuhost_cpu_syncthreads_and));
  add("cuhost_cpu_syncthreads_or", reinterpret_cast<void*>(&cuhost_cpu_syncthreads_or));
  add("cuhost_cpu_syncwarp", reinterpret_cast<void*>(&cuhost_cpu_syncwarp));
  add("cuhost_cpu_shfl", reinterpret_cast<void*>(&cuhost_cpu_shfl));
  add("cuhost_cpu_vote", reinterpret_cast<void*>(&cuhost_cpu_vote));
  add("cuhost_cpu_activemask", reinterpret_cast<void*>(&cuhost_cpu_activemask));
  add("cuhost_cpu_index_error", reinterpret_cast<void*>(&cuhost_cpu_index_error));
  add("cuhost_cpu_kernel_error", reinterpret_cast<void*>(&cuhost_cpu_kernel_error));
  add("cuhost_cpu_vprintf", reinterpret_cast<void*>(&cuhost_cpu_vprintf));
  add("cuhost_cpu_round_f64", reinterpret_cast<void*>(&cuhost_cpu_round_f64));
  add("cuhost_cpu_cluster_rank", reinterpret_cast<void*>(&cuhost_cpu_cluster_rank));
  add("cuhost_cpu_cluster_size", reinterpret_cast<void*>(&cuhost_cpu_cluster_size));
  add("cuhost_cpu_cluster_sync", reinterpret_cast<void*>(&cuhost_cpu_cluster_sync));
  add("cuhost_cpu_cluster_map", reinterpret_cast<void*>(&cuhost_cpu_cluster_map));
  add("cuhost_cpu_wmma_load", reinterpret_cast<void*>(&cuhost_cpu_wmma_load));
  add("cuhost_cpu_wmma_fill", reinterpret_cast<void*>(&cuhost_cpu_wmma_fill));
  add("cuhost_cpu_wmma_mma", reinterpret_cast<void*>(&cuhost_cpu_wmma_mma));
  add("cuhost_cpu_wmma_store", reinterpret_cast<void*>(&cuhost_cpu_wmma_store));
  add("cuhost_cpu_mma", reinterpret_cast<void*>(&cuhost_cpu_mma));
  add("cuhost_cpu_ldmatrix", reinterpret_cast<void*>(&cuhost_cpu_ldmatrix));
  add("cuhost_cpu_to_tf32", reinterpret_cast<void*>(&cuhost_cpu_to_tf32));
  add("cuhost_cpu_round_f32", reinterpret_cast<void*>(&cuhost_cpu_round_f32));
  add("cuhost_cpu_d2f", reinterpret_cast<void*>(&cuhost_cpu_d2f));
  add("cuhost_cpu_i2f", reinterpret_cast<void*>(&cuhost_cpu_i2f));
  add("cuhost_cpu_i2d", reinterpret_cast<void*>(&cuhost_cpu_i2d));
  add("cuhost_cpu_np_random_seed", reinterpret_cast<void*>(&cuhost_cpu_np_random_seed));
  add("cuhost_cpu_np_random_double", reinterpret_cast<void*>(&cuhost_cpu_np_random_double));
  // The NRT of kernels compiled with CUDA_ENABLE_NRT: its heap and (data) its allocation counters.
  add("cuhost_cpu_nrt_malloc", reinterpret_cast<void*>(&cuhost_cpu_nrt_malloc));
  add("cuhost_cpu_nrt_free", reinterpret_cast<void*>(&cuhost_cpu_nrt_free));
  add("cuhost_nrt_stats", static_cast<void*>(cuhost_nrt_stats));
  for (const char* stem : kMathStems) {
    lookup(stem);
    lookup(std::string(stem) + "f");
  }
  for (const char* name : kLibc) lookup(name);
  for (const char* name : kBuiltins) lookup(name);
  return out;
}

}  // namespace

const std::vector<std::pair<std::string, void*>>& host_symbols() {
  static const std::vector<std::pair<std::string, void*>> symbols = build();
  return symbols;
}

}  // namespace cuhost::cpu
