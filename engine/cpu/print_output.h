// Text printed by kernels running on the CPU backend (print() in a kernel
// lowers to cuhost_cpu_vprintf, model/cpu_abi.h). Worker threads append whole
// lines to one process-wide queue under a lock, so the lines of two threads
// never interleave; the launching thread takes the text after the grid
// finished and writes it where the script's own output goes, which keeps
// kernel output in program order with the script's prints.
#pragma once

#include <string>

namespace cuhost::cpu {

// Formats like CUDA's vprintf: `args` holds the values in order, each at its
// natural alignment (8 bytes for %lld %llu %f %s and pointers, 4 otherwise).
std::string format_vprintf(const char* format, const void* args);

// Returns and clears everything printed by kernels so far.
std::string take_printed_output();

}  // namespace cuhost::cpu
