// Units of NumPy's datetime64/timedelta64 kernel types (TypeKind::NPDatetime,
// NPTimedelta): which unit two values meet in, and the exact factor between
// two units. Years and months are calendar units: they convert only into
// each other (a year is 12 months), never into days or finer units, as in
// numba.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace cuhost::ir {

// The number of `to` units in one `from` unit, when `to` is `from` or finer
// and the conversion is exact; nullopt otherwise ("" is the generic unit:
// it converts into any unit with factor 1).
std::optional<std::int64_t> unit_factor(const std::string& from, const std::string& to);

// The unit both `a` and `b` convert into exactly (the finer one), or nullopt.
std::optional<std::string> common_unit(const std::string& a, const std::string& b);

// NaT: the int64 value NumPy reserves for "not a time".
constexpr std::int64_t kNaT = INT64_MIN;

}  // namespace cuhost::ir
