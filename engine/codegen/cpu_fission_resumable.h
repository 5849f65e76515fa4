// The resumable form of a kernel body that loop fission's block entry runs
// region by region (cpu_fission.cpp builds it, cpu_fission_entry.cpp emits
// the entry): R(slots..., ctx, tid.x, tid.y, tid.z, frames, lin, resume,
// result, preds) runs one thread from barrier `resume` to the next barrier
// it reaches and returns that barrier's id (0: the thread exited,
// kReportedErrorExit: it reported an error).
#pragma once

#include <llvm/Support/Alignment.h>

#include <vector>

namespace llvm {
class BasicBlock;
class CallInst;
class Function;
class Type;
}  // namespace llvm

namespace cuhost::codegen {

enum class BarrierKind { Plain = -1, Count = 0, And = 1, Or = 2 };

struct Barrier {
  llvm::CallInst* call = nullptr;  // while R is built
  BarrierKind kind = BarrierKind::Plain;
  int line = 0;
  llvm::BasicBlock* resume = nullptr;
};

// What R returns for a thread that reported an error (a failed bounds
// check, a raise): the launch has failed, so the block entry ends the block
// there instead of tracking the thread as exited. Above every barrier id.
constexpr int kReportedErrorExit = 63;

// A value kept across barriers, in the block entry's frames.
struct Storage {
  llvm::Type* type = nullptr;
  llvm::Align align;
  bool per_thread = true;
  int copy_from = -1;  // a uniform local's "in" slot: refilled from this "out" slot after each region
};

struct ResumableRegions {
  llvm::Function* resumable = nullptr;  // R
  std::vector<Barrier> barriers;        // id k + 1 is barriers[k]
  std::vector<Storage> storage;         // frames[i] points at storage i
  // Per region (0: the kernel's start, k: from barrier k): every live thread
  // leaves it at the same barrier or return.
  std::vector<bool> uniform_exit;
  bool reports_errors = false;  // R may return kReportedErrorExit
};

// Builds R next to `body` in its module. False, leaving the module as it
// was, when the IR falls outside what loop fission handles.
bool build_resumable(llvm::Function* body, ResumableRegions* out);

}  // namespace cuhost::codegen
