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

// Adds `join`, run at exit on the exiting thread, and by run_joins_now(); it
// must be safe to run again (it joins what is still joinable). A child
// forked after it was added has none of the threads it joins: the child's
// exit skips it.
void join_at_exit(std::function<void()> join);

// Runs the joins now, before the caller's process may exit: a thread that
// is still loading a library when exit() begins (its destructors then
// registered during the exit itself, after every join handler) would be torn
// down under it, which no handler order can prevent. The runtime does this
// before a script's result goes back to its caller (embed/runtime.cpp).
void run_joins_now();

// To be called right after a library with static destructors or exit
// handlers was loaded (dlopen, cuInit): the pending joins then run before
// that library's teardown.
void joins_run_before_last_load();

}  // namespace cuhost::support
