// The texts of errors a kernel reports at run time (a failed bounds check, a
// foreign function's error status), built once for both backends: the CPU
// runtime (cpu/runtime_abi.cpp) and the GPU error record
// (cuda/error_record.cpp) raise the same words.
#pragma once

#include <cstdint>
#include <string>

namespace cuhost {

// "thread (x,y,z), block (x,y,z)"
std::string thread_place(const std::int64_t tid[3], const std::int64_t bid[3]);

// "index I is out of bounds for axis D with size N (array 'a' in kernel 'k', <place>)"
std::string index_error_text(std::int64_t index, std::int64_t axis, std::int64_t extent, const std::string& array,
                             const std::string& kernel, const std::string& place);

// "error in kernel 'k': <message> (code C, <place>)"
std::string kernel_error_text(const std::string& kernel, const std::string& message, std::int64_t code,
                              const std::string& place);

}  // namespace cuhost
