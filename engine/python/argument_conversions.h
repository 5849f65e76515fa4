// Conversions of call arguments to the parameter types of explicit
// signatures, ranked as numba ranks them (exact, promotion, safe, unsafe),
// for kernel launches (dispatcher.cpp) and for numba.njit calls on the host
// (host_dispatcher.cpp): the one place both choose a signature from.
#pragma once

#include <string>
#include <vector>

#include "ir/types.h"

namespace cuhost::python {

enum class ConversionRules {
  // numba-cuda's argument preparation: a float or complex never becomes an
  // integer; integers and arrays of the pointee pass as pointers.
  Launch,
  // numba's CPU dispatcher: floats become integers (unsafely, as its
  // unboxing truncates); None or a value becomes an Optional.
  HostCall,
};

// -1 when `actual` cannot become `param`, else a cost (0 exact; promotions
// cost 1, safe conversions 100, unsafe ones 10000, so sums rank signatures).
int conversion_cost(const ir::Type* actual, const ir::Type* param, ConversionRules rules);

// The summed cost of a whole argument list; -1 when the counts differ or an
// argument cannot convert.
int signature_cost(const std::vector<const ir::Type*>& actual, const std::vector<const ir::Type*>& params,
                   ConversionRules rules);

// "float32, int64": argument types as the dispatchers' messages list them.
std::string type_list(const std::vector<const ir::Type*>& types);

}  // namespace cuhost::python
