// numba's conversion relation (see conversions.h). The scalar rules are
// numba's casting table (numba/core/typeconv/rules.py): each edge a kind in
// one direction and usually unsafe back, closed over chains as numba's
// casting graph propagates them (a chain costs its worst edge; the best
// chain counts). The other rules are the types' own can_convert_to /
// can_convert_from in numba/core/types.
#include "sema/conversions.h"

#include <algorithm>
#include <array>

namespace cuhost::sema {

namespace {

using K = Conversion;

constexpr size_t kScalars = 14;
constexpr int kNone = 99;  // numba's Conversion.nil

// The scalar types of the table, in a fixed order.
const std::array<const ir::Type*, kScalars>& scalars() {
  static const std::array<const ir::Type*, kScalars> all = {
      ir::boolean(), ir::int8(),   ir::int16(),   ir::int32(),   ir::int64(),   ir::uint8(),     ir::uint16(),
      ir::uint32(),  ir::uint64(), ir::float16(), ir::float32(), ir::float64(), ir::complex64(), ir::complex128()};
  return all;
}

int index_of(const ir::Type* t) {
  const auto& all = scalars();
  for (size_t i = 0; i < all.size(); ++i)
    if (all[i] == t) return int(i);
  return -1;
}

using Table = std::array<std::array<int, kScalars>, kScalars>;  // [from][to]: a Conversion value, or kNone

const Table& table() {
  static const Table t = [] {
    Table out;
    for (auto& row : out) row.fill(kNone);
    for (size_t i = 0; i < kScalars; ++i) out[i][i] = int(K::Exact);
    auto edge = [&](const ir::Type* a, const ir::Type* b, K forward, std::optional<K> backward) {
      size_t i = size_t(index_of(a)), j = size_t(index_of(b));
      out[i][j] = std::min(out[i][j], int(forward));
      if (backward) out[j][i] = std::min(out[j][i], int(*backward));
    };
    const std::optional<K> unsafe = K::Unsafe;
    edge(ir::boolean(), ir::int8(), K::Safe, unsafe);
    edge(ir::boolean(), ir::uint8(), K::Safe, unsafe);
    edge(ir::int8(), ir::int16(), K::Promote, unsafe);
    edge(ir::uint8(), ir::uint16(), K::Promote, unsafe);
    edge(ir::int16(), ir::int32(), K::Promote, unsafe);
    edge(ir::uint16(), ir::uint32(), K::Promote, unsafe);
    edge(ir::int32(), ir::int64(), K::Promote, unsafe);
    edge(ir::uint32(), ir::uint64(), K::Promote, unsafe);
    edge(ir::uint8(), ir::int16(), K::Safe, unsafe);
    edge(ir::uint16(), ir::int32(), K::Safe, unsafe);
    edge(ir::uint32(), ir::int64(), K::Safe, unsafe);
    edge(ir::int8(), ir::float16(), K::Safe, unsafe);
    edge(ir::int16(), ir::float32(), K::Safe, unsafe);
    edge(ir::int32(), ir::float64(), K::Safe, unsafe);
    edge(ir::int16(), ir::float16(), K::Unsafe, unsafe);
    edge(ir::int32(), ir::float32(), K::Unsafe, unsafe);
    // numba's deliberate exception: 64-bit integers convert safely to
    // float64, so that float64 wins over int64 in mixed operations.
    edge(ir::int64(), ir::float64(), K::Safe, unsafe);
    edge(ir::uint64(), ir::float64(), K::Safe, unsafe);
    edge(ir::float16(), ir::float32(), K::Promote, unsafe);
    edge(ir::float32(), ir::float64(), K::Promote, unsafe);
    edge(ir::float32(), ir::complex64(), K::Safe, std::nullopt);
    edge(ir::float64(), ir::complex128(), K::Safe, std::nullopt);
    edge(ir::complex64(), ir::complex128(), K::Promote, unsafe);
    // Closure: the best chain, a chain costing its worst edge.
    for (size_t k = 0; k < kScalars; ++k)
      for (size_t i = 0; i < kScalars; ++i)
        for (size_t j = 0; j < kScalars; ++j) out[i][j] = std::min(out[i][j], std::max(out[i][k], out[k][j]));
    return out;
  }();
  return t;
}

std::optional<K> at_least(std::optional<K> k, K floor) {
  if (!k) return std::nullopt;
  return std::max(*k, floor);
}

}  // namespace

std::optional<Conversion> casting_rule(const ir::Type* from, const ir::Type* to) {
  if (from == to) return K::Exact;
  int i = index_of(from), j = index_of(to);
  if (i < 0 || j < 0) return std::nullopt;
  int k = table()[size_t(i)][size_t(j)];
  if (k == kNone) return std::nullopt;
  return K(k);
}

std::optional<Conversion> conversion_kind(const ir::Type* from, const ir::Type* to) {
  if (from == to) return K::Exact;
  if (index_of(from) >= 0 && index_of(to) >= 0) return casting_rule(from, to);
  // Array.can_convert_to: the same dtype and rank, to layout A or the same
  // layout, never from read-only to writable.
  if (from->is_array() && to->is_array()) {
    if (from->dtype != to->dtype || from->ndim != to->ndim) return std::nullopt;
    if (from->readonly && !to->readonly) return std::nullopt;
    if (to->layout != ir::Layout::A && to->layout != from->layout) return std::nullopt;
    return K::Safe;
  }
  // BaseAnonymousTuple.can_convert_to: element-wise, the worst element.
  if (from->is_tuple() && to->is_tuple()) {
    if (from->elements.size() != to->elements.size()) return std::nullopt;
    if (from->elements.empty()) return K::Safe;
    K worst = K::Exact;
    for (size_t e = 0; e < from->elements.size(); ++e) {
      auto k = conversion_kind(from->elements[e], to->elements[e]);
      if (!k) return std::nullopt;
      worst = std::max(worst, *k);
    }
    return worst;
  }
  // Optional.can_convert_from: None promotes; a value converts as to the
  // Optional's type, at best a promotion.
  if (to->kind == ir::TypeKind::Optional) {
    if (from->kind == ir::TypeKind::NoneType) return K::Promote;
    if (from->kind == ir::TypeKind::Optional) return conversion_kind(from->pointee, to->pointee);
    return at_least(conversion_kind(from, to->pointee), K::Promote);
  }
  // Optional.can_convert_to a plain type: at best safe (it may be None).
  if (from->kind == ir::TypeKind::Optional) return at_least(conversion_kind(from->pointee, to), K::Safe);
  // IntEnumMember.can_convert_to: as its integer, at best safe.
  if (ir::is_int_enum(from)) return at_least(conversion_kind(from->pointee, to), K::Safe);
  return std::nullopt;
}

std::optional<Conversion> literal_conversion_kind(const ir::Type* from, const ir::Type* to) {
  return at_least(conversion_kind(from, to), K::Promote);
}

void Rating::add(Conversion c) {
  switch (c) {
    case K::Exact: break;
    case K::Promote: ++promote; break;
    case K::Safe: ++safe; break;
    case K::Unsafe: ++unsafe; break;
  }
}

std::optional<Rating> rate_arguments(const std::vector<const ir::Type*>& args,
                                     const std::vector<const ir::Type*>& params, const std::vector<bool>& literal) {
  if (args.size() != params.size()) return std::nullopt;
  Rating r;
  for (size_t i = 0; i < args.size(); ++i) {
    const bool lit = i < literal.size() && literal[i];
    auto k = lit ? literal_conversion_kind(args[i], params[i]) : conversion_kind(args[i], params[i]);
    if (!k) return std::nullopt;
    r.add(*k);
  }
  return r;
}

std::vector<size_t> best_signatures(const std::vector<const ir::Type*>& args,
                                    const std::vector<ir::Signature>& signatures, const std::vector<bool>& literal) {
  std::vector<size_t> best;
  Rating best_rating;
  for (size_t s = 0; s < signatures.size(); ++s) {
    auto r = rate_arguments(args, signatures[s].args, literal);
    if (!r) continue;
    if (best.empty() || *r < best_rating) {
      best.assign(1, s);
      best_rating = *r;
    } else if (*r == best_rating) {
      best.push_back(s);
    }
  }
  return best;
}

std::optional<size_t> best_signature(const std::vector<const ir::Type*>& args,
                                     const std::vector<ir::Signature>& signatures, const std::vector<bool>& literal) {
  std::vector<size_t> best = best_signatures(args, signatures, literal);
  if (best.empty()) return std::nullopt;
  return best.front();
}

}  // namespace cuhost::sema
