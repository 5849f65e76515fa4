// cuda.cg.this_cluster() on the CPU backend (cluster_runtime.h).
#include "cpu/cluster_runtime.h"

#include "cpu/block_state.h"
#include "support/diagnostics.h"

using cuhost::cpu::BlockState;
using cuhost::cpu::current_block;

extern "C" {

std::int32_t cuhost_cpu_cluster_rank(CuhostThreadCtx*) { return std::int32_t(current_block->cluster_rank()); }

std::int32_t cuhost_cpu_cluster_size(CuhostThreadCtx*) {
  const auto* c = current_block->cluster();
  return c ? std::int32_t(c->shared_bases.size()) : 1;
}

void cuhost_cpu_cluster_sync(CuhostThreadCtx* ctx) {
  BlockState& b = *current_block;
  if (b.cluster()) {
    b.grid_sync(b.thread_index(ctx));
    return;
  }
  std::int32_t arrived;  // a cluster of one block: a block barrier
  b.barrier(b.thread_index(ctx), 0, 0, &arrived);
}

void* cuhost_cpu_cluster_map(CuhostThreadCtx*, void* address, std::int32_t rank) {
  BlockState& b = *current_block;
  const auto* c = b.cluster();
  const std::int32_t size = c ? std::int32_t(c->shared_bases.size()) : 1;
  char* p = static_cast<char*>(address);
  char* base = b.shared_base();
  const std::size_t bytes = b.shared_bytes();
  if (rank < 0 || rank >= size) {
    b.launch().record(cuhost::ErrorKind::KernelError,
                      cuhost::concat("kernel '", b.launch().launch().kernel_name, "': map_shared_rank to block rank ",
                                     rank, " of a cluster of ", size, " blocks"));
    return address;
  }
  if (p < base || p > base + bytes) {
    b.launch().record(cuhost::ErrorKind::KernelError,
                      cuhost::concat("kernel '", b.launch().launch().kernel_name,
                                     "': map_shared_rank needs an array in shared memory (cuda.shared.array)"));
    return address;
  }
  if (!c) return address;
  return c->shared_bases[std::size_t(rank)] + (p - base);
}
}
