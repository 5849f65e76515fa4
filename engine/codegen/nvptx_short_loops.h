// Counted loops of a kernel whose whole run is short under a GPU deadline
// (nvptx_cancellation.h). Any read of the host's flag that can end a loop
// makes ptxas treat the loop as divergent: its counter leaves the uniform
// datapath, and around a call that stays in the loop (libdevice's slow
// paths) constants are reloaded every iteration, 2% of a loop of
// transcendentals even though the read itself comes once per 1024
// iterations (docs/RELIABILITY.md). A loop that cannot run long needs no
// read at all: a kernel's outermost counted loop with no loop inside is
// versioned on its trip count. When the loop ends within
// unchecked_iterations() iterations, which bounds its run by a static count
// of the work in its body, the preheader branches to a copy of the loop as
// compiled without a deadline, after one read of the flag; otherwise the
// loop runs with its chunks. A stuck thread therefore reads the flag after
// at most that bounded run, and a grid of many such threads stops block by
// block (loops inside it, calls to code of unknown length and foreign calls
// are never versioned).
#pragma once

#include <cstdint>

namespace llvm {
class DominatorTree;
class Function;
class GlobalVariable;
class Loop;
class LoopInfo;
class ScalarEvolution;
}  // namespace llvm

namespace cuhost::codegen {

struct ChunkPlan;

// Work a thread may run between two reads of the flag, in instructions of
// the loop body: each instruction 1, a memory access that is not a constant
// table's kMemoryAccessCost, a call into libdevice kCallCost plus four
// times its callee's instructions (their loops run a few dozen times at
// most). 2^22 units take ~34 ms at one instruction every 16 cycles per warp
// (a fully occupied H200 SM) at 1.98 GHz.
inline constexpr uint64_t kUncheckedWork = uint64_t(1) << 22;
inline constexpr uint64_t kMemoryAccessCost = 16;
inline constexpr uint64_t kCallCost = 64;

// libdevice's own functions (`__nv_*` and the `__internal_*` helpers they
// call): loops bounded by the floating-point format; they get no points.
bool is_libdevice_function(const llvm::Function& fn);

// How many iterations `loop` may run without a point: 0 when it is not a
// kernel's outermost innermost loop, when its body calls anything but
// libdevice and intrinsics, or when the bound is below one chunk (its chunks
// already read the flag no less often).
uint64_t unchecked_iterations(llvm::Loop* loop);

// Versions the loop of `plan` (see above) for runs of at most `iterations`
// iterations; the copy is entered through one read of the flag (so that new
// blocks of a stopped grid leave before their loop); plan.preheader becomes
// the chunked original's new preheader.
// Returns false, changing nothing, when the loop's shape does not allow it
// (no dedicated preheader or single dedicated exit).
bool version_short_loop(ChunkPlan& plan, llvm::Loop* loop, uint64_t iterations, llvm::GlobalVariable* flag_address,
                        llvm::LoopInfo& loops, llvm::DominatorTree& dt, llvm::ScalarEvolution& se);

}  // namespace cuhost::codegen
