// The user's Python environment (a venv, or a full prefix such as a conda
// environment) that the embedded interpreter uses as that environment's own
// python3 would: its sys.prefix, its site-packages, pip installing into it.
// It is kept apart from interpreter.cpp because choosing and checking an
// environment is file-system work with its own error messages, done before
// CPython starts.
#pragma once

#include <string>

namespace cuhost::python {

struct PythonEnv {
  enum class Kind {
    None,    // no environment: the embedded Python's own site-packages
    Venv,    // a folder with pyvenv.cfg (python3 -m venv, virtualenv, uv)
    Prefix,  // a complete installation (conda environment): its own lib/python3.X
  };
  Kind kind = Kind::None;
  std::string dir;          // absolute path of the environment's folder
  std::string python;       // <dir>/bin/python3: where CPython's site.py looks for pyvenv.cfg
  std::string stdlib_home;  // PyConfig.home: the standard library the interpreter takes
};

// Checks the folder `dir` (RuntimeOptions::python_env) and says how to use
// it. Throws a UserError (RuntimeError) naming the folder when it is missing
// or is no Python environment, and naming both versions when it was made for
// another Python major.minor than the one cuhost embeds.
PythonEnv inspect_python_env(const std::string& dir);

// The embedded Python's version, "3.11", and its installation prefix (where
// its standard library lies), as CMake found them at build time;
// CUHOST_PYTHONHOME (a relocatable bundle's own standard library) replaces
// the prefix.
std::string embedded_python_version();
std::string embedded_python_prefix();

}  // namespace cuhost::python
