// numba's kinds of implicit conversion between argument types (its
// typeconv rules: exact, promote, safe, unsafe) and its choice among a
// function's explicit signatures: the one needing the fewest unsafe, then
// safe, then promoting conversions; the first declared among equals.
#pragma once

#include <optional>
#include <vector>

#include "ir/foreign.h"
#include "ir/types.h"

namespace cuhost::sema {

enum class Conversion { Exact = 0, Promote = 1, Safe = 2, Unsafe = 3 };

// How a value of type `from` converts to `to`; nullopt when it cannot
// (complex to real, arrays of another dtype or rank, ...).
std::optional<Conversion> conversion_kind(const ir::Type* from, const ir::Type* to);

// The index of the signature `args` convert to best, or nullopt when they
// convert to none.
std::optional<size_t> best_signature(const std::vector<const ir::Type*>& args,
                                     const std::vector<ir::Signature>& signatures);

}  // namespace cuhost::sema
