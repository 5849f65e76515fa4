// Warnings found while compiling. Typing and lowering run without the GIL,
// so they cannot call Python's warnings module: they queue a warning here
// (thread-safe), and the Python layer issues the queued warnings, with
// numba's warning classes, once the compile has returned (python/
// compile_warnings.h).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cuhost {

enum class WarningCategory { Numba, Performance, DebugInfo };

// A warning already queued (the same category and message) is not queued again.
void report_compile_warning(WarningCategory category, std::string message);

// How many warnings were ever reported in this process: a compile that
// reported some is not kept by the caches, so asking again warns again.
std::uint64_t compile_warnings_reported();

// The queued warnings, oldest first; the queue is emptied.
std::vector<std::pair<WarningCategory, std::string>> take_compile_warnings();

}  // namespace cuhost
