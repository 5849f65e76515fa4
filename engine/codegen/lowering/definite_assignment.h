// Definite assignment for the lowering: which locals need a zero at entry
// (see definite_assignment.cpp).
#pragma once

#include <set>
#include <string>

#include "frontend/ast.h"

namespace cuhost::codegen {

// Names that some path may read before assigning them (parameters count as
// assigned). Globals and other non-locals may appear; callers intersect with
// the function's locals.
std::set<std::string> possibly_unassigned_reads(const ast::FunctionDef& def);

}  // namespace cuhost::codegen
