// The C++ side of a @cuda.jit function: its options and its captured source.
// The Python dispatcher object owns one; the frontend fills `captured` the
// first time the function is compiled or referenced by another kernel, and
// typing reaches callees through it without touching Python.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "ir/foreign.h"

namespace cuhost::frontend {
struct CapturedFunction;
}

namespace cuhost::model {

struct JitOptions {
  bool device = false;
  bool inline_always = false;  // inline=True/'always': inlined into callers before optimization
  bool forceinline = false;    // forceinline=True: LLVM's alwaysinline attribute on the function
  bool fastmath = false;       // fastmath=True: every fast-math flag, flush-to-zero, approximate div/sqrt
  // fastmath={'contract', 'nnan', ...}: only these LLVM fast-math flags (bits
  // of llvm::FastMathFlags), no flush-to-zero or approximate functions.
  unsigned fastmath_flags = 0;
  bool debug = false;  // bounds checks, status codes reported on the host
  // _dbg_optnone=True (with debug): the function is never optimized nor
  // inlined (LLVM's optnone + noinline), so a debugger steps through it as
  // written. forceinline=True overrides it.
  bool dbg_optnone = false;
  bool lineinfo = false;
  int opt = 3;
  std::optional<bool> lto;  // None: on when nvJitLink is present and not debugging
  bool cache = true;
  bool cache_requested = false;  // cache=True given explicitly: what cannot be cached is an error
  int max_registers = 0;
  // launch_bounds=(max threads per block[, min blocks per SM[, max blocks per cluster]]): 0 = not given.
  int launch_bounds[3] = {0, 0, 0};
  // cluster_dim=(x, y, z): launch in thread-block clusters of this shape
  // (cuda.cg.this_cluster(), docs/HOPPER.md); {1, 1, 1} = no clusters.
  unsigned cluster_dim[3] = {1, 1, 1};
  // shared_memory_carveout: the preferred shared-memory share of L1 in percent
  // (-1: the driver's default), set on the loaded GPU function; kNoCarveout = not given.
  static constexpr int kNoCarveout = -1000;
  int shared_memory_carveout = kNoCarveout;
  ir::Abi abi = ir::Abi::Numba;
  std::string abi_name;            // abi_info={"abi_name": ...}
  std::vector<ir::LinkItem> link;  // @cuda.jit(link=[...]); on a device function it links into callers
  // The return type of an explicit signature (cuda.compile / compile_ptx, or a
  // device function's single eager signature): the result converts to it, as
  // in numba. Null when the return type is inferred.
  const ir::Type* return_type = nullptr;
  // A device function's explicit signatures (@cuda.jit(["int64(int64)",
  // "(float64,)"], device=True)): a call converts its arguments to the best
  // matching one (numba's overload resolution) instead of specializing on
  // them. A signature without a return type infers it.
  std::vector<ir::Signature> device_signatures;
};

struct JitFunction {
  std::string name;  // __name__ of the Python function
  JitOptions options;
  std::shared_ptr<const frontend::CapturedFunction> captured;  // set under the GIL by the frontend

  // The return type an explicit signature declares for these argument types
  // (the signature whose arguments they are, else the single one), or null.
  const ir::Type* declared_return(const std::vector<const ir::Type*>& args) const {
    for (const ir::Signature& s : options.device_signatures)
      if (s.args == args) return s.return_type;
    return options.return_type;
  }

  // Argument types this device function was typed for by calls from other
  // jitted functions, in order (its dispatcher lists them as signatures).
  void note_call(const std::vector<const ir::Type*>& args) {
    std::lock_guard<std::mutex> lock(calls_->mutex);
    for (const auto& a : calls_->list)
      if (a == args) return;
    calls_->list.push_back(args);
  }
  std::vector<std::vector<const ir::Type*>> calls() const {
    std::lock_guard<std::mutex> lock(calls_->mutex);
    return calls_->list;
  }

 private:
  struct Calls {
    std::mutex mutex;
    std::vector<std::vector<const ir::Type*>> list;
  };
  std::shared_ptr<Calls> calls_ = std::make_shared<Calls>();
};

}  // namespace cuhost::model
