// Typing of cooperative groups (cuda.cg): this_grid() gives the grid group
// (a value with no bits, typed as the intrinsic "cuda.cg.GridGroup") and its
// sync() is a grid-wide barrier. A kernel that syncs the grid (directly or in
// a callee), or takes the grid group at all, is launched cooperatively
// (TypedFunction::uses_grid_sync), as in numba-cuda.
#include "sema/typer.h"

namespace cuhost::sema {

const ir::Type* type_cg_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info) {
  (void)info;
  if (key == "cuda.cg.this_grid") {
    t.bind(c, "this_grid", {}, 0, t.info(&c));
    t.use_grid_sync();  // numba-cuda launches any kernel using the grid group cooperatively
    return ir::intrinsic("cuda.cg.GridGroup");
  }
  if (key == "cuda.cg.GridGroup.sync") {
    t.bind(c, "sync", {}, 0, t.info(&c));
    t.use_barriers();
    t.use_grid_sync();
    return ir::none_type();
  }
  return nullptr;
}

}  // namespace cuhost::sema
