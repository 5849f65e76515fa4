// cuhost as `python3`: runs what a python3-style command line named (the
// code of -c, a module (run_module.cpp), a script, standard input or an
// interactive prompt), with sys.path[0] set the way CPython sets it, then
// ends the interpreter as python3 ends it (interpreter_end.cpp). This is what
// lets cuhost be sys.executable: `subprocess.run([sys.executable, "-c", ...])`,
// multiprocessing's spawn and forkserver children and `cuhost -m pytest`.
#include <Python.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

#include "python/interpreter.h"
#include "python/interpreter_end.h"
#include "python/main_command.h"
#include "python/py_api.h"
#include "python/run_module.h"
#include "support/diagnostics.h"

namespace cuhost::python {

namespace {

// A folder or a zip archive holding __main__.py, which python3 runs too.
bool is_container(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return false;
  if (S_ISDIR(st.st_mode)) return true;
  std::ifstream in(path, std::ios::binary);
  char magic[4] = {};
  return in.read(magic, 4) && std::memcmp(magic, "PK\x03\x04", 4) == 0;
}

// sys.path[0] as CPython computes it: the script's real folder, the current
// folder for -m, '' for -c and standard input; nothing under -P / -I. A
// runnable folder or archive is sys.path[0] itself, -P or not.
void prepend_path0(const MainCommand& command) {
  bool container = command.kind == MainCommand::Kind::File && is_container(command.text);
  if (command.safe_path && !container) return;
  std::string path0;
  if (container) {
    path0 = command.text;
  } else if (command.kind == MainCommand::Kind::File) {
    char real[PATH_MAX];
    std::string script = realpath(command.text.c_str(), real) ? real : command.text;
    auto slash = script.find_last_of('/');
    path0 = slash == std::string::npos ? "" : (slash == 0 ? "/" : script.substr(0, slash));
  } else if (command.kind == MainCommand::Kind::Module) {
    char cwd[PATH_MAX];
    if (getcwd(cwd, sizeof(cwd))) path0 = cwd;
  }
  PyObject* sys_path = PySys_GetObject("path");  // borrowed
  PyRef item(PyUnicode_DecodeFSDefault(path0.c_str()));
  PyList_Insert(sys_path, 0, item.get());
}

// Compiles `source` as `filename` and runs it in a fresh __main__.
int exec_main(const std::string& source, const std::string& filename, bool set_file) {
  if (!set_file) remember_source(source, filename);
  PyObject* globals = fresh_main_dict(set_file ? filename : std::string());
  PyCompilerFlags flags = _PyCompilerFlags_INIT;
  PyRef code(Py_CompileStringExFlags(source.c_str(), filename.c_str(), Py_file_input, &flags, -1));
  if (!code) return finish(nullptr);
  return finish(PyEval_EvalCode(code.get(), globals, globals));
}

int run_script(const std::string& path) {
  if (is_container(path)) return run_container_main();  // sys.path[0] is the container
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    int err = errno;
    std::fflush(stdout);
    std::cerr << "cuhost: can't open file '" << path << "': [Errno " << err << "] " << std::strerror(err) << "\n";
    return 2;
  }
  std::stringstream text;
  text << in.rdbuf();
  return exec_main(text.str(), path, true);
}

int run_stdin(bool interactive) {
  PyCompilerFlags flags = _PyCompilerFlags_INIT;
  if (interactive) {
    fresh_main_dict("");
    PyRef readline(PyImport_ImportModule("readline"));  // line editing, as python3
    PyErr_Clear();
    return PyRun_InteractiveLoopFlags(stdin, "<stdin>", &flags) == 0 ? 0 : 1;
  }
  std::stringstream text;
  text << std::cin.rdbuf();
  return exec_main(text.str(), "<stdin>", false);
}

}  // namespace

int run_python_main() {
  const MainCommand& command = main_command();
  if (command.kind == MainCommand::Kind::None)
    throw std::logic_error("run_python_main: the runtime was initialized without a python command line");
  prepend_path0(command);
  prepare_interpreter_end();
  bool terminal = isatty(fileno(stdin));
  int code = 0;
  switch (command.kind) {
    case MainCommand::Kind::Code: code = exec_main(command.text, "<string>", false); break;
    case MainCommand::Kind::Module: code = run_module_as_main(command.text); break;
    case MainCommand::Kind::File: code = run_script(command.text); break;
    case MainCommand::Kind::Stdin: code = run_stdin(terminal); break;
    case MainCommand::Kind::None: break;
  }
  if (command.inspect && command.kind != MainCommand::Kind::Stdin && terminal) code = run_stdin(true);
  return end_interpreter(code);
}

}  // namespace cuhost::python
