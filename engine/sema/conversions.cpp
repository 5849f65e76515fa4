// numba's conversion kinds (see conversions.h). The scalar rules are
// numba's casting table (numba/core/typeconv/rules.py), each edge a kind in
// one direction and unsafe back, closed transitively: a chain's kind is its
// worst edge, and the best chain between two types counts.
#include "sema/conversions.h"

#include <array>
#include <map>
#include <mutex>

namespace cuhost::sema {

namespace {

using K = Conversion;

// The scalar types of the table, in a fixed order.
const std::vector<const ir::Type*>& scalars() {
  static const std::vector<const ir::Type*> all = {
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

constexpr int kNone = 99;

struct Table {
  std::vector<std::vector<int>> kind;  // [from][to]: a Conversion value, or kNone
};

const Table& table() {
  static const Table t = [] {
    const size_t n = scalars().size();
    Table out;
    out.kind.assign(n, std::vector<int>(n, kNone));
    for (size_t i = 0; i < n; ++i) out.kind[i][i] = int(K::Exact);
    auto edge = [&](const ir::Type* a, const ir::Type* b, K forward, std::optional<K> backward) {
      int i = index_of(a), j = index_of(b);
      out.kind[i][j] = std::min(out.kind[i][j], int(forward));
      if (backward) out.kind[j][i] = std::min(out.kind[j][i], int(*backward));
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
    edge(ir::int16(), ir::float32(), K::Safe, unsafe);
    edge(ir::int32(), ir::float64(), K::Safe, unsafe);
    edge(ir::int32(), ir::float32(), K::Unsafe, unsafe);
    edge(ir::int64(), ir::float64(), K::Safe, unsafe);
    edge(ir::uint64(), ir::float64(), K::Safe, unsafe);
    edge(ir::float16(), ir::float32(), K::Promote, unsafe);
    edge(ir::float32(), ir::float64(), K::Promote, unsafe);
    edge(ir::float32(), ir::complex64(), K::Safe, std::nullopt);
    edge(ir::float64(), ir::complex128(), K::Safe, std::nullopt);
    edge(ir::complex64(), ir::complex128(), K::Promote, unsafe);
    // Closure: the best chain, a chain costing its worst edge.
    for (size_t k = 0; k < n; ++k)
      for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < n; ++j) {
          int via = std::max(out.kind[i][k], out.kind[k][j]);
          if (via < out.kind[i][j]) out.kind[i][j] = via;
        }
    return out;
  }();
  return t;
}

}  // namespace

std::optional<Conversion> conversion_kind(const ir::Type* from, const ir::Type* to) {
  if (from == to) return K::Exact;
  int i = index_of(from), j = index_of(to);
  if (i >= 0 && j >= 0) {
    int k = table().kind[size_t(i)][size_t(j)];
    if (k == kNone) return std::nullopt;
    return K(k);
  }
  if (from->is_array() && to->is_array()) {
    if (from->dtype != to->dtype || from->ndim != to->ndim) return std::nullopt;
    if (from->readonly && !to->readonly) return std::nullopt;
    if (to->layout != ir::Layout::A && to->layout != from->layout) return std::nullopt;
    return K::Promote;  // to a less specific layout or to read-only
  }
  if (from->is_tuple() && to->is_tuple() && from->elements.size() == to->elements.size()) {
    K worst = K::Exact;
    for (size_t e = 0; e < from->elements.size(); ++e) {
      auto k = conversion_kind(from->elements[e], to->elements[e]);
      if (!k) return std::nullopt;
      worst = std::max(worst, *k);
    }
    return worst;
  }
  if (ir::is_int_enum(from)) {  // numba's IntEnumMember: as its integer, at least a safe conversion
    auto k = conversion_kind(from->pointee, to);
    if (!k) return std::nullopt;
    return std::max(*k, K::Safe);
  }
  if (to->kind == ir::TypeKind::Optional) {
    if (from->kind == ir::TypeKind::NoneType) return K::Safe;
    auto k = conversion_kind(from, to->pointee);
    if (!k) return std::nullopt;
    return std::max(*k, K::Safe);
  }
  return std::nullopt;
}

std::optional<size_t> best_signature(const std::vector<const ir::Type*>& args,
                                     const std::vector<ir::Signature>& signatures) {
  std::optional<size_t> best;
  std::array<int, 3> best_rating{};  // (unsafe, safe, promote) counts
  for (size_t s = 0; s < signatures.size(); ++s) {
    const auto& params = signatures[s].args;
    if (params.size() != args.size()) continue;
    std::array<int, 3> rating{};
    bool ok = true;
    for (size_t i = 0; i < args.size() && ok; ++i) {
      auto k = conversion_kind(args[i], params[i]);
      if (!k) {
        ok = false;
      } else if (*k == K::Unsafe) {
        ++rating[0];
      } else if (*k == K::Safe) {
        ++rating[1];
      } else if (*k == K::Promote) {
        ++rating[2];
      }
    }
    if (ok && (!best || rating < best_rating)) {
      best = s;
      best_rating = rating;
    }
  }
  return best;
}

}  // namespace cuhost::sema
