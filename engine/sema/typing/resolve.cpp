// Resolution of dotted names (globals and module attributes) to what they
// mean inside a kernel: namespaces (cuda, math, cuda.atomic, ...), value
// intrinsics (cuda.threadIdx.x, cuda.laneid), folded constants (math.pi),
// type objects (float32, np.float32, numba.types.int32) and functions.
#include <cmath>
#include <set>

#include "sema/intrinsics.h"
#include "sema/typer.h"

namespace cuhost::sema {

bool libdevice_has(const std::string& name);

namespace {

bool starts_with(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

std::string normalize(std::string key) {
  if (key == "numba.cuda") return "cuda";
  if (starts_with(key, "numba.cuda.")) key = key.substr(6);
  if (starts_with(key, "numba.core.types")) key = "numba.types" + key.substr(16);
  if (starts_with(key, "cuda.types")) key = "numba.types" + key.substr(10);
  if (starts_with(key, "np.")) key = "numpy" + key.substr(2);
  return key;
}

const std::set<std::string>& namespaces() {
  static const std::set<std::string> s = {"cuda",        "math",        "numpy",      "numba",      "numba.types",
                                          "cuda.atomic", "cuda.shared", "cuda.local", "cuda.const", "cuda.libdevice",
                                          "builtins",    "cmath",       "operator",   "cuda.cg"};
  return s;
}

const std::set<std::string>& cuda_functions() {
  static const std::set<std::string> s(cuda_function_names().begin(), cuda_function_names().end());
  return s;
}

const std::set<std::string>& math_functions() {
  static const std::set<std::string> s = {
      "sqrt",  "sin",   "cos",   "tan",       "asin",      "acos",     "atan",   "atan2", "sinh",
      "cosh",  "tanh",  "asinh", "acosh",     "atanh",     "exp",      "expm1",  "exp2",  "log",
      "log1p", "log2",  "log10", "pow",       "fabs",      "floor",    "ceil",   "trunc", "fmod",
      "hypot", "erf",   "erfc",  "gamma",     "lgamma",    "copysign", "isnan",  "isinf", "isfinite",
      "frexp", "ldexp", "modf",  "nextafter", "remainder", "degrees",  "radians"};
  return s;
}

// NumPy functions whose scalar behaviour equals the math function's.
const std::map<std::string, std::string>& numpy_functions() {
  static const std::map<std::string, std::string> m = {
      {"sqrt", "sqrt"},         {"sin", "sin"},     {"cos", "cos"},       {"tan", "tan"},     {"arcsin", "asin"},
      {"arccos", "acos"},       {"arctan", "atan"}, {"arctan2", "atan2"}, {"sinh", "sinh"},   {"cosh", "cosh"},
      {"tanh", "tanh"},         {"exp", "exp"},     {"expm1", "expm1"},   {"exp2", "exp2"},   {"log", "log"},
      {"log1p", "log1p"},       {"log2", "log2"},   {"log10", "log10"},   {"fabs", "fabs"},   {"hypot", "hypot"},
      {"copysign", "copysign"}, {"fmod", "fmod"},   {"isnan", "isnan"},   {"isinf", "isinf"}, {"isfinite", "isfinite"}};
  return m;
}

const ir::Type* numpy_scalar(const std::string& name) {
  if (name == "float_" || name == "double" || name == "float64") return ir::float64();
  if (name == "bool_" || name == "bool8") return ir::boolean();
  if (name == "void" || name == "none") return nullptr;
  return ir::scalar_by_name(name);
}

}  // namespace

bool resolve_builtin_key(Typer& t, const std::string& raw_key, const ast::Expr* e, ExprInfo& info) {
  (void)t;
  (void)e;
  std::string key = normalize(raw_key);
  size_t dot = key.rfind('.');
  std::string last = dot == std::string::npos ? key : key.substr(dot + 1);
  std::string prefix = dot == std::string::npos ? "" : key.substr(0, dot);

  if (resolve_half_key(key, info) || resolve_fp8_key(key, info) || resolve_wmma_key(key, info) ||
      resolve_mma_key(key, info) || resolve_cluster_key(key, info))
    return true;
  if (key == "builtins.isinstance") {  // typing/builtins.cpp folds it
    info.type = ir::intrinsic(key);
    return true;
  }
  if (namespaces().count(key)) {
    info.type = ir::module(key);
    return true;
  }
  if (key == "cuda.threadIdx" || key == "cuda.blockIdx" || key == "cuda.blockDim" || key == "cuda.gridDim") {
    info.type = ir::intrinsic(key);
    return true;
  }
  if ((prefix == "cuda.threadIdx" || prefix == "cuda.blockIdx" || prefix == "cuda.blockDim" ||
       prefix == "cuda.gridDim") &&
      (last == "x" || last == "y" || last == "z")) {
    info.type = ir::int32();
    info.intrinsic = key;
    return true;
  }
  if (key == "cuda.laneid" || key == "cuda.warpsize") {
    info.type = ir::int32();
    info.intrinsic = key;
    return true;
  }
  if (key == "cuda.ffi") {
    info.type = ir::ffi();
    return true;
  }
  if (starts_with(key, "cuda.") && cuda_functions().count(key.substr(5))) {
    info.type = ir::intrinsic(key);
    return true;
  }
  if (prefix == "cuda.atomic") {
    static const std::set<std::string> ops = {"add", "sub", "max",  "min", "nanmax", "nanmin", "and_",
                                              "or_", "xor", "exch", "inc", "dec",    "cas",    "compare_and_swap"};
    if (!ops.count(last)) return false;
    info.type = ir::intrinsic(key);
    return true;
  }
  if (prefix == "operator") {
    if (!operator_binop(last)) return false;
    info.type = ir::intrinsic(key);
    return true;
  }
  if (key == "cuda.cg.this_grid" || key == "cuda.cg.GridGroup.sync") {
    info.type = ir::intrinsic(key);
    return true;
  }
  if (prefix == "cuda.libdevice") {
    if (!libdevice_has(last)) return false;
    info.type = ir::intrinsic(key);
    return true;
  }
  if (prefix == "math" || prefix == "numpy") {
    static const std::map<std::string, double> constants = {
        {"pi", M_PI}, {"e", M_E}, {"tau", 2 * M_PI}, {"inf", INFINITY}, {"nan", NAN}};
    auto c = constants.find(last);
    if (c != constants.end() && (prefix == "math" || last != "tau")) {
      info.type = ir::float64();
      info.constant = ir::ConstValue::floating(c->second);
      return true;
    }
  }
  if (prefix == "cmath") return resolve_cmath_key(last, info);
  if (prefix == "math" && math_functions().count(last)) {
    info.type = ir::intrinsic(key);
    return true;
  }
  if (prefix == "numpy") {
    if (resolve_numpy_complex_key(last, info)) return true;
    if (resolve_numpy_reduction_key(last, info)) return true;
    if (resolve_nrt_numpy_key(last, info)) return true;
    auto f = numpy_functions().find(last);
    if (f != numpy_functions().end()) {
      info.type = ir::intrinsic("math." + f->second);
      return true;
    }
    if (const ir::Type* s = numpy_scalar(last)) {
      info.type = ir::type_ref(s);
      return true;
    }
    if (last == "dtype") {  // np.dtype('float32'), np.dtype(np.int8): typing/arrays.cpp
      info.type = ir::intrinsic(key);
      return true;
    }
    return false;
  }
  if (prefix == "cuda" || prefix == "numba" || prefix == "numba.types") {
    if (const ir::Type* s = ir::scalar_by_name(last); s && s->is_scalar()) {
      info.type = ir::type_ref(s);
      return true;
    }
  }
  if (prefix == "builtins") {
    static const std::set<std::string> b = {"abs",   "min",     "max",   "round",     "int", "float", "bool", "len",
                                            "range", "complex", "print", "enumerate", "zip", "pow",   "tuple"};
    if (!b.count(last)) return false;
    info.type = ir::intrinsic(key);
    return true;
  }
  return false;
}

}  // namespace cuhost::sema
