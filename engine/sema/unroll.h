// literal_unroll: a for loop over a tuple whose elements have different
// types runs one copy of its body per element, each typed on its own
// (numba's loop versioning). Typing finds such a loop and asks for it to be
// unrolled (UnrollRequest); the function is then typed again from a copy of
// its AST where the loop is replaced by the copies (unroll_loop).
#pragma once

#include <cstddef>
#include <memory>

#include "frontend/captured.h"

namespace cuhost::sema {

struct UnrollRequest {
  const ast::For* loop;  // a loop of the AST being typed
  std::size_t count;     // the number of tuple elements
};

// A copy of `f` where `loop` (for x in literal_unroll(t): body) becomes
//
//     $unrollN = literal_unroll(t)
//     for $unrollN.once in range(1):      # one body per element k
//         x.k = $unrollN[k]
//         body (x renamed x.k; a break of this loop also sets $unrollN.break)
//     if not $unrollN.break: ...           # the next copies
//
// so `continue` moves to the next element and `break` skips the rest.
std::shared_ptr<const frontend::CapturedFunction> unroll_loop(const frontend::CapturedFunction& f,
                                                              const UnrollRequest& request);

}  // namespace cuhost::sema
