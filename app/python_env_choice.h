// Which Python environment the cuhost executable hands the runtime
// (RuntimeOptions::python_env), and what sys.executable then is. Kept apart
// from the option parser: it reads the environment variables and the path
// cuhost was started through, not the command line.
#pragma once

#include <string>

namespace cuhost::app {

struct PythonEnvChoice {
  std::string dir;         // the environment's folder, or empty for none
  std::string executable;  // sys.executable: the link in the venv's bin/ it was started through, or empty
};

// In order: --python-env (`given`), the venv whose bin/ holds the link cuhost
// was started through (argv[0], looked up on PATH when it names no folder),
// CUHOST_PYTHON_ENV (a parent cuhost's choice), VIRTUAL_ENV (an activated
// venv; not read when `ignore_virtual_env`, for python3's -E and -I). The
// choice is put in CUHOST_PYTHON_ENV for the processes a script starts.
PythonEnvChoice choose_python_env(const std::string& given, const char* argv0, bool ignore_virtual_env = false);

}  // namespace cuhost::app
