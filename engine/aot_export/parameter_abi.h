// How an exported kernel's parameters look from C++: the C++ type the
// generated header declares for each (float, int32_t, bool, T*,
// cuhost::aot::Array<T, N>) and its kernel-ABI slots, written into the
// manifest so the aot runtime and the header agree on what a launch passes.
#pragma once

#include <string>
#include <vector>

#include "ir/types.h"

namespace cuhost::aot_export {

struct ParameterAbi {
  std::string name;        // the Python parameter name
  std::string type;        // numba's spelling, e.g. "array(float32, 1d, C)"
  std::string kind;        // "int", "uint", "float", "bool", "array", "pointer"
  std::string cpp_type;    // its C++ form in the generated header
  std::string element;     // arrays and pointers: the element's C++ type
  int ndim = 0;            // arrays
  std::string layout;      // arrays: "C", "F" or "A"
  std::vector<int> slots;  // byte size of each kernelParams slot
};

// Throws UserError(TypeError) naming the kernel and the parameter for a type
// the header cannot spell (records, complex or half scalars, nested arrays).
ParameterAbi parameter_abi(const std::string& kernel, const std::string& name, const ir::Type* type);

}  // namespace cuhost::aot_export
