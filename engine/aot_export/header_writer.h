// The C++ header of an export (kernels.h): one class whose constructor
// finds every exported kernel in a loaded cuhost::aot::Module (checking
// the signature each was exported with) and whose typed member functions
// launch them, so a call with the wrong argument types fails to compile.
#pragma once

#include <string>
#include <vector>

#include "aot_export/parameter_abi.h"

namespace cuhost::aot_export {

struct HeaderKernel {
  std::string name;
  std::string signature;
  std::vector<ParameterAbi> params;
};

// `name_space` must be a C++ identifier (exporter.cpp makes one).
std::string generate_header(const std::string& name_space, const std::string& script,
                            const std::vector<HeaderKernel>& kernels);

}  // namespace cuhost::aot_export
