// The CPU backend's cluster launch (cluster_state.h): clusters in batches,
// each block of a batch on its own thread with its own block state; a
// block publishes its shared memory in the cluster before any block of the
// cluster runs, so map_shared_rank() always finds its peers' memory.
#include <algorithm>
#include <memory>
#include <thread>
#include <vector>

#include "cpu/block_state.h"
#include "cpu/cluster_state.h"
#include "cpu/launcher.h"
#include "support/diagnostics.h"

namespace cuhost::cpu {

void launch_clusters(const CpuLaunch& l, LaunchState& state) {
  const Dim3 c = l.cluster;
  const unsigned size = c.x * c.y * c.z;
  const Dim3 clusters{l.grid.x / c.x, l.grid.y / c.y, l.grid.z / c.z};
  const std::uint64_t total = std::uint64_t(clusters.x) * clusters.y * clusters.z;
  const std::uint64_t batch = std::max<std::uint64_t>(1, worker_count() / size);
  for (std::uint64_t first = 0; first < total && !state.failed(); first += batch) {
    const std::uint64_t count = std::min(batch, total - first);
    std::vector<std::unique_ptr<ClusterState>> states;
    std::vector<std::unique_ptr<BlockState>> blocks;
    std::vector<std::thread> threads;
    for (std::uint64_t k = 0; k < count; ++k) states.push_back(std::make_unique<ClusterState>(size));
    for (std::uint64_t k = 0; k < count; ++k) {
      const std::uint64_t id = first + k;
      const unsigned cx = unsigned(id % clusters.x), cy = unsigned(id / clusters.x % clusters.y),
                     cz = unsigned(id / (std::uint64_t(clusters.x) * clusters.y));
      for (unsigned rank = 0; rank < size; ++rank) {
        blocks.push_back(std::make_unique<BlockState>());
        BlockState* bs = blocks.back().get();
        ClusterState* cluster = states[k].get();
        // Ranks run x fastest within the cluster, as %cluster_ctarank does.
        const unsigned bx = cx * c.x + rank % c.x, by = cy * c.y + rank / c.x % c.y, bz = cz * c.z + rank / (c.x * c.y);
        threads.emplace_back([&l, &state, bs, cluster, rank, bx, by, bz] {
          try {
            bs->prepare(state);
            bs->set_cluster(cluster, rank);
            cluster->shared_bases[rank] = bs->shared_base();
            cluster->shared_bytes[rank] = bs->shared_bytes();
            cluster->barrier.arrive_and_wait(state);  // every block's shared memory is known
            bs->run_block(bx, by, bz);
          } catch (const std::exception& e) {
            state.record(ErrorKind::RuntimeError,
                         concat("CPU launch of kernel '", l.kernel_name, "' failed: ", e.what()));
          }
          cluster->barrier.leave();
        });
      }
    }
    for (auto& t : threads) t.join();
  }
}

}  // namespace cuhost::cpu
