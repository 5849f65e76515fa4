// Typing of half precision in kernels: the cuda.fp16 intrinsics (float16),
// numba.cuda.bf16 and numba.cuda._internal.cuda_bf16 (bfloat16: arithmetic,
// comparisons, math and the conversions with explicit rounding modes), and
// math.* on float16/bfloat16 arguments, which numba-cuda computes and
// returns in the 16-bit type (not in float64 as for integers). Lowering is
// codegen/lowering/half.cpp under the same keys.
#include <set>

#include "sema/typer.h"

namespace cuhost::sema {

namespace {

bool starts_with(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

const std::set<std::string>& binary_ops() {
  static const std::set<std::string> s = {"hadd",    "hsub",    "hmul",     "hdiv",     "hadd_rn",
                                          "hsub_rn", "hmul_rn", "hadd_sat", "hsub_sat", "hmul_sat",
                                          "hmax",    "hmin",    "hmax_nan", "hmin_nan"};
  return s;
}
const std::set<std::string>& ternary_ops() {
  static const std::set<std::string> s = {"hfma", "hfma_sat", "hfma_relu"};
  return s;
}
const std::set<std::string>& unary_ops() {
  static const std::set<std::string> s = {"hneg",   "habs",   "hsin",   "hcos",  "hexp",        "hexp2", "hexp10",
                                          "hlog",   "hlog2",  "hlog10", "hsqrt", "hrsqrt",      "hrcp",  "hceil",
                                          "hfloor", "htrunc", "hrint",  "htanh", "htanh_approx"};
  return s;
}
const std::set<std::string>& compare_ops() {
  static const std::set<std::string> s = {"heq", "hne", "hgt", "hge", "hlt", "hle"};
  return s;
}

// Functions of numba.cuda.fp16 (numba-cuda's documented set).
bool fp16_has(const std::string& n) {
  static const std::set<std::string> extra_bf16_only = {"hadd_rn",  "hsub_rn",  "hmul_rn",  "hadd_sat",
                                                        "hsub_sat", "hmul_sat", "hfma_sat", "hfma_relu",
                                                        "hmax_nan", "hmin_nan", "htanh",    "htanh_approx"};
  if (extra_bf16_only.count(n)) return false;
  return binary_ops().count(n) || ternary_ops().count(n) || unary_ops().count(n) || compare_ops().count(n);
}

const std::set<std::string>& int_names() {
  static const std::set<std::string> s = {"int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"};
  return s;
}

bool is_mode(const std::string& m) { return m == "rn" || m == "rz" || m == "rd" || m == "ru"; }

// Splits "<head>_<mode>" when the tail is a rounding mode.
std::pair<std::string, std::string> split_mode(const std::string& n) {
  if (n.size() > 3 && n[n.size() - 3] == '_' && is_mode(n.substr(n.size() - 2)))
    return {n.substr(0, n.size() - 3), n.substr(n.size() - 2)};
  return {n, ""};
}

}  // namespace

// A bf16 conversion binding: source and target type of
// "<src>_to_bfloat16[_mode]", "bfloat16_to_<dst>[_mode]" and the bit casts
// "<int16|uint16>_as_bfloat16" / "bfloat16_as_<int16|uint16>".
bool bf16_conversion(const std::string& name, const ir::Type** from, const ir::Type** to, std::string* mode,
                     bool* bitcast) {
  auto [head, m] = split_mode(name);
  *mode = m.empty() ? "rn" : m;
  *bitcast = false;
  const std::string to_bf = "_to_bfloat16", from_bf = "bfloat16_to_";
  if (head.size() > to_bf.size() && head.compare(head.size() - to_bf.size(), to_bf.size(), to_bf) == 0) {
    std::string src = head.substr(0, head.size() - to_bf.size());
    if (!(int_names().count(src) || src == "float32" || src == "float64")) return false;
    if (src == "int8" || src == "uint8") return false;
    *from = ir::scalar_by_name(src);
    *to = ir::bfloat16();
    return true;
  }
  if (starts_with(head, from_bf.c_str())) {
    std::string dst = head.substr(from_bf.size());
    if (!(int_names().count(dst) || dst == "float32")) return false;
    if ((dst == "int8" || dst == "uint8") && m != "rz") return false;  // only the _rz forms exist
    if (dst == "float32" && !m.empty()) return false;
    *from = ir::bfloat16();
    *to = ir::scalar_by_name(dst);
    return true;
  }
  if (m.empty() && (head == "int16_as_bfloat16" || head == "uint16_as_bfloat16")) {
    *from = head[0] == 'u' ? ir::uint16() : ir::int16();
    *to = ir::bfloat16();
    *bitcast = true;
    return true;
  }
  if (m.empty() && (head == "bfloat16_as_int16" || head == "bfloat16_as_uint16")) {
    *from = ir::bfloat16();
    *to = head == "bfloat16_as_uint16" ? ir::uint16() : ir::int16();
    *bitcast = true;
    return true;
  }
  return false;
}

bool resolve_half_key(const std::string& key, ExprInfo& info) {
  if (key == "cuda.fp16" || key == "cuda.bf16" || key == "cuda._internal.cuda_bf16") {
    info.type = ir::module(key == "cuda.fp16" ? "cuda.fp16" : "cuda.bf16");
    return true;
  }
  std::string name;
  bool fp16 = starts_with(key, "cuda.fp16.");
  if (fp16)
    name = key.substr(10);
  else if (starts_with(key, "cuda.bf16."))
    name = key.substr(10);
  else if (starts_with(key, "cuda._internal.cuda_bf16."))
    name = key.substr(25);
  else
    return false;
  if (fp16) {
    if (!fp16_has(name)) return false;
    info.type = ir::intrinsic("cuda.fp16." + name);
    return true;
  }
  if (name == "bfloat16" || name == "nv_bfloat16") {
    info.type = ir::type_ref(ir::bfloat16());
    return true;
  }
  const ir::Type *from, *to;
  std::string mode;
  bool bitcast;
  if (binary_ops().count(name) || ternary_ops().count(name) || unary_ops().count(name) || compare_ops().count(name) ||
      name == "hisnan" || name == "hisinf" || bf16_conversion(name, &from, &to, &mode, &bitcast)) {
    info.type = ir::intrinsic("cuda.bf16." + name);
    return true;
  }
  return false;
}

const ir::Type* type_half_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info) {
  (void)info;
  const ir::Type* elem = nullptr;
  std::string name;
  if (starts_with(key, "cuda.fp16.")) {
    elem = ir::float16();
    name = key.substr(10);
  } else if (starts_with(key, "cuda.bf16.")) {
    elem = ir::bfloat16();
    name = key.substr(10);
  } else if (starts_with(key, "math.")) {
    // math.* with a 16-bit float argument is computed in (and returns) that type.
    name = key.substr(5);
    for (const auto& a : c.args) {
      const ir::Type* at = t.type_of(a.get());
      if (at->is_float() && at->bits == 16) elem = elem && elem != at ? ir::float32() : at;
    }
    if (!elem || elem->bits != 16) return nullptr;
    static const std::set<std::string> unary = {"sin",  "cos",   "tan",   "asin",  "acos",  "atan",  "sinh",
                                                "cosh", "tanh",  "asinh", "acosh", "atanh", "exp",   "expm1",
                                                "exp2", "log",   "log1p", "log2",  "log10", "fabs",  "floor",
                                                "ceil", "trunc", "sqrt",  "erf",   "erfc",  "gamma", "lgamma"};
    static const std::set<std::string> binary = {"pow", "atan2", "hypot", "copysign", "fmod"};
    if (name == "isnan" || name == "isinf" || name == "isfinite") {
      auto args = t.bind(c, name, {"x"}, 1, t.info(&c));
      t.info(&c).param_types = {t.type_of(args[0])};
      t.info(&c).intrinsic = "half.math." + name;
      return ir::boolean();
    }
    size_t n = unary.count(name) ? 1 : binary.count(name) ? 2 : 0;
    if (!n) return nullptr;
    std::vector<std::string> params = n == 1 ? std::vector<std::string>{"x"} : std::vector<std::string>{"x", "y"};
    auto args = t.bind(c, name, params, n, t.info(&c));
    for (const ast::Expr* a : args) {
      const ir::Type* at = t.type_of(a);
      if (!(at->is_number() || at->kind == ir::TypeKind::Boolean) || at->kind == ir::TypeKind::Complex) return nullptr;
      if (at->is_float() && at->bits > 16) return nullptr;  // a wider float decides: the math module types it
    }
    t.info(&c).param_types = std::vector<const ir::Type*>(n, elem);
    t.info(&c).intrinsic = "half.math." + name;
    return elem;
  } else {
    return nullptr;
  }
  const std::string tname = elem->str();
  auto check_args = [&](const std::vector<const ast::Expr*>& args) {
    for (const ast::Expr* a : args) {
      const ir::Type* at = t.type_of(a);
      if (!(at->is_number() || at->kind == ir::TypeKind::Boolean) || at->kind == ir::TypeKind::Complex)
        t.typing_error(a, concat(name, "() takes ", tname, " arguments, not ", display(at)));
    }
  };
  if (binary_ops().count(name) || compare_ops().count(name)) {
    auto args = t.bind(c, name, {"a", "b"}, 2, t.info(&c));
    check_args(args);
    t.info(&c).param_types = {elem, elem};
    return compare_ops().count(name) ? ir::boolean() : elem;
  }
  if (ternary_ops().count(name)) {
    auto args = t.bind(c, name, {"a", "b", "c"}, 3, t.info(&c));
    check_args(args);
    t.info(&c).param_types = {elem, elem, elem};
    return elem;
  }
  if (unary_ops().count(name) || name == "hisnan" || name == "hisinf") {
    auto args = t.bind(c, name, {"a"}, 1, t.info(&c));
    check_args(args);
    t.info(&c).param_types = {elem};
    if (name == "hisnan") return ir::boolean();
    if (name == "hisinf") return ir::int32();
    return elem;
  }
  const ir::Type *from, *to;
  std::string mode;
  bool bitcast;
  if (elem == ir::bfloat16() && bf16_conversion(name, &from, &to, &mode, &bitcast)) {
    auto args = t.bind(c, name, {"x"}, 1, t.info(&c));
    const ir::Type* at = t.type_of(args[0]);
    // numba-cuda's bindings convert their argument to the parameter type
    // implicitly (bfloat16_as_int16(np.int16(x)) first makes x a bfloat16).
    bool ok = (at->is_number() || at->kind == ir::TypeKind::Boolean) && at->kind != ir::TypeKind::Complex;
    if (!ok) t.typing_error(args[0], concat(name, "() takes a ", display(from), " argument, not ", display(at)));
    t.info(&c).param_types = {from};
    return to;
  }
  t.fail(ErrorKind::TypingError, c.loc, concat("unknown ", tname, " function '", name, "'"));
}

}  // namespace cuhost::sema
