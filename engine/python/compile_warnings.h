// Issues the warnings a compile queued (support/compile_warnings.h) as
// Python warnings of numba's classes (NumbaWarning, NumbaPerformanceWarning,
// NumbaDebugInfoWarning from numba.cuda.core.errors). Called with the GIL
// held right after each compile returns.
#pragma once

namespace cuhost::python {

// False with a Python exception set when a warning was turned into an error.
bool issue_compile_warnings();

}  // namespace cuhost::python
