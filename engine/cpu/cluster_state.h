// Thread-block clusters on the CPU backend (cluster_dim, cuda.cg.this_cluster()):
// the blocks of a cluster run together, each on its own OS thread (like a
// cooperative launch's blocks, launcher.cpp), so one block can read and write
// another's shared memory (map_shared_rank) and cluster.sync() is a barrier
// across them (the grid barrier of grid_barrier.h, scoped to the cluster).
#pragma once

#include <vector>

#include "cpu/grid_barrier.h"

namespace cuhost::cpu {

struct ClusterState {
  explicit ClusterState(unsigned blocks) : barrier(blocks), shared_bases(blocks, nullptr), shared_bytes(blocks, 0) {}
  GridBarrier barrier;
  // Each block's shared memory, by rank (set before any block of the cluster runs).
  std::vector<char*> shared_bases;
  std::vector<std::size_t> shared_bytes;
};

// Runs the grid cluster by cluster (as many clusters at once as there are
// workers for their blocks), every block of a cluster on its own thread.
void launch_clusters(const CpuLaunch& launch, LaunchState& state);

}  // namespace cuhost::cpu
