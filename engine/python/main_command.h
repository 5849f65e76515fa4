// What a python3-style command line asked the interpreter to run, as
// CPython's own argument parser read it: initialize_interpreter fills it in
// (interpreter.cpp) and run_python_main runs it (python_main.cpp).
#pragma once

#include <Python.h>

#include <string>

namespace cuhost::python {

struct MainCommand {
  enum class Kind { None, Code, Module, File, Stdin };
  Kind kind = Kind::None;
  std::string text;        // the code of -c, the module of -m, or the script path
  bool inspect = false;    // -i: an interactive prompt after the command
  bool safe_path = false;  // -P or -I: nothing is prepended to sys.path
};

MainCommand& main_command();

// Shared with interpreter.cpp's run_* entry points: the exit code of a run
// that returned `result` (nullptr: the pending exception, SystemExit's code
// or 1 after printing the traceback), and the __main__ namespace made fresh
// for `file` (no __file__ when empty).
int finish(PyObject* result);
void flush_std_streams();  // sys.stdout and sys.stderr
PyObject* fresh_main_dict(const std::string& file);
// Enters source text that has no file (-c, standard input, run_string) into
// linecache, where inspect.getsource finds it for the kernels it defines.
void remember_source(const std::string& source, const std::string& filename);

}  // namespace cuhost::python
