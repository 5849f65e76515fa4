// Typing of thread-block clusters (cuda.cg.this_cluster(), sm_90): the
// cluster group is a value with no bits (the intrinsic type
// "cuda.cg.ClusterGroup"); block_rank() and num_blocks() are int32,
// sync() is a barrier across the cluster's blocks, map_shared_rank(array,
// rank) gives the same shared array of another block of the cluster
// (distributed shared memory). Each is a warp operation and a barrier user,
// so the CPU backend runs such kernels on fibers.
#include "sema/typer.h"

namespace cuhost::sema {

bool resolve_cluster_key(const std::string& key, ExprInfo& info) {
  if (key != "cuda.cg.this_cluster" && key != "cuda.cg.ClusterGroup.sync" && key != "cuda.cg.ClusterGroup.block_rank" &&
      key != "cuda.cg.ClusterGroup.num_blocks" && key != "cuda.cg.ClusterGroup.map_shared_rank")
    return false;
  info.type = ir::intrinsic(key);
  return true;
}

const ir::Type* type_cluster_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info) {
  if (key == "cuda.cg.this_cluster") {
    t.bind(c, "this_cluster", {}, 0, info);
    return ir::intrinsic("cuda.cg.ClusterGroup");
  }
  if (key == "cuda.cg.ClusterGroup.sync") {
    t.bind(c, "sync", {}, 0, info);
    t.use_barriers();
    t.use_warp_ops();
    return ir::none_type();
  }
  if (key == "cuda.cg.ClusterGroup.block_rank" || key == "cuda.cg.ClusterGroup.num_blocks") {
    t.bind(c, key.substr(key.rfind('.') + 1), {}, 0, info);
    t.use_warp_ops();
    return ir::int32();
  }
  if (key == "cuda.cg.ClusterGroup.map_shared_rank") {
    auto args = t.bind(c, "map_shared_rank", {"array", "rank"}, 2, info);
    const ir::Type* at = t.type_of(args[0]);
    if (!at->is_array())
      t.typing_error(args[0], concat("map_shared_rank() needs a shared array (cuda.shared.array), got ", display(at)));
    const ir::Type* rt = t.type_of(args[1]);
    if (!rt->is_integer())
      t.typing_error(args[1], concat("map_shared_rank()'s rank must be an integer, got ", display(rt)));
    t.use_warp_ops();
    info.param_types = {at, ir::int32()};
    return at;
  }
  return nullptr;
}

}  // namespace cuhost::sema
