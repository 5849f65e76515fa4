// Typing of warp-level primitives: shuffles (value type preserved, small
// ints widened to int32), votes, ballot, activemask and lanemask_lt. Every
// one marks the function as using warp operations.
#include "sema/typer.h"

namespace cuhost::sema {

namespace {

const ir::Type* mask_arg(Typer& t, const ast::Expr* a, const std::string& fname) {
  const ir::Type* m = t.type_of(a);
  if (!m->is_integer()) t.typing_error(a, concat("Mask type must be an integer. Got ", display(m), " (", fname, "())"));
  return ir::uint32();
}

}  // namespace

const ir::Type* type_warp_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info) {
  (void)info;
  if (key.rfind("cuda.", 0) != 0) return nullptr;
  std::string name = key.substr(5);
  if (name == "shfl_sync" || name == "shfl_up_sync" || name == "shfl_down_sync" || name == "shfl_xor_sync") {
    std::string third = name == "shfl_sync" ? "src_lane" : name == "shfl_xor_sync" ? "lane_mask" : "delta";
    auto args = t.bind(c, name, {"mask", "value", third}, 3, t.info(&c));
    mask_arg(t, args[0], name);
    const ir::Type* v = t.type_of(args[1]);
    const ir::Type* vt;
    if (v->kind == ir::TypeKind::Boolean || (v->is_integer() && v->bits < 32)) {
      vt = ir::int32();
    } else if (v->is_integer() || v->is_float()) {
      vt = v;
    } else {
      t.typing_error(args[1], concat(name, "() cannot shuffle a value of type ", display(v)));
    }
    const ir::Type* lane = t.type_of(args[2]);
    if (!lane->is_integer())
      t.typing_error(args[2], concat(name, "() ", third, " must be an integer, not ", display(lane)));
    t.info(&c).param_types = {ir::uint32(), vt, (third == "delta") ? ir::uint32() : ir::int32()};
    t.use_warp_ops();
    return vt;
  }
  if (name == "all_sync" || name == "any_sync" || name == "eq_sync" || name == "ballot_sync") {
    auto args = t.bind(c, name, {"mask", "predicate"}, 2, t.info(&c));
    mask_arg(t, args[0], name);
    const ir::Type* p = t.type_of(args[1]);
    // numba-cuda: integers and booleans only (a float predicate is refused).
    if (!(p->kind == ir::TypeKind::Boolean || p->is_integer())) {
      t.typing_error(args[1], concat("Predicate must be an integer or boolean. Got ", display(p), " (", name, "())"));
    }
    t.info(&c).param_types = {ir::uint32(), ir::boolean()};
    t.use_warp_ops();
    return name == "ballot_sync" ? ir::uint32() : ir::boolean();
  }
  if (name == "match_any_sync" || name == "match_all_sync") {
    // The lanes whose value has the same bits: a mask (any), or (mask, all equal) (all).
    auto args = t.bind(c, name, {"mask", "value"}, 2, t.info(&c));
    mask_arg(t, args[0], name);
    const ir::Type* v = t.type_of(args[1]);
    const ir::Type* vt = v;
    if (v->kind == ir::TypeKind::Boolean || (v->is_integer() && v->bits < 32)) vt = ir::int32();
    if (!(vt->is_integer() || vt->is_float()))
      t.typing_error(args[1], concat(name, "() value must be an integer or a float, not ", display(v)));
    t.info(&c).param_types = {ir::uint32(), vt};
    t.use_warp_ops();
    return name == "match_any_sync" ? ir::uint32() : ir::tuple({ir::uint32(), ir::boolean()});
  }
  if (name == "activemask" || name == "lanemask_lt") {
    t.bind(c, name, {}, 0, t.info(&c));
    t.use_warp_ops();
    return ir::uint32();
  }
  return nullptr;
}

}  // namespace cuhost::sema
