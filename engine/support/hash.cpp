// Content hashing for cache keys (see hash.h).
#include "support/hash.h"

#include <cstdio>

namespace cuhost {

void Hasher::mix(const void* data, std::size_t size) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < size; ++i) {
    a_ = (a_ ^ p[i]) * 0x100000001b3ull;
    b_ = (b_ ^ p[i]) * 0x100000001b3ull + 0x9e3779b97f4a7c15ull;
  }
}

void Hasher::add(const std::string& piece) {
  std::uint64_t n = piece.size();
  mix(&n, sizeof(n));
  mix(piece.data(), piece.size());
}

void Hasher::add(std::uint64_t value) { mix(&value, sizeof(value)); }

std::string Hasher::hex() const {
  char buf[33];
  std::snprintf(buf, sizeof(buf), "%016llx%016llx", static_cast<unsigned long long>(a_),
                static_cast<unsigned long long>(b_));
  return buf;
}

}  // namespace cuhost
