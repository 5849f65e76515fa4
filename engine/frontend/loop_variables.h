// Loop variables that live only inside their loops get one variable per
// loop, as numba's SSA form gives them: `for v in pairs: ...` followed by
// `for v in triples: ...` types `v` separately in each loop (int8x2, then
// int8x3) instead of failing to unify the two.
#pragma once

#include "frontend/ast_convert.h"

namespace cuhost::frontend {

// Renames, in the second and later `for` loops over a plain name, that name
// to "<name>.<k>" inside the loop (its target and body), when the name is
// read only inside loops that bind it, is assigned nowhere else, is no
// parameter, binds no loop nested in another of its loops, and no nested
// function reads it. Adds the new names to result.stored.
void split_loop_variables(ConvertResult& result);

}  // namespace cuhost::frontend
