// Which `break` and `continue` statements of a while loop reach numba's
// control-flow graph. numba decides two things by them that change types:
// CPython compiles `continue` as a jump back to the test in front of the
// loop, so with a live `continue` that test reads a join of the variables
// and numba cannot prune it (`w = 0; while w < 0:` is then typed, and the
// loop may leave from there); and with a live `break` the loop's exit has
// several predecessors, where numba's dead-branch pruning keeps the
// version from before the loop in the exit's join (see ssa_versions.cpp).
#pragma once

#include <map>
#include <string>

#include "frontend/ast.h"

namespace cuhost::frontend {

struct LoopJumps {
  int breaks = 0;
  int continues = 0;
  bool falls_through = false;  // the end of the body is reached (the test repeated there)
};

// The locals numba's pruning before SSA reads as constants: assigned once
// in the whole function (parameters count), from a literal. Works on a
// function rewritten by version_variables too: a name whose variable has
// other versions ("c" beside "c.1") is left out.
using SingleConstants = std::map<std::string, ir::ConstValue>;
SingleConstants single_definition_constants(const ast::FunctionDef& def);

// The jumps of the loop whose body is `body` that survive CPython's compiler
// and numba's pruning before SSA: those of nested loops are not counted,
// nor those after a statement that always leaves its block, nor those in a
// branch whose condition is made of literals and `constants` only (`if
// False:`, `if (2 < -1):`, `if not True:`, `c = False; ...; if c:`), which
// one of the two removes.
LoopJumps loop_jumps(const ast::Body& body, const SingleConstants& constants);

}  // namespace cuhost::frontend
