// Cutting a function's source out of its file without `inspect`: the first
// capture in a process through inspect.getsource costs milliseconds
// (inspect.getmodule scans every loaded module), which dominated the
// from-cache first call. The cut is by indentation from the line the code
// object names; whenever it could be wrong (a continuation line or string
// that dips below the function's indentation), the cut text does not parse
// as one function of the right name and the caller falls back to inspect.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace cuhost::frontend {

struct SourceBlock {
  std::string text;  // dedented: the decorators and def start at column 0
  int indent = 0;    // columns removed from every line
};

// `first_line` is co_firstlineno (1-based: the first decorator, or the def).
std::optional<SourceBlock> function_block(const std::vector<std::string>& file_lines, int first_line);

}  // namespace cuhost::frontend
