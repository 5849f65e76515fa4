// The embedded CPython interpreter: initialized once per process (never
// finalized and re-initialized, which breaks NumPy), with cuhost's built-in
// `_cuhost` module and its Python packages on sys.path ahead of anything
// installed, so `from numba import cuda` always means cuhost.
#pragma once

#include <string>
#include <vector>

namespace cuhost::python {

struct InterpreterConfig {
  std::string pylib_dir;                  // holds the `cuda`, `numba` and `cuhost` packages
  std::vector<std::string> command_line;  // python3-style argv, or empty (see RuntimeOptions)
  std::string executable;                 // sys.executable, or empty for CPython's choice
  std::string python_env = {};            // a venv or prefix folder (python_env.h), or empty
};

// Initializes the interpreter (idempotent).
void initialize_interpreter(const InterpreterConfig& config);

// Runs what the command line given to initialize_interpreter names
// (python_main.cpp); see Runtime::run_python_main.
int run_python_main();

// Runs a file / source / module as __main__; returns the exit code (0, the
// SystemExit code, or 1 after printing an uncaught exception's traceback).
int run_file(const std::string& path, const std::vector<std::string>& args);
int run_string(const std::string& source, const std::string& filename);
int run_module_main(const std::string& module, const std::vector<std::string>& args);

// "3.11.2 (main, ...)"
std::string python_version();

}  // namespace cuhost::python
