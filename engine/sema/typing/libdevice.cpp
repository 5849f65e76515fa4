// Typing of cuda.libdevice.*: libdevice's own names and signatures (the "f"
// suffix is the float32 form), lowered to calls of __nv_<name>.
#include <map>
#include <set>

#include "sema/typer.h"

namespace cuhost::sema {

namespace {

struct Sig {
  const ir::Type* ret;
  std::vector<const ir::Type*> args;
};

const std::map<std::string, Sig>& table() {
  static const std::map<std::string, Sig> t = [] {
    std::map<std::string, Sig> m;
    const ir::Type* f = ir::float32();
    const ir::Type* d = ir::float64();
    const ir::Type* i = ir::int32();
    const ir::Type* l = ir::int64();
    const ir::Type* u = ir::uint32();
    const ir::Type* ul = ir::uint64();
    for (const char* n :
         {"sin",       "cos",   "tan",   "asin",   "acos",    "atan",      "sinh",   "cosh",  "tanh",  "asinh",
          "acosh",     "atanh", "exp",   "expm1",  "exp2",    "exp10",     "log",    "log1p", "log2",  "log10",
          "sqrt",      "rsqrt", "cbrt",  "rcbrt",  "fabs",    "floor",     "ceil",   "trunc", "round", "rint",
          "nearbyint", "erf",   "erfc",  "erfinv", "erfcinv", "lgamma",    "tgamma", "j0",    "j1",    "y0",
          "y1",        "logb",  "sinpi", "cospi",  "normcdf", "normcdfinv"}) {
      m[n] = {d, {d}};
      m[std::string(n) + "f"] = {f, {f}};
    }
    for (const char* n :
         {"atan2", "pow", "fmod", "hypot", "copysign", "fmin", "fmax", "fdim", "remainder", "nextafter"}) {
      m[n] = {d, {d, d}};
      m[std::string(n) + "f"] = {f, {f, f}};
    }
    m["fma"] = {d, {d, d, d}};
    m["fmaf"] = {f, {f, f, f}};
    for (const char* n :
         {"fast_sinf", "fast_cosf", "fast_tanf", "fast_expf", "fast_exp10f", "fast_logf", "fast_log2f", "fast_log10f"})
      m[n] = {f, {f}};
    m["fast_powf"] = {f, {f, f}};
    m["powi"] = {d, {d, i}};
    m["powif"] = {f, {f, i}};
    m["abs"] = {i, {i}};
    m["llabs"] = {l, {l}};
    m["min"] = {i, {i, i}};
    m["max"] = {i, {i, i}};
    m["umin"] = {u, {u, u}};
    m["umax"] = {u, {u, u}};
    m["llmin"] = {l, {l, l}};
    m["llmax"] = {l, {l, l}};
    m["ullmin"] = {ul, {ul, ul}};
    m["ullmax"] = {ul, {ul, ul}};
    m["popc"] = {i, {i}};
    m["popcll"] = {i, {l}};
    m["clz"] = {i, {i}};
    m["clzll"] = {i, {l}};
    m["ffs"] = {i, {i}};
    m["ffsll"] = {i, {l}};
    m["brev"] = {i, {i}};
    m["brevll"] = {l, {l}};
    m["mulhi"] = {i, {i, i}};
    m["umulhi"] = {u, {u, u}};
    m["mul64hi"] = {l, {l, l}};
    m["umul64hi"] = {ul, {ul, ul}};
    m["isnand"] = {i, {d}};
    m["isnanf"] = {i, {f}};
    m["isinfd"] = {i, {d}};
    m["isinff"] = {i, {f}};
    m["signbitd"] = {i, {d}};
    m["signbitf"] = {i, {f}};
    return m;
  }();
  return t;
}

}  // namespace

bool libdevice_has(const std::string& name) { return table().count(name) != 0; }

const ir::Type* type_libdevice_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info) {
  (void)info;
  if (key.rfind("cuda.libdevice.", 0) != 0) return nullptr;
  std::string name = key.substr(15);
  auto it = table().find(name);
  if (it == table().end()) return nullptr;
  const Sig& sig = it->second;
  std::vector<std::string> params;
  for (size_t i = 0; i < sig.args.size(); ++i) params.push_back(concat("x", i));
  auto args = t.bind(c, name, params, params.size(), t.info(&c));
  for (size_t i = 0; i < args.size(); ++i) {
    const ir::Type* at = t.type_of(args[i]);
    if (!can_convert(at, sig.args[i]) || !at->is_scalar()) {
      t.typing_error(args[i], concat("libdevice.", name, "() argument ", i + 1, " must be ", display(sig.args[i]),
                                     ", not ", display(at)));
    }
  }
  t.info(&c).param_types = sig.args;
  return sig.ret;
}

}  // namespace cuhost::sema
