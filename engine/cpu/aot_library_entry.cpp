// The entry points of an exported CPU library (aot/cpu_library_abi.h): the
// aot runtime, which shares no code with the engine, runs a grid of the
// library's kernels through them with the same launcher, fibers and error
// reports as the CPU backend. Built into the block runtime archive that
// `cuhost export` links into every exported library (and, unused, into the
// engine itself, where the CPU stage lives).
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "aot/cpu_library_abi.h"
#include "cpu/launcher.h"
#include "cpu/print_output.h"
#include "support/diagnostics.h"

namespace {

void write_error(const std::string& text, char* error, std::size_t size) {
  if (!error || size == 0) return;
  std::size_t n = text.size() < size - 1 ? text.size() : size - 1;
  std::memcpy(error, text.data(), n);
  error[n] = '\0';
}

void flush_printed() {
  std::string text = cuhost::cpu::take_printed_output();
  if (!text.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
  }
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) int cuhost_aot_cpu_abi_version() { return kCuhostAotCpuAbiVersion; }

__attribute__((visibility("default"))) int cuhost_aot_cpu_launch(const CuhostAotCpuLaunch* launch, char* error,
                                                                 std::size_t error_size) {
  try {
    cuhost::cpu::CpuLaunch l;
    l.kernel_name = launch->kernel_name ? launch->kernel_name : "?";
    l.thread_fn = launch->thread_fn;
    l.block_fn = launch->block_fn;
    l.needs_fibers = launch->block_fn == nullptr;
    l.cooperative = launch->cooperative != 0;
    l.static_shared_bytes = launch->static_shared_bytes;
    l.dynamic_shared_bytes = launch->dynamic_shared_bytes;
    l.grid = {launch->grid[0], launch->grid[1], launch->grid[2]};
    l.block = {launch->block[0], launch->block[1], launch->block[2]};
    l.params = launch->params;
    cuhost::cpu::launch(l);
    flush_printed();
    return 0;
  } catch (const cuhost::UserError& e) {
    flush_printed();
    write_error(std::string(cuhost::error_kind_name(e.kind())) + ": " + e.message(), error, error_size);
  } catch (const std::exception& e) {
    flush_printed();
    write_error(std::string("RuntimeError: ") + e.what(), error, error_size);
  } catch (...) {
    write_error("RuntimeError: unknown failure in the CPU launcher", error, error_size);
  }
  return 1;
}

__attribute__((visibility("default"))) unsigned cuhost_aot_cpu_max_cooperative_blocks(unsigned threads_per_block) {
  return cuhost::cpu::max_cooperative_blocks(threads_per_block);
}

}  // extern "C"
