// The functions of CUDA's libdevice that kernels call as
// cuda.libdevice.<name>, with their signatures: one table (generated into
// libdevice_table.inc from libdevice.10.bc) for the typer, the lowering and
// Python's numba.cuda.libdevicefuncs.
#pragma once

#include <string>
#include <vector>

#include "ir/types.h"

namespace cuhost::sema {

struct LibdeviceParam {
  std::string name;
  const ir::Type* type;  // for an out-parameter, the type it points to
  bool out;              // a pointer the function stores a result through
};

struct LibdeviceFunction {
  std::string name;        // without "__nv_"
  const ir::Type* result;  // ir::void_type() for void
  std::vector<LibdeviceParam> params;
  bool has_outputs() const;
  // What a call returns in Python: the result alone, or a tuple of the
  // result (when not void) followed by the out-parameters' values.
  const ir::Type* python_result() const;
};

// nullptr when libdevice has no function of that name.
const LibdeviceFunction* libdevice_function(const std::string& name);
const std::vector<LibdeviceFunction>& libdevice_functions();

}  // namespace cuhost::sema
