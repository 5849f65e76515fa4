// Threads the engine starts are joined at exit, before the static
// destructors of the libraries they may be inside of. exit() runs its
// handlers in the reverse order of their registration, and a shared
// library's static destructors are registered when it is loaded (the CUDA
// driver's exit handlers by cuInit). A library loaded after a thread's join
// was registered (NVRTC, nvJitLink and in-process clang, loaded at their
// first use) would otherwise be torn down under a thread still inside it,
// and the process hang at exit. So the joins are kept in one list, and the
// handler that runs them is registered again after each such load.
#pragma once

#include <functional>

namespace cuhost::support {

// Adds `join` (run once, at exit, on the exiting thread; it checks for
// itself whether there is anything to join, e.g. in a forked child).
void join_at_exit(std::function<void()> join);

// To be called right after a library with static destructors or exit
// handlers was loaded (dlopen, cuInit): the pending joins then run before
// that library's teardown.
void joins_run_before_last_load();

}  // namespace cuhost::support
