// numba's scalar promotion and arithmetic typing, written from its documented
// behaviour (numba follows NumPy's promote_types for unification and types
// integer arithmetic on int64/uint64 machine integers).
#include "sema/numeric.h"

#include <algorithm>

#include "ir/datetime.h"

namespace cuhost::sema {

namespace {

bool is_num_or_bool(const ir::Type* t) { return t->kind == ir::TypeKind::Boolean || t->is_number(); }

// The smallest float that holds every value of an integer exactly enough for
// NumPy: ints up to 16 bits fit float32, wider ones need float64.
const ir::Type* float_for_int(const ir::Type* t) {
  if (t->kind == ir::TypeKind::Boolean) return ir::float32();  // promote(bool, float16/32) keeps the float
  return t->bits <= 16 ? ir::float32() : ir::float64();
}

}  // namespace

bool can_be_optional(const ir::Type* t) {
  return t && (is_num_or_bool(t) || t->is_tuple() || t->is_array() || t->kind == ir::TypeKind::CPointer);
}

// numba's unification with None: none and T give OptionalType(T); an
// Optional unifies its payload with the other side (none included).
static const ir::Type* unify_optional(const ir::Type* a, const ir::Type* b) {
  using K = ir::TypeKind;
  if (a->kind != K::Optional && b->kind != K::Optional && a->kind != K::NoneType && b->kind != K::NoneType)
    return nullptr;
  auto payload = [](const ir::Type* t) { return t->kind == K::Optional ? t->pointee : t; };
  if (a->kind == K::NoneType) std::swap(a, b);
  // b may now be none; a is Optional or a value type.
  if (b->kind == K::NoneType) {
    if (a->kind == K::Optional) return a;
    return can_be_optional(a) ? ir::optional(a) : nullptr;
  }
  const ir::Type* u = unify(payload(a), payload(b));
  return can_be_optional(u) ? ir::optional(u) : nullptr;
}

const ir::Type* promote(const ir::Type* a, const ir::Type* b) {
  if (a == b) return a;
  if (!is_num_or_bool(a) || !is_num_or_bool(b)) return nullptr;
  if (ir::is_storage_float(a) || ir::is_storage_float(b)) return nullptr;  // fp8: conversions only
  if (a->kind == ir::TypeKind::Boolean) return b;
  if (b->kind == ir::TypeKind::Boolean) return a;
  if (a->is_integer() && b->is_integer()) {
    if (a->is_signed == b->is_signed) return ir::integer(std::max(a->bits, b->bits), a->is_signed);
    const ir::Type* s = a->is_signed ? a : b;
    const ir::Type* u = a->is_signed ? b : a;
    if (s->bits > u->bits) return s;
    if (u->bits >= 64) return ir::float64();
    return ir::integer(u->bits * 2, true);
  }
  if (a->kind == ir::TypeKind::Complex || b->kind == ir::TypeKind::Complex) {
    const ir::Type* c = a->kind == ir::TypeKind::Complex ? a : b;
    const ir::Type* o = c == a ? b : a;
    if (o->kind == ir::TypeKind::Complex) return a->bits >= b->bits ? a : b;
    const ir::Type* f = o->is_float() ? o : float_for_int(o);
    return (c->bits == 64 && f->bits <= 32) ? ir::complex64() : ir::complex128();
  }
  // At least one float.
  if (a->is_float() && b->is_float()) {
    // float16 with bfloat16: neither holds the other (ml_dtypes: float32).
    if (a->bits == 16 && b->bits == 16) return ir::float32();
    return a->bits >= b->bits ? a : b;
  }
  const ir::Type* f = a->is_float() ? a : b;
  const ir::Type* i = a->is_float() ? b : a;
  if (f->bits >= 64) return f;
  // NumPy: 8-bit integers fit a 16-bit float (promote_types(int8, float16) is float16).
  if (f->bits == 16 && i->bits <= 8) return f;
  return float_for_int(i);
}

const ir::Type* unify(const ir::Type* a, const ir::Type* b) {
  if (a == b) return a;
  if (!a || !b) return nullptr;
  if (const ir::Type* o = unify_optional(a, b)) return o;
  if (is_num_or_bool(a) && is_num_or_bool(b)) return promote(a, b);
  // An IntEnum member meets a number (or another IntEnum) as its integer value.
  if (ir::is_int_enum(a) || ir::is_int_enum(b)) {
    if ((ir::is_int_enum(a) || is_num_or_bool(a)) && (ir::is_int_enum(b) || is_num_or_bool(b)))
      return unify(ir::is_int_enum(a) ? a->pointee : a, ir::is_int_enum(b) ? b->pointee : b);
    return nullptr;
  }
  // datetime64/timedelta64 of one kind meet in the finer unit.
  if (ir::is_datetime_like(a) && a->kind == b->kind) {
    auto unit = ir::common_unit(a->key, b->key);
    if (!unit) return nullptr;
    return a->kind == ir::TypeKind::NPDatetime ? ir::datetime64(*unit) : ir::timedelta64(*unit);
  }
  if (a->is_tuple() && b->is_tuple() && a->elements.size() == b->elements.size()) {
    std::vector<const ir::Type*> elems;
    for (size_t i = 0; i < a->elements.size(); ++i) {
      const ir::Type* u = unify(a->elements[i], b->elements[i]);
      if (!u) return nullptr;
      elems.push_back(u);
    }
    return ir::tuple(elems);
  }
  if (a->is_array() && b->is_array() && a->dtype == b->dtype && a->ndim == b->ndim) {
    ir::Layout l = a->layout == b->layout ? a->layout : ir::Layout::A;
    return ir::array(a->dtype, a->ndim, l, a->readonly || b->readonly, a->unaligned || b->unaligned);
  }
  if (a->kind == ir::TypeKind::CPointer && b->kind == ir::TypeKind::CPointer) return nullptr;
  return nullptr;
}

const ir::Type* int_arith(const ir::Type* a, const ir::Type* b) {
  bool au = a->is_integer() && !a->is_signed;
  bool bu = b->is_integer() && !b->is_signed;
  if (!au && !bu) return ir::int64();
  if (au && bu) return ir::uint64();
  // numba's integer_binop_cases span every (int64|uint64, int64|uint64)
  // pair and type the result signed when either side is: int64 with uint64
  // is int64 arithmetic (wrapping), not NumPy's float64.
  return ir::int64();
}

const ir::Type* float_arith(const ir::Type* a, const ir::Type* b) {
  // numba's casting rules reach float32 safely from int8, uint8, int16 and
  // bool, but from uint16 only unsafely (its safe path is uint16 -> int32 ->
  // float64), so uint16 with float32 computes in float64, where NumPy's
  // promotion (and unify) gives float32.
  auto is_uint16 = [](const ir::Type* t) { return t->is_integer() && !t->is_signed && t->bits == 16; };
  if ((a == ir::float32() && is_uint16(b)) || (b == ir::float32() && is_uint16(a))) return ir::float64();
  return promote(a, b);
}

const ir::Type* arith(const ir::Type* a, const ir::Type* b) {
  if (!is_num_or_bool(a) || !is_num_or_bool(b)) return nullptr;
  if (ir::is_storage_float(a) || ir::is_storage_float(b)) return nullptr;
  bool a_int = a->is_integer() || a->kind == ir::TypeKind::Boolean;
  bool b_int = b->is_integer() || b->kind == ir::TypeKind::Boolean;
  if (a_int && b_int) return int_arith(a, b);
  return float_arith(a, b);
}

bool can_convert(const ir::Type* from, const ir::Type* to) {
  if (from == to) return true;
  if (!from || !to) return false;
  if (ir::is_storage_float(from) || ir::is_storage_float(to)) return false;  // explicit casts only
  if (is_num_or_bool(from) && is_num_or_bool(to)) {
    // Complex never converts to a real type implicitly.
    return !(from->kind == ir::TypeKind::Complex && to->kind != ir::TypeKind::Complex);
  }
  if (from->is_tuple() && to->is_tuple() && from->elements.size() == to->elements.size()) {
    for (size_t i = 0; i < from->elements.size(); ++i)
      if (!can_convert(from->elements[i], to->elements[i])) return false;
    return true;
  }
  if (from->is_array() && to->is_array()) {
    return from->dtype == to->dtype && from->ndim == to->ndim &&
           (to->layout == ir::Layout::A || from->layout == to->layout) && (!from->readonly || to->readonly);
  }
  // datetime64/timedelta64: between units of one kind (rescaled; toward a
  // coarser unit the value is floored, as NumPy's astype).
  if (ir::is_datetime_like(from) && from->kind == to->kind) return ir::common_unit(from->key, to->key).has_value();
  if (to->kind == ir::TypeKind::Optional) return from->kind == ir::TypeKind::NoneType || can_convert(from, to->pointee);
  // numba: an Optional converts to its payload's targets (checked at run time).
  if (from->kind == ir::TypeKind::Optional) return can_convert(from->pointee, to);
  // A str or bytes constant stores into a fixed-width string (truncated or
  // NUL-padded, as NumPy assigns); into bytes (S) and from bytes only ASCII.
  if (to->kind == ir::TypeKind::CharSeq &&
      (from->kind == ir::TypeKind::StringLiteral || from->kind == ir::TypeKind::BytesLiteral)) {
    bool ascii = std::all_of(from->key.begin(), from->key.end(), [](char c) { return (c & 0x80) == 0; });
    return ascii || (from->kind == ir::TypeKind::StringLiteral && ir::is_unicode_char_seq(to));
  }
  // numba: an IntEnum member converts wherever its integer value does.
  if (ir::is_int_enum(from)) return can_convert(from->pointee, to);
  return false;
}

std::string display(const ir::Type* t) {
  if (!t) return "?";
  if (t->kind == ir::TypeKind::StringLiteral) return "str";
  if (t->kind == ir::TypeKind::Module) return "module '" + t->key + "'";
  if (t->kind == ir::TypeKind::Intrinsic) return "function '" + t->key + "'";
  return t->str();
}

}  // namespace cuhost::sema
