// A small, stable content hash (64-bit FNV-1a over length-prefixed pieces,
// two lanes) for cache keys: compile caches key on content, never on mtimes.
#pragma once

#include <cstdint>
#include <string>

namespace cuhost {

class Hasher {
 public:
  void add(const std::string& piece);
  void add(std::uint64_t value);
  std::string hex() const;  // 32 hex digits

 private:
  void mix(const void* data, std::size_t size);
  std::uint64_t a_ = 0xcbf29ce484222325ull;
  std::uint64_t b_ = 0x84222325cbf29ce4ull;
};

}  // namespace cuhost
