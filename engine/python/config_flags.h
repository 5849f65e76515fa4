// numba.cuda.config read from C++ at the moment a setting applies, so that
// override_config and the NUMBA_* variables (read by config.py) both work.
#pragma once

namespace cuhost::python {

// The truth value of numba.cuda.config.<name>; false when the module or the
// attribute cannot be read (the settings read this way are advisory or
// default to off).
bool config_flag(const char* name);

}  // namespace cuhost::python
