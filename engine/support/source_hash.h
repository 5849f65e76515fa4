// Content keys for compiled foreign sources: a source plus every header it
// includes with quotes, found through the same search path the compiler
// uses, hashed recursively. Shared by the NVRTC and host-C++ caches.
#pragma once

#include <string>
#include <vector>

#include "support/hash.h"

namespace cuhost {

// Adds the contents of the quoted includes reachable from `text` to `h`
// (the including file's folder `dir` first, then `search`, in order).
void hash_quoted_includes(const std::string& text, const std::string& dir, const std::vector<std::string>& search,
                          Hasher& h);

// Reads a whole file; false when it cannot be read.
bool read_whole_file(const std::string& path, std::string& out);

}  // namespace cuhost
