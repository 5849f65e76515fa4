// numba's one relation of implicit conversions between types and its ratings
// of argument lists against signatures. Every place cuhost ranks conversions
// uses it: typing and device-function overload choice (typing/calls.cpp),
// launch-time and njit overload choice (python/argument_conversions.cpp adds
// the dispatchers' selection on top) and the extension API's can_convert
// (cuda/_ext/conversions.py, through _cuhost._conversion).
#pragma once

#include <optional>
#include <vector>

#include "ir/foreign.h"
#include "ir/types.h"

namespace cuhost::sema {

// numba.core.typeconv.Conversion, with its values: best first.
enum class Conversion { Exact = 1, Promote = 2, Safe = 3, Unsafe = 4 };

// The casting rules numba's type manager starts with (typeconv/rules.py):
// identical types, and the scalar table over bool, int8..64, uint8..64,
// float16/32/64 and complex64/128, closed over chains (a chain costs its
// worst edge). nullopt for any other pair, convertible or not.
std::optional<Conversion> casting_rule(const ir::Type* from, const ir::Type* to);

// The relation numba's typing context answers (BaseContext.can_convert):
// the casting rules, then the types' own rules (arrays to a less specific
// layout or to read-only, tuples element-wise, Optional, IntEnum members).
// nullopt when `from` does not convert to `to`.
std::optional<Conversion> conversion_kind(const ir::Type* from, const ir::Type* to);

// As conversion_kind for a literal argument (numba's IntegerLiteral and
// BooleanLiteral): at best a promotion, never exact.
std::optional<Conversion> literal_conversion_kind(const ir::Type* from, const ir::Type* to);

// How well an argument list fits a signature: counts of unsafe, safe and
// promoting conversions, compared in that order (numba's Rating).
struct Rating {
  int unsafe = 0;
  int safe = 0;
  int promote = 0;
  void add(Conversion c);
  friend bool operator<(const Rating& a, const Rating& b) {
    if (a.unsafe != b.unsafe) return a.unsafe < b.unsafe;
    if (a.safe != b.safe) return a.safe < b.safe;
    return a.promote < b.promote;
  }
  friend bool operator==(const Rating& a, const Rating& b) {
    return a.unsafe == b.unsafe && a.safe == b.safe && a.promote == b.promote;
  }
};

// The rating of `args` against `params` by conversion_kind; nullopt when
// the counts differ or an argument does not convert. `literal[i]` marks an
// argument numba types as a literal (may be empty: none is).
std::optional<Rating> rate_arguments(const std::vector<const ir::Type*>& args,
                                     const std::vector<const ir::Type*>& params, const std::vector<bool>& literal = {});

// numba's typing-context resolve_overload: the signatures rating best, in
// declaration order (empty when none fits). The first is the one numba
// picks; more than one is what it reports as an ambiguous overloading
// when ties are not allowed.
std::vector<size_t> best_signatures(const std::vector<const ir::Type*>& args,
                                    const std::vector<ir::Signature>& signatures,
                                    const std::vector<bool>& literal = {});

// The first of best_signatures (device-function calls: ties go to the first
// declared), or nullopt when no signature fits.
std::optional<size_t> best_signature(const std::vector<const ir::Type*>& args,
                                     const std::vector<ir::Signature>& signatures,
                                     const std::vector<bool>& literal = {});

}  // namespace cuhost::sema
