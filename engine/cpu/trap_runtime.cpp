// __trap() and failed assert() in foreign code on the CPU backend (see
// cpu_abi.h): reported as the launch's KernelError, never an abort of the
// process.
#include <cstdio>
#include <cstdlib>

#include "cpu/block_state.h"
#include "cpu/leave_kernel.h"
#include "model/cpu_abi.h"
#include "support/diagnostics.h"

namespace {

[[noreturn]] void fail_launch(const std::string& what) {
  cuhost::cpu::BlockState* block = cuhost::cpu::current_block;
  if (!block) {  // foreign code called outside a kernel launch
    std::fprintf(stderr, "cuhost: %s outside a kernel launch\n", what.c_str());
    std::abort();
  }
  cuhost::cpu::LaunchState& launch = block->launch();
  try {
    launch.record(cuhost::ErrorKind::KernelError,
                  cuhost::concat("kernel '", launch.launch().kernel_name, "' ", what,
                                 " (on a GPU this is a fault that ends the CUDA context)"));
  } catch (...) {
    launch.record(cuhost::ErrorKind::KernelError, "kernel trapped");
  }
  cuhost::cpu::leave_kernel();
}

}  // namespace

extern "C" {

void cuhost_cpu_trap() { fail_launch("trapped: foreign code called __trap()"); }

void cuhost_cpu_assert_fail(const char* assertion, const char* file, unsigned int line, const char* function) noexcept {
  fail_launch(cuhost::concat("failed an assertion in foreign code: ", file ? file : "?", ":", line, ": ",
                             function ? function : "?", ": Assertion `", assertion ? assertion : "?", "' failed"));
}

}  // extern "C"
