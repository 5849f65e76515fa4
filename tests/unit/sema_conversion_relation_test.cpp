// The one conversion relation (sema/conversions.h) against numba's: every
// ordered pair of numba's 14 scalar types checked against a table written
// from numba 0.68 (typeconv.rules.default_type_manager.check_compatible),
// then the non-scalar rules and the typing context's ratings, each pinned
// from numba's typing context.
#include <catch2/catch.hpp>

#include <string>

#include "sema/conversions.h"

using namespace cuhost;
using sema::Conversion;

namespace {

const ir::Type* const kScalars[14] = {ir::boolean(), ir::int8(),    ir::int16(),     ir::int32(),     ir::int64(),
                                      ir::uint8(),   ir::uint16(),  ir::uint32(),    ir::uint64(),    ir::float16(),
                                      ir::float32(), ir::float64(), ir::complex64(), ir::complex128()};

// Row: from; column: to, in kScalars' order. E exact, P promote, S safe,
// U unsafe, - none. numba's own answers, not computed here.
const char* const kNumbaTable[14] = {
    "ESSSSSSSSSSSSS",  // boolean
    "UEPPPUUUUSSSSS",  // int8
    "UUEPPUUUUUSSSS",  // int16
    "UUUEPUUUUUUSUS",  // int32
    "UUUUEUUUUUUSUS",  // int64
    "UUSSSEPPPUSSSS",  // uint8
    "UUUSSUEPPUUSUS",  // uint16
    "UUUUSUUEPUUSUS",  // uint32
    "UUUUUUUUEUUSUS",  // uint64
    "UUUUUUUUUEPPSS",  // float16
    "UUUUUUUUUUEPSS",  // float32
    "UUUUUUUUUUUEUS",  // float64
    "------------EP",  // complex64
    "------------UE",  // complex128
};

char letter(std::optional<Conversion> k) {
  if (!k) return '-';
  switch (*k) {
    case Conversion::Exact: return 'E';
    case Conversion::Promote: return 'P';
    case Conversion::Safe: return 'S';
    case Conversion::Unsafe: return 'U';
  }
  return '?';
}

ir::Signature sig(std::vector<const ir::Type*> args) {
  ir::Signature s;
  s.args = std::move(args);
  return s;
}

}  // namespace

TEST_CASE("conversion relation: all 196 scalar pairs are numba's", "[sema]") {
  int checked = 0;
  for (int i = 0; i < 14; ++i)
    for (int j = 0; j < 14; ++j) {
      INFO(kScalars[i]->str() << " -> " << kScalars[j]->str());
      CHECK(letter(sema::conversion_kind(kScalars[i], kScalars[j])) == kNumbaTable[i][j]);
      CHECK(letter(sema::casting_rule(kScalars[i], kScalars[j])) == kNumbaTable[i][j]);
      ++checked;
    }
  CHECK(checked == 196);
}

TEST_CASE("conversion relation: numba's exceptions and float16 edges", "[sema]") {
  CHECK(sema::conversion_kind(ir::int64(), ir::float64()) == Conversion::Safe);   // deliberate exception
  CHECK(sema::conversion_kind(ir::uint64(), ir::float64()) == Conversion::Safe);  // deliberate exception
  CHECK(sema::conversion_kind(ir::int64(), ir::int32()) == Conversion::Unsafe);
  CHECK(sema::conversion_kind(ir::int8(), ir::float16()) == Conversion::Safe);
  CHECK(sema::conversion_kind(ir::int16(), ir::float16()) == Conversion::Unsafe);
  CHECK(sema::conversion_kind(ir::uint8(), ir::float16()) == Conversion::Unsafe);
  CHECK(sema::conversion_kind(ir::uint16(), ir::float32()) == Conversion::Unsafe);
}

