// numba's conversion kinds and explicit-signature choice (sema/conversions.h).
#include <catch2/catch.hpp>

#include "sema/conversions.h"

using namespace cuhost;
using sema::Conversion;

TEST_CASE("conversions: numba's casting table, closed transitively", "[sema]") {
  CHECK(sema::conversion_kind(ir::int32(), ir::int32()) == Conversion::Exact);
  CHECK(sema::conversion_kind(ir::int8(), ir::int64()) == Conversion::Promote);
  CHECK(sema::conversion_kind(ir::float32(), ir::float64()) == Conversion::Promote);
  CHECK(sema::conversion_kind(ir::uint32(), ir::int64()) == Conversion::Safe);
  CHECK(sema::conversion_kind(ir::int32(), ir::float64()) == Conversion::Safe);
  CHECK(sema::conversion_kind(ir::uint8(), ir::float64()) == Conversion::Safe);  // via int16 -> float32 -> float64
  CHECK(sema::conversion_kind(ir::int64(), ir::float64()) == Conversion::Safe);
  CHECK(sema::conversion_kind(ir::int32(), ir::float32()) == Conversion::Unsafe);
  CHECK(sema::conversion_kind(ir::float64(), ir::int64()) == Conversion::Unsafe);
  CHECK(sema::conversion_kind(ir::int64(), ir::int8()) == Conversion::Unsafe);
  CHECK(sema::conversion_kind(ir::boolean(), ir::int32()) == Conversion::Safe);
  CHECK(sema::conversion_kind(ir::float64(), ir::complex128()) == Conversion::Safe);
  CHECK_FALSE(sema::conversion_kind(ir::complex128(), ir::float64()).has_value());
  CHECK_FALSE(sema::conversion_kind(ir::complex64(), ir::int64()).has_value());
}

TEST_CASE("conversions: arrays and tuples", "[sema]") {
  const ir::Type* c1 = ir::array(ir::float32(), 1, ir::Layout::C);
  const ir::Type* a1 = ir::array(ir::float32(), 1, ir::Layout::A);
  CHECK(sema::conversion_kind(c1, a1) == Conversion::Safe);  // numba's Array.can_convert_to
  CHECK_FALSE(sema::conversion_kind(a1, c1).has_value());
  CHECK_FALSE(sema::conversion_kind(c1, ir::array(ir::float64(), 1, ir::Layout::A)).has_value());
  const ir::Type* t = ir::tuple({ir::int32(), ir::float32()});
  CHECK(sema::conversion_kind(t, ir::tuple({ir::int64(), ir::float64()})) == Conversion::Promote);
  CHECK(sema::conversion_kind(t, ir::tuple({ir::int64(), ir::int64()})) == Conversion::Unsafe);
}

TEST_CASE("conversions: the best explicit signature", "[sema]") {
  auto sig = [](std::vector<const ir::Type*> args) {
    ir::Signature s;
    s.args = std::move(args);
    return s;
  };
  std::vector<ir::Signature> ints_floats = {sig({ir::int64(), ir::int64()}), sig({ir::float64(), ir::float64()})};
  CHECK(sema::best_signature({ir::int64(), ir::int64()}, ints_floats) == 0u);
  CHECK(sema::best_signature({ir::float64(), ir::float64()}, ints_floats) == 1u);
  // int32 -> float64 (safe) beats float64 -> int64 (unsafe).
  CHECK(sema::best_signature({ir::int32(), ir::float64()}, ints_floats) == 1u);
  // Unsafe conversions are allowed when nothing better exists.
  CHECK(sema::best_signature({ir::float64(), ir::float64()}, {sig({ir::int32(), ir::int32()})}) == 0u);
  CHECK_FALSE(sema::best_signature({ir::complex128(), ir::complex128()}, ints_floats).has_value());
  CHECK_FALSE(sema::best_signature({ir::int64()}, ints_floats).has_value());
  // Equally good candidates: the first declared.
  std::vector<ir::Signature> mixed = {sig({ir::float32(), ir::float64()}), sig({ir::float64(), ir::float32()})};
  CHECK(sema::best_signature({ir::float64(), ir::float64()}, mixed) == 0u);
}
