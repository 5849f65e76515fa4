// `python3 -m NAME` and a runnable folder or zip archive, run by cuhost as
// python3 runs them (python_main.cpp), built from CPython's public pieces
// (run_module.cpp).
#pragma once

#include <string>

namespace cuhost::python {

// -m NAME: runs module `name` (a package: its __main__) in the real
// __main__ module with sys.argv[0] set to its file; returns the exit code.
int run_module_as_main(const std::string& name);

// A runnable folder or zip archive, which is sys.path[0]: runs its
// __main__ module in the real __main__ (sys.argv[0] stays the path).
int run_container_main();

}  // namespace cuhost::python
