// Python's float repr (see python_repr.h): the shortest round-trip digits
// from std::to_chars, laid out by the rules of CPython's float_repr_style
// "short" (format code 'r').
#include "support/python_repr.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace cuhost {

std::string python_float_repr(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  // Shortest round-trip digits in scientific form: "-d.ddde+XX".
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), value, std::chars_format::scientific);
  std::string sci(buf, ec == std::errc() ? end : buf);
  std::string sign;
  if (!sci.empty() && sci[0] == '-') {
    sign = "-";
    sci.erase(0, 1);
  }
  const auto e_at = sci.find('e');
  std::string digits;
  for (char c : sci.substr(0, e_at))
    if (c != '.') digits += c;
  const int exponent = std::atoi(sci.c_str() + e_at + 1);
  const int point = exponent + 1;  // digits before the decimal point
  if (point <= -4 || point > 16) {
    std::string mantissa = digits.substr(0, 1);
    if (digits.size() > 1) mantissa += "." + digits.substr(1);
    std::string exp_digits = std::to_string(std::abs(exponent));
    if (exp_digits.size() < 2) exp_digits = "0" + exp_digits;
    return sign + mantissa + (exponent < 0 ? "e-" : "e+") + exp_digits;
  }
  if (point <= 0) return sign + "0." + std::string(static_cast<size_t>(-point), '0') + digits;
  if (static_cast<size_t>(point) >= digits.size())
    return sign + digits + std::string(static_cast<size_t>(point) - digits.size(), '0') + ".0";
  return sign + digits.substr(0, static_cast<size_t>(point)) + "." + digits.substr(static_cast<size_t>(point));
}

}  // namespace cuhost
