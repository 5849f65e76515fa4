// The list of intrinsic keys of intrinsics.h, so tests and lowering can check
// that every key typing produces has a lowering.
#include "sema/intrinsics.h"

namespace cuhost::sema {

const std::vector<std::string>& cuda_function_names() {
  static const std::vector<std::string> names = {"grid",
                                                 "gridsize",
                                                 "syncthreads",
                                                 "syncthreads_count",
                                                 "syncthreads_and",
                                                 "syncthreads_or",
                                                 "syncwarp",
                                                 "threadfence",
                                                 "threadfence_block",
                                                 "threadfence_system",
                                                 "shared.array",
                                                 "local.array",
                                                 "const.array_like",
                                                 "shfl_sync",
                                                 "shfl_up_sync",
                                                 "shfl_down_sync",
                                                 "shfl_xor_sync",
                                                 "all_sync",
                                                 "any_sync",
                                                 "eq_sync",
                                                 "ballot_sync",
                                                 "activemask",
                                                 "lanemask_lt",
                                                 "match_any_sync",
                                                 "match_all_sync",
                                                 "fma",
                                                 "cbrt",
                                                 "brev",
                                                 "clz",
                                                 "ffs",
                                                 "popc",
                                                 "selp",
                                                 "nanosleep",
                                                 "ldca",
                                                 "ldcg",
                                                 "ldcs",
                                                 "ldlu",
                                                 "ldcv",
                                                 "stcg",
                                                 "stcs",
                                                 "stwb",
                                                 "stwt",
                                                 "inline_ptx"};
  return names;
}

const std::vector<std::string>& intrinsic_keys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> k = {"cast",         "builtins.abs",   "builtins.min",   "builtins.max", "builtins.round",
                                  "builtins.len", "builtins.range", "builtins.print", "builtins.pow"};
    for (const char* f :
         {"add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "lshift", "rshift", "and_", "or_", "xor"})
      k.push_back(std::string("operator.") + f);
    for (const char* f :
         {"sqrt",  "sin",   "cos",      "tan",       "asin",      "acos",    "atan",   "sinh",  "cosh",
          "tanh",  "asinh", "acosh",    "atanh",     "exp",       "expm1",   "exp2",   "log",   "log1p",
          "log2",  "log10", "fabs",     "erf",       "erfc",      "gamma",   "lgamma", "atan2", "pow",
          "fmod",  "hypot", "copysign", "floor",     "ceil",      "trunc",   "isnan",  "isinf", "isfinite",
          "frexp", "ldexp", "modf",     "nextafter", "remainder", "degrees", "radians"})
      k.push_back(std::string("math.") + f);
    for (const char* d : {"threadIdx", "blockIdx", "blockDim", "gridDim"})
      for (const char* a : {"x", "y", "z"}) k.push_back(std::string("cuda.") + d + "." + a);
    for (const char* f : {"laneid", "warpsize"}) k.push_back(std::string("cuda.") + f);
    for (const std::string& f : cuda_function_names()) k.push_back("cuda." + f);
    for (const char* op : {"add", "sub", "max", "min", "nanmax", "nanmin", "and_", "or_", "xor", "exch", "inc", "dec",
                           "cas", "compare_and_swap"})
      k.push_back(std::string("cuda.atomic.") + op);
    for (const char* f :
         {"global.array", "global.device_array", "array.getitem", "array.setitem", "tuple.getitem", "array.view",
          "array.setslice", "tuple.slice", "tuple.concat", "tuple.repeat", "array.shape", "array.strides", "array.size",
          "ffi.from_buffer", "numpy_support.carray", "numpy_support.farray"})
      k.push_back(f);
    for (const char* f : {"number.real", "number.imag", "number.conjugate", "number.bit_count", "builtins.complex"})
      k.push_back(f);
    for (const char* f :
         {"cuda.cg.this_grid", "cuda.cg.GridGroup.sync", "cuda.cg.this_cluster", "cuda.cg.ClusterGroup.sync",
          "cuda.cg.ClusterGroup.block_rank", "cuda.cg.ClusterGroup.num_blocks", "cuda.cg.ClusterGroup.map_shared_rank"})
      k.push_back(f);
    for (const char* f : {"fragment", "fill_fragment", "load_matrix_sync", "mma_sync", "store_matrix_sync"})
      k.push_back(std::string("cuda.wmma.") + f);
    for (const char* f : {"mma_sync", "ldmatrix", "cp_async", "commit_group", "wait_group", "to_tf32"})
      k.push_back(std::string("cuda.mma.") + f);
    for (const char* f : {"extension.call", "extension.codegen", "extension.member"}) k.push_back(f);
    for (const char* f :
         {"sqrt", "exp",  "log",   "log10", "sin",   "cos",   "tan",   "sinh", "cosh",  "tanh",  "asin",
          "acos", "atan", "asinh", "acosh", "atanh", "phase", "polar", "rect", "isnan", "isinf", "isfinite"})
      k.push_back(std::string("cmath.") + f);
    // Half precision and fp8 (typing/half.cpp, typing/fp8.cpp).
    for (const char* f :
         {"cuda.fp16.hadd", "cuda.fp16.hfma", "cuda.fp16.hsin", "cuda.fp16.hlt", "cuda.bf16.hadd_sat",
          "cuda.bf16.hisinf", "cuda.bf16.float32_to_bfloat16_rz", "cuda.bf16.bfloat16_as_int16", "half.math.sin",
          "half.math.isnan", "cuda.fp8.cvt_float_to_fp8", "cuda.fp8.cvt_e8m0_to_bf16raw", "bfloat16_raw.x"})
      k.push_back(f);
    return k;
  }();
  return keys;
}

}  // namespace cuhost::sema
