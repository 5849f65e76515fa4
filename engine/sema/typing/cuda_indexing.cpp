// Typing of the cuda thread-indexing and synchronization API: cuda.grid and
// cuda.gridsize (literal ndim), barriers (syncthreads*, syncwarp) and
// memory fences. threadIdx & co. are values resolved in resolve.cpp.
#include "sema/typer.h"

namespace cuhost::sema {

namespace {

bool num_or_bool(const ir::Type* t) { return t->kind == ir::TypeKind::Boolean || t->is_number(); }

}  // namespace

const ir::Type* type_cuda_indexing_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info) {
  (void)info;
  if (key == "cuda.grid" || key == "cuda.gridsize") {
    std::string fname = key.substr(5);
    auto args = t.bind(c, fname, {"ndim"}, 1, t.info(&c));
    auto n = t.literal_int(args[0]);
    // numba names the failure RequireLiteralValue when ndim is a run-time value.
    if (!n)
      t.typing_error(args[0], concat("cuda.", fname,
                                     "() needs a literal 1, 2 or 3 (RequireLiteralValue: ndim is not a compile-time "
                                     "constant)"));
    if (*n < 1 || *n > 3) t.typing_error(args[0], concat("cuda.", fname, "() needs a literal 1, 2 or 3"));
    ExprInfo& inf = t.info(&c);
    inf.param_types = {nullptr};
    inf.shape = {*n};
    if (*n == 1) return ir::int64();
    return ir::tuple(std::vector<const ir::Type*>(static_cast<size_t>(*n), ir::int64()));
  }
  if (key == "cuda.syncthreads") {
    t.bind(c, "syncthreads", {}, 0, t.info(&c));
    t.use_barriers();
    return ir::none_type();
  }
  if (key == "cuda.syncthreads_count" || key == "cuda.syncthreads_and" || key == "cuda.syncthreads_or") {
    std::string fname = key.substr(5);
    auto args = t.bind(c, fname, {"predicate"}, 1, t.info(&c));
    const ir::Type* p = t.type_of(args[0]);
    if (!num_or_bool(p) || p->kind == ir::TypeKind::Complex) {
      t.typing_error(args[0], concat(fname, "() predicate must be a number or bool, not ", display(p)));
    }
    t.info(&c).param_types = {ir::int32()};
    t.use_barriers();
    return ir::int32();
  }
  if (key == "cuda.syncwarp") {
    auto args = t.bind(c, "syncwarp", {"mask"}, 0, t.info(&c));
    if (args[0]) {
      const ir::Type* m = t.type_of(args[0]);
      if (!m->is_integer()) t.typing_error(args[0], concat("syncwarp() mask must be an integer, not ", display(m)));
    }
    t.info(&c).param_types = {ir::uint32()};
    t.use_warp_ops();
    return ir::none_type();
  }
  if (key == "cuda.threadfence" || key == "cuda.threadfence_block" || key == "cuda.threadfence_system") {
    t.bind(c, key.substr(5), {}, 0, t.info(&c));
    return ir::none_type();
  }
  return nullptr;
}

}  // namespace cuhost::sema
