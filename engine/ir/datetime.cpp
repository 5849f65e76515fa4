// Units of datetime64/timedelta64 (see datetime.h).
#include "ir/datetime.h"

#include <vector>

namespace cuhost::ir {

namespace {

struct Unit {
  const char* name;
  std::int64_t per_next;  // how many of the next finer unit make one of this
};

// The linear units, coarse to fine: a week is 7 days, a day 24 hours ...
const std::vector<Unit>& linear_units() {
  static const std::vector<Unit> u = {{"W", 7},     {"D", 24},    {"h", 60},    {"m", 60},    {"s", 1000}, {"ms", 1000},
                                      {"us", 1000}, {"ns", 1000}, {"ps", 1000}, {"fs", 1000}, {"as", 1}};
  return u;
}

int linear_index(const std::string& unit) {
  const auto& u = linear_units();
  for (size_t i = 0; i < u.size(); ++i)
    if (unit == u[i].name) return static_cast<int>(i);
  return -1;
}

}  // namespace

std::optional<std::int64_t> unit_factor(const std::string& from, const std::string& to) {
  if (from == to || from.empty()) return 1;
  if (from == "Y" && to == "M") return 12;
  int a = linear_index(from), b = linear_index(to);
  if (a < 0 || b < 0 || a > b) return std::nullopt;
  std::int64_t f = 1;
  for (int i = a; i < b; ++i) f *= linear_units()[size_t(i)].per_next;
  return f;
}

std::optional<std::string> common_unit(const std::string& a, const std::string& b) {
  if (unit_factor(a, b)) return b;
  if (unit_factor(b, a)) return a;
  return std::nullopt;
}

}  // namespace cuhost::ir
