// The CPU backend's cuda.cg.this_cluster() operations, called by JIT-ed
// kernels (lowering/clusters.cpp): the block's rank and the cluster's size,
// cluster.sync(), and map_shared_rank's address translation from this
// block's shared memory into the same offset of a peer's (cluster_state.h).
#pragma once

#include <cstdint>

#include "model/cpu_abi.h"

extern "C" {
std::int32_t cuhost_cpu_cluster_rank(CuhostThreadCtx* ctx);
std::int32_t cuhost_cpu_cluster_size(CuhostThreadCtx* ctx);
void cuhost_cpu_cluster_sync(CuhostThreadCtx* ctx);
// The address in block `rank`'s shared memory that `address` (in this
// block's) corresponds to; records a KernelError for an address outside
// this block's shared memory or a rank outside the cluster.
void* cuhost_cpu_cluster_map(CuhostThreadCtx* ctx, void* address, std::int32_t rank);
}