TEST_CASE("conversion relation: arrays, tuples, Optional, IntEnum", "[sema]") {
  const ir::Type* c1 = ir::array(ir::float64(), 1, ir::Layout::C);
  const ir::Type* a1 = ir::array(ir::float64(), 1, ir::Layout::A);
  const ir::Type* c1_ro = ir::array(ir::float64(), 1, ir::Layout::C, true);
  // numba: array(float64, 1d, C) -> array(float64, 1d, A) is safe, and to read-only too.
  CHECK(sema::conversion_kind(c1, a1) == Conversion::Safe);
  CHECK(sema::conversion_kind(c1, c1_ro) == Conversion::Safe);
  CHECK_FALSE(sema::conversion_kind(c1_ro, c1).has_value());
  CHECK_FALSE(sema::conversion_kind(a1, c1).has_value());
  CHECK_FALSE(sema::conversion_kind(c1, ir::array(ir::float32(), 1, ir::Layout::A)).has_value());
  CHECK_FALSE(sema::conversion_kind(c1, ir::array(ir::float64(), 2, ir::Layout::A)).has_value());
  // numba: UniTuple(int32 x 2) -> UniTuple(int64 x 2) promote; Tuple(int32, float32) -> UniTuple(float64 x 2) safe;
  // UniTuple(int64 x 2) -> Tuple(int64, int32) unsafe.
  CHECK(sema::conversion_kind(ir::tuple({ir::int32(), ir::int32()}), ir::tuple({ir::int64(), ir::int64()})) ==
        Conversion::Promote);
  CHECK(sema::conversion_kind(ir::tuple({ir::int32(), ir::float32()}), ir::tuple({ir::float64(), ir::float64()})) ==
        Conversion::Safe);
  CHECK(sema::conversion_kind(ir::tuple({ir::int64(), ir::int64()}), ir::tuple({ir::int64(), ir::int32()})) ==
        Conversion::Unsafe);
  CHECK_FALSE(sema::conversion_kind(ir::tuple({ir::int64()}), ir::tuple({ir::int64(), ir::int64()})).has_value());
  // numba: none -> Optional(int64) promote, int32 -> Optional(int64) promote, int64 -> Optional(int64)
  // promote, bool -> Optional(float64) safe, Optional(int64) -> int64 safe, Optional(float64) ->
  // Optional(int8) unsafe, none -> int64 none.
  const ir::Type* opt_i8 = ir::optional(ir::int64());
  CHECK(sema::conversion_kind(ir::none_type(), opt_i8) == Conversion::Promote);
  CHECK(sema::conversion_kind(ir::int32(), opt_i8) == Conversion::Promote);
  CHECK(sema::conversion_kind(ir::int64(), opt_i8) == Conversion::Promote);
  CHECK(sema::conversion_kind(ir::boolean(), ir::optional(ir::float64())) == Conversion::Safe);
  CHECK(sema::conversion_kind(opt_i8, ir::int64()) == Conversion::Safe);
  CHECK(sema::conversion_kind(ir::optional(ir::float64()), ir::optional(ir::int8())) == Conversion::Unsafe);
  CHECK_FALSE(sema::conversion_kind(ir::none_type(), ir::int64()).has_value());
}

TEST_CASE("conversion relation: literals are at best promotions", "[sema]") {
  // numba: Literal[int](3) -> int64 promote, -> int32 unsafe; Literal[bool](True) -> bool promote.
  CHECK(sema::literal_conversion_kind(ir::int64(), ir::int64()) == Conversion::Promote);
  CHECK(sema::literal_conversion_kind(ir::int64(), ir::int32()) == Conversion::Unsafe);
  CHECK(sema::literal_conversion_kind(ir::boolean(), ir::boolean()) == Conversion::Promote);
  CHECK_FALSE(sema::literal_conversion_kind(ir::complex128(), ir::int64()).has_value());
}

TEST_CASE("conversion relation: the typing context's choice among signatures", "[sema]") {
  std::vector<ir::Signature> ints_floats = {sig({ir::int64(), ir::int64()}), sig({ir::float64(), ir::float64()})};
  CHECK(sema::best_signature({ir::int64(), ir::int64()}, ints_floats) == 0u);
  CHECK(sema::best_signature({ir::float64(), ir::float64()}, ints_floats) == 1u);
  CHECK(sema::best_signature({ir::int32(), ir::float64()}, ints_floats) == 1u);
  CHECK_FALSE(sema::best_signature({ir::complex128(), ir::complex128()}, ints_floats).has_value());
  CHECK_FALSE(sema::best_signature({ir::int64()}, ints_floats).has_value());
  // numba: (int64, int64) against (int32, float64) | (float64, int32) ties; resolve_overload lists both.
  std::vector<ir::Signature> crossed = {sig({ir::int32(), ir::float64()}), sig({ir::float64(), ir::int32()})};
  CHECK(sema::best_signatures({ir::int64(), ir::int64()}, crossed) == std::vector<size_t>{0, 1});
  // numba: g = njit(["i8(i8, i4)", "f8(i4, i8)"]); g(3, v) with a literal 3 and an int64 v takes the
  // second (Literal[int] -> int64 is only a promotion), g(u, v) with two int64 variables the first.
  std::vector<ir::Signature> lit = {sig({ir::int64(), ir::int32()}), sig({ir::int32(), ir::int64()})};
  CHECK(sema::best_signature({ir::int64(), ir::int64()}, lit) == 0u);
  CHECK(sema::best_signature({ir::int64(), ir::int64()}, lit, {true, false}) == 1u);
}
