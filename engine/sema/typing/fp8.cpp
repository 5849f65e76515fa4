// Typing of the storage-only floats numba-cuda binds from cuda_fp8.h
// (numba.cuda._internal.cuda_fp8): the fp8_e5m2 / fp8_e4m3 / fp8_e8m0 types
// (constructed with a cast, converted with casts, no arithmetic) and the raw
// conversion functions on storage bytes ("cuda.fp8.<f>"), whose saturation,
// interpretation and rounding-mode arguments are integers (CUDA's enums).
// bfloat16_raw values have one attribute, .x (the bits). Lowering is
// codegen/lowering/fp8.cpp.
#include <map>

#include "sema/typer.h"

namespace cuhost::sema {

namespace {

struct Cvt {
  const ir::Type* (*source)();
  const ir::Type* (*result)();
  size_t nargs;
};

const ir::Type* bf16raw() { return ir::storage_float("bfloat16_raw"); }

const std::map<std::string, Cvt>& conversions() {
  static const std::map<std::string, Cvt> m = {
      {"cvt_float_to_fp8", {ir::float32, ir::uint8, 3}},   {"cvt_double_to_fp8", {ir::float64, ir::uint8, 3}},
      {"cvt_bfloat16raw_to_fp8", {bf16raw, ir::uint8, 3}}, {"cvt_float_to_e8m0", {ir::float32, ir::uint8, 3}},
      {"cvt_double_to_e8m0", {ir::float64, ir::uint8, 3}}, {"cvt_bfloat16raw_to_e8m0", {bf16raw, ir::uint8, 3}},
      {"cvt_e8m0_to_bf16raw", {ir::uint8, bf16raw, 1}}};
  return m;
}

}  // namespace

bool resolve_fp8_key(const std::string& key, ExprInfo& info) {
  const std::string mod = "cuda._internal.cuda_fp8";
  if (key == mod || key == "cuda.fp8") {
    info.type = ir::module("cuda.fp8");
    return true;
  }
  std::string name;
  if (key.rfind(mod + ".", 0) == 0)
    name = key.substr(mod.size() + 1);
  else if (key.rfind("cuda.fp8.", 0) == 0)
    name = key.substr(9);
  else
    return false;
  if (const ir::Type* s = ir::storage_float(name); s && name != "bfloat16_raw") {
    info.type = ir::type_ref(s);
    return true;
  }
  if (!conversions().count(name)) return false;
  info.type = ir::intrinsic("cuda.fp8." + name);
  return true;
}

const ir::Type* type_fp8_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info) {
  (void)info;
  if (key.rfind("cuda.fp8.", 0) != 0) return nullptr;
  std::string name = key.substr(9);
  auto it = conversions().find(name);
  if (it == conversions().end()) return nullptr;
  const Cvt& cv = it->second;
  std::vector<std::string> params = {
      "x", "saturate",
      cv.result == ir::uint8 && name.find("e8m0") == std::string::npos ? "fp8_interpretation" : "rounding"};
  params.resize(cv.nargs);
  auto args = t.bind(c, name, params, cv.nargs, t.info(&c));
  const ir::Type* x = t.type_of(args[0]);
  bool ok = cv.source() == bf16raw() ? x == bf16raw()
                                     : (x->is_number() && x->kind != ir::TypeKind::Complex && !ir::is_storage_float(x));
  if (!ok) t.typing_error(args[0], concat(name, "() takes a ", display(cv.source()), ", not ", display(x)));
  std::vector<const ir::Type*> ptypes = {cv.source()};
  for (size_t i = 1; i < args.size(); ++i) {
    const ir::Type* a = t.type_of(args[i]);
    if (!(a->is_integer() || a->kind == ir::TypeKind::Boolean))
      t.typing_error(args[i],
                     concat(name, "() argument '", params[i], "' must be an integer enum value, not ", display(a)));
    ptypes.push_back(ir::int32());
  }
  t.info(&c).param_types = ptypes;
  return cv.result();
}

const ir::Type* type_storage_attribute(Typer& t, const ast::Attribute& a, const ir::Type* base, ExprInfo& info) {
  (void)t;
  if (base != bf16raw() || a.attr != "x") return nullptr;
  info.intrinsic = "bfloat16_raw.x";
  return ir::uint16();
}

}  // namespace cuhost::sema
