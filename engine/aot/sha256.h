// SHA-256 of file contents: the digest the export writes into the manifest
// for every file and the aot runtime checks before it uses one, so a
// truncated or altered file is refused by name. Self-contained (no OpenSSL):
// the aot runtime links only the C++ standard library and libdl.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace cuhost::aot {

// Lower-case hex SHA-256 of `size` bytes at `data`.
std::string sha256_hex(const void* data, std::size_t size);
inline std::string sha256_hex(const std::string& bytes) { return sha256_hex(bytes.data(), bytes.size()); }

}  // namespace cuhost::aot
