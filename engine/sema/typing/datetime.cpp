// Typing of NumPy datetime64/timedelta64 values in kernels (numba's
// npdatetime rules): datetime - datetime is a timedelta, datetime +/-
// timedelta a datetime, timedeltas add, subtract, scale by numbers, divide
// into a float64 (/) or an int64 (//), and values of one kind compare.
// Operands meet in the finer of their units (ir/datetime.h); years and
// months mix only with each other. NaT propagates through arithmetic and
// compares unequal to everything (lowering/datetime.cpp).
#include "ir/datetime.h"
#include "sema/typer.h"

namespace cuhost::sema {

namespace {

bool is_dt(const ir::Type* t) { return t->kind == ir::TypeKind::NPDatetime; }
bool is_td(const ir::Type* t) { return t->kind == ir::TypeKind::NPTimedelta; }
bool int_like(const ir::Type* t) { return t->kind == ir::TypeKind::Boolean || t->is_integer(); }

}  // namespace

const ir::Type* type_datetime_binop(Typer& t, ast::BinOpKind op, const ir::Type* l, const ir::Type* r,
                                    const ast::Expr* at, std::vector<const ir::Type*>* operand_types) {
  auto bad = [&]() -> const ir::Type* {
    t.typing_error(
        at, concat("unsupported operand types for '", ast::to_string(op), "': ", display(l), " and ", display(r)));
  };
  auto unit = [&]() -> std::string {
    auto u = ir::common_unit(l->key, r->key);
    if (!u) t.typing_error(at, concat("cannot mix the units of ", display(l), " and ", display(r)));
    return *u;
  };
  auto set = [&](const ir::Type* a, const ir::Type* b) {
    if (operand_types) *operand_types = {a, b};
  };
  using K = ast::BinOpKind;
  if (is_dt(l) && is_dt(r) && op == K::Sub) {
    std::string u = unit();
    set(ir::datetime64(u), ir::datetime64(u));
    return ir::timedelta64(u);
  }
  if ((is_dt(l) && is_td(r) && (op == K::Add || op == K::Sub)) || (is_td(l) && is_dt(r) && op == K::Add)) {
    std::string u = unit();
    set(is_dt(l) ? ir::datetime64(u) : ir::timedelta64(u), is_dt(r) ? ir::datetime64(u) : ir::timedelta64(u));
    return ir::datetime64(u);
  }
  if (is_td(l) && is_td(r)) {
    std::string u = unit();
    const ir::Type* tu = ir::timedelta64(u);
    set(tu, tu);
    switch (op) {
      case K::Add:
      case K::Sub:
      case K::Mod: return tu;
      case K::Div: return ir::float64();
      case K::FloorDiv: return ir::int64();
      default: return bad();
    }
  }
  // timedelta scaled by a number.
  const ir::Type* num = is_td(l) ? r : l;
  const ir::Type* td = is_td(l) ? l : r;
  if (!is_td(td) || !(int_like(num) || num->is_float())) return bad();
  const ir::Type* scale = num->is_float() ? ir::float64() : ir::int64();
  if (op == K::Mult) {
    set(is_td(l) ? td : scale, is_td(l) ? scale : td);
    return td;
  }
  if ((op == K::Div || op == K::FloorDiv) && is_td(l)) {
    set(td, scale);
    return td;
  }
  return bad();
}

// The common operand type of a comparison of datetime/timedelta values.
const ir::Type* type_datetime_compare(Typer& t, const ir::Type* l, const ir::Type* r, ast::CompareOpKind op,
                                      const ast::Expr* at) {
  if (l->kind != r->kind || !ir::is_datetime_like(l)) {
    t.typing_error(at, concat("cannot compare ", display(l), " and ", display(r), " with '", ast::to_string(op), "'"));
  }
  auto u = ir::common_unit(l->key, r->key);
  if (!u) t.typing_error(at, concat("cannot mix the units of ", display(l), " and ", display(r)));
  return is_dt(l) ? ir::datetime64(*u) : ir::timedelta64(*u);
}

}  // namespace cuhost::sema
